"""Books: the options of each candidate rank, from a table of every book a rank can make.

Books cross suits, so the solver enumerates them: for each rank holding at least two
natural cards (a *candidate*), either no book, or a book taking some of them (the others
stay for runs). An isolated natural card (see :func:`fcsim.core.solver.hand.isolated`)
always joins its rank's book when there is one; three or more of them make a book that
"no book" can never beat, so that option is dropped. A book with one natural card is a run
in disguise (the card plus 2–10 wilds), except that a book holds any number of wilds; that
matters only with all-wild melds off and 11 or more wilds, the one case where single-card
books are candidates too.

A candidate's options come from :data:`_BOOKS`, biggest first, so they go by the wilds
they need: its first ``upto[k]`` options need at most ``k`` wilds.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from fcsim.core.cards import MIN_MELD, N_SUITS, kind_at, rank_at
from fcsim.core.solver.bits import lowest_bit
from fcsim.core.solver.hand import LOW_SUITS, PACK_BITS, isolated
from fcsim.core.solver.layout import (
    CAND_WIDTH,
    MAX_NEED,
    OPT_WIDTH,
    SUIT_RANKS,
    Cand,
    Opt,
    at,
    candidate,
    ix,
    option,
)
from fcsim.core.tables import POW3

# A book of the table packs the copies it takes per suit (_COPY_BITS each, suit 0 lowest),
# its size, the suits whose copies it takes all, and its takes as a base-3 number over
# suits (the plan's form), at these bit positions:
_COPY_BITS = 2
_BOOK_SIZE = _COPY_BITS * N_SUITS
_SIZE_BITS = 4
_BOOK_FULL = _BOOK_SIZE + _SIZE_BITS
_BOOK_TAKES = _BOOK_FULL + N_SUITS
_LOW_COPIES = _COPY_BITS * LOW_SUITS  # bits of the copies of the low packed word's suits
_HIGH_COPIES = _COPY_BITS * (N_SUITS - LOW_SUITS)
_LOW_COPIES_MASK = (1 << _LOW_COPIES) - 1
_HIGH_COPIES_MASK = (1 << _HIGH_COPIES) - 1


def _rank_books() -> tuple[np.ndarray, np.ndarray]:
    """Every book one rank's natural cards can make, by the copies each suit holds
    (``held`` = sum of copies * 3**suit): entries ``start[held]`` to ``start[held + 1]``
    of ``books``, biggest first, packed as above."""
    books, start = [], [0]
    for held in range(3**N_SUITS):
        have = [held // 3**s % 3 for s in range(N_SUITS)]
        subs = []
        for t in np.ndindex(*[c + 1 for c in have]):
            if sum(t):
                full = sum(1 << s for s in range(N_SUITS) if t[s] == have[s])
                per_suit = sum(t[s] << (_COPY_BITS * s) for s in range(N_SUITS))
                base3 = sum(t[s] * 3**s for s in range(N_SUITS))
                subs.append((-sum(t), per_suit | sum(t) << _BOOK_SIZE | full << _BOOK_FULL
                             | base3 << _BOOK_TAKES))
        books += [entry for _, entry in sorted(subs)]
        start.append(len(books))
    return np.array(books, dtype=np.int32), np.array(start, dtype=np.int32)


_BOOKS, _BOOKS_START = _rank_books()
# One card per copy taken, packed like the patterns: suits 0-2 (a book's low copies) and
# suits 3-4 (its next ones); times 3**rank index, the book's pattern decrements.
_UNIT_LOW = np.array([sum((t >> (_COPY_BITS * s) & 3) << (PACK_BITS * s)
                          for s in range(LOW_SUITS)) for t in range(_LOW_COPIES_MASK + 1)],
                     dtype=np.int64)
_UNIT_HIGH = np.array([sum((t >> (_COPY_BITS * s) & 3) << (PACK_BITS * s)
                           for s in range(N_SUITS - LOW_SUITS))
                       for t in range(_HIGH_COPIES_MASK + 1)], dtype=np.int64)


@njit(cache=True, inline="always")
def book_size(book: int) -> int:
    """Cards of a book of :data:`_BOOKS`."""
    return (book >> _BOOK_SIZE) & ((1 << _SIZE_BITS) - 1)


@njit(cache=True, inline="always")
def book_full_suits(book: int) -> int:
    """The suits (a bit set) whose every copy a book of :data:`_BOOKS` takes."""
    return (book >> _BOOK_FULL) & ((1 << N_SUITS) - 1)


@njit(cache=True, inline="always")
def book_takes(book: int) -> int:
    """A book's takes as a base-3 number over suits (copies of suit s: digit s)."""
    return book >> _BOOK_TAKES


@njit(cache=True, inline="always")
def _no_book(scratch: np.ndarray, o: int) -> None:
    """Make option ``o`` "no book": it takes nothing and needs nothing."""
    for f in range(OPT_WIDTH):
        scratch[option(o, f)] = 0


@njit(cache=True, inline="always")
def book_options(counts: np.ndarray, wild_pos: int, n_wilds: int, min_book: int,
                 twice: int, at_least: int, scratch: np.ndarray) -> tuple[int, int]:
    """Store each candidate rank's book options in ``scratch``; returns how many
    candidates there are, and how many are stored: at least ``at_least``, padded with
    stand-ins that have one option, no book (at the wild rank, which has no book).

    Option 0 of a candidate is "no book" (unless dropped, see above); the others take a
    sub-multiset of the rank's cards holding every isolated one, biggest first.
    ``twice`` is the set of ranks with two or more natural cards (the only candidates
    unless single-card books are allowed: ``min_book`` 1). Candidates are sorted by
    their number of options, fewest first.
    """
    n_cand = 0
    n_stored = 0
    ranks = twice
    if min_book == 1:
        ranks = 0
        for s in range(N_SUITS):
            ranks |= scratch[at(SUIT_RANKS, s)]
    smallest = max(min_book, MIN_MELD - n_wilds)
    while ranks:
        i = lowest_bit(ranks)
        ranks &= ranks - 1
        held = 0  # copies per suit, base 3
        forced = 0  # suits whose copies are isolated: a book of this rank takes them
        n_forced = 0
        for s in range(N_SUITS):
            c = np.int64(counts[ix(kind_at(i, s))])
            alone = np.int64(isolated(scratch, s, i)) * np.int64(c > 0)
            held += c * POW3[ix(s)]
            forced |= alone << s
            n_forced += alone * c
        first = n_stored
        if n_forced < MIN_MELD:
            _no_book(scratch, n_stored)
            n_stored += 1
        upto0 = upto1 = n_stored - first  # options needing no wild, at most one
        for k in range(_BOOKS_START[ix(held)], _BOOKS_START[ix(held + 1)]):
            book = np.int64(_BOOKS[ix(k)])
            size = book_size(book)
            if size < smallest:
                break
            if book_full_suits(book) & forced != forced:
                continue
            units_low = _UNIT_LOW[ix(book & _LOW_COPIES_MASK)]
            units_high = _UNIT_HIGH[ix((book >> _LOW_COPIES) & _HIGH_COPIES_MASK)]
            scratch[option(n_stored, Opt.LOW)] = units_low * POW3[ix(i)]
            scratch[option(n_stored, Opt.HIGH)] = units_high * POW3[ix(i)]
            scratch[option(n_stored, Opt.NEED)] = max(0, MIN_MELD - size)
            scratch[option(n_stored, Opt.VALUE)] = size * rank_at(i)
            scratch[option(n_stored, Opt.TAKES)] = book_takes(book)
            n_stored += 1
            upto0 += size >= MIN_MELD
            upto1 += size >= MIN_MELD - 1
        if n_stored - first > 1 or scratch[option(first, Opt.VALUE)] > 0:
            scratch[candidate(n_cand, Cand.RANK)] = i
            scratch[candidate(n_cand, Cand.FIRST)] = first
            scratch[candidate(n_cand, Cand.UPTO)] = upto0
            scratch[candidate(n_cand, Cand.UPTO + 1)] = upto1
            scratch[candidate(n_cand, Cand.UPTO + MAX_NEED)] = n_stored - first
            n_cand += 1
        else:
            n_stored = first  # only "no book": nothing to choose
    n_real = n_cand
    _sort_candidates(scratch, n_cand)
    while n_cand < at_least:
        _no_book(scratch, n_stored)
        scratch[candidate(n_cand, Cand.RANK)] = wild_pos
        scratch[candidate(n_cand, Cand.FIRST)] = n_stored
        for k in range(MAX_NEED + 1):
            scratch[candidate(n_cand, Cand.UPTO + k)] = 1
        n_stored += 1
        n_cand += 1
    return n_real, n_cand


@njit(cache=True, inline="always")
def n_options(scratch: np.ndarray, c: int) -> int:
    """How many options candidate ``c`` has."""
    return scratch[candidate(c, Cand.UPTO + MAX_NEED)]


@njit(cache=True, inline="always")
def affordable(scratch: np.ndarray, c: int, spare: int) -> int:
    """How many of candidate ``c``'s options need no more than ``spare`` (>= 0) wilds."""
    return scratch[candidate(c, Cand.UPTO + min(spare, MAX_NEED))]


@njit(cache=True, inline="always")
def first_option(scratch: np.ndarray, c: int) -> int:
    """The number of candidate ``c``'s first option."""
    return scratch[candidate(c, Cand.FIRST)]


@njit(cache=True, inline="always")
def _sort_candidates(scratch: np.ndarray, n_cand: int) -> None:
    """Order the candidates by their number of options, fewest first: the last ones,
    with the most, are the ones the solver tries in place rather than lists."""
    for c in range(1, n_cand):
        j = c
        while j > 0 and n_options(scratch, j - 1) > n_options(scratch, j):
            for f in range(CAND_WIDTH):
                a, b = candidate(j - 1, f), candidate(j, f)
                scratch[a], scratch[b] = scratch[b], scratch[a]
            j -= 1
