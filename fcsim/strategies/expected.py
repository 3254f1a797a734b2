"""``expected``: exact one-draw expectation over the unseen cards.

Draw: take the visible discard when the penalty it leaves (after the best discard) is more
than ``take_margin`` below the *expected* penalty of a stock draw, computed exactly over
the unseen cards (:mod:`fcsim.strategies.lookahead`). Discard: among the ``candidates``
cards whose discard leaves the least penalty now, the one that minimises the expected
penalty after the next stock draw (and best discard); ties keep the lower penalty now,
then shed the higher card.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from fcsim.core.rules import MAX_HAND_AT_DISCARD
from fcsim.strategies.base import (
    DRAW_PILE,
    DRAW_STOCK,
    I_ALL_WILD,
    I_ROUND,
    I_SEAT,
    I_WILD_POINTS,
    TIE,
    decision,
    param_slots,
)
from fcsim.strategies.candidates import best_candidates, immediate_penalties, pile_outlook
from fcsim.strategies.lookahead import expected_draw_penalty, unseen_counts
from fcsim.strategies.registry import Family, Param, register

TAKE_MARGIN = Param("take_margin", 0, "points the discard must beat the expected stock draw by",
                    integer=False, low=0, high=100)
PARAMS = (
    TAKE_MARGIN,
    Param("candidates", 8, "discards (best now) compared by expected penalty", low=1,
          high=MAX_HAND_AT_DISCARD),
)
Slot = param_slots("ExpectedSlot", PARAMS)


@njit(cache=True)
def take_discard(hand, pile, known, info, table, scratch, margin: float) -> int:
    """DRAW_PILE when the visible discard beats the expected stock draw by more than
    ``margin``, else DRAW_STOCK."""
    rnd, points, all_wild = info[I_ROUND], info[I_WILD_POINTS], info[I_ALL_WILD] == 1
    # A stock draw never leaves more than today's penalty (the drawn card can go back), so
    # a discard that does not beat today's penalty cannot beat the expectation either.
    keep, from_pile = pile_outlook(hand, pile, rnd, points, all_wild, table, scratch)
    if from_pile >= keep - margin:
        return DRAW_STOCK
    unseen = np.empty(hand.shape[0], dtype=np.int64)
    n_unseen = unseen_counts(hand, pile, known, info[I_SEAT], unseen)
    threshold = from_pile + margin
    from_stock = expected_draw_penalty(hand, unseen, n_unseen, rnd, points, all_wild, table,
                                       scratch, threshold)
    return DRAW_PILE if from_stock > threshold else DRAW_STOCK


@njit(cache=True)
def discard_candidates(hand, pile, known, info, table, scratch, how_many: int):
    """The ``how_many`` best discards now, best first, with the penalty each leaves now,
    and the unseen cards that :func:`expected_after` averages over.

    Returns ``(n, kinds int64[how_many], now int64[how_many], unseen int64[56], n_unseen)``
    with the first ``n`` entries filled.
    """
    rnd, points, all_wild = info[I_ROUND], info[I_WILD_POINTS], info[I_ALL_WILD] == 1
    kinds = np.empty(how_many, dtype=np.int64)
    now = np.empty(how_many, dtype=np.int64)
    immediate = np.empty(hand.shape[0], dtype=np.int64)
    immediate_penalties(hand, rnd, points, all_wild, table, scratch, immediate)
    n = best_candidates(immediate, rnd, points, how_many, kinds)
    for j in range(n):
        now[j] = immediate[kinds[j]]
    # Counted with the n+1 cards: the discard moves from the hand to the pile, both seen.
    unseen = np.empty(hand.shape[0], dtype=np.int64)
    n_unseen = unseen_counts(hand, pile, known, info[I_SEAT], unseen)
    return n, kinds, now, unseen, n_unseen


@njit(cache=True)
def expected_after(hand, kind: int, unseen, n_unseen: int, info, table, scratch,
                   stop_above: float) -> float:
    """Expected penalty after discarding ``kind``, drawing from the stock and discarding
    best (``hand`` restored); ``stop_above`` as in
    :func:`fcsim.strategies.lookahead.expected_draw_penalty` (``np.inf``: exact)."""
    hand[kind] -= 1
    later = expected_draw_penalty(hand, unseen, n_unseen, info[I_ROUND], info[I_WILD_POINTS],
                                  info[I_ALL_WILD] == 1, table, scratch, stop_above)
    hand[kind] += 1
    return later


@decision
def draw(hand, pile, known, info, hidden, params, table, scratch, rng):
    """Discard pile iff it beats the exact expected stock draw by more than take_margin."""
    return take_discard(hand, pile, known, info, table, scratch, params[Slot.take_margin])


@decision
def discard(hand, pile, known, info, hidden, params, table, scratch, rng):
    """Least expected penalty after the next draw among the best `candidates` discards.

    A candidate's expectation stops being summed once it cannot beat the best so far."""
    n, kinds, _, unseen, n_unseen = discard_candidates(hand, pile, known, info, table,
                                                       scratch, int(params[Slot.candidates]))
    best = 0
    best_later = expected_after(hand, kinds[0], unseen, n_unseen, info, table, scratch,
                                np.inf)
    for j in range(1, n):
        later = expected_after(hand, kinds[j], unseen, n_unseen, info, table, scratch,
                               best_later - TIE)
        if later < best_later - TIE:
            best = j
            best_later = later
    return kinds[best]


FAMILY = register(Family(
    "expected",
    "Exact expectation over unseen cards for the draw and (among the best few) the discard.",
    draw,
    discard,
    PARAMS,
))
