"""The search's decision: which candidate actions, how many worlds, which one wins.

At a decision the search lists its candidates — stock or pile when drawing (when the
pile's card lowers the hand's penalty now; else there is nothing to weigh and the anchor's
draw stands, a card near the hand taken for later included); the
``candidates`` discards that leave the least penalty now when discarding — adds the
*anchor*'s move (a fast strategy's own choice), plays every candidate out to the end of
the round in the same ``worlds`` (:func:`fcsim.strategies.search.kernels.evaluate`) and
takes the one with the least mean ``objective``. It leaves the anchor's move only for a
candidate whose paired advantage is at least ``confidence`` standard errors. Effort goes
where decisions are close: after the first quarter of the worlds, a decision that is
already clear (:func:`settled`) stops there, and so does one where no candidate is near
overruling the anchor (:func:`futile`). On a last turn the best discard is exact and needs
no search.

The compiled decision is in :mod:`fcsim.strategies.search.kernels`, bound to the rollout
policy and the anchor (any numba strategies) at compile time by
:mod:`fcsim.strategies.search.bind`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from fcsim.core.rules import MAX_HAND_AT_DISCARD
from fcsim.core.view import (
    DRAW_PILE,
    DRAW_STOCK,
    I_ALL_WILD,
    I_BEST_DISCARD,
    I_LAST_TURN,
    I_ROUND,
    I_WILD_POINTS,
    is_drawing,
)
from fcsim.strategies.base import param_slots
from fcsim.strategies.candidates import best_candidates, immediate_penalties, pile_outlook
from fcsim.strategies.registry import Param
from fcsim.strategies.search.rollout import Outcome
from fcsim.strategies.search.worlds import EVIDENCE_TRIES

# What the search minimises, by the value of its ``objective``: a rollout's outcome.
OBJECTIVES = (
    (Outcome.PENALTY, "own penalty this round"),
    (Outcome.TABLE, "own penalty less the others' mean"),
    (Outcome.STANDING, "own total less the best other total"),
)
OBJECTIVE_COLUMNS = np.array([column for column, _ in OBJECTIVES], dtype=np.int64)
OBJECTIVE_TABLE = list(OBJECTIVE_COLUMNS).index(Outcome.TABLE)  # the default

PARAMS = (
    Param("worlds", 64, "worlds sampled per decision (the same ones for every candidate)",
          low=1, high=100_000),
    Param("candidates", 4, "discards compared (those that leave the least penalty now)",
          low=1, high=MAX_HAND_AT_DISCARD),
    Param("objective", OBJECTIVE_TABLE,
          "; ".join(f"{value}: {meaning}" for value, (_, meaning) in enumerate(OBJECTIVES)),
          low=0, high=len(OBJECTIVES) - 1),
    Param("confidence", 3, "standard errors a candidate must beat the anchor's move by",
          integer=False, low=0, high=100),
    Param("futility", 1, "after the first quarter of the worlds, the anchor's move stands "
          "at once if no candidate beats it by this many standard errors, when confidence "
          "asks more (0: never)", integer=False, low=0, high=100),
    Param("skill", 0, "opponents kept their best cards: their hands are the best of "
          "1 + skill x (turns they played) random draws (0: uniform)", integer=False, low=0,
          high=10),
    Param("evidence", 0, "opponents take and keep the cards that help them: each hand is "
          f"one of {EVIDENCE_TRIES} draws, picked with odds (1 - evidence) ** (cards the "
          "seat passed up or discarded that would help that hand) (0: not weighed)",
          integer=False, low=0, high=1),
    Param("rollout", "greedy", "the policy every seat plays in the rollouts",
          integer=False, strategy=True),
    Param("anchor", "learned", "the strategy whose move stands unless the search beats it",
          integer=False, strategy=True),
)
Slot = param_slots("SearchSlot", PARAMS)
# ANALYSIS ONLY: ``search_hands_oracle``'s own parameter, after the search's (it reads the
# search's in their slots); a fair search has no hidden cards to reveal.
REVEAL = Param("reveal", 1, "the chance that each opponent card its seat has not shown is, "
               "in a world, the card really held; the others are dealt with the stock "
               "(1: every hand as it is; 0: the fair search's uniform worlds)",
               integer=False, low=0, high=1)
REVEAL_SLOT = len(Slot)  # the numeric parameters come first in the vector

FIRST_SHARE = 4  # the first look is after worlds / FIRST_SHARE worlds (MIN_FIRST at least)…
MIN_FIRST = 8
SETTLED_SE = 3.0  # … and stops if the leader is ahead of every other by this many SEs


@njit(cache=True)
def candidate_actions(hand, pile, info, table, scratch, how_many: int, anchor: int
                      ) -> np.ndarray:
    """The actions worth a search (``int64[A]``, the anchor's move first); one action
    when there is nothing to weigh."""
    rnd, points, all_wild = info[I_ROUND], info[I_WILD_POINTS], info[I_ALL_WILD] == 1
    if is_drawing(hand, rnd):
        keep, from_pile = pile_outlook(hand, pile, rnd, points, all_wild, table, scratch)
        if from_pile >= keep:  # the pile's card cannot help now: the anchor's draw stands
            return np.array([anchor], dtype=np.int64)
        other = DRAW_PILE if anchor == DRAW_STOCK else DRAW_STOCK
        return np.array([anchor, other], dtype=np.int64)
    if info[I_LAST_TURN] == 1:  # the penalty is fixed by this discard: it is exact
        return np.array([info[I_BEST_DISCARD]], dtype=np.int64)
    immediate = np.empty(hand.shape[0], dtype=np.int64)
    immediate_penalties(hand, rnd, points, all_wild, table, scratch, immediate)
    kinds = np.empty(how_many, dtype=np.int64)
    n = best_candidates(immediate, rnd, points, how_many, kinds)
    actions = np.empty(n + 1, dtype=np.int64)
    actions[0] = anchor
    size = 1
    for j in range(n):
        if kinds[j] != anchor:
            actions[size] = kinds[j]
            size += 1
    return actions[:size]


@njit(cache=True)
def settled(values: np.ndarray, margin: float) -> bool:
    """Whether the worlds so far (``values`` ``float64[A, W]``, row 0 the anchor) already
    decide: the best-looking action beats, or the anchor is beaten by, every other row by
    more than ``margin`` paired standard errors — more worlds would hardly change it."""
    n_actions, n_worlds = values.shape
    best = 0
    for a in range(1, n_actions):
        if values[a].mean() < values[best].mean():
            best = a
    for a in range(n_actions):
        if a == best:
            continue
        diff = values[a] - values[best]
        se = diff.std() / np.sqrt(max(1, n_worlds - 1))
        if diff.mean() <= margin * se:
            return False
    return True


@njit(cache=True)
def futile(values: np.ndarray, margin: float, gate: float) -> bool:
    """Whether no candidate of the worlds so far (``values`` ``float64[A, W]``, row 0 the
    anchor) beats the anchor by more than ``margin`` paired standard errors, where the
    search's ``gate`` (its ``confidence``) is stricter than that; never when ``margin`` is
    0. A candidate overrules the anchor only by ``gate`` standard errors over all the
    worlds; one this far behind that at the first look seldom gets there, and on these
    worlds the anchor's move stands."""
    if margin <= 0.0 or margin >= gate:
        return False
    n_actions, n_worlds = values.shape
    for a in range(1, n_actions):
        gain = values[0] - values[a]
        se = gain.std() / np.sqrt(max(1, n_worlds - 1))
        if gain.mean() > 0.0 and gain.mean() > margin * se:
            return False
    return True


@njit(cache=True)
def choose(values: np.ndarray, confidence: float) -> int:
    """The row of ``values`` (``float64[A, W]``, row 0 the anchor) with the least mean, if
    its paired advantage over row 0 is at least ``confidence`` standard errors and more
    than nothing; else 0."""
    n_actions, n_worlds = values.shape
    best = 0
    best_mean = values[0].mean()
    for a in range(1, n_actions):
        mean = values[a].mean()
        if mean < best_mean:
            best, best_mean = a, mean
    if best == 0:
        return 0
    diff = values[best] - values[0]
    gain = -diff.mean()
    if gain <= 0.0:
        return 0
    if confidence > 0.0:
        se = diff.std() / np.sqrt(max(1, n_worlds - 1))
        if gain < confidence * se:
            return 0
    return best


__all__ = [
    "FIRST_SHARE",
    "MIN_FIRST",
    "OBJECTIVES",
    "OBJECTIVE_COLUMNS",
    "OBJECTIVE_TABLE",
    "PARAMS",
    "Slot",
    "candidate_actions",
    "choose",
    "futile",
    "settled",
]
