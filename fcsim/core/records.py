"""What a game records per round, declared once: the state keeps it, the engine's
``GameResults`` and a run's round columns are named and typed from it.

A record is an ``IntEnum`` of the positions of a flat array's fields, numbered in order
(numba reads its members as compile-time constants, as in :mod:`fcsim.core.solver.layout`);
its size is ``len(record)``. Each field of these two also carries the type it is stored
with in results and run files (``member.dtype``) and its name there (``member.column``).
This module imports no numba, so reading a run never loads the engine.
"""

from __future__ import annotations

from enum import IntEnum

import numpy as np


def stored_record(name: str, fields: list[tuple[str, type]]) -> type[IntEnum]:
    """A record of ``fields`` (name, numpy type), each member carrying its ``dtype`` and
    its ``column`` (the lower-case name results and run files give it)."""
    record = IntEnum(name, [field for field, _ in fields], start=0)
    for member, (_, kind) in zip(record, fields, strict=True):
        member.dtype = np.dtype(kind)
        member.column = member.name.lower()
    return record


# Per round and seat (GameState.scores): the seat's penalty (the go-out bonus for the seat
# that went out), and the points of its unmelded wild-rank cards and jokers.
Score = stored_record("Score", [("PENALTY", np.int16), ("WILD_PTS", np.int16),
                                ("JOKER_PTS", np.int16)])

# Per round (GameState.round_info): the seat that went out (-1 if the turn cap stopped the
# round first), the turn it went out on, the turns played, 1 if the turn cap stopped it.
RoundInfo = stored_record("RoundInfo", [("OUT_SEAT", np.int8), ("OUT_TURN", np.int16),
                                        ("TURNS", np.int16), ("CAPPED", np.bool_)])
