"""The work space: regions laid out one after the other, records inside their regions."""

from __future__ import annotations

from itertools import pairwise

import numpy as np

from fcsim.core.cards import N_RANKS, N_SUITS
from fcsim.core.solver import layout
from fcsim.core.solver.layout import (
    CAND_WIDTH,
    ENTRY_WIDTH,
    HAND_WORDS,
    MAX_NEED,
    MEMO_SLOTS,
    MEMO_WIDTH,
    OPT_WIDTH,
    SCRATCH_SIZE,
    SLICE,
    Cand,
    Entry,
    Memo,
    Opt,
    candidate,
    entry,
    memo_at,
    new_scratch,
    option,
)
from fcsim.core.tables import MAX_WILDS, NARROW


def test_regions_follow_each_other_and_fill_the_array() -> None:
    starts = [layout.SUIT_RANKS, layout.SUIT_LEFT, layout.RUNS, layout.FREE,
              layout._CANDIDATES, layout.SHIFTS, layout.PLAN_BOOKS, layout._OPTIONS,
              layout._ENTRIES, layout._MEMO, SCRATCH_SIZE]
    assert starts == sorted(starts) and starts[0] == 0
    assert [b - a for a, b in pairwise(starts)] == list(layout._SIZES)
    assert layout.PLAN_RUN_WILDS == layout.PLAN_BOOKS + N_RANKS < layout._OPTIONS


def test_regions_hold_what_the_kernels_index() -> None:
    """Runs by every wild count, the free runs below NARROW wilds, a shift per candidate
    and one more, a book per rank and the run wilds."""
    sizes = dict(zip(["suit ranks", "suit left", "runs", "free", "candidates", "shifts",
                      "plan", "options", "entries", "memo"], layout._SIZES, strict=True))
    assert sizes["suit ranks"] == sizes["suit left"] == N_SUITS
    assert sizes["runs"] == MAX_WILDS + 1 and sizes["free"] == NARROW
    assert sizes["candidates"] == N_RANKS * CAND_WIDTH
    assert sizes["shifts"] == sizes["plan"] == N_RANKS + 1


def test_records_stay_in_their_region() -> None:
    """Every field of a record below its width; the first and last field of the first and
    last record of each region at its ends."""
    assert min(Memo) == HAND_WORDS  # the hand's words come first
    regions = [(candidate, N_RANKS, CAND_WIDTH, Cand.UPTO + MAX_NEED, layout._CANDIDATES,
                layout.SHIFTS),
               (option, (layout._ENTRIES - layout._OPTIONS) // OPT_WIDTH, OPT_WIDTH, max(Opt),
                layout._OPTIONS, layout._ENTRIES),
               (entry, 2 * SLICE, ENTRY_WIDTH, max(Entry), layout._ENTRIES, layout._MEMO),
               (memo_at, MEMO_SLOTS, MEMO_WIDTH, max(Memo), layout._MEMO, SCRATCH_SIZE)]
    for index, count, width, last_field, start, end in regions:
        assert last_field == width - 1
        assert index(0, 0) == start and index(count - 1, width - 1) == end - 1


def test_new_scratch_has_an_empty_memo() -> None:
    scratch = new_scratch()
    assert scratch.shape == (SCRATCH_SIZE,) and scratch.dtype == np.int64
    assert not scratch[layout._MEMO:].any()
