"""The exact least penalty of a hand (:func:`penalty_kernel`), and through the memo.

An arrangement is a set of books, runs and (when allowed) one all-wild meld; its penalty
is the rank total of the natural cards left out, plus the cheapest ``u`` wilds when ``u``
wilds are left out. Wilds left over after books and runs are absorbed by any book (a
book takes any number), or by an all-wild meld when there are three or more and the rules
allow it; otherwise they count, cheapest first. So a combination of book options with a
book needs only its best runs with *at most* its budget of wilds (a convolution of prefix
maxima kept in registers), solved exactly unless the whole hand's runs with that budget
plus its books cannot beat the best so far (a book only takes cards away from the runs).
The one combination with no book is solved last, wild count by wild count, and only when
that bound says it could win.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from fcsim.core.cards import JOKER, MIN_MELD, N_RANKS, N_SUITS, wild_index
from fcsim.core.late_link import late_linked
from fcsim.core.solver.books import affordable, book_options, first_option
from fcsim.core.solver.combos import fill_slice, slicing, write_plan
from fcsim.core.solver.hand import HUGE_PENALTY, read_hand, unpack, wild_cost
from fcsim.core.solver.layout import (
    RUNS,
    SHIFTS,
    SUIT_LEFT,
    Entry,
    Opt,
    at,
    entry,
    ix,
    option,
)
from fcsim.core.solver.memo import answers, hand_hash, lookup, rules_tag, store
from fcsim.core.solver.runs import (
    NO_RUNS,
    SMALL_BUDGET,
    convolve_runs,
    pick,
    runs_upto,
    runs_upto_small,
)

_NESTED = 2  # candidates tried in nested loops rather than listed (stand-ins make two)


@njit(cache=True)
def penalty_kernel(counts: np.ndarray, round_number: int, wild_points: int, all_wild: bool,
                   table: np.ndarray, scratch: np.ndarray) -> tuple[int, int]:
    """Exact minimum penalty of a hand, and how many wilds that arrangement leaves out.

    Parameters
    ----------
    counts : int8[56]
        Copies of each kind in the hand (naturals 0–2, jokers 0–6), at most 20 cards.
    round_number : int
        1–11; the wild rank is ``round_number + 2`` (rank index ``round_number - 1``).
    wild_points : int
        Penalty of an unmelded card of the wild rank (20, or its face value).
    all_wild : bool
        Whether three or more wilds alone form a meld.
    table : uint8[4 * 3**11, 16]
        :func:`fcsim.core.tables.solver_table`.
    scratch : int64[SCRATCH_SIZE]
        Work space from :func:`fcsim.core.solver.new_scratch`; on return it also holds
        the arrangement found (read by :func:`fcsim.core.arrangement.solve`).

    Returns
    -------
    (penalty, wilds_left) : (int, int)
        Among arrangements of least penalty, the one leaving the fewest wilds unmelded;
        the wilds left out are the cheapest ones.
    """
    wild_pos = wild_index(round_number)
    n_jokers = int(counts[ix(JOKER)])
    nat_total, n_rank_wilds, _, twice, low_word, high_word = read_hand(counts, wild_pos,
                                                                       scratch)
    n_wilds = n_jokers + n_rank_wilds
    # Books of one natural card too, when they can hold more wilds than a run beside it.
    min_book = 1 if (not all_wild and n_wilds >= N_RANKS) else 2
    _, n_cand = book_options(counts, wild_pos, n_wilds, min_book, twice, _NESTED, scratch)
    # Combinations with a book: wilds the runs leave join a book, so only the best runs
    # with <= budget wilds count. The two candidates with the most options are tried in
    # nested loops, the others listed: most hands list nothing.
    c1, c2 = n_cand - 2, n_cand - 1
    n_outer, outer_codes = slicing(scratch, n_cand, c1)
    first1 = first_option(scratch, c1)
    first2 = first_option(scratch, c2)
    # No combination's runs beat the whole hand's (a book only takes cards away), so
    # nat_total - books - whole(budget) bounds its penalty: solved only when that bound
    # beats the best so far. Biggest books first, "no book" last: the best comes early.
    whole0, whole1, whole2, whole3 = runs_upto_small(table, low_word, high_word)
    whole_all = (pick(whole0, whole1, whole2, whole3, n_wilds) if n_wilds <= SMALL_BUDGET
                 else runs_upto(table, low_word, high_word, n_wilds, scratch))
    best_pen = HUGE_PENALTY
    best_code = best_w = 0
    for outer_code in range(outer_codes):
        start, n = fill_slice(scratch, n_outer, c1, outer_code, n_wilds, low_word,
                              high_word)
        for e in range(start, start + n):
            spare = n_wilds - scratch[entry(e, Entry.NEED)]
            n1 = affordable(scratch, c1, spare)
            for j1 in range(n1):
                o1 = j1 + 1 if j1 + 1 < n1 else 0  # option 0 ("no book" if any) last
                q1 = first1 + o1
                spare1 = spare - scratch[option(q1, Opt.NEED)]
                low1 = scratch[entry(e, Entry.LOW)] - scratch[option(q1, Opt.LOW)]
                high1 = scratch[entry(e, Entry.HIGH)] - scratch[option(q1, Opt.HIGH)]
                value1 = scratch[entry(e, Entry.VALUE)] + scratch[option(q1, Opt.VALUE)]
                n2 = affordable(scratch, c2, spare1)
                for j2 in range(n2):
                    o2 = j2 + 1 if j2 + 1 < n2 else 0
                    q2 = first2 + o2
                    book_value = value1 + scratch[option(q2, Opt.VALUE)]
                    budget = spare1 - scratch[option(q2, Opt.NEED)]
                    whole = (pick(whole0, whole1, whole2, whole3, budget)
                             if budget <= SMALL_BUDGET
                             else whole_all)  # runs only gain from more wilds
                    if book_value == 0 or nat_total - book_value - whole >= best_pen:
                        continue
                    low2 = low1 - scratch[option(q2, Opt.LOW)]
                    high2 = high1 - scratch[option(q2, Opt.HIGH)]
                    pen = (nat_total - book_value
                           - runs_upto(table, low2, high2, budget, scratch))
                    if pen < best_pen:
                        best_pen = pen
                        best_code = (scratch[entry(e, Entry.CODE)]
                                     | (o1 << scratch[at(SHIFTS, c1)])
                                     | (o2 << scratch[at(SHIFTS, c2)]))
                        best_w = budget
    best_left = 0
    # The combination with no book (when every candidate may have none), last: its wilds
    # left over are melded only as an all-wild meld, so each count in runs is tried.
    no_book = True
    for c in range(n_cand):
        no_book &= scratch[option(first_option(scratch, c), Opt.VALUE)] == 0
    if no_book and nat_total - whole_all < best_pen:
        for s in range(N_SUITS):
            scratch[at(SUIT_LEFT, s)] = unpack(low_word, high_word, s)
        convolve_runs(scratch, table, n_wilds)
        for w in range(n_wilds + 1):
            got = scratch[at(RUNS, w)]
            if got == NO_RUNS:
                continue
            left = n_wilds - w
            if all_wild and left >= MIN_MELD:
                left = 0
            pen = nat_total - got + wild_cost(left, n_rank_wilds, n_jokers, wild_points)
            if pen < best_pen or (pen == best_pen and left < best_left):
                best_pen = pen
                best_left = left
                best_code = 0
                best_w = w
    write_plan(scratch, n_cand, best_code, best_w)
    return best_pen, best_left


# What a solver kernel is compiled for: a hand's counts, the round, the wilds' points,
# whether all-wild melds count, the solver table and the work space.
HAND_ARGS = (types.int8[::1], types.int64, types.int64, types.boolean, types.uint8[:, ::1],
             types.int64[::1])
PENALTY_RESULT = types.UniTuple(types.int64, 2)  # (penalty, wilds left out)

# For compiled callers: the search's code is linked when first called, not copied into each.
penalty_kernel_late = late_linked(penalty_kernel, PENALTY_RESULT(*HAND_ARGS))


@njit(cache=True)
def penalty_memo(counts: np.ndarray, round_number: int, wild_points: int, all_wild: bool,
                 table: np.ndarray, scratch: np.ndarray) -> tuple[int, int]:
    """:func:`penalty_kernel` through the memo of recent hands kept in ``scratch``
    (:mod:`fcsim.core.solver.memo`). It does not refresh the arrangement
    :func:`fcsim.core.arrangement.solve` reads; use the kernel for that."""
    tag = rules_tag(round_number, wild_points, all_wild)
    slot, hit = lookup(counts, tag, hand_hash(counts), scratch)
    if hit:
        return answers(scratch, slot)
    pen, left = penalty_kernel_late(counts, round_number, wild_points, all_wild, table,
                                     scratch)
    store(counts, tag, scratch, slot, pen, left)
    return pen, left
