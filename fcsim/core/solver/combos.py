"""Combinations of book options: their codes, and lists of them a slice at a time.

A *combination* takes one option per candidate (see :mod:`fcsim.core.solver.books`). Its
*code* holds each candidate's option number in a few bits. The candidates with the most
options are tried by the searches themselves; the others are listed here, the
affordable combinations only, at most ``SLICE`` at once: if there are more, the first
candidates (the *outer* ones) are taken one combination at a time, each time listing the
rest (usually no candidate is outer).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from fcsim.core.cards import N_RANKS, N_SUITS
from fcsim.core.solver.books import affordable, first_option, n_options
from fcsim.core.solver.hand import HUGE_PENALTY, unpack
from fcsim.core.solver.layout import (
    PLAN_BOOKS,
    PLAN_RUN_WILDS,
    SHIFTS,
    SLICE,
    SUIT_LEFT,
    Cand,
    Entry,
    Opt,
    at,
    candidate,
    entry,
    ix,
    option,
)
from fcsim.core.solver.runs import best_upto

NO_OPTION = -1
# Bits a choice among n options takes in a combination's code (n <= 3**5 + 1).
_CODE_BITS = np.array([max(0, n - 1).bit_length() for n in range(256)], dtype=np.int64)


@njit(cache=True, inline="always")
def slicing(scratch: np.ndarray, n_cand: int, n_listed: int) -> tuple[int, int]:
    """Split the candidates below ``n_listed`` in two: the last ones, with at most
    ``SLICE`` combinations of options, are listed whole by :func:`fill_slice`; the
    first ``n_outer`` are taken one combination at a time.

    Also lays out a combination's code: candidate ``c``'s option in bits ``shift[c]`` to
    ``shift[c + 1]``, candidate 0 lowest (at most 30 bits: a rank's options number at most
    2**k for its k cards, and a hand has at most 20).

    Returns (n_outer, the number of codes of the outer candidates' bits).
    """
    n_outer = n_listed
    inner = 1
    while n_outer > 0 and inner * n_options(scratch, n_outer - 1) <= SLICE:
        n_outer -= 1
        inner *= n_options(scratch, n_outer)
    shift = 0
    for c in range(n_cand):
        scratch[at(SHIFTS, c)] = shift
        shift += _CODE_BITS[ix(n_options(scratch, c))]
    scratch[at(SHIFTS, n_cand)] = shift
    return n_outer, 1 << scratch[at(SHIFTS, n_outer)]


@njit(cache=True, inline="always")
def choice(scratch: np.ndarray, c: int, code: int) -> int:
    """The option candidate ``c`` takes in the combination ``code`` (``NO_OPTION`` when the
    code's bits name none: the outer codes have gaps)."""
    shift = scratch[at(SHIFTS, c)]
    o = (code >> shift) & ((1 << (scratch[at(SHIFTS, c + 1)] - shift)) - 1)
    if o >= n_options(scratch, c):
        return NO_OPTION
    return first_option(scratch, c) + o


@njit(cache=True, inline="always")
def fill_slice(scratch: np.ndarray, n_outer: int, n_listed: int, outer_code: int,
               n_wilds: int, low_word: int, high_word: int) -> tuple[int, int]:
    """List the affordable choices of candidates ``n_outer`` to ``n_listed - 1`` after the
    outer candidates choose as ``outer_code`` says; returns (the list's first entry, its
    length).

    The candidates are expanded one at a time; an option is tried only when the wilds
    its partial combination leaves pay for it (options go by their need, so that is a
    count, not a test).
    """
    need, value = 0, 0
    for c in range(n_outer):
        o = choice(scratch, c, outer_code)
        if o == NO_OPTION:
            return 0, 0
        low_word -= scratch[option(o, Opt.LOW)]
        high_word -= scratch[option(o, Opt.HIGH)]
        need += scratch[option(o, Opt.NEED)]
        value += scratch[option(o, Opt.VALUE)]
    if need > n_wilds:
        return 0, 0
    src, dst = 0, SLICE  # the two lists, swapped after each candidate
    scratch[entry(src, Entry.LOW)] = low_word
    scratch[entry(src, Entry.HIGH)] = high_word
    scratch[entry(src, Entry.NEED)] = need
    scratch[entry(src, Entry.VALUE)] = value
    scratch[entry(src, Entry.CODE)] = outer_code
    n = 1
    for c in range(n_outer, n_listed):
        first = first_option(scratch, c)
        shift = scratch[at(SHIFTS, c)]
        m = 0
        for e in range(src, src + n):
            for j in range(affordable(scratch, c, n_wilds - scratch[entry(e, Entry.NEED)])):
                o, d = first + j, dst + m
                scratch[entry(d, Entry.LOW)] = (scratch[entry(e, Entry.LOW)]
                                                - scratch[option(o, Opt.LOW)])
                scratch[entry(d, Entry.HIGH)] = (scratch[entry(e, Entry.HIGH)]
                                                 - scratch[option(o, Opt.HIGH)])
                scratch[entry(d, Entry.NEED)] = (scratch[entry(e, Entry.NEED)]
                                                 + scratch[option(o, Opt.NEED)])
                scratch[entry(d, Entry.VALUE)] = (scratch[entry(e, Entry.VALUE)]
                                                  + scratch[option(o, Opt.VALUE)])
                scratch[entry(d, Entry.CODE)] = scratch[entry(e, Entry.CODE)] | (j << shift)
                m += 1
        n = m
        src, dst = dst, src
    return src, n


@njit(cache=True, inline="always")
def bound_slice(scratch: np.ndarray, table: np.ndarray, start: int, n: int, n_wilds: int,
                nat_total: int) -> None:
    """Give each listed combination a lower bound on its penalty: each suit's runs hold at
    most their best with every wild the books leave (a prefix maximum of the table row),
    and nothing is left over."""
    for e in range(start, start + n):
        budget = n_wilds - scratch[entry(e, Entry.NEED)]
        bound = nat_total - scratch[entry(e, Entry.VALUE)]
        for s in range(N_SUITS):
            bound -= best_upto(table, unpack(scratch[entry(e, Entry.LOW)],
                                             scratch[entry(e, Entry.HIGH)], s), budget)
        scratch[entry(e, Entry.BOUND)] = bound


@njit(cache=True, inline="always")
def pop_least(scratch: np.ndarray, start: int, n: int) -> tuple[int, int]:
    """The listed combination of least bound (taken out of the list, so the next call
    returns the next), as (its entry, its bound); bounds go up from call to call."""
    best = start
    for e in range(start + 1, start + n):
        if scratch[entry(e, Entry.BOUND)] < scratch[entry(best, Entry.BOUND)]:
            best = e
    bound = scratch[entry(best, Entry.BOUND)]
    scratch[entry(best, Entry.BOUND)] = HUGE_PENALTY
    return best, bound


@njit(cache=True, inline="always")
def load(scratch: np.ndarray, e: int) -> None:
    """Put the suit patterns entry ``e`` leaves where the convolutions read them."""
    for s in range(N_SUITS):
        scratch[at(SUIT_LEFT, s)] = unpack(scratch[entry(e, Entry.LOW)],
                                       scratch[entry(e, Entry.HIGH)], s)


@njit(cache=True, inline="always")
def write_plan(scratch: np.ndarray, n_cand: int, code: int, run_wilds: int) -> None:
    """Store the books of the combination with this code and the wilds in runs (with a
    book, the most they may take), for :mod:`fcsim.core.arrangement`."""
    for i in range(N_RANKS):
        scratch[at(PLAN_BOOKS, i)] = 0
    for c in range(n_cand):
        o = choice(scratch, c, code)
        scratch[at(PLAN_BOOKS, scratch[candidate(c, Cand.RANK)])] = scratch[option(o, Opt.TAKES)]
    scratch[ix(PLAN_RUN_WILDS)] = run_wilds
