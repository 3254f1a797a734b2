"""What the learned evaluator sees of a draw: the stock against the pile's top card.

A draw is weighed when the pile's card lowers the hand's penalty now, or is near the hand
(a wild, or a natural of a rank held or of a suit held within ``NEAR_RANKS`` ranks: a card
that may join a meld later). Else the stock is the draw: weighing every draw measured no
better (``docs/LEARNING.md``, v14). The two options
are described side by side: the stock by the exact one-draw expectation over the unseen
cards; the pile by the discard position it leads to — the hand with the pile's card, its
best discard now (as ``expected`` ranks discards) described by the discard features of
:mod:`fcsim.strategies.learned.features` — so one definition of a position serves both
decisions. Every feature is read from the seat's view.

One compiled function, :func:`draw_features`, serves training (``fcsim train`` records the
draws it weighs, each option played out) and play (the ``learned`` strategy's draw).
"""

from __future__ import annotations

from enum import IntEnum

import numpy as np
from numba import njit

from fcsim.core.cards import JOKER, N_KINDS, N_RANKS, N_SUITS, card_points, is_wild, wild_index
from fcsim.strategies.aware import NEAR_RANKS
from fcsim.strategies.base import I_ALL_WILD, I_ROUND, I_SEAT, I_WILD_POINTS
from fcsim.strategies.candidates import pile_outlook
from fcsim.strategies.expected import discard_candidates
from fcsim.strategies.learned.features import FEATURES, N_FEATURES, discard_features
from fcsim.strategies.lookahead import (
    TALLY_BETTER,
    TALLY_OUT,
    TALLY_SIZE,
    expected_draw_penalty,
    unseen_counts,
)

DRAW_FEATURE_SET = 2  # bump when a draw feature is added, removed or computed differently
STOCK_FEATURES = (
    ("penalty_now", "least penalty of the hand before the draw"),
    ("stock_expected", "expected least penalty after a stock draw (and the best discard)"),
    ("stock_out", "chance that a stock draw lets the hand go out"),
    ("stock_better", "chance that a stock draw lowers the penalty"),
    ("top_points", "points the pile's card would count if kept"),
    ("top_wild", "1 if the pile's card is wild"),
    ("pile_less_stock", "least penalty after taking the pile's card less stock_expected"),
    ("pile_next_less_stock", "pile_expected_next less stock_expected"),
)
PILE_PREFIX = "pile_"  # the pile option's discard position: each discard feature, renamed
DRAW_FEATURES = STOCK_FEATURES + tuple(
    (PILE_PREFIX + name, f"after taking the pile's card and the best discard: {text}")
    for name, text in FEATURES)
DrawFeature = IntEnum("DrawFeature", [(name, i) for i, (name, _) in enumerate(DRAW_FEATURES)])
N_DRAW_FEATURES = len(DRAW_FEATURES)
PILE_AT = len(STOCK_FEATURES)  # where the pile option's discard features start


@njit(cache=True)
def _near_hand(hand: np.ndarray, kind: int, wild_pos: int) -> bool:
    """Whether ``kind`` is wild or near a natural card of ``hand``: one of its rank, or of
    its suit within ``NEAR_RANKS`` ranks (a card that may join a meld later)."""
    if kind == JOKER:
        return True
    suit, pos = kind // N_RANKS, kind % N_RANKS
    if pos == wild_pos:
        return True
    for s in range(N_SUITS):
        if hand[s * N_RANKS + pos] > 0:
            return True
    for j in range(max(0, pos - NEAR_RANKS), min(N_RANKS, pos + NEAR_RANKS + 1)):
        if j != pos and j != wild_pos and hand[suit * N_RANKS + j] > 0:
            return True
    return False


@njit(cache=True)
def draw_features(hand: np.ndarray, pile: np.ndarray, known: np.ndarray, info: np.ndarray,
                  table: np.ndarray, scratch: np.ndarray, out: np.ndarray) -> bool:
    """Fill ``out`` (float64[N_DRAW_FEATURES], :data:`DRAW_FEATURES` order) for the draw of
    the seat to move and return True, or return False (``out`` untouched) when the pile's
    card neither lowers the penalty now nor is near the hand: then the stock is the only
    draw worth making.

    ``hand`` int8[56] holds the n cards before the draw (restored on return); ``pile``
    int8[:] is the discard pile, its top last (not empty).
    """
    rnd, points, all_wild = info[I_ROUND], info[I_WILD_POINTS], info[I_ALL_WILD] == 1
    keep, from_pile = pile_outlook(hand, pile, rnd, points, all_wild, table, scratch)
    top = pile[pile.shape[0] - 1]
    if from_pile >= keep and not _near_hand(hand, top, wild_index(rnd)):
        return False
    unseen = np.empty(N_KINDS, dtype=np.int64)
    n_unseen = unseen_counts(hand, pile, known, info[I_SEAT], unseen)
    tally = np.zeros(TALLY_SIZE)
    stock = expected_draw_penalty(hand, unseen, n_unseen, rnd, points, all_wild, table,
                                  scratch, np.inf, tally)
    hand[top] += 1  # the pile option: a discard position of n + 1 cards
    rest = pile[: pile.shape[0] - 1]
    _, kinds, now, pile_unseen, pile_n_unseen = discard_candidates(hand, rest, known, info,
                                                                   table, scratch, 1)
    discard_features(hand, kinds[0], now[0], known, info, pile_unseen, pile_n_unseen, table,
                     scratch, out[PILE_AT : PILE_AT + N_FEATURES])
    hand[top] -= 1
    draws = max(n_unseen, 1)
    out[DrawFeature.penalty_now] = keep
    out[DrawFeature.stock_expected] = stock
    out[DrawFeature.stock_out] = tally[TALLY_OUT] / draws
    out[DrawFeature.stock_better] = tally[TALLY_BETTER] / draws
    out[DrawFeature.top_points] = card_points(top, rnd, points)
    out[DrawFeature.top_wild] = 1.0 if is_wild(top, rnd) else 0.0
    out[DrawFeature.pile_less_stock] = out[DrawFeature.pile_penalty_now] - stock
    out[DrawFeature.pile_next_less_stock] = out[DrawFeature.pile_expected_next] - stock
    return True
