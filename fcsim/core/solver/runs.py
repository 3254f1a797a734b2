"""Runs: reads of the solver table and the max-plus convolutions over the five suits.

Runs never cross suits, so the best runs of a hand with ``w`` wilds are the best split
of the wilds between the suits: ``runs[w] = max over b of runs_before[w - b] + row[b]``,
suit after suit (:mod:`fcsim.core.tables` has each suit pattern's row). The penalty
search needs the exact totals (:func:`convolve_runs`) or the best with *at most* a budget
of wilds (:func:`runs_upto`); the one-pass discard search needs them scaled as parts of
its key, and with one natural card left out for free (:func:`convolve_free`). Small
budgets are convolved in registers.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from fcsim.core.cards import N_SUITS
from fcsim.core.solver.hand import unpack
from fcsim.core.solver.key import free_part, scaled
from fcsim.core.solver.layout import FREE, RUNS, SUIT_LEFT, at, ix
from fcsim.core.tables import FREE_ROWS, INFEASIBLE, NARROW, NO_CARD, RUN_ROWS, WIDE_ROWS

NO_RUNS = -100000  # "no runs with exactly this many wilds", far below any sum of totals
NO_SCALED_RUNS = -(1 << 40)  # the same among scaled totals
SMALL_BUDGET = 3  # budgets up to this are convolved in registers …
_SMALL_FREE_BUDGET = 2  # … and these with one natural card left out


@njit(cache=True, inline="always")
def exact(table: np.ndarray, pat: int, w: int) -> int:
    """A suit's best run total with exactly ``w`` wilds, or ``NO_RUNS``."""
    if w < NARROW:
        v = table[ix(RUN_ROWS + pat), ix(w)]
    else:
        v = table[ix(WIDE_ROWS + 2 * pat), ix(w - NARROW)]
    return NO_RUNS if v == INFEASIBLE else int(v)


@njit(cache=True, inline="always")
def best_upto(table: np.ndarray, pat: int, budget: int) -> int:
    """A suit's best run total with at most ``budget`` wilds."""
    if budget < NARROW:
        return int(table[ix(RUN_ROWS + pat), ix(NARROW + budget)])
    return int(table[ix(WIDE_ROWS + 2 * pat + 1), ix(budget - NARROW)])


@njit(cache=True, inline="always")
def add_row(r0: int, r1: int, r2: int, r3: int, v0: int, v1: int, v2: int, v3: int
            ) -> tuple[int, int, int, int]:
    """Best totals with 0-3 wilds after adding one suit whose row gives ``v0``-``v3``
    (max-plus: ``r[w] = max_b r[w - b] + v[b]``)."""
    return (r0 + v0, max(r1 + v0, r0 + v1), max(max(r2 + v0, r1 + v1), r0 + v2),
            max(max(r3 + v0, r2 + v1), max(r1 + v2, r0 + v3)))


@njit(cache=True, inline="always")
def runs_upto_small(table: np.ndarray, low_word: int, high_word: int
                    ) -> tuple[int, int, int, int]:
    """Best run total over the five suits (packed patterns) with at most 0, 1, 2 and 3
    wilds: the max-plus convolution of the rows' prefix maxima (never infeasible)."""
    r0, r1, r2, r3 = 0, 0, 0, 0
    for s in range(N_SUITS):
        row = ix(RUN_ROWS + unpack(low_word, high_word, s))
        r0, r1, r2, r3 = add_row(r0, r1, r2, r3, int(table[row, ix(NARROW)]),
                                 int(table[row, ix(NARROW + 1)]),
                                 int(table[row, ix(NARROW + 2)]),
                                 int(table[row, ix(NARROW + 3)]))
    return r0, r1, r2, r3


@njit(cache=True, inline="always")
def pick(r0: int, r1: int, r2: int, r3: int, budget: int) -> int:
    """The one of :func:`runs_upto_small`'s totals for ``budget`` (0-3)."""
    return r0 if budget == 0 else r1 if budget == 1 else r2 if budget == 2 else r3


@njit(cache=True, inline="always")
def runs_upto(table: np.ndarray, low_word: int, high_word: int, budget: int,
              scratch: np.ndarray) -> int:
    """Best run total over the five suits (packed patterns) with at most ``budget``
    wilds (:func:`runs_upto_small` up to 3, else a loop over the budget)."""
    if budget <= SMALL_BUDGET:
        r0, r1, r2, r3 = runs_upto_small(table, low_word, high_word)
        return pick(r0, r1, r2, r3, budget)
    for w in range(budget + 1):
        scratch[at(RUNS, w)] = 0
    for s in range(N_SUITS):
        pat = unpack(low_word, high_word, s)
        for w in range(budget, -1, -1):
            best = 0
            for b in range(w + 1):
                best = max(best, scratch[at(RUNS, w - b)] + best_upto(table, pat, b))
            scratch[at(RUNS, w)] = best
    return scratch[at(RUNS, budget)]


@njit(cache=True, inline="always")
def _clip(total: int, none: int) -> int:
    """``total``, or ``none`` when it is a sum with a "no runs" in it."""
    return total if total > none // 2 else none


@njit(cache=True, inline="always")
def _convolve_small(scratch: np.ndarray, table: np.ndarray, budget: int) -> None:
    """:func:`convolve_runs` for budgets of 0–3 wilds, kept in registers."""
    r0, r1, r2, r3 = 0, NO_RUNS, NO_RUNS, NO_RUNS
    for s in range(N_SUITS):
        pat = scratch[at(SUIT_LEFT, s)]
        if pat == 0:
            continue
        v0 = int(table[ix(RUN_ROWS + pat), ix(0)])  # never infeasible: no runs at all
        if budget == 0:
            r0 += v0
            continue
        r0, r1, r2, r3 = add_row(r0, r1, r2, r3, v0, exact(table, pat, 1),
                                 exact(table, pat, 2), exact(table, pat, 3))
    scratch[at(RUNS, 0)] = r0
    scratch[at(RUNS, 1)] = _clip(r1, NO_RUNS)
    scratch[at(RUNS, 2)] = _clip(r2, NO_RUNS)
    scratch[at(RUNS, 3)] = _clip(r3, NO_RUNS)


@njit(cache=True, inline="always")
def convolve_runs(scratch: np.ndarray, table: np.ndarray, budget: int) -> None:
    """Best run total for exactly w = 0…budget wilds over the suits left (max-plus).

    In place, from the top: ``runs[w] = max_b runs[w - b] + row[b]`` only reads entries
    below ``w``, which still hold the previous suits' totals.
    """
    if budget <= SMALL_BUDGET:
        _convolve_small(scratch, table, budget)
        return
    scratch[at(RUNS, 0)] = 0
    for w in range(1, budget + 1):
        scratch[at(RUNS, w)] = NO_RUNS
    for s in range(N_SUITS):
        pat = scratch[at(SUIT_LEFT, s)]
        if pat == 0:
            continue
        for w in range(budget, -1, -1):
            best = NO_RUNS
            for b in range(w + 1):
                v = exact(table, pat, b)
                have = scratch[at(RUNS, w - b)]
                if v != NO_RUNS and have != NO_RUNS and have + v > best:
                    best = have + v
            scratch[at(RUNS, w)] = best


@njit(cache=True, inline="always")
def _scaled_runs(table: np.ndarray, pat: int, w: int) -> int:
    """A suit's best run total with exactly ``w`` (< NARROW) wilds, scaled, or
    ``NO_SCALED_RUNS``."""
    v = table[ix(RUN_ROWS + pat), ix(w)]
    return NO_SCALED_RUNS if v == INFEASIBLE else scaled(int(v))


@njit(cache=True, inline="always")
def _scaled_free(table: np.ndarray, pat: int, w: int, suit: int) -> int:
    """A suit's best runs with one natural card left out, as a key part
    (:func:`fcsim.core.solver.key.free_part`), or ``NO_SCALED_RUNS``."""
    f = table[ix(FREE_ROWS + pat), ix(w)]
    if f == NO_CARD:
        return NO_SCALED_RUNS
    return free_part(int(f), int(table[ix(FREE_ROWS + pat), ix(NARROW + w)]), suit)


@njit(cache=True, inline="always")
def _convolve_free_small(scratch: np.ndarray, table: np.ndarray, budget: int) -> None:
    """:func:`convolve_free` for budgets of 0–2 wilds, kept in registers."""
    r0, r1, r2 = 0, NO_SCALED_RUNS, NO_SCALED_RUNS
    f0, f1, f2 = NO_SCALED_RUNS, NO_SCALED_RUNS, NO_SCALED_RUNS
    for s in range(N_SUITS):
        pat = scratch[at(SUIT_LEFT, s)]
        if pat == 0:
            continue
        v0 = _scaled_runs(table, pat, 0)
        g0 = _scaled_free(table, pat, 0, s)
        if budget >= 1:
            v1 = _scaled_runs(table, pat, 1)
            g1 = _scaled_free(table, pat, 1, s)
            if budget >= 2:
                v2 = _scaled_runs(table, pat, 2)
                g2 = _scaled_free(table, pat, 2, s)
                f2 = max(max(max(f2 + v0, f1 + v1), max(f0 + v2, r2 + g0)),
                         max(r1 + g1, r0 + g2))
                r2 = max(max(r2 + v0, r1 + v1), r0 + v2)
            f1 = max(max(f1 + v0, f0 + v1), max(r1 + g0, r0 + g1))
            r1 = max(r1 + v0, r0 + v1)
        f0 = max(f0 + v0, r0 + g0)
        r0 += v0
    scratch[at(RUNS, 0)] = r0
    scratch[at(FREE, 0)] = _clip(f0, NO_SCALED_RUNS)
    scratch[at(RUNS, 1)] = _clip(r1, NO_SCALED_RUNS)
    scratch[at(FREE, 1)] = _clip(f1, NO_SCALED_RUNS)
    scratch[at(RUNS, 2)] = _clip(r2, NO_SCALED_RUNS)
    scratch[at(FREE, 2)] = _clip(f2, NO_SCALED_RUNS)


@njit(cache=True, inline="always")
def convolve_free(scratch: np.ndarray, table: np.ndarray, budget: int) -> None:
    """Over the suits left, for exactly w = 0…budget (< NARROW) wilds in runs:
    ``runs[w]`` = the best run total, scaled, and ``free[w]`` = the best of the runs and
    one natural card left out of them as a key part (``NO_SCALED_RUNS`` when none)."""
    if budget <= _SMALL_FREE_BUDGET:
        _convolve_free_small(scratch, table, budget)
        return
    for w in range(budget + 1):
        scratch[at(RUNS, w)] = NO_SCALED_RUNS
        scratch[at(FREE, w)] = NO_SCALED_RUNS
    scratch[at(RUNS, 0)] = 0
    for s in range(N_SUITS):
        pat = scratch[at(SUIT_LEFT, s)]
        if pat == 0:
            continue
        for w in range(budget, -1, -1):
            keep = NO_SCALED_RUNS
            free = NO_SCALED_RUNS
            for b in range(w + 1):
                have = scratch[at(RUNS, w - b)]
                v = _scaled_runs(table, pat, b)
                keep = max(keep, have + v)
                free = max(free, max(scratch[at(FREE, w - b)] + v,
                                     have + _scaled_free(table, pat, b, s)))
            scratch[at(RUNS, w)] = _clip(keep, NO_SCALED_RUNS)
            scratch[at(FREE, w)] = _clip(free, NO_SCALED_RUNS)
