"""The solver's work space: one int64 array, cut into named regions, some of records.

The kernels allocate nothing per call: they work in a caller's ``scratch`` array
(:func:`new_scratch`, ``SCRATCH_SIZE`` items). Its regions are laid out here, one after
the other, from their sizes, and reached only through the index functions below: item
``i`` of a plain region is ``scratch[at(RUNS, i)]``, a field of a record
``scratch[option(o, Opt.NEED)]``, the fields named by an ``IntEnum``. So no offset is
counted by hand anywhere else.

==============  ==============================================  ========================
region          holds                                           written by / read by
==============  ==============================================  ========================
``SUIT_RANKS``  per suit, the set of natural ranks held         hand / books, discard
``SUIT_LEFT``   per suit, the pattern left for runs             combos, penalty / runs
``RUNS``        best runs by exact wild count                   runs
``FREE``        … with one natural card left out for free       runs
candidates      a :class:`Cand` record per candidate book rank  books / combos, penalty
``SHIFTS``      where each candidate's choice sits in a code    combos
``PLAN_BOOKS``  the best arrangement's book per rank, then the  penalty / arrangement
                wilds in its runs (``PLAN_RUN_WILDS``)
options         an :class:`Opt` record per book option          books / combos, penalty
entries         two lists of :class:`Entry` records             combos / penalty, discard
memo            ``MEMO_SLOTS`` :class:`Memo` records            memo
==============  ==============================================  ========================
"""

from __future__ import annotations

from enum import IntEnum
from itertools import accumulate

import numpy as np
from numba import njit

from fcsim.core.cards import MIN_MELD, N_KINDS, N_RANKS, N_SUITS
from fcsim.core.tables import MAX_WILDS, NARROW

MAX_NEED = MIN_MELD - 1  # wilds a book can need: two, beside a single natural card
MAX_BOOK_OPTIONS = 243  # per rank: at most 3**5 sub-multisets of its cards
SLICE = 512  # most combinations of book options listed at once (see combos.fill_slice)
MEMO_SLOTS = 4096
KINDS_PER_WORD = np.dtype(np.int64).itemsize  # a hand packed one byte (of copies) a kind
HAND_WORDS = N_KINDS // KINDS_PER_WORD


@njit(cache=True)
def ix(i: int) -> np.uint64:
    """An array index as unsigned: numba reads a negative signed index from the end of the
    array, a check on every access (an eighth of a solve); the kernels' indices are
    never negative, and an unsigned one skips it."""
    return np.uint64(i)


@njit(cache=True, inline="always")
def at(region: int, i: int) -> np.uint64:
    """Where item ``i`` of the plain region starting at ``region`` is."""
    return ix(region + i)


# A candidate: its rank index, its first option, and how many of its options need at most
# 0, 1, …, MAX_NEED wilds (``Cand.UPTO + k``; the last is how many it has).
Cand = IntEnum("Cand", "RANK FIRST UPTO", start=0)
CAND_WIDTH = Cand.UPTO + MAX_NEED + 1


@njit(cache=True, inline="always")
def candidate(c: int, field: int) -> np.uint64:
    """Where ``field`` of candidate ``c``'s record is."""
    return ix(_CANDIDATES + c * CAND_WIDTH + field)


# A book option: its cards as decrements of the two packed pattern words (see hand.py),
# the wilds it needs, its rank total, its takes (copies per suit, base 3).
Opt = IntEnum("Opt", "LOW HIGH NEED VALUE TAKES", start=0)
OPT_WIDTH = len(Opt)


@njit(cache=True, inline="always")
def option(o: int, field: int) -> np.uint64:
    """Where ``field`` of book option ``o``'s record is (options are numbered across
    candidates)."""
    return ix(_OPTIONS + o * OPT_WIDTH + field)


# A combination of options: the patterns it leaves (packed), its books' wild need and rank
# total, its code (the options chosen), a bound on its penalty.
Entry = IntEnum("Entry", "LOW HIGH NEED VALUE CODE BOUND", start=0)
ENTRY_WIDTH = len(Entry)


@njit(cache=True, inline="always")
def entry(e: int, field: int) -> np.uint64:
    """Where ``field`` of combination entry ``e`` (``0 … 2 * SLICE - 1``: two lists) is."""
    return ix(_ENTRIES + e * ENTRY_WIDTH + field)


# A memo record: the hand in HAND_WORDS words (fields 0 …), the tag of the question
# (0 = empty), two answers.
Memo = IntEnum("Memo", "TAG FIRST SECOND", start=HAND_WORDS)
MEMO_WIDTH = Memo.SECOND + 1


@njit(cache=True, inline="always")
def memo_at(slot: int, field: int) -> np.uint64:
    """Where ``field`` (a hand word's number, or a :class:`Memo`) of memo record ``slot``
    is."""
    return ix(_MEMO + slot * MEMO_WIDTH + field)


_SIZES = (
    N_SUITS,  # suit ranks
    N_SUITS,  # suit left
    MAX_WILDS + 1,  # runs
    NARROW,  # free: the one-pass discard search stops below NARROW wilds
    N_RANKS * CAND_WIDTH,  # candidates: at most one per rank
    N_RANKS + 1,  # code shifts, and where the last choice ends
    N_RANKS + 1,  # plan: the book of each rank, then the wilds in runs
    N_RANKS * (MAX_BOOK_OPTIONS + 1) * OPT_WIDTH,  # options
    2 * SLICE * ENTRY_WIDTH,  # entries
    MEMO_SLOTS * MEMO_WIDTH,  # memo
)
(SUIT_RANKS, SUIT_LEFT, RUNS, FREE, _CANDIDATES, SHIFTS, PLAN_BOOKS, _OPTIONS, _ENTRIES,
 _MEMO, SCRATCH_SIZE) = accumulate(_SIZES, initial=0)
PLAN_RUN_WILDS = PLAN_BOOKS + N_RANKS  # read by fcsim.core.arrangement, with PLAN_BOOKS


def new_scratch() -> np.ndarray:
    """A work array for the kernels (reuse it across calls): memo empty, the rest free."""
    scratch = np.empty(SCRATCH_SIZE, dtype=np.int64)
    scratch[_MEMO:] = 0
    return scratch
