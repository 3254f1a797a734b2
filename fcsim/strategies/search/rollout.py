"""What a rollout measures: the deciding seat's outcomes of the round it played out."""

from __future__ import annotations

from enum import IntEnum

import numpy as np
from numba import njit

from fcsim.core.records import RoundInfo, Score
from fcsim.core.solver.hand import HUGE_PENALTY
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
def against_table(state: GameState, r: int, seat: int) -> float:
    """``seat``'s penalty in round ``r`` (from 0, scored) less the mean of the other
    seats': its points against the table (``Outcome.TABLE``)."""
    players = state.totals.shape[0]
    others = 0.0
    for s in range(players):
        if s != seat:
            others += state.scores[r, s, Score.PENALTY]
    return state.scores[r, seat, Score.PENALTY] - others / (players - 1)


@njit(cache=True)
def score_outcomes(state: GameState, seat: int, row: np.ndarray) -> None:
    """The seat's outcomes of the round just scored in ``state`` into ``row``
    (``float64[O_SIZE]``)."""
    players = state.totals.shape[0]
    r = state.round_info.shape[0] - 1  # a world is laid out up to the round it plays
    best_other = HUGE_PENALTY  # above any total too: "none yet"
    for s in range(players):
        if s != seat:
            best_other = min(best_other, state.totals[s])
    row[Outcome.PENALTY] = state.scores[r, seat, Score.PENALTY]
    row[Outcome.OUT_FIRST] = 1.0 if state.round_info[r, RoundInfo.OUT_SEAT] == seat else 0.0
    row[Outcome.TABLE] = against_table(state, r, seat)
    row[Outcome.STANDING] = state.totals[seat] - best_other


__all__ = ["O_SIZE", "ROLLOUT_ERROR", "Outcome", "against_table", "score_outcomes"]
