"""Turn-level decision rows, taken from a game's event trace (:mod:`fcsim.core.events`).

The steps write every turn as an EV_TURN row with its ``TURN_*`` details; this module only
copies those rows, one per turn, into a decision array (``int32[rows, DECISION_WIDTH]``)
with the game and the strategy that played the turn. No rule is applied here: the rows
are what the engine's own steps wrote.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from fcsim.core.events import EV_TURN, Turn

# Columns of a decision array, and the EV_TURN column each is copied from (-1: the
# game's index in the batch and the strategy index are the collector's own).
DECISION_SOURCES = {
    "game": -1, "strategy": -1, "round": Turn.ROUND, "seat": Turn.SEAT,
    "source": Turn.SOURCE, "drawn": Turn.DRAWN, "discard": Turn.DISCARD,
    "went_out": Turn.OUT, "last_turn": Turn.LAST_TURN, "turn": Turn.NUMBER,
    "stock": Turn.STOCK, "penalty_before": Turn.PENALTY_BEFORE,
    "penalty_after": Turn.PENALTY_AFTER, "wilds": Turn.WILDS, "jokers": Turn.JOKERS,
}
DECISION_COLUMN = {name: i for i, name in enumerate(DECISION_SOURCES)}
DECISION_WIDTH = len(DECISION_SOURCES)
DC_GAME = DECISION_COLUMN["game"]
DC_STRATEGY = DECISION_COLUMN["strategy"]
DC_SEAT = DECISION_COLUMN["seat"]
COPIED = np.array([(i, src) for i, src in enumerate(DECISION_SOURCES.values()) if src >= 0],
                   dtype=np.int64)


@njit(cache=True)
def collect_turns(trace: np.ndarray, rows: int, game: int, seating: np.ndarray,
                  copied: np.ndarray, out: np.ndarray, at: int) -> int:
    """Copy the EV_TURN rows among the first ``rows`` of ``trace`` into ``out`` from row
    ``at``, tagged with ``game`` and the strategy ``seating[seat]`` (int8[P]); the next
    free row of ``out``. ``copied`` int64[k, 2] (:data:`COPIED`): (decision column, trace
    column) pairs.
    ``out`` must have room for ``rows`` more rows."""
    for i in range(rows):
        if trace[i, 0] != EV_TURN:
            continue
        for j in range(copied.shape[0]):
            out[at, copied[j, 0]] = trace[i, copied[j, 1]]
        out[at, DC_GAME] = game
        out[at, DC_STRATEGY] = seating[out[at, DC_SEAT]]
        at += 1
    return at


def empty_decisions(rows: int) -> np.ndarray:
    """A decision array with room for ``rows`` turns."""
    return np.zeros((rows, DECISION_WIDTH), np.int32)
