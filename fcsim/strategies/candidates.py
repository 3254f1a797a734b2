"""Shared helpers: what taking the visible discard is worth, and discard candidates ranked
by the penalty they leave right now."""

from __future__ import annotations

import numpy as np
from numba import njit

from fcsim.core.cards import N_KINDS, card_points
from fcsim.core.solver import discard_kernel_late, penalty_memo
from fcsim.core.solver.hand import HUGE_PENALTY


@njit(cache=True)
def pile_outlook(hand: np.ndarray, pile: np.ndarray, round_number: int, wild_points: int,
                 all_wild: bool, table: np.ndarray, scratch: np.ndarray) -> tuple[int, int]:
    """(penalty of ``hand`` now, least penalty after taking the pile's top card and
    discarding the best card). Discarding the top card again keeps today's penalty, so the
    search only looks for something better.

    ``hand`` is ``int8[56]`` (n cards; restored), ``pile`` the pile's kinds bottom first
    (``int8[k]``, k ≥ 1: its top is ``pile[k - 1]``).
    """
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
    """``out[k]`` = penalty of ``hand`` less one ``k`` for each kind held, else HUGE_PENALTY.

    ``hand`` is ``int8[56]``; ``out`` is ``int64[56]``; ``hand`` is restored.
    """
    for k in range(N_KINDS):
        out[k] = HUGE_PENALTY
        if hand[k] > 0:
            hand[k] -= 1
            out[k] = penalty_memo(hand, round_number, wild_points, all_wild, table,
                                    scratch)[0]
            hand[k] += 1


@njit(cache=True)
def best_candidates(immediate: np.ndarray, round_number: int, wild_points: int,
                    how_many: int, out: np.ndarray) -> int:
    """The ``how_many`` kinds with the least immediate penalty (ties: more points first),
    written to ``out``; returns how many were written.

    ``immediate`` is ``int64[56]`` from :func:`immediate_penalties`; ``out`` is
    ``int64[how_many]``, best first.
    """
    n = 0
    for _ in range(how_many):
        best = -1
        for k in range(N_KINDS):
            if immediate[k] >= HUGE_PENALTY:
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
