"""What a rollout measures: the deciding seat's outcomes of the round it played out."""

from __future__ import annotations

from enum import IntEnum

import numpy as np
from numba import njit

from fcsim.core.records import RoundInfo, Score
from fcsim.core.state import GameState

# A rollout's outcomes, per action and world, by name (a record: see fcsim.core.records).
Outcome = IntEnum("Outcome", [
    "PENALTY",  # the seat's penalty this round
    "OUT_FIRST",  # 1 if the seat went out first
    "TABLE",  # its penalty less the mean of the others' (points against the table)
    "STANDING",  # its total after the round less the best other total after it
], start=0)
O_SIZE = len(Outcome)

ROLLOUT_ERROR = -1.0  # the outcomes of a rollout whose policy made an illegal move


@njit(cache=True)
def score_outcomes(state: GameState, seat: int, row: np.ndarray) -> None:
    """The seat's outcomes of the round just scored in ``state`` into ``row``
    (``float64[O_SIZE]``)."""
    players = state.totals.shape[0]
    r = state.round_info.shape[0] - 1  # a world is laid out up to the round it plays
    own = state.scores[r, seat, Score.PENALTY]
    others = 0.0
    best_other = 1 << 30
    for s in range(players):
        if s != seat:
            others += state.scores[r, s, Score.PENALTY]
            best_other = min(best_other, state.totals[s])
    row[Outcome.PENALTY] = own
    row[Outcome.OUT_FIRST] = 1.0 if state.round_info[r, RoundInfo.OUT_SEAT] == seat else 0.0
    row[Outcome.TABLE] = own - others / (players - 1)
    row[Outcome.STANDING] = state.totals[seat] - best_other


__all__ = ["O_SIZE", "ROLLOUT_ERROR", "Outcome", "score_outcomes"]
