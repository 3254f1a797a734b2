"""Combinations of book options: their codes, and lists of them a slice at a time."""

from __future__ import annotations

import numpy as np

from fcsim.core.arrangement import solve
from fcsim.core.cards import JOKER, N_KINDS, kind_of, wild_index
from fcsim.core.solver import new_scratch
from fcsim.core.solver.books import book_options
from fcsim.core.solver.combos import NO_OPTION, choice, fill_slice, slicing
from fcsim.core.solver.hand import read_hand
from fcsim.core.solver.layout import Entry, Opt, entry, option
from tests.core.solver.hands import (
    VARIANTS,
    fc_discard,
    fc_penalty,
    problems,
    ref_discard,
    ref_penalty,
)


def book_heavy_hand(rng: np.random.Generator, round_number: int) -> list[int]:
    """A joker, a wild and six ranks, each in three suits."""
    low = int(rng.integers(0, 5))
    ranks = [r for r in range(low, low + 7) if r != round_number - 1][:6]
    kinds = [JOKER, kind_of(round_number + 2, 1)]
    for r in ranks:
        kinds += [kind_of(r + 3, int(s)) for s in rng.permutation(5)[:3]]
    return kinds


def candidates(kinds: list[int], round_number: int, n_wilds: int, scratch: np.ndarray
               ) -> tuple[int, int, int]:
    """Book options of the hand into ``scratch``: (candidates, packed pattern words)."""
    counts = np.bincount(np.array(kinds), minlength=N_KINDS).astype(np.int8)
    _, _, _, twice, low, high = read_hand(counts, wild_index(round_number), scratch)
    _, n_cand = book_options(counts, wild_index(round_number), n_wilds, 2, twice, 2, scratch)
    return n_cand, low, high


def test_book_heavy_hands_taken_a_slice_at_a_time() -> None:
    """Hands whose book combinations overflow one list (several ranks with three or more
    cards and wilds to spare) are solved a slice at a time, still exactly."""
    rng = np.random.default_rng(41)
    scratch = new_scratch()
    sliced = 0
    for i in range(60):
        round_number = int(rng.integers(1, 12))
        kinds = book_heavy_hand(rng, round_number)
        rules = VARIANTS[i % len(VARIANTS)]
        assert fc_penalty(kinds, round_number, rules) == ref_penalty(kinds, round_number, rules)
        assert fc_discard(kinds, round_number, rules) == ref_discard(kinds, round_number, rules)
        assert problems(kinds, solve(kinds, round_number, rules), round_number, rules) == []
        n_cand, _, _ = candidates(kinds, round_number, 2, scratch)
        n_outer, _ = slicing(scratch, n_cand, n_cand - 2)
        sliced += n_outer > 0
    assert sliced >= 5, sliced  # the slices are exercised, not only the one list


def test_codes_name_the_options_of_their_entries() -> None:
    """Over every slice, each listed combination's code decodes (choice) to options whose
    needs and values add up to the entry's; the ones it leaves out cost too many wilds."""
    rng = np.random.default_rng(42)
    scratch = new_scratch()
    for _ in range(20):
        round_number = int(rng.integers(1, 12))
        n_wilds = 2
        n_cand, low, high = candidates(book_heavy_hand(rng, round_number), round_number,
                                       n_wilds, scratch)
        n_outer, outer_codes = slicing(scratch, n_cand, n_cand)
        listed = 0
        for outer_code in range(outer_codes):
            start, n = fill_slice(scratch, n_outer, n_cand, outer_code, n_wilds, low, high)
            listed += n
            for e in range(start, start + n):
                code = int(scratch[entry(e, Entry.CODE)])
                chosen = [choice(scratch, c, code) for c in range(n_cand)]
                assert NO_OPTION not in chosen
                need = sum(int(scratch[option(o, Opt.NEED)]) for o in chosen)
                value = sum(int(scratch[option(o, Opt.VALUE)]) for o in chosen)
                assert need == scratch[entry(e, Entry.NEED)] <= n_wilds
                assert value == scratch[entry(e, Entry.VALUE)]
        assert listed > 0
