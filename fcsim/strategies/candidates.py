"""Shared helpers: what taking the visible discard is worth, and discard candidates ranked
by the penalty they leave right now."""

from __future__ import annotations

import numpy as np
from numba import njit

from fcsim.core.cards import JOKER, N_KINDS, N_SUITS, card_points, kind_at
from fcsim.core.solver import discard_kernel_late, discard_memo, hand_hash, penalty_memo
from fcsim.core.solver.discard import NO_KIND
from fcsim.core.solver.hand import HUGE_PENALTY


@njit(cache=True)
def pile_outlook(hand: np.ndarray, pile: np.ndarray, round_number: int, wild_points: int,
                 all_wild: bool, table: np.ndarray, scratch: np.ndarray) -> tuple[int, int]:
    """(penalty of ``hand`` now, least penalty after taking the pile's top card and
    discarding the best card). Discarding the top card again keeps today's penalty, so the
    search only looks for something better."""
    now, _ = penalty_memo(hand, round_number, wild_points, all_wild, table, scratch)
    after = penalty_after_taking(hand, pile[pile.shape[0] - 1], now, round_number,
                                 wild_points, all_wild, table, scratch)
    return now, after


@njit(cache=True, inline="always")  # on every draw of greedy, expected, aware: inlined
def penalty_after_taking(hand: np.ndarray, card: int, now: int, round_number: int,
                         wild_points: int, all_wild: bool, table: np.ndarray,
                         scratch: np.ndarray) -> int:
    """The least penalty of ``hand`` (``int8[56]``, n cards leaving ``now``) after adding
    ``card`` and discarding the best card: ``now`` unless a discard other than ``card``
    leaves less. ``hand`` is restored."""
    hand[card] += 1
    _, after = discard_kernel_late(hand, round_number, wild_points, all_wild, table, scratch,
                                   card, now)
    hand[card] -= 1
    return after


@njit(cache=True)
def immediate_penalties(hand: np.ndarray, round_number: int, wild_points: int,
                        all_wild: bool, table: np.ndarray, scratch: np.ndarray,
                        out: np.ndarray) -> None:
    """``out[k]`` = penalty of ``hand`` less one ``k`` for each kind held, else a large number.

    ``hand`` is ``int8[56]``; ``out`` is ``int64[56]``; ``hand`` is restored.
    """
    for k in range(N_KINDS):
        out[k] = 1 << 30
        if hand[k] > 0:
            hand[k] -= 1
            out[k] = penalty_memo(hand, round_number, wild_points, all_wild, table,
                                    scratch)[0]
            hand[k] += 1


@njit(cache=True)
def best_candidates(immediate: np.ndarray, round_number: int, wild_points: int,
                    how_many: int, out: np.ndarray) -> int:
    """The ``how_many`` kinds with the least immediate penalty (ties: more points first),
    written to ``out``; returns how many were written."""
    n = 0
    for _ in range(how_many):
        best = -1
        for k in range(N_KINDS):
            if immediate[k] >= 1 << 30:
                continue
            taken = False
            for j in range(n):
                if out[j] == k:
                    taken = True
            if taken:
                continue
            if best < 0 or immediate[k] < immediate[best] or (
                immediate[k] == immediate[best]
                and card_points(k, round_number, wild_points)
                > card_points(best, round_number, wild_points)
            ):
                best = k
        if best < 0:
            break
        out[n] = best
        n += 1
    return n


@njit(cache=True, inline="always")
def _ranks_before(k: int, best: int, round_number: int, wild_points: int) -> bool:
    """Whether :func:`best_candidates` ranks ``k`` before ``best`` at an equal penalty:
    more points first, then the lower kind."""
    points, best_points = (card_points(k, round_number, wild_points),
                           card_points(best, round_number, wild_points))
    return points > best_points or (points == best_points and k < best)


@njit(cache=True)
def best_discard_now(hand: np.ndarray, round_number: int, wild_points: int, all_wild: bool,
                     table: np.ndarray, scratch: np.ndarray) -> tuple[int, int]:
    """The discard :func:`best_candidates` ranks first, and the penalty it leaves: in one
    search of the hand where ranking every discard takes one per kind held.

    ``hand`` (``int8[56]``, n+1 cards, not empty) is restored. The search
    (:func:`fcsim.core.solver.discard_memo`) breaks ties as :func:`best_candidates` does
    (more points, then the lower kind) except that it prefers a natural card to a wild;
    so each wild held that would rank first at an equal penalty — the joker, and the
    lowest kind of the wild rank — is tried on its own.
    """
    best, pen = discard_memo(hand, round_number, wild_points, all_wild, table, scratch,
                             np.int64(NO_KIND), np.int64(HUGE_PENALTY), hand_hash(hand))
    wild_pos = round_number - 1
    rank_wild = NO_KIND
    for s in range(N_SUITS):
        if rank_wild == NO_KIND and hand[kind_at(wild_pos, s)] > 0:
            rank_wild = kind_at(wild_pos, s)
    for k in (JOKER, rank_wild):
        if k in (NO_KIND, best) or hand[k] == 0 or not _ranks_before(k, best, round_number,
                                                                      wild_points):
            continue
        hand[k] -= 1
        left, _ = penalty_memo(hand, round_number, wild_points, all_wild, table, scratch)
        hand[k] += 1
        if left == pen:
            best = k
    return best, pen
