"""``aware``: ``expected`` that plays the table.

* It does not feed the next player: a discard that the next seat is known to be collecting
  (a card of a rank, or of a suit within two ranks, of the cards that seat took from the
  pile and still holds) costs ``feed_weight`` extra points in the comparison; a wild
  always does.
* When someone has gone out (a last turn) only the penalty now counts: it makes the exact
  best discard.
* When the round is old — ``danger_turns`` turns per player or more — an opponent may be
  about to go out, so the penalty now weighs ``urgency`` against the expected penalty
  after the next draw.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from fcsim.core.cards import N_RANKS, N_SUITS, is_wild
from fcsim.core.rules import MAX_HAND_AT_DISCARD
from fcsim.strategies.base import (
    I_BEST_DISCARD,
    I_LAST_TURN,
    I_PLAYERS,
    I_ROUND,
    I_SEAT,
    I_TURN,
    TIE,
    check_slots,
    decision,
    param_slots,
)
from fcsim.strategies.expected import (
    TAKE_MARGIN,
    discard_candidates,
    draw,  # as expected: the discard pile iff it beats the expected stock draw
    expected_after,
)
from fcsim.strategies.expected import Slot as ExpectedSlot
from fcsim.strategies.registry import Family, Param, register

PARAMS = (
    TAKE_MARGIN,
    Param("candidates", 6, "discards (best now) compared", low=1, high=MAX_HAND_AT_DISCARD),
    Param("feed_weight", 0.5, "extra points counted for a discard the next seat collects",
          integer=False, low=0, high=100),
    Param("danger_turns", 7, "turns per player after which the round counts as late",
          integer=False, low=0, high=100),
    Param("urgency", 0.5, "weight of the penalty now when the round is late (0-1)",
          integer=False, low=0, high=1),
)
Slot = param_slots("AwareSlot", PARAMS)
NEAR_RANKS = 2  # a natural of a suit within this many ranks may extend a run of it


@njit(cache=True)
def feeds(known_row: np.ndarray, kind: int, round_number: int) -> bool:
    """Whether ``kind`` helps a seat known to hold ``known_row`` (``int8[56]``): a wild, or
    a natural of a rank it holds, or of a suit it holds within ``NEAR_RANKS`` ranks."""
    if is_wild(kind, round_number):
        return True
    suit, pos = kind // N_RANKS, kind % N_RANKS
    for s in range(N_SUITS):
        if known_row[s * N_RANKS + pos] > 0:
            return True
    for j in range(max(0, pos - NEAR_RANKS), min(N_RANKS, pos + NEAR_RANKS + 1)):
        if known_row[suit * N_RANKS + j] > 0:
            return True
    return False


@decision
def discard(hand, pile, known, info, hidden, params, table, scratch, rng):
    """Expected penalty, plus feeding cost, weighed with the penalty now when it is late."""
    if info[I_LAST_TURN] == 1:
        return info[I_BEST_DISCARD]
    n, kinds, now, unseen, n_unseen = discard_candidates(hand, pile, known, info, table,
                                                         scratch, int(params[Slot.candidates]))
    players = info[I_PLAYERS]
    late = info[I_TURN] >= params[Slot.danger_turns] * players
    weight_now = params[Slot.urgency] if late else 0.0
    nxt = (info[I_SEAT] + 1) % players
    best = 0
    best_score = 0.0
    for j in range(n):
        feed = params[Slot.feed_weight] if feeds(known[nxt], kinds[j], info[I_ROUND]) else 0.0
        # The expectation can stop once the score cannot beat the best (j > 0).
        stop = np.inf
        if j > 0:
            stop = -np.inf
            if weight_now < 1.0:
                stop = (best_score - TIE - weight_now * now[j] - feed) / (1.0 - weight_now)
        later = expected_after(hand, kinds[j], unseen, n_unseen, info, table, scratch, stop)
        score = (1.0 - weight_now) * later + weight_now * now[j] + feed
        if later > stop and score < best_score - TIE and weight_now < 1.0:
            # Stopped early yet winning: only float rounding of ``stop`` can do that.
            later = expected_after(hand, kinds[j], unseen, n_unseen, info, table, scratch,
                                   np.inf)
            score = (1.0 - weight_now) * later + weight_now * now[j] + feed
        if j == 0 or score < best_score - TIE:
            best = j
            best_score = score
    return kinds[best]


FAMILY = check_slots(register(Family(
    "aware",
    "expected + table play: does not feed the next player, hurries when the round is late.",
    draw,
    discard,
    PARAMS,
)), ExpectedSlot)  # it plays expected's draw
