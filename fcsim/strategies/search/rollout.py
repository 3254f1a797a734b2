"""What a rollout measures: the deciding seat's outcomes of the round it played out."""

from __future__ import annotations

import numpy as np
from numba import njit

from fcsim.core.state import RI_OUT_SEAT, SC_PENALTY, GameState

# Outcome columns, per action and world.
O_PENALTY = 0  # the seat's penalty this round
O_OUT_FIRST = 1  # 1 if the seat went out first
O_TABLE = 2  # its penalty less the mean of the others' (points against the table)
O_STANDING = 3  # its total after the round less the best other total after it
O_SIZE = 4

ROLLOUT_ERROR = -1.0  # the outcomes of a rollout whose policy made an illegal move


@njit(cache=True)
def score_outcomes(state: GameState, seat: int, row: np.ndarray) -> None:
    """The seat's outcomes of the round just scored in ``state`` into ``row``
    (``float64[O_SIZE]``)."""
    players = state.totals.shape[0]
    r = state.round_info.shape[0] - 1  # a world is laid out up to the round it plays
    own = state.scores[r, seat, SC_PENALTY]
    others = 0.0
    best_other = 1 << 30
    for s in range(players):
        if s != seat:
            others += state.scores[r, s, SC_PENALTY]
            best_other = min(best_other, state.totals[s])
    row[O_PENALTY] = own
    row[O_OUT_FIRST] = 1.0 if state.round_info[r, RI_OUT_SEAT] == seat else 0.0
    row[O_TABLE] = own - others / (players - 1)
    row[O_STANDING] = state.totals[seat] - best_other


__all__ = ["O_OUT_FIRST", "O_PENALTY", "O_SIZE", "O_STANDING", "O_TABLE", "ROLLOUT_ERROR",
           "score_outcomes"]
