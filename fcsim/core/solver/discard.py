"""The best discard of a hand of n+1 cards: in one pass, card by card, and memoised.

Discarding ``d`` and arranging the rest is arranging the whole hand with ``d`` left out,
so :func:`discard_kernel` finds the best discard in one search over the same book
combinations as the penalty search, least bound first: per combination it tracks the best
runs that leave one natural out for free (a column of the table) and the best with one
wild fewer, ranked by the key of :mod:`fcsim.core.solver.key`. :func:`discard_search`
solves the hand less each card in turn instead (the hands with many wilds go there).

Ties go to a natural card over a wild, then to the card worth more points, then to the
lowest kind.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from fcsim.core.cards import (
    JOKER,
    JOKER_PENALTY,
    MIN_MELD,
    N_RANKS,
    N_SUITS,
    card_points,
    kind_at,
    rank_at,
    rank_of,
    suit_of,
    wild_index,
)
from fcsim.core.late_link import late_linked
from fcsim.core.solver.books import book_options
from fcsim.core.solver.combos import bound_slice, fill_slice, load, pop_least, slicing
from fcsim.core.solver.hand import HUGE_PENALTY, isolated, read_hand, wild_cost
from fcsim.core.solver.key import (
    free_part,
    key_floor,
    key_kind,
    key_penalty,
    natural_key,
    penalty_key,
    wild_key,
)
from fcsim.core.solver.layout import FREE, RUNS, Cand, Entry, at, candidate, entry, ix
from fcsim.core.solver.memo import answers, discard_tag, lookup, store
from fcsim.core.solver.penalty import HAND_ARGS, penalty_memo
from fcsim.core.solver.runs import NO_SCALED_RUNS, convolve_free
from fcsim.core.tables import NARROW

NO_KIND = -1  # no discard (an empty hand), or no card of the wild rank


@njit(cache=True, inline="always")
def _rank_wild(counts: np.ndarray, wild_pos: int) -> int:
    """The lowest kind of the wild rank held (``NO_KIND`` if none): all of them play alike,
    so one stands for all."""
    for s in range(N_SUITS):
        if counts[ix(kind_at(wild_pos, s))] > 0:
            return kind_at(wild_pos, s)
    return NO_KIND


@njit(cache=True, inline="always")
def _wilds_in_order(rank_wild: int, wild_points: int) -> tuple[int, int]:
    """The joker and ``rank_wild`` in the order ties between discarding them go: the one
    worth more first, at equal points the lower kind."""
    if wild_points >= JOKER_PENALTY:
        return rank_wild, JOKER
    return JOKER, rank_wild


@njit(cache=True, inline="always")
def _penalty_without(k: int, counts: np.ndarray, round_number: int, wild_points: int,
                     all_wild: bool, table: np.ndarray, scratch: np.ndarray) -> int:
    """The least penalty of the hand less one card of kind ``k`` (``counts`` restored)."""
    counts[ix(k)] -= 1
    pen, _ = penalty_memo(counts, round_number, wild_points, all_wild, table, scratch)
    counts[ix(k)] += 1
    return pen


@njit(cache=True, inline="always")
def _isolated_in_books(counts: np.ndarray, n_cand: int, scratch: np.ndarray) -> int:
    """The kinds (a bit set) of the isolated natural cards of the candidate book ranks."""
    kinds = 0
    for c in range(n_cand):
        i = scratch[candidate(c, Cand.RANK)]
        for s in range(N_SUITS):
            k = kind_at(i, s)
            if counts[ix(k)] > 0 and isolated(scratch, s, i):
                kinds |= 1 << k
    return kinds


@njit(cache=True)
def discard_kernel(counts: np.ndarray, round_number: int, wild_points: int, all_wild: bool,
                   table: np.ndarray, scratch: np.ndarray, best_kind: int, best_pen: int
                   ) -> tuple[int, int]:
    """The best discard of a hand of n+1 cards in one search over its arrangements.

    The least penalty after a discard is the least over arrangements of the whole hand
    of (its penalty - the points of one card it leaves out). A natural card left out
    comes from the free-card rows of the table through
    :func:`fcsim.core.solver.runs.convolve_free`, a wild by spending one wild fewer; the
    key makes ties go as :func:`discard_search` does. The search puts an isolated card in
    its rank's book whenever that rank has one, so it never leaves one out; that loses
    nothing unless the whole hand melds with nothing left out (any arrangement leaving a
    card out is then beaten by one putting the isolated card back in its book and leaving
    that card out instead), and then those few cards are tried one by one. The free-card
    rows stop below ``NARROW`` wilds: hands with more go to :func:`discard_search`.

    ``best_kind`` / ``best_pen`` is a known discard and the penalty it leaves (-1 and
    ``HUGE_PENALTY`` for none): only a strictly better one replaces it.

    Returns
    -------
    (kind, penalty) : (int, int)
        ``kind`` is -1 for an empty hand.
    """
    if best_kind >= 0 and best_pen <= 0:
        return best_kind, best_pen  # nothing leaves less than nothing
    wild_pos = wild_index(round_number)
    n_jokers = int(counts[ix(JOKER)])
    nat_total, n_rank_wilds, ranks, twice, low_word, high_word = read_hand(counts, wild_pos,
                                                                         scratch)
    n_wilds = n_jokers + n_rank_wilds
    if n_wilds >= NARROW:
        return discard_search(counts, round_number, wild_points, all_wild, table, scratch,
                              best_kind, best_pen)
    rank_wild = _rank_wild(counts, wild_pos)
    first_wild, second_wild = _wilds_in_order(rank_wild, wild_points)
    top = 0  # points of the highest natural card
    for i in range(N_RANKS):
        if ranks >> i & 1:
            top = rank_at(i)
    n_cand, _ = book_options(counts, wild_pos, n_wilds, 2, twice, 0, scratch)
    n_outer, outer_codes = slicing(scratch, n_cand, n_cand)
    best_key = penalty_key(min(best_pen, HUGE_PENALTY))
    melds_all = False
    for outer_code in range(outer_codes):
        start, n = fill_slice(scratch, n_outer, n_cand, outer_code, n_wilds, low_word,
                              high_word)
        bound_slice(scratch, table, start, n, n_wilds, nat_total)
        for _ in range(n):
            e, bound = pop_least(scratch, start, n)
            if key_floor(bound, top) >= best_key:
                break
            budget = n_wilds - scratch[entry(e, Entry.NEED)]
            book_value = scratch[entry(e, Entry.VALUE)]
            load(scratch, e)
            convolve_free(scratch, table, budget)
            has_book = book_value > 0
            base = nat_total - book_value
            for w in range(budget + 1):
                keep = scratch[at(RUNS, w)]
                if keep == NO_SCALED_RUNS:
                    continue
                left = budget - w
                if has_book or (all_wild and left >= MIN_MELD):
                    left = 0
                cost = base + wild_cost(left, n_rank_wilds, n_jokers, wild_points)
                if penalty_key(cost) == keep:
                    melds_all = True
                free = scratch[at(FREE, w)]
                if free != NO_SCALED_RUNS:
                    best_key = min(best_key, natural_key(cost, free))
                if w == budget:
                    continue
                # A wild discarded: one wild fewer to leave out.
                left = budget - 1 - w
                if has_book or (all_wild and left >= MIN_MELD):
                    left = 0
                if n_jokers > 0:
                    cost = base + wild_cost(left, n_rank_wilds, n_jokers - 1, wild_points)
                    best_key = min(best_key, wild_key(cost, keep, first_wild != JOKER))
                if rank_wild >= 0:
                    cost = base + wild_cost(left, n_rank_wilds - 1, n_jokers, wild_points)
                    best_key = min(best_key, wild_key(cost, keep, first_wild == JOKER))
    if melds_all:
        # The search never left out a card its rank's book always holds (an isolated one);
        # that matters only here (see above), so those few are tried one by one.
        alone = _isolated_in_books(counts, n_cand, scratch)
        while alone:
            k = 0
            while not (alone >> k) & 1:
                k += 1
            alone &= alone - 1
            pen = _penalty_without(k, counts, round_number, wild_points, all_wild, table,
                                   scratch)
            best_key = min(best_key, natural_key(pen, free_part(0, rank_of(k), suit_of(k))))
    if best_key < penalty_key(min(best_pen, HUGE_PENALTY)):
        best_pen = key_penalty(best_key)
        best_kind = key_kind(best_key, first_wild, second_wild)
    if best_kind < 0:
        return NO_KIND, 0
    return best_kind, best_pen


@njit(cache=True)
def discard_search(counts: np.ndarray, round_number: int, wild_points: int, all_wild: bool,
                   table: np.ndarray, scratch: np.ndarray, best_kind: int, best_pen: int
                   ) -> tuple[int, int]:
    """:func:`discard_kernel` by solving the hand less each card in turn (slower; for the
    hands the one-pass search hands over).

    Discards that cannot beat the best so far are skipped using
    ``penalty(hand - d) >= penalty(hand) - points(d)``.
    """
    wild_pos = wild_index(round_number)
    whole, _ = penalty_memo(counts, round_number, wild_points, all_wild, table, scratch)
    # Naturals, most points first (kind order within a rank).
    for i in range(N_RANKS - 1, -1, -1):
        if i == wild_pos:
            continue
        bound = max(0, whole - rank_at(i))
        if bound >= best_pen:
            break
        for s in range(N_SUITS):
            k = kind_at(i, s)
            if counts[ix(k)] == 0:
                continue
            pen = _penalty_without(k, counts, round_number, wild_points, all_wild, table,
                                   scratch)
            if pen < best_pen:
                best_pen = pen
                best_kind = k
                if pen == bound:
                    break
    # Wilds lose ties to naturals.
    for k in _wilds_in_order(_rank_wild(counts, wild_pos), wild_points):
        if k < 0 or counts[ix(k)] == 0:
            continue
        if max(0, whole - card_points(k, round_number, wild_points)) >= best_pen:
            continue
        pen = _penalty_without(k, counts, round_number, wild_points, all_wild, table, scratch)
        if pen < best_pen:
            best_pen = pen
            best_kind = k
    if best_kind < 0:
        return NO_KIND, 0
    return best_kind, best_pen


DISCARD_RESULT = types.UniTuple(types.int64, 2)  # (kind discarded, penalty left)

# For compiled callers: the search's code is linked when first called, not copied into each.
discard_kernel_late = late_linked(discard_kernel,
                                  DISCARD_RESULT(*HAND_ARGS, types.int64, types.int64))


@njit(cache=True)
def best_discard_kernel(counts: np.ndarray, round_number: int, wild_points: int, all_wild: bool,
                        table: np.ndarray, scratch: np.ndarray) -> tuple[int, int]:
    """The discard that leaves the least penalty, and that penalty (:func:`discard_kernel`).

    ``counts`` (``int8[56]``) is a hand of n+1 cards after a draw; it is restored before
    returning. Ties go to a natural card over a wild, then to the card worth more points,
    then to the lowest kind.

    Returns
    -------
    (kind, penalty) : (int, int)
        ``kind`` is -1 for an empty hand.
    """
    return discard_kernel_late(counts, round_number, wild_points, all_wild, table, scratch,
                               NO_KIND, HUGE_PENALTY)


@njit(cache=True)
def discard_memo(counts: np.ndarray, round_number: int, wild_points: int, all_wild: bool,
                 table: np.ndarray, scratch: np.ndarray, best_kind: int, best_pen: int,
                 hashed: np.uint64) -> tuple[int, int]:
    """:func:`discard_kernel` through the memo of :func:`penalty_memo`; ``hashed`` is
    :func:`fcsim.core.solver.memo.hand_hash` of ``counts``.

    A lookahead asks the same questions again: the hands after each possible draw are
    asked about when deciding to draw, again when the drawn card is a discard candidate,
    and again next turn. The question (starting discard included) is part of the tag.
    """
    tag = discard_tag(round_number, wild_points, all_wild, best_kind, best_pen)
    slot, hit = lookup(counts, tag, hashed, scratch)
    if hit:
        return answers(scratch, slot)
    kind, pen = discard_kernel_late(counts, round_number, wild_points, all_wild, table,
                                    scratch, best_kind, best_pen)
    store(counts, tag, scratch, slot, kind, pen)
    return kind, pen
