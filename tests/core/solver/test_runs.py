"""The max-plus convolutions over the five suits, against a direct split of the wilds."""

from __future__ import annotations

from itertools import product

import numpy as np

from fcsim.core.cards import N_SUITS, rank_at
from fcsim.core.solver import new_scratch
from fcsim.core.solver.hand import LOW_SUITS, PACK_BITS
from fcsim.core.solver.key import free_part, scaled
from fcsim.core.solver.layout import FREE, RUNS, SUIT_LEFT, at
from fcsim.core.solver.runs import (
    NO_RUNS,
    NO_SCALED_RUNS,
    convolve_free,
    convolve_runs,
    runs_upto,
)
from fcsim.core.tables import INFEASIBLE, N_PATTERNS, NARROW, run_table, solver_table

RNG = np.random.default_rng(13)


def sparse_patterns() -> list[int]:
    """Five suit patterns, each holding a few cards or none."""
    out = []
    for _ in range(N_SUITS):
        digits = [int(d) for d in RNG.choice(3, 11, p=[0.65, 0.28, 0.07])]
        out.append(0 if RNG.random() < 0.3 else sum(d * 3**i for i, d in enumerate(digits)))
    return out


def splits(total: int):
    """Every way to give ``total`` wilds to the five suits."""
    for split in product(range(total + 1), repeat=N_SUITS - 1):
        if sum(split) <= total:
            yield (*split, total - sum(split))


def exact_best(patterns: list[int], wilds: int) -> int | None:
    """The best run total with exactly ``wilds`` wilds in runs, by trying every split."""
    table, best = run_table(), None
    for split in splits(wilds):
        row = [int(table[p, w]) for p, w in zip(patterns, split, strict=True)]
        if INFEASIBLE not in row:
            best = max(best or 0, sum(row))
    return best


def load(scratch: np.ndarray, patterns: list[int]) -> tuple[int, int]:
    for s, p in enumerate(patterns):
        scratch[at(SUIT_LEFT, s)] = p
    low = sum(p << (PACK_BITS * s) for s, p in enumerate(patterns[:LOW_SUITS]))
    high = sum(p << (PACK_BITS * s) for s, p in enumerate(patterns[LOW_SUITS:]))
    return low, high


def test_convolve_runs_and_runs_upto() -> None:
    scratch, table = new_scratch(), solver_table()
    for _ in range(40):
        patterns = sparse_patterns()
        budget = int(RNG.integers(0, 7))
        low, high = load(scratch, patterns)
        convolve_runs(scratch, table, budget)
        exact = [exact_best(patterns, w) for w in range(budget + 1)]
        assert [scratch[at(RUNS, w)] for w in range(budget + 1)] == [
            NO_RUNS if v is None else v for v in exact]
        assert runs_upto(table, low, high, budget, scratch) == max(v or 0 for v in exact)


def test_runs_across_the_wide_rows() -> None:
    """Budgets either side of ``NARROW``, where the table's narrow rows hand over to the wide
    ones: exact totals and the best with at most the budget still match a direct split."""
    scratch, table = new_scratch(), solver_table()
    four_five = 3**1 + 3**2  # one suit's 4 and 5: its row is just below the one adding the 3
    cases = [[four_five, 0, 0, 0, 0]] * 3 + [sparse_patterns() for _ in range(6)]
    for budget, patterns in zip([NARROW - 1, NARROW, NARROW + 1] * 3, cases, strict=True):
        low, high = load(scratch, patterns)
        exact = [exact_best(patterns, w) for w in range(budget + 1)]
        assert runs_upto(table, low, high, budget, scratch) == max(v or 0 for v in exact)
        convolve_runs(scratch, table, budget)
        assert [scratch[at(RUNS, w)] for w in range(budget + 1)] == [
            NO_RUNS if v is None else v for v in exact]


def test_convolve_free_leaves_the_best_natural_out() -> None:
    """``free[w]``: the best over suits and naturals of the runs of the hand with that card
    left out, plus the card, as a key part (ties to the higher card, then lower suit)."""
    scratch, table = new_scratch(), solver_table()
    for budget in [b for b in range(NARROW) for _ in range(8 if b < 3 else 2)]:
        patterns = sparse_patterns()
        load(scratch, patterns)
        convolve_free(scratch, table, budget)
        for w in range(budget + 1):
            runs = exact_best(patterns, w)
            assert scratch[at(RUNS, w)] == (NO_SCALED_RUNS if runs is None else scaled(runs))
            best = NO_SCALED_RUNS
            for s, p in enumerate(patterns):
                for i in range(11):
                    if p // 3**i % 3:
                        rest = [*patterns[:s], p - 3**i, *patterns[s + 1:]]
                        got = exact_best(rest, w)
                        if got is not None:
                            best = max(best, free_part(got + rank_at(i), rank_at(i), s))
            assert scratch[at(FREE, w)] == best, (patterns, w)


def test_patterns_fit_their_packed_fields() -> None:
    assert N_PATTERNS <= 1 << PACK_BITS
