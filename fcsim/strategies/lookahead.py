"""One-draw lookahead over the unseen cards, shared by ``expected`` and ``aware``.

The unseen cards are the 116 less the player's hand, the discard pile and the cards known
to be in other hands. By symmetry each unseen card is equally likely to be the next stock
card, so ``E[best penalty after drawing from the stock]`` is an exact finite sum over the
unseen kinds. Cards of the wild rank all play alike, and so do natural kinds of one rank
with no natural of their suit within *reach* in the hand (their own rank included): a
card ``d`` ranks from the nearest natural of its suit joins it in a run only with
``d - 1`` wilds between them, and a gap of four or more wilds never pays, so the reach is
the hand's wilds + 1, at most four. Such a card joins a book of its rank, a run of wilds,
or nothing, whatever its suit, so each such group is evaluated once (most hands hold few
wilds: most draws are; grouping the ranks the hand holds too made 4 x ``expected``,
``aware`` and ``learned`` 12% faster).
A natural card that can be in no meld of the hand with it (:func:`_melds_with`: with few
wilds, most draws) needs no search at all: after drawing it the best is to throw it back
(today's penalty) or to keep it for its points and make the hand's own best discard, so
one search of the hand answers every such draw.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from fcsim.core.cards import (
    JOKER,
    MIN_MELD,
    N_KINDS,
    N_RANKS,
    N_SUITS,
    card_points,
    copies,
    is_wild,
    wild_index,
    wilds_held,
)
from fcsim.core.solver import card_hash, discard_memo, hand_hash, penalty_memo
from fcsim.core.solver.discard import NO_KIND
from fcsim.core.solver.hand import HUGE_PENALTY
from fcsim.core.tables import MAX_GAP


@njit(cache=True)
def unseen_counts(hand: np.ndarray, pile: np.ndarray, known: np.ndarray, seat: int,
                  out: np.ndarray) -> int:
    """Fill ``out`` (``int64[56]``) with the copies of each kind this player has not seen;
    return their number."""
    for k in range(N_KINDS):
        out[k] = copies(k) - hand[k]
    for j in range(pile.shape[0]):
        out[pile[j]] -= 1
    for s in range(known.shape[0]):
        if s != seat:
            for k in range(N_KINDS):
                out[k] -= known[s, k]
    total = 0
    for k in range(N_KINDS):
        if out[k] < 0:  # cannot happen with an honest view; stay safe
            out[k] = 0
        total += out[k]
    return total


@njit(cache=True, inline="always")
def _alike(hand: np.ndarray, kind: int, wild_pos: int, reach: int) -> bool:
    """Whether drawing the natural ``kind`` is like drawing any other card of its rank
    that is also alike: no natural of its suit within ``reach`` ranks of it (its own rank
    included) is in ``hand``, so it joins a book of its rank, a run of wilds, or nothing,
    whatever its suit."""
    suit, pos = kind // N_RANKS, kind % N_RANKS
    for j in range(max(0, pos - reach), min(N_RANKS, pos + reach + 1)):
        if j != wild_pos and hand[suit * N_RANKS + j] > 0:
            return False
    return True


@njit(cache=True)
def _melds_with(hand: np.ndarray, kind: int, wild_pos: int, wilds: int) -> bool:
    """Whether the natural ``kind`` (not of the wild rank) can be in a meld of ``hand``
    with it: a book of its rank (``MIN_MELD - 1`` more cards of the rank or wilds), or a
    run of ``MIN_MELD`` ranks of its suit around it, each gap filled by one of the
    ``wilds`` (a card of the wild rank is one of them, wherever it stands)."""
    suit, pos = kind // N_RANKS, kind % N_RANKS
    same = 0
    for s in range(N_SUITS):
        same += hand[s * N_RANKS + pos]
    if same + wilds >= MIN_MELD - 1:
        return True
    for start in range(max(0, pos - MIN_MELD + 1), min(pos, N_RANKS - MIN_MELD) + 1):
        gaps = 0
        for j in range(start, start + MIN_MELD):
            if j != pos and (j == wild_pos or hand[suit * N_RANKS + j] == 0):
                gaps += 1
        if gaps <= wilds:
            return True
    return False


@njit(cache=True, inline="always")
def _after_draw(hand: np.ndarray, hashed: np.uint64, kind: int, keep: int, round_number: int,
                wild_points: int, all_wild: bool, table: np.ndarray, scratch: np.ndarray
                ) -> int:
    """Least penalty after drawing ``kind`` and making the best discard (``hand`` restored;
    ``hashed`` is its hash). Discarding ``kind`` again keeps today's penalty ``keep``, so
    the search starts there; the answer is memoised (asked again next turn)."""
    hand[kind] += 1
    # np.int64: a constant kind (the joker) would otherwise compile discard_memo again
    _, pen = discard_memo(hand, round_number, wild_points, all_wild, table, scratch,
                          np.int64(kind), keep, hashed + card_hash(kind))
    hand[kind] -= 1
    return pen


@njit(cache=True, inline="always")
def _after_any_draw(hand: np.ndarray, hashed: np.uint64, kind: int, keep: int,
                    own_best: int, wilds: int, round_number: int, wild_points: int,
                    all_wild: bool, table: np.ndarray, scratch: np.ndarray
                    ) -> tuple[int, int]:
    """(:func:`_after_draw` of ``kind``, ``own_best``), without a search when ``kind`` is a
    natural that can be in no meld (:func:`_melds_with`): throwing it back keeps ``keep``;
    keeping it adds its points to ``own_best``, the least penalty of ``hand`` less its best
    discard — searched for on the first such draw (``HUGE_PENALTY`` until then)."""
    if is_wild(kind, round_number) or _melds_with(hand, kind, wild_index(round_number),
                                                  wilds):
        return _after_draw(hand, hashed, kind, keep, round_number, wild_points, all_wild,
                           table, scratch), own_best
    if own_best == HUGE_PENALTY:
        _, own_best = discard_memo(hand, round_number, wild_points, all_wild, table, scratch,
                                   np.int64(NO_KIND), np.int64(HUGE_PENALTY), hashed)
    return min(keep, own_best + card_points(kind, round_number, wild_points)), own_best


TALLY_OUT = 0  # draws after which the hand melds whole
TALLY_BETTER = 1  # draws that lower today's penalty
TALLY_SIZE = 2  # the counts a tally holds
NO_TALLY = np.zeros(0)  # a caller that wants the expectation only


@njit(cache=True, inline="always")
def _tallied(tally: np.ndarray, weight: int, penalty: int, keep: int) -> int:
    """``weight * penalty``, counting the draws into ``tally`` (if any)."""
    if tally.shape[0]:
        if penalty == 0:
            tally[TALLY_OUT] += weight
        if penalty < keep:
            tally[TALLY_BETTER] += weight
    return weight * penalty


@njit(cache=True)
def expected_draw_penalty(hand: np.ndarray, unseen: np.ndarray, n_unseen: int,
                          round_number: int, wild_points: int, all_wild: bool,
                          table: np.ndarray, scratch: np.ndarray,
                          stop_above: float = np.inf, tally: np.ndarray = NO_TALLY) -> float:
    """``E_k[best_discard(hand + k)]`` over the next stock card ``k`` (exact).

    ``hand`` (``int8[56]``, n cards) is restored before returning. Every term is a
    penalty (>= 0), so once the partial sum divided by ``n_unseen`` exceeds ``stop_above``
    the expectation does too: that partial mean is returned at once (a caller comparing
    against ``stop_above`` gets the same answer, sooner). A ``tally`` (``float64[2]``,
    zeroed by the caller) counts the unseen cards whose draw goes out (``TALLY_OUT``) and
    those that lower today's penalty (``TALLY_BETTER``).
    """
    if n_unseen == 0:
        return 0.0
    wild_pos = wild_index(round_number)
    keep, _ = penalty_memo(hand, round_number, wild_points, all_wild, table, scratch)
    hashed = hand_hash(hand)
    wilds = wilds_held(hand, round_number)
    reach = min(MAX_GAP, wilds + 1)
    own_best = HUGE_PENALTY  # see _after_any_draw
    # Alike draws first: they are many and rarely beat ``keep``, so a partial sum passes
    # ``stop_above`` soonest (8% fewer searches in 4 x expected). Every term is an integer,
    # so the sum, in whatever order, is exact.
    total = 0.0
    for pos in range(N_RANKS):
        weight_alike = 0
        stand_in = -1
        for s in range(N_SUITS):
            k = s * N_RANKS + pos
            if unseen[k] > 0 and (pos == wild_pos or _alike(hand, k, wild_pos, reach)):
                weight_alike += unseen[k]
                stand_in = k
        if stand_in >= 0:
            after, own_best = _after_any_draw(hand, hashed, stand_in, keep, own_best, wilds,
                                              round_number, wild_points, all_wild, table,
                                              scratch)
            total += _tallied(tally, weight_alike, after, keep)
            if total / n_unseen > stop_above:
                return total / n_unseen
    for k in range(N_KINDS):
        if unseen[k] == 0 or is_wild(k, round_number) or _alike(hand, k, wild_pos, reach):
            continue
        after, own_best = _after_any_draw(hand, hashed, k, keep, own_best, wilds,
                                          round_number, wild_points, all_wild, table, scratch)
        total += _tallied(tally, unseen[k], after, keep)
        if total / n_unseen > stop_above:
            return total / n_unseen
    if unseen[JOKER] > 0:
        total += _tallied(tally, unseen[JOKER],
                          _after_draw(hand, hashed, JOKER, keep, round_number, wild_points,
                                      all_wild, table, scratch), keep)
    return total / n_unseen
