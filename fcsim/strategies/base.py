"""What a strategy module needs: the decision contract (from :mod:`fcsim.core.view`,
re-exported here) and named parameter slots.

A numba strategy is two ``@decision`` functions, ``draw`` and ``discard``, reading the
view described in :mod:`fcsim.core.view` (``info`` through the ``I_*`` positions) and its
parameters through the slots of :func:`param_slots` — never a bare ``params[0]`` — so a
family that borrows another's decision function is checked to keep the same slots.
"""

from __future__ import annotations

from enum import IntEnum

from fcsim.core.view import (
    DECISION_SIGNATURE,
    DRAW_PILE,
    DRAW_STOCK,
    I_ALL_WILD,
    I_BEST_DISCARD,
    I_BEST_PENALTY,
    I_DEALER,
    I_DISCARDED,
    I_GO_OUT_BONUS,
    I_HAND_SIZES,
    I_LAST_TURN,
    I_OUT_SEAT,
    I_PASSED,
    I_PLAYERS,
    I_ROUND,
    I_SEAT,
    I_STOCK_SIZE,
    I_TAKEN,
    I_TOTALS,
    I_TURN,
    I_TURN_CAP,
    I_WILD_POINTS,
    I_WILD_RANK,
    INFO_SIZE,
    decision,
)
from fcsim.strategies.registry import Family, Param

# Two scores of candidate moves closer than this are a tie (float rounding, not a better
# move): the candidate met first is kept.
TIE = 1e-9


def param_slots(name: str, params: tuple[Param, ...]) -> type[IntEnum]:
    """An ``IntEnum`` naming each parameter's position: ``params[Slots.take_margin]``
    (numba reads enum members as constants)."""
    numeric = [p for p in params if p.numeric]  # the parameter vector's order
    return IntEnum(name, [(p.name, i) for i, p in enumerate(numeric)])


def check_slots(family: Family, slots: type[IntEnum]) -> Family:
    """Raise unless ``family`` holds every parameter of ``slots`` at the same position
    (for a family that reuses decision functions written for ``slots``)."""
    for member in slots:
        if family.param(member.name) != member.value:
            raise ValueError(f"strategy {family.name!r} keeps {member.name} at position "
                             f"{family.param(member.name)}, not {member.value} as the "
                             f"decision functions it reuses expect")
    return family


__all__ = [
    "DECISION_SIGNATURE",
    "DRAW_PILE",
    "DRAW_STOCK",
    "INFO_SIZE",
    "I_ALL_WILD",
    "I_BEST_DISCARD",
    "I_BEST_PENALTY",
    "I_DEALER",
    "I_DISCARDED",
    "I_GO_OUT_BONUS",
    "I_HAND_SIZES",
    "I_LAST_TURN",
    "I_OUT_SEAT",
    "I_PASSED",
    "I_PLAYERS",
    "I_ROUND",
    "I_SEAT",
    "I_STOCK_SIZE",
    "I_TAKEN",
    "I_TOTALS",
    "I_TURN",
    "I_TURN_CAP",
    "I_WILD_POINTS",
    "I_WILD_RANK",
    "TIE",
    "check_slots",
    "decision",
    "param_slots",
]
