"""The table of the books one rank can make, and the options of each candidate rank."""

from __future__ import annotations

import numpy as np

from fcsim.core.cards import N_SUITS, parse_hand, wild_index
from fcsim.core.solver import new_scratch
from fcsim.core.solver.books import (
    _BOOKS,
    _BOOKS_START,
    _UNIT_HIGH,
    _UNIT_LOW,
    affordable,
    book_full_suits,
    book_options,
    book_size,
    book_takes,
    n_options,
)
from fcsim.core.solver.hand import LOW_SUITS, PACK_BITS, read_hand
from fcsim.core.solver.layout import Cand, Opt, candidate, option


def test_rank_books_list_every_book_biggest_first() -> None:
    """Every non-empty sub-multiset of a rank's cards exactly once, biggest first, with its
    size, fully-taken suits, takes, and the copies it takes from each packed word."""
    for held in range(3**N_SUITS):
        have = [held // 3**s % 3 for s in range(N_SUITS)]
        listed = [int(b) for b in _BOOKS[_BOOKS_START[held]:_BOOKS_START[held + 1]]]
        takes = [tuple(book_takes(b) // 3**s % 3 for s in range(N_SUITS)) for b in listed]
        expected = {t for t in np.ndindex(*[c + 1 for c in have]) if sum(t)}
        assert sorted(takes) == sorted(expected) and len(takes) == len(expected)
        sizes = [book_size(b) for b in listed]
        assert sizes == [sum(t) for t in takes] and sizes == sorted(sizes, reverse=True)
        for b, t in zip(listed, takes, strict=True):
            assert book_full_suits(b) == sum(1 << s for s in range(N_SUITS) if t[s] == have[s])
            low = sum(t[s] << (PACK_BITS * s) for s in range(LOW_SUITS))
            high = sum(t[s] << (PACK_BITS * (s - LOW_SUITS)) for s in range(LOW_SUITS, N_SUITS))
            assert _UNIT_LOW[b & 63] == low and _UNIT_HIGH[(b >> 6) & 15] == high


def options_of(hand: str, round_number: int, n_wilds: int) -> list[list[tuple[int, ...]]]:
    """Each candidate's options as (need, value, takes), and checks of its counts."""
    counts, scratch = parse_hand(hand), new_scratch()
    _, _, _, twice, _, _ = read_hand(counts, wild_index(round_number), scratch)
    n_cand, _ = book_options(counts, wild_index(round_number), n_wilds, 2, twice, 0, scratch)
    out = []
    for c in range(n_cand):
        first = int(scratch[candidate(c, Cand.FIRST)])
        opts = [tuple(int(scratch[option(first + j, f)]) for f in (Opt.NEED, Opt.VALUE,
                                                                    Opt.TAKES))
                for j in range(n_options(scratch, c))]
        for spare in range(4):
            assert affordable(scratch, c, spare) == sum(need <= spare for need, _, _ in opts)
        out.append(opts)
    return out


def test_isolated_cards_always_join_their_book() -> None:
    """Three isolated sevens: the full book only ("no book" can never beat it)."""
    assert options_of("7H 7S 7D", 1, 0) == [[(0, 21, 1 + 3 + 9)]]
    # 7H has a neighbour, 7S none: without wilds the pair is no book, so nothing to choose.
    assert options_of("7H 8H 7S", 1, 0) == []
    # With a wild: no book, or both sevens (the isolated 7S always in), needing one wild.
    assert options_of("7H 8H 7S", 1, 1) == [[(0, 0, 0), (1, 14, 1 + 3)]]


def test_candidates_sorted_by_number_of_options() -> None:
    counts = [len(opts) for opts in options_of("5H 6H 5S 5D 9H 10H 9S 9D 9C JK", 1, 1)]
    assert counts == sorted(counts) and len(counts) == 2
