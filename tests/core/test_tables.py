"""The per-suit run table: pinned bytes, and entries checked against the reference."""

from __future__ import annotations

import numpy as np
import pytest

from fcsim.core.cards import kind_of
from fcsim.core.tables import (
    BOUND,
    FREE_ROWS,
    INFEASIBLE,
    MAX_WILDS,
    N_PATTERNS,
    NARROW,
    NO_CARD,
    WIDE_ROWS,
    build_run_table,
    build_solver_table,
    run_table,
    solver_table,
    table_digest,
)
from tests.reference.solver import reference_run_totals

RUN_TABLE_DIGEST = "6576c65c8a8e8ee65d8435cc400c216a69329a7b0ed423f5baa93719e4a4779f"
SOLVER_TABLE_DIGEST = "ce4011391762a58df9a3e38a6db26397d52aab90cd9304d0f1d238d3c4d8fca8"
HEARTS = 1


def pattern_cards(pattern: int) -> list[int]:
    """The hearts a base-3 pattern describes (rank 3 is the lowest digit)."""
    return [
        kind_of(rank, HEARTS)
        for i, rank in enumerate(range(3, 14))
        for _ in range(pattern // 3**i % 3)
    ]


def test_table_digest_pinned() -> None:
    """Any change to the table's bytes is deliberate: update the digest with it."""
    table = run_table()
    assert table.shape == (N_PATTERNS, 2 * BOUND) and table.dtype == np.uint8
    assert BOUND == MAX_WILDS + 1 == 17
    assert table_digest(table) == RUN_TABLE_DIGEST


def test_cached_table_equals_a_fresh_build() -> None:
    """The disk cache holds exactly what the builder makes."""
    assert np.array_equal(build_run_table(), run_table())


def check_pattern(table: np.ndarray, pattern: int, most_wilds: int = MAX_WILDS) -> None:
    """Row ``pattern`` for w = 0 … ``most_wilds``: exact-w entries match the reference, the
    second half of the row holds their prefix maximum."""
    best = 0
    for w, want in enumerate(reference_run_totals(pattern_cards(pattern), most_wilds)):
        assert table[pattern, w] == (INFEASIBLE if want is None else want), (pattern, w)
        best = max(best, want or 0)
        assert table[pattern, BOUND + w] == best, (pattern, w)


@pytest.mark.parametrize(
    ("ranks", "most_wilds"),
    [
        ([], MAX_WILDS),
        ([3], MAX_WILDS),
        ([13], MAX_WILDS),
        ([3, 4, 5], MAX_WILDS),
        ([3, 3, 4, 4, 5, 5], MAX_WILDS),
        ([5, 9], MAX_WILDS),  # a gap of three wilds
        ([5, 10], MAX_WILDS),  # a gap of four: two runs, or one with four wilds
        ([3, 3, 13, 13], MAX_WILDS),
        ([7, 7, 8, 8, 9, 9, 10, 10], MAX_WILDS),
        (list(range(3, 14)), 6),  # the whole suit: an 11-card run
        ([*range(3, 14), 3], 6),  # 12 cards: no 12-card run
        ([*range(3, 14), 8, 13], 6),
    ],
)
def test_table_rows_named(ranks: list[int], most_wilds: int) -> None:
    """Hand-picked rows: ends of the rank range, duplicates, gaps, full suits."""
    check_pattern(run_table(), sum(3 ** (r - 3) for r in ranks), most_wilds)


def test_table_rows_sampled() -> None:
    """Seeded random rows of up to 11 cards; every wild count 0 … 16 for rows of up to 6."""
    rng = np.random.default_rng(8)
    table = run_table()
    for _ in range(200):
        digits = rng.choice(3, size=11, p=[0.45, 0.4, 0.15])
        while digits.sum() > 11:
            digits[rng.integers(11)] = 0
        pattern = int(sum(int(d) * 3**i for i, d in enumerate(digits)))
        check_pattern(table, pattern, MAX_WILDS if digits.sum() <= 6 else 6)


def test_empty_pattern() -> None:
    """No naturals: no run at all, so only w = 0 is feasible."""
    row = run_table()[0]
    assert row[0] == 0
    assert (row[1 : MAX_WILDS + 1] == INFEASIBLE).all()
    assert (row[BOUND:] == 0).all()


def test_solver_table_digest_pinned() -> None:
    """The kernels' layout is a pure function of the run table; its bytes are pinned too."""
    table = solver_table()
    assert table.shape == (4 * N_PATTERNS, 2 * NARROW) and table.dtype == np.uint8
    assert table_digest(table) == SOLVER_TABLE_DIGEST
    assert np.array_equal(build_solver_table(run_table()), table)


def check_solver_rows(pattern: int) -> None:
    """The narrow and wide rows repeat the run table; the free-card rows match the reference
    (best runs with one natural left out, plus its points; the higher card on ties)."""
    table, runs = solver_table(), run_table()
    for w in range(MAX_WILDS + 1):
        if w < NARROW:
            assert table[pattern, w] == runs[pattern, w]
            assert table[pattern, NARROW + w] == runs[pattern, BOUND + w]
        else:
            assert table[WIDE_ROWS + 2 * pattern, w - NARROW] == runs[pattern, w]
            assert table[WIDE_ROWS + 2 * pattern + 1, w - NARROW] == runs[pattern, BOUND + w]
    cards = pattern_cards(pattern)
    for w in range(NARROW):
        best, card = None, None
        for left_out in sorted(set(cards)):
            rest = list(cards)
            rest.remove(left_out)
            got = reference_run_totals(rest, w)[w]
            points = left_out % 11 + 3
            if got is not None and (best is None or (got + points, points) > (best, card)):
                best, card = got + points, points
        row = table[FREE_ROWS + pattern]
        assert (row[w], row[NARROW + w]) == ((NO_CARD, NO_CARD) if best is None else (best, card))


def test_solver_rows_sampled() -> None:
    """Seeded random patterns of up to 8 cards, plus the empty and a full one."""
    rng = np.random.default_rng(9)
    patterns = [0, sum(3**i for i in range(11))]
    for _ in range(60):
        digits = rng.choice(3, size=11, p=[0.6, 0.3, 0.1])
        while digits.sum() > 8:
            digits[rng.integers(11)] = 0
        patterns.append(int(sum(int(d) * 3**i for i, d in enumerate(digits))))
    for pattern in patterns:
        check_solver_rows(pattern)
