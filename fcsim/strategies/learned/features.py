"""What the learned evaluator sees of a discard: features of the position it leaves.

One compiled function, :func:`discard_features`, used by both training (the positions
``fcsim train`` records) and play (the ``learned`` strategy), so the model is judged at
the table on exactly what it was fitted on. Every feature is read from the seat's view:
its hand, the pile, the cards known in each hand, the public scalars and the round's
public history (:mod:`fcsim.core.view`). Nothing hidden.

A feature set has a version: a model records the one it was fitted on, and a model of
another version is refused (:mod:`fcsim.strategies.learned.model`).
"""

from __future__ import annotations

from enum import IntEnum

import numpy as np
from numba import njit

from fcsim.core.cards import (
    DECK_SIZE,
    JOKER,
    N_KINDS,
    N_RANKS,
    N_SUITS,
    card_points,
    wilds_held,
)
from fcsim.strategies.aware import NEAR_RANKS, feeds
from fcsim.strategies.base import (
    I_ALL_WILD,
    I_DISCARDED,
    I_PASSED,
    I_PLAYERS,
    I_ROUND,
    I_SEAT,
    I_STOCK_SIZE,
    I_TAKEN,
    I_TOTALS,
    I_TURN,
    I_WILD_POINTS,
)
from fcsim.strategies.lookahead import TALLY_BETTER, TALLY_OUT, TALLY_SIZE, expected_draw_penalty

FEATURE_SET = 1  # bump when a feature is added, removed or computed differently
FEATURES = (
    ("penalty_now", "least penalty of the cards kept"),
    ("expected_next", "expected least penalty after the next stock draw"),
    ("out_next", "chance that the next stock draw lets the hand go out"),
    ("better_next", "chance that the next stock draw lowers the penalty"),
    ("discard_points", "points the discarded card would count if kept"),
    ("feeds_next", "1 if the next seat is known to collect the discard (aware's test)"),
    ("next_took_near", "cards of the discard's rank, or its suit within two ranks, the "
                       "next seat took from the pile this round"),
    ("next_passed_rank", "pile tops of the discard's rank the next seat passed up"),
    ("rank_discarded", "cards of the discard's rank any seat discarded this round"),
    ("wilds_kept", "wild cards (wild rank and jokers) kept"),
    ("hand_size", "cards kept (round + 2)"),
    ("turns_per_seat", "turns played this round per seat"),
    ("stock_share", "share of the deck left in the stock"),
    ("most_taken", "most pile cards any other seat took this round"),
    ("taken_by_others", "pile cards the other seats took this round, per seat"),
    ("score_gap", "own total less the lowest other total, in hundreds"),
    ("players", "seats at the table"),
)
Feature = IntEnum("Feature", [(name, i) for i, (name, _) in enumerate(FEATURES)])
N_FEATURES = len(FEATURES)
SCORE_GAP_UNIT = 100.0  # score_gap is in hundreds of points, on the scale of the others


@njit(cache=True)
def _rank_count(info: np.ndarray, block: int, seat: int, pos: int) -> int:
    """Cards of rank position ``pos`` (any suit) in ``seat``'s row of history ``block``."""
    at = block + seat * N_KINDS
    count = 0
    for s in range(N_SUITS):
        count += info[at + s * N_RANKS + pos]
    return count


@njit(cache=True)
def _near_count(info: np.ndarray, block: int, seat: int, kind: int) -> int:
    """Cards of ``kind``'s rank, or of its suit within NEAR_RANKS, in ``seat``'s row."""
    if kind == JOKER:
        return 0
    suit, pos = kind // N_RANKS, kind % N_RANKS
    at = block + seat * N_KINDS
    count = _rank_count(info, block, seat, pos)
    for j in range(max(0, pos - NEAR_RANKS), min(N_RANKS, pos + NEAR_RANKS + 1)):
        if j != pos:
            count += info[at + suit * N_RANKS + j]
    return count


@njit(cache=True)
def discard_features(hand: np.ndarray, kind: int, now: int, known: np.ndarray,
                     info: np.ndarray, unseen: np.ndarray, n_unseen: int, table: np.ndarray,
                     scratch: np.ndarray, out: np.ndarray) -> None:
    """Fill ``out`` (float64[N_FEATURES], :data:`FEATURES` order) for discarding ``kind``.

    ``hand`` int8[56] holds the n + 1 cards before the discard (restored on return);
    ``now`` is the penalty the discard leaves (the solver's); ``unseen`` int64[56] with
    ``n_unseen`` cards, as :func:`fcsim.strategies.lookahead.unseen_counts` counts them
    with the n + 1 cards in hand.
    """
    rnd, points, all_wild = info[I_ROUND], info[I_WILD_POINTS], info[I_ALL_WILD] == 1
    players, seat = info[I_PLAYERS], info[I_SEAT]
    nxt = (seat + 1) % players
    tally = np.zeros(TALLY_SIZE)
    hand[kind] -= 1
    expected = expected_draw_penalty(hand, unseen, n_unseen, rnd, points, all_wild, table,
                                     scratch, np.inf, tally)
    wilds = wilds_held(hand, rnd)
    kept = 0
    for k in range(N_KINDS):
        kept += hand[k]
    hand[kind] += 1
    draws = max(n_unseen, 1)
    most_taken = 0
    taken = 0
    lowest_other = info[I_TOTALS + nxt]
    for s in range(players):
        if s == seat:
            continue
        seat_taken = 0
        for k in range(N_KINDS):
            seat_taken += info[I_TAKEN + s * N_KINDS + k]
        most_taken = max(most_taken, seat_taken)
        taken += seat_taken
        lowest_other = min(lowest_other, info[I_TOTALS + s])
    rank_discarded = 0
    if kind != JOKER:
        for s in range(players):
            rank_discarded += _rank_count(info, I_DISCARDED, s, kind % N_RANKS)
    out[Feature.penalty_now] = now
    out[Feature.expected_next] = expected
    out[Feature.out_next] = tally[TALLY_OUT] / draws
    out[Feature.better_next] = tally[TALLY_BETTER] / draws
    out[Feature.discard_points] = card_points(kind, rnd, points)
    out[Feature.feeds_next] = 1.0 if feeds(known[nxt], kind, rnd) else 0.0
    out[Feature.next_took_near] = _near_count(info, I_TAKEN, nxt, kind)
    out[Feature.next_passed_rank] = (0 if kind == JOKER
                                     else _rank_count(info, I_PASSED, nxt, kind % N_RANKS))
    out[Feature.rank_discarded] = rank_discarded
    out[Feature.wilds_kept] = wilds
    out[Feature.hand_size] = kept
    out[Feature.turns_per_seat] = info[I_TURN] / players
    out[Feature.stock_share] = info[I_STOCK_SIZE] / DECK_SIZE
    out[Feature.most_taken] = most_taken
    out[Feature.taken_by_others] = taken / (players - 1)
    out[Feature.score_gap] = (info[I_TOTALS + seat] - lowest_other) / SCORE_GAP_UNIT
    out[Feature.players] = players


@njit(cache=True)
def network_inputs(x: np.ndarray, n: int, relative: bool) -> np.ndarray:
    """What the network reads for each of a position's ``n`` candidates (``x``
    float64[>= n, F], their features): the features, and with ``relative`` inputs also
    each one's difference from the candidates' mean (float64[n, F] or [n, 2F]), which
    puts what tells the candidates apart on the same scale in every position."""
    width = 2 * N_FEATURES if relative else N_FEATURES
    out = np.empty((n, width))
    out[:, :N_FEATURES] = x[:n]
    if relative:
        for i in range(N_FEATURES):
            mean = 0.0
            for j in range(n):
                mean += x[j, i]
            mean /= n
            for j in range(n):
                out[j, N_FEATURES + i] = x[j, i] - mean
    return out

