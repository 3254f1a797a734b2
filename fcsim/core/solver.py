"""The exact best meld cover: the smallest penalty a hand can leave, and a best discard.

How it is exact and fast
------------------------
A hand is its natural cards, split by suit into base-3 *patterns*, plus ``W`` wilds
(jokers and cards of the round's wild rank). An arrangement is a set of books, runs and
(when allowed) one all-wild meld; the penalty is the rank total of the natural cards left
out, plus the cheapest ``u`` wilds when ``u`` wilds are left out.

* **Runs** are read from :mod:`fcsim.core.tables`: per suit, the best rank total for
  *exactly* ``w`` wilds. A max-plus convolution over the five suits gives the best run
  total for exactly ``w`` wilds in all.
* **Books** cross suits, so they are enumerated: for each rank holding at least two natural
  cards, either no book, or a book taking some of them (the others stay for runs). A
  natural card with no card of its suit within two ranks is never better in a run than in
  its rank's book, so when that rank has a book it always joins it. A book with one
  natural card is a run in disguise (the card plus 2–10 wilds), except that a book holds
  any number of wilds; that matters only with all-wild melds off and 11 or more wilds,
  the one case where single-card books are enumerated too.
  Three or more such cards make a book that "no book" can never beat, so that option is
  dropped. The combinations of book options are walked like an odometer, biggest books
  first (they usually win, and then prune the rest); before the convolution each one is
  bounded by the suits' best run totals with the whole wild budget (a prefix maximum
  stored beside the table), and skipped when it cannot win; when the books of the
  slower-moving candidates alone need more wilds than the hand holds, the whole block of
  combinations below them is skipped.
* **Wilds left over** after books and runs are absorbed by any book (a book takes any
  number), or by an all-wild meld when there are three or more and the rules allow it;
  otherwise they count, cheapest first.

:func:`penalty_memo` puts a small exact memo of recent hands in front of the kernel (games
and lookahead strategies solve the same hands again and again). :func:`discard_kernel`
finds the best discard in one walk of the same book combinations: the penalty after
discarding ``d`` is that of the whole hand arranged with ``d`` left out, so it tracks, per
combination, the best runs that leave one natural out for free (a column of the table)
and the best with one wild fewer. The melds themselves, for display, are rebuilt by
:mod:`fcsim.core.arrangement`.

Among arrangements of equal penalty the one leaving the fewest wilds unmelded is chosen,
which fixes how the penalty splits into natural / wild-rank / joker points.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from fcsim.core.cards import (
    JOKER,
    JOKER_PENALTY,
    N_KINDS,
    N_RANKS,
    N_SUITS,
    CardError,
    counts_from_kinds,
    format_card,
    parse_cards,
)
from fcsim.core.rules import RuleSet
from fcsim.core.tables import (
    FREE_ROWS,
    INFEASIBLE,
    MAX_WILDS,
    NARROW,
    NO_CARD,
    POW3,
    RUN_ROWS,
    WIDE_ROWS,
    solver_table,
)

MAX_HAND = 20
MAX_BOOK_OPTIONS = 243  # per rank: at most 3**5 sub-multisets of its cards
_NEG = -100000
_BIG = 1 << 30


@njit(cache=True, inline="always")
def _wild_cost(u: int, n_rank_wilds: int, n_jokers: int, wild_points: int) -> int:
    """Points of the ``u`` cheapest of the hand's wilds left unmelded."""
    if wild_points <= JOKER_PENALTY:
        cheap, cheap_n, dear = wild_points, n_rank_wilds, JOKER_PENALTY
    else:
        cheap, cheap_n, dear = JOKER_PENALTY, n_jokers, wild_points
    if u <= cheap_n:
        return u * cheap
    return cheap_n * cheap + (u - cheap_n) * dear


# Layout of the int64 scratch array the kernels work in (no allocation per call).
_S_CUR = 0  # 5 suit patterns left for runs under the current book choice
_S_MASK = _S_CUR + N_SUITS  # 5 bit sets of the natural ranks each suit holds
_S_RUNS = _S_MASK + N_SUITS  # 17 best run totals by exact wild count (discard: scaled)
_S_FREE = _S_RUNS + MAX_WILDS + 1  # 17 the same with one natural card left out for free (discard)
_S_CHOICE = _S_FREE + MAX_WILDS + 1  # 11 option index per candidate rank (0 = no book)
_S_CAND = _S_CHOICE + N_RANKS  # 11 candidate rank positions
_S_NOPT = _S_CAND + N_RANKS  # 11 option count per candidate (including "no book")
_S_FIRST = _S_NOPT + N_RANKS  # 11 index of each candidate's first book option
_S_LO = _S_FIRST + N_RANKS  # 5 cards of the rank each option must take, per suit …
_S_HI = _S_LO + N_SUITS  # 5 … it may take …
_S_T = _S_HI + N_SUITS  # 5 … and takes (the option being stored)
_S_PLAN = _S_T + N_SUITS  # best arrangement: 11 packed book takes (base 3 over suits) …
_S_PLAN_RUN_WILDS = _S_PLAN + N_RANKS  # … and the wilds in runs
PLAN_BOOKS, PLAN_RUN_WILDS = _S_PLAN, _S_PLAN_RUN_WILDS  # read by fcsim.core.arrangement
_S_OPT = _S_PLAN_RUN_WILDS + 1  # book options, _OPT_WIDTH each:
_OPT_WIDTH = 7  # 5 per-suit pattern decrements, size, packed takes
_S_MEMO = _S_OPT + N_RANKS * (MAX_BOOK_OPTIONS + 1) * _OPT_WIDTH  # see penalty_memo
MEMO_SLOTS = 4096
_HAND_WORDS = 7  # a hand packed 8 kinds (one byte of copies each) to an int64 word
_ZOBRIST = np.random.default_rng(20261130).integers(0, 2**63, _HAND_WORDS + 1,
                                                    dtype=np.uint64) | 1
_MEMO_ENTRY = _HAND_WORDS + 3  # the packed hand, a tag (0 = empty), two answers
_M_TAG, _M_FIRST, _M_SECOND = _HAND_WORDS, _HAND_WORDS + 1, _HAND_WORDS + 2
SCRATCH_SIZE = _S_MEMO + MEMO_SLOTS * _MEMO_ENTRY

# Same-suit ranks within two of rank i: a natural card with none of them held is isolated.
_NEAR = np.array([sum(1 << j for j in range(max(0, i - 2), min(N_RANKS, i + 3)) if j != i)
                  for i in range(N_RANKS)], dtype=np.int64)


def new_scratch() -> np.ndarray:
    """A work array for the kernels (reuse it across calls): memo empty, the rest free."""
    scratch = np.empty(SCRATCH_SIZE, dtype=np.int64)
    scratch[_S_MEMO:] = 0
    return scratch


@njit(cache=True, inline="always")
def _read_hand(counts: np.ndarray, wild_pos: int, scratch: np.ndarray
               ) -> tuple[int, int, int, int]:
    """Suit patterns and rank sets into ``scratch`` (branch-free: hands are random).

    Returns (natural points, wild-rank cards, points of the highest natural card, the set
    of ranks holding two or more natural cards).
    """
    nat_total = 0
    n_rank_wilds = 0
    seen = 0  # ranks held in some suit so far
    twice = 0  # ranks held twice: in two suits, or both copies in one
    for s in range(N_SUITS):
        base = s * N_RANKS
        pat = 0
        mask = 0
        doubled = 0
        for i in range(N_RANKS):
            c = np.int64(counts[base + i])
            pat += c * POW3[i]
            nat_total += c * (i + 3)
            mask |= np.int64(c > 0) << i
            doubled |= np.int64(c > 1) << i
        c = np.int64(counts[base + wild_pos])
        n_rank_wilds += c
        pat -= c * POW3[wild_pos]
        nat_total -= c * (wild_pos + 3)
        mask &= ~(1 << wild_pos)
        scratch[_S_CUR + s] = pat
        scratch[_S_MASK + s] = mask
        twice |= (seen & mask) | doubled
        seen |= mask
    top = 0
    while seen >> top:
        top += 1
    return nat_total, n_rank_wilds, top + 2 if top else 0, twice & ~(1 << wild_pos)


@njit(cache=True, inline="always")
def _book_options(counts: np.ndarray, wild_pos: int, n_wilds: int, min_book: int,
                  twice: int, scratch: np.ndarray) -> int:
    """Store each candidate rank's book options in ``scratch``; returns the candidates.

    Option 0 of a rank is "no book", dropped when three or more of its cards are isolated;
    the others take a sub-multiset of the rank's cards holding every isolated one.
    ``twice`` is the set of ranks with two or more natural cards (the only candidates
    unless single-card books are allowed).
    """
    n_cand = 0
    n_stored = 0
    ranks = twice
    if min_book == 1:
        ranks = 0
        for s in range(N_SUITS):
            ranks |= scratch[_S_MASK + s]
    while ranks:
        i = 0
        while not (ranks >> i) & 1:
            i += 1
        ranks &= ranks - 1
        total = 0
        for s in range(N_SUITS):
            c = counts[s * N_RANKS + i]
            scratch[_S_HI + s] = c
            total += c
        if total + n_wilds < 3:
            continue
        forced = 0
        for s in range(N_SUITS):
            lo = scratch[_S_HI + s] if (scratch[_S_MASK + s] & _NEAR[i]) == 0 else 0
            scratch[_S_LO + s] = lo
            scratch[_S_T + s] = lo
            forced += lo
        first = n_stored
        if forced < 3:
            for f in range(_OPT_WIDTH):
                scratch[_S_OPT + n_stored * _OPT_WIDTH + f] = 0
            n_stored += 1
        while True:
            size = 0
            for s in range(N_SUITS):
                size += scratch[_S_T + s]
            if size >= min_book and size + n_wilds >= 3:
                q = _S_OPT + n_stored * _OPT_WIDTH
                packed = 0
                for s in range(N_SUITS):
                    scratch[q + s] = scratch[_S_T + s] * POW3[i]
                    packed += scratch[_S_T + s] * POW3[s]
                scratch[q + 5] = size
                scratch[q + 6] = packed
                n_stored += 1
            s = 0
            while s < N_SUITS and scratch[_S_T + s] == scratch[_S_HI + s]:
                scratch[_S_T + s] = scratch[_S_LO + s]
                s += 1
            if s == N_SUITS:
                break
            scratch[_S_T + s] += 1
        if n_stored - first > 1 or scratch[_S_OPT + first * _OPT_WIDTH + 5] > 0:
            scratch[_S_CAND + n_cand] = i
            scratch[_S_NOPT + n_cand] = n_stored - first
            scratch[_S_FIRST + n_cand] = first
            scratch[_S_CHOICE + n_cand] = n_stored - first - 1  # the biggest book first
            n_cand += 1
        else:
            n_stored = first  # only "no book": nothing to choose
    return n_cand


@njit(cache=True, inline="always")
def _apply_option(scratch: np.ndarray, c_i: int, sign: int, need: int, value: int
                  ) -> tuple[int, int]:
    """Take (sign=1) or give back (sign=-1) candidate c_i's chosen book; new need, value."""
    q = _S_OPT + (scratch[_S_FIRST + c_i] + scratch[_S_CHOICE + c_i]) * _OPT_WIDTH
    size = scratch[q + 5]
    if size == 0:
        return need, value
    for s in range(N_SUITS):
        scratch[_S_CUR + s] -= sign * scratch[q + s]
    return need + sign * max(0, 3 - size), value + sign * size * (scratch[_S_CAND + c_i] + 3)


@njit(cache=True, inline="always")
def _first_combination(scratch: np.ndarray, n_cand: int) -> tuple[int, int]:
    """Apply every candidate's first option; returns the books' (wild need, rank total)."""
    need, value = 0, 0
    for c_i in range(n_cand):
        need, value = _apply_option(scratch, c_i, 1, need, value)
    return need, value


@njit(cache=True, inline="always")
def _next_combination(scratch: np.ndarray, n_cand: int, need: int, value: int
                      ) -> tuple[bool, int, int]:
    """Step the odometer over the candidates' options, from the last option of each (the
    biggest book, usually best: found early, it prunes the rest) down to option 0;
    (False, …) after the last combination."""
    c_i = 0
    while c_i < n_cand and scratch[_S_CHOICE + c_i] == 0:
        need, value = _apply_option(scratch, c_i, -1, need, value)
        scratch[_S_CHOICE + c_i] = scratch[_S_NOPT + c_i] - 1
        need, value = _apply_option(scratch, c_i, 1, need, value)
        c_i += 1
    if c_i == n_cand:
        return False, need, value
    need, value = _apply_option(scratch, c_i, -1, need, value)
    scratch[_S_CHOICE + c_i] -= 1
    need, value = _apply_option(scratch, c_i, 1, need, value)
    return True, need, value


@njit(cache=True, inline="always")
def _skip_unaffordable(scratch: np.ndarray, n_cand: int, n_wilds: int, need: int,
                       value: int) -> tuple[int, int, int]:
    """For a combination needing more wilds than the hand has: when candidates c…n-1
    alone already do, no choice below c helps, so those jump to their last option (the
    next step then moves c). Returns the new (need, value) and the combinations skipped.
    """
    high = need  # wilds needed by candidates c_top and above
    c_top = 0
    while c_top + 1 < n_cand:
        q = _S_OPT + (scratch[_S_FIRST + c_top] + scratch[_S_CHOICE + c_top]) * _OPT_WIDTH
        size = scratch[q + 5]
        rest = high - (max(0, 3 - size) if size else 0)
        if rest <= n_wilds:
            break
        high = rest
        c_top += 1
    skipped = 0
    radix = 1
    for c_i in range(c_top):
        skipped += scratch[_S_CHOICE + c_i] * radix
        radix *= scratch[_S_NOPT + c_i]
        need, value = _apply_option(scratch, c_i, -1, need, value)
        scratch[_S_CHOICE + c_i] = 0
        need, value = _apply_option(scratch, c_i, 1, need, value)
    return need, value, skipped


@njit(cache=True, inline="always")
def _exact(table: np.ndarray, pat: int, w: int) -> int:
    """A suit's best run total with exactly ``w`` wilds, or ``_NEG``."""
    v = table[RUN_ROWS + pat, w] if w < NARROW else table[WIDE_ROWS + 2 * pat, w - NARROW]
    return _NEG if v == INFEASIBLE else int(v)


@njit(cache=True, inline="always")
def _best_upto(table: np.ndarray, pat: int, budget: int) -> int:
    """A suit's best run total with at most ``budget`` wilds."""
    if budget < NARROW:
        return int(table[RUN_ROWS + pat, NARROW + budget])
    return int(table[WIDE_ROWS + 2 * pat + 1, budget - NARROW])


@njit(cache=True)
def penalty_kernel(
    counts: np.ndarray,
    round_number: int,
    wild_points: int,
    all_wild: bool,
    table: np.ndarray,
    scratch: np.ndarray,
) -> tuple[int, int]:
    """Exact minimum penalty of a hand, and how many wilds that arrangement leaves out.

    Parameters
    ----------
    counts : int8[56]
        Copies of each kind in the hand (naturals 0–2, jokers 0–6), at most 20 cards.
    round_number : int
        1–11; the wild rank is ``round_number + 2`` (rank position ``round_number - 1``).
    wild_points : int
        Penalty of an unmelded card of the wild rank (20, or its face value).
    all_wild : bool
        Whether three or more wilds alone form a meld.
    table : uint8[4 * 3**11, 16]
        :func:`fcsim.core.tables.solver_table`.
    scratch : int64[SCRATCH_SIZE]
        Work space from :func:`new_scratch`; on return it also holds the arrangement
        found (read by :func:`solve`).

    Returns
    -------
    (penalty, wilds_left) : (int, int)
        Among arrangements of least penalty, the one leaving the fewest wilds unmelded;
        the wilds left out are the cheapest ones.
    """
    wild_pos = round_number - 1
    n_jokers = int(counts[JOKER])
    nat_total, n_rank_wilds, _, twice = _read_hand(counts, wild_pos, scratch)
    n_wilds = n_jokers + n_rank_wilds
    min_book = 1 if (not all_wild and n_wilds >= 11) else 2
    n_cand = _book_options(counts, wild_pos, n_wilds, min_book, twice, scratch)
    book_need, book_value = _first_combination(scratch, n_cand)
    best_pen = _BIG
    best_left = _BIG
    combination = best_combination = best_w = 0
    more = True
    while more:
        if book_need <= n_wilds:
            budget = n_wilds - book_need
            # Bound: each suit's runs hold at most their best with <= budget wilds.
            bound = nat_total - book_value
            for s in range(N_SUITS):
                bound -= _best_upto(table, scratch[_S_CUR + s], budget)
            if bound < best_pen or (bound == best_pen and best_left > 0):
                _convolve_runs(scratch, table, budget)
                has_book = book_value > 0
                for w in range(budget + 1):
                    got = scratch[_S_RUNS + w]
                    if got == _NEG:
                        continue
                    left = budget - w
                    if has_book or (all_wild and left >= 3):
                        left = 0
                    pen = nat_total - book_value - got
                    pen += _wild_cost(left, n_rank_wilds, n_jokers, wild_points)
                    if pen < best_pen or (pen == best_pen and left < best_left):
                        best_pen = pen
                        best_left = left
                        best_combination = combination
                        best_w = w
        else:
            book_need, book_value, skipped = _skip_unaffordable(scratch, n_cand, n_wilds,
                                                                book_need, book_value)
            combination += skipped
        if best_pen == 0 and best_left == 0:
            break
        more, book_need, book_value = _next_combination(scratch, n_cand, book_need, book_value)
        combination += 1
    _write_plan(scratch, n_cand, best_combination, best_w)
    return best_pen, best_left


@njit(cache=True, inline="always")
def _write_plan(scratch: np.ndarray, n_cand: int, combination: int, run_wilds: int) -> None:
    """Store the books of the ``combination``-th combination walked (the odometer's digits
    count down from each candidate's last option) and the wilds in runs, for :func:`solve`.
    """
    for i in range(N_RANKS):
        scratch[_S_PLAN + i] = 0
    for c_i in range(n_cand):
        n_opt = scratch[_S_NOPT + c_i]
        choice = n_opt - 1 - combination % n_opt
        combination //= n_opt
        q = _S_OPT + (scratch[_S_FIRST + c_i] + choice) * _OPT_WIDTH
        scratch[_S_PLAN + scratch[_S_CAND + c_i]] = scratch[q + 6]
    scratch[_S_PLAN_RUN_WILDS] = run_wilds


@njit(cache=True, inline="always")
def _hand_word(counts: np.ndarray, j: int) -> np.uint64:
    """Kinds 8j…8j+7 of a hand, one byte of copies each."""
    word = np.uint64(0)
    for i in range(8):
        word |= np.uint64(counts[8 * j + i]) << np.uint64(8 * i)
    return word


@njit(cache=True, inline="always")
def hand_hash(counts: np.ndarray) -> np.uint64:
    """A hash of a hand that is a sum over its cards, so adding card ``k`` adds
    ``card_hash(k)`` (lookaheads hash each hand after a draw in O(1))."""
    h = np.uint64(0)
    for j in range(_HAND_WORDS):
        h += _hand_word(counts, j) * _ZOBRIST[j]
    return h


@njit(cache=True, inline="always")
def card_hash(kind: int) -> np.uint64:
    """What one card of ``kind`` adds to :func:`hand_hash`."""
    return _ZOBRIST[kind // 8] << np.uint64(8 * (kind % 8))


@njit(cache=True, inline="always")
def _memo_slot(counts: np.ndarray, tag: int, hashed: np.uint64, scratch: np.ndarray
               ) -> tuple[int, bool]:
    """The memo entry for (``counts``, ``tag``) and whether it holds them already.

    Entries (``_MEMO_ENTRY`` int64 each, ``MEMO_SLOTS`` of them at ``_S_MEMO``, 320 KiB in
    all, so they stay in a core's L2 cache): the hand packed in words, the tag (what was
    asked: round, rules, question; 0 = empty), two answers. Direct-mapped on ``hashed``
    (:func:`hand_hash` of ``counts``) and the tag; a hit compares the whole hand, so it is
    exact.
    """
    h = hashed + np.uint64(tag) * _ZOBRIST[_HAND_WORDS]
    base = _S_MEMO + int(h >> np.uint64(52)) % MEMO_SLOTS * _MEMO_ENTRY
    if scratch[base + _M_TAG] != tag:
        return base, False
    for j in range(_HAND_WORDS):
        if scratch[base + j] != np.int64(_hand_word(counts, j)):
            return base, False
    return base, True


@njit(cache=True, inline="always")
def _memo_store(counts: np.ndarray, tag: int, scratch: np.ndarray, base: int, first: int,
                second: int) -> None:
    """Fill the memo entry at ``base`` (from :func:`_memo_slot`)."""
    for j in range(_HAND_WORDS):
        scratch[base + j] = np.int64(_hand_word(counts, j))
    scratch[base + _M_TAG] = tag
    scratch[base + _M_FIRST] = first
    scratch[base + _M_SECOND] = second


@njit(cache=True, inline="always")
def _rules_tag(round_number: int, wild_points: int, all_wild: bool) -> int:
    """A memo tag for a round and rules (non-zero; distinct for distinct arguments)."""
    return 1 + round_number + 16 * wild_points + (1 << 24) * int(all_wild)


@njit(cache=True)
def penalty_memo(
    counts: np.ndarray,
    round_number: int,
    wild_points: int,
    all_wild: bool,
    table: np.ndarray,
    scratch: np.ndarray,
) -> tuple[int, int]:
    """:func:`penalty_kernel` through a memo of recent hands kept in ``scratch``.

    Games and lookahead strategies solve the same hands again and again (a best discard
    re-solves the hand kept last turn, a lookahead re-solves each candidate); a hit is
    exact. It does not refresh the arrangement :func:`solve` reads; use the kernel for that.
    """
    tag = _rules_tag(round_number, wild_points, all_wild)
    base, hit = _memo_slot(counts, tag, hand_hash(counts), scratch)
    if hit:
        return scratch[base + _M_FIRST], scratch[base + _M_SECOND]
    pen, left = penalty_kernel(counts, round_number, wild_points, all_wild, table, scratch)
    _memo_store(counts, tag, scratch, base, pen, left)
    return pen, left


@njit(cache=True)
def discard_memo(
    counts: np.ndarray,
    round_number: int,
    wild_points: int,
    all_wild: bool,
    table: np.ndarray,
    scratch: np.ndarray,
    best_kind: int,
    best_pen: int,
    hashed: np.uint64,
) -> tuple[int, int]:
    """:func:`discard_kernel` through the memo of :func:`penalty_memo`; ``hashed`` is
    :func:`hand_hash` of ``counts``.

    A lookahead asks the same questions again: the hands after each possible draw are
    asked about when deciding to draw, again when the drawn card is a discard candidate,
    and again next turn. The question (starting discard included) is part of the tag.
    """
    tag = (_rules_tag(round_number, wild_points, all_wild) + (1 << 25)
           + (best_kind + 1) * (1 << 26) + min(best_pen, 1 << 20) * (1 << 33))
    base, hit = _memo_slot(counts, tag, hashed, scratch)
    if hit:
        return scratch[base + _M_FIRST], scratch[base + _M_SECOND]
    kind, pen = discard_kernel(counts, round_number, wild_points, all_wild, table, scratch,
                               best_kind, best_pen)
    _memo_store(counts, tag, scratch, base, kind, pen)
    return kind, pen



@njit(cache=True, inline="always")
def _convolve_small(scratch: np.ndarray, table: np.ndarray, budget: int) -> None:
    """:func:`_convolve_runs` for budgets of 0–3 wilds, kept in registers."""
    r0, r1, r2, r3 = 0, _NEG, _NEG, _NEG
    for s in range(N_SUITS):
        pat = scratch[_S_CUR + s]
        if pat == 0:
            continue
        v0 = int(table[pat, 0])  # never infeasible: no runs at all
        if budget == 0:
            r0 += v0
            continue
        v1 = _exact(table, pat, 1)
        if budget >= 3:
            r3 = max(max(r3 + v0, r2 + v1), max(r1 + _exact(table, pat, 2),
                                                r0 + _exact(table, pat, 3)))
        if budget >= 2:
            r2 = max(max(r2 + v0, r1 + v1), r0 + _exact(table, pat, 2))
        r1 = max(r1 + v0, r0 + v1)
        r0 += v0
    scratch[_S_RUNS] = r0
    scratch[_S_RUNS + 1] = r1 if r1 > _NEG // 2 else _NEG
    scratch[_S_RUNS + 2] = r2 if r2 > _NEG // 2 else _NEG
    scratch[_S_RUNS + 3] = r3 if r3 > _NEG // 2 else _NEG


@njit(cache=True, inline="always")
def _convolve_runs(scratch: np.ndarray, table: np.ndarray, budget: int) -> None:
    """Best run total for exactly w = 0…budget wilds over the five suits (max-plus).

    In place, from the top: ``runs[w] = max_b runs[w - b] + row[b]`` only reads entries
    below ``w``, which still hold the previous suits' totals.
    """
    if budget <= 3:
        _convolve_small(scratch, table, budget)
        return
    scratch[_S_RUNS] = 0
    for w in range(1, budget + 1):
        scratch[_S_RUNS + w] = _NEG
    for s in range(N_SUITS):
        pat = scratch[_S_CUR + s]
        if pat == 0:
            continue
        for w in range(budget, -1, -1):
            best = _NEG
            for b in range(w + 1):
                v = _exact(table, pat, b)
                have = scratch[_S_RUNS + w - b]
                if v != _NEG and have != _NEG and have + v > best:
                    best = have + v
            scratch[_S_RUNS + w] = best


# The one-pass discard search ranks (arrangement, discard) pairs by one integer *key*:
# 256 × the penalty left, plus a tie-break below 256 — a natural discard
# 127 - (8 × points + 7 - suit) (16…103: more points, then the lower suit, win), a wild
# _KEY_WILD or _KEY_WILD + 1 (after every natural of equal penalty).
_KEY_SCALE = 256
_KEY_WILD = 200
_FAR = -(1 << 40)  # "no such runs" in the scaled sums


@njit(cache=True, inline="always")
def _scaled_runs(table: np.ndarray, pat: int, w: int) -> int:
    """256 × a suit's best run total with exactly ``w`` (<= 7) wilds, or ``_FAR``."""
    v = table[RUN_ROWS + pat, w]
    return _FAR if v == INFEASIBLE else _KEY_SCALE * int(v)


@njit(cache=True, inline="always")
def _scaled_free(table: np.ndarray, pat: int, w: int, suit: int) -> int:
    """A suit's best runs with one natural left out, as the key part
    256 × (runs + card) + 8 × card + 7 - suit, or ``_FAR``."""
    f = table[FREE_ROWS + pat, w]
    if f == NO_CARD:
        return _FAR
    return _KEY_SCALE * int(f) + 8 * int(table[FREE_ROWS + pat, NARROW + w]) + 7 - suit


@njit(cache=True, inline="always")
def _convolve_free_small(scratch: np.ndarray, table: np.ndarray, budget: int) -> None:
    """:func:`_convolve_free` for budgets of 0–2 wilds, kept in registers."""
    r0, r1, r2 = 0, _FAR, _FAR
    f0, f1, f2 = _FAR, _FAR, _FAR
    for s in range(N_SUITS):
        pat = scratch[_S_CUR + s]
        if pat == 0:
            continue
        v0 = _scaled_runs(table, pat, 0)
        g0 = _scaled_free(table, pat, 0, s)
        if budget >= 1:
            v1 = _scaled_runs(table, pat, 1)
            g1 = _scaled_free(table, pat, 1, s)
            if budget >= 2:
                v2 = _scaled_runs(table, pat, 2)
                g2 = _scaled_free(table, pat, 2, s)
                f2 = max(max(max(f2 + v0, f1 + v1), max(f0 + v2, r2 + g0)),
                         max(r1 + g1, r0 + g2))
                r2 = max(max(r2 + v0, r1 + v1), r0 + v2)
            f1 = max(max(f1 + v0, f0 + v1), max(r1 + g0, r0 + g1))
            r1 = max(r1 + v0, r0 + v1)
        f0 = max(f0 + v0, r0 + g0)
        r0 += v0
    scratch[_S_RUNS] = r0
    scratch[_S_FREE] = f0 if f0 > _FAR // 2 else _FAR
    scratch[_S_RUNS + 1] = r1 if r1 > _FAR // 2 else _FAR
    scratch[_S_FREE + 1] = f1 if f1 > _FAR // 2 else _FAR
    scratch[_S_RUNS + 2] = r2 if r2 > _FAR // 2 else _FAR
    scratch[_S_FREE + 2] = f2 if f2 > _FAR // 2 else _FAR


@njit(cache=True, inline="always")
def _convolve_free(scratch: np.ndarray, table: np.ndarray, budget: int) -> None:
    """Over the five suits, for exactly w = 0…budget (≤ 7) wilds in runs: ``runs[w]`` =
    256 × the best run total, and ``free[w]`` = the best of 256 × (run total + one natural
    left out) + 8 × that card's points + 7 - its suit (``_FAR`` when there is none)."""
    if budget <= 2:
        _convolve_free_small(scratch, table, budget)
        return
    for w in range(budget + 1):
        scratch[_S_RUNS + w] = _FAR
        scratch[_S_FREE + w] = _FAR
    scratch[_S_RUNS] = 0
    for s in range(N_SUITS):
        pat = scratch[_S_CUR + s]
        if pat == 0:
            continue
        for w in range(budget, -1, -1):
            keep = _FAR
            free = _FAR
            for b in range(w + 1):
                have = scratch[_S_RUNS + w - b]
                v = _scaled_runs(table, pat, b)
                keep = max(keep, have + v)
                free = max(free, max(scratch[_S_FREE + w - b] + v,
                                     have + _scaled_free(table, pat, b, s)))
            scratch[_S_RUNS + w] = keep if keep > _FAR // 2 else _FAR
            scratch[_S_FREE + w] = free if free > _FAR // 2 else _FAR


@njit(cache=True, inline="always")
def _isolated_in_books(counts: np.ndarray, n_cand: int, scratch: np.ndarray) -> int:
    """The kinds (a bit set) of the isolated natural cards of the candidate book ranks."""
    kinds = 0
    for c_i in range(n_cand):
        i = scratch[_S_CAND + c_i]
        for s in range(N_SUITS):
            k = s * N_RANKS + i
            if counts[k] > 0 and (scratch[_S_MASK + s] & _NEAR[i]) == 0:
                kinds |= 1 << k
    return kinds


@njit(cache=True)
def discard_kernel(
    counts: np.ndarray,
    round_number: int,
    wild_points: int,
    all_wild: bool,
    table: np.ndarray,
    scratch: np.ndarray,
    best_kind: int,
    best_pen: int,
) -> tuple[int, int]:
    """The best discard of a hand of n+1 cards in one search over its arrangements.

    Discarding ``d`` and arranging the rest is arranging the whole hand with ``d`` left
    out, so the least penalty after a discard is the least over arrangements of the
    whole hand of (its penalty - the points of one card it leaves out). A natural card
    left out comes from the free-card rows of the table through :func:`_convolve_free`,
    a wild by spending one wild fewer; the key (above) makes ties go to a natural over a
    wild, then to more points, then to the lower kind, as :func:`discard_search` does.
    The walk puts an isolated card in its rank's book whenever that rank has one, so it
    never leaves one out; that loses nothing unless the whole hand melds with nothing left
    out (any arrangement leaving a card out is then beaten by one putting the isolated
    card back in its book and leaving that card out instead), and then those few cards are
    tried one by one. The free-card rows stop at seven wilds: hands with eight or more go
    to :func:`discard_search`.

    ``best_kind`` / ``best_pen`` is a known discard and the penalty it leaves (-1 and a
    huge number for none): only a strictly better one replaces it.

    Returns
    -------
    (kind, penalty) : (int, int)
        ``kind`` is -1 for an empty hand.
    """
    if best_kind >= 0 and best_pen <= 0:
        return best_kind, best_pen  # nothing leaves less than nothing
    wild_pos = round_number - 1
    n_jokers = int(counts[JOKER])
    nat_total, n_rank_wilds, top, twice = _read_hand(counts, wild_pos, scratch)
    n_wilds = n_jokers + n_rank_wilds
    if n_wilds >= NARROW:
        return discard_search(counts, round_number, wild_points, all_wild, table, scratch,
                              best_kind, best_pen)
    rank_wild = -1
    for s in range(N_SUITS):
        if counts[s * N_RANKS + wild_pos] > 0:
            rank_wild = s * N_RANKS + wild_pos
            break
    joker_first = wild_points < JOKER_PENALTY  # the wild worth more goes first
    n_cand = _book_options(counts, wild_pos, n_wilds, 2, twice, scratch)
    book_need, book_value = _first_combination(scratch, n_cand)
    best_key = _KEY_SCALE * min(best_pen, _BIG)
    melds_all = False
    more = True
    while more:
        if book_need <= n_wilds:
            budget = n_wilds - book_need
            bound = nat_total - book_value
            for s in range(N_SUITS):
                bound -= _best_upto(table, scratch[_S_CUR + s], budget)
            # No key of this combination is below this (the card left out <= top).
            if _KEY_SCALE * bound - (_KEY_SCALE + 8) * top + 120 < best_key:
                _convolve_free(scratch, table, budget)
                has_book = book_value > 0
                base = nat_total - book_value
                for w in range(budget + 1):
                    keep = scratch[_S_RUNS + w]
                    if keep == _FAR:
                        continue
                    left = budget - w
                    if has_book or (all_wild and left >= 3):
                        left = 0
                    cost = base + _wild_cost(left, n_rank_wilds, n_jokers, wild_points)
                    if cost * _KEY_SCALE == keep:
                        melds_all = True
                    free = scratch[_S_FREE + w]
                    if free != _FAR:
                        best_key = min(best_key, _KEY_SCALE * cost + 127 - free)
                    if w == budget:
                        continue
                    # A wild discarded: one wild fewer to leave out.
                    left = budget - 1 - w
                    if has_book or (all_wild and left >= 3):
                        left = 0
                    if n_jokers > 0:
                        cost = base + _wild_cost(left, n_rank_wilds, n_jokers - 1, wild_points)
                        key = _KEY_SCALE * cost - keep + _KEY_WILD
                        best_key = min(best_key, key + (0 if joker_first else 1))
                    if rank_wild >= 0:
                        cost = base + _wild_cost(left, n_rank_wilds - 1, n_jokers, wild_points)
                        key = _KEY_SCALE * cost - keep + _KEY_WILD
                        best_key = min(best_key, key + (1 if joker_first else 0))
        else:
            book_need, book_value, _ = _skip_unaffordable(scratch, n_cand, n_wilds, book_need,
                                                          book_value)
        more, book_need, book_value = _next_combination(scratch, n_cand, book_need, book_value)
    if melds_all:
        # The walk never left out a card its rank's book always holds (an isolated one);
        # that matters only here (see above), so those few are tried one by one.
        isolated = _isolated_in_books(counts, n_cand, scratch)
        while isolated:
            k = 0
            while not (isolated >> k) & 1:
                k += 1
            isolated &= isolated - 1
            counts[k] -= 1
            pen, _ = penalty_memo(counts, round_number, wild_points, all_wild, table, scratch)
            counts[k] += 1
            order = 8 * (k % N_RANKS + 3) + 7 - k // N_RANKS
            best_key = min(best_key, _KEY_SCALE * pen + 127 - order)
    if best_key < _KEY_SCALE * min(best_pen, _BIG):
        best_pen = best_key // _KEY_SCALE
        tie = best_key % _KEY_SCALE
        if tie >= _KEY_WILD:
            best_kind = JOKER if (tie == _KEY_WILD) == joker_first else rank_wild
        else:
            order = 127 - tie  # 8 × points + 7 - suit
            best_kind = (7 - order % 8) * N_RANKS + order // 8 - 3
    if best_kind < 0:
        return -1, 0
    return best_kind, best_pen


@njit(cache=True)
def best_discard_kernel(
    counts: np.ndarray,
    round_number: int,
    wild_points: int,
    all_wild: bool,
    table: np.ndarray,
    scratch: np.ndarray,
) -> tuple[int, int]:
    """The discard that leaves the least penalty, and that penalty (:func:`discard_kernel`).

    ``counts`` (``int8[56]``) is a hand of n+1 cards after a draw; it is restored before
    returning. Ties go to a natural card over a wild, then to the card worth more points,
    then to the lowest kind.

    Returns
    -------
    (kind, penalty) : (int, int)
        ``kind`` is -1 for an empty hand.
    """
    return discard_kernel(counts, round_number, wild_points, all_wild, table, scratch, -1,
                          _BIG)


@njit(cache=True)
def discard_search(
    counts: np.ndarray,
    round_number: int,
    wild_points: int,
    all_wild: bool,
    table: np.ndarray,
    scratch: np.ndarray,
    best_kind: int,
    best_pen: int,
) -> tuple[int, int]:
    """:func:`discard_kernel` by solving the hand less each card in turn (slower; for the
    hands the one-pass search hands over).

    Discards that cannot beat the best so far are skipped using
    ``penalty(hand - d) >= penalty(hand) - points(d)``.
    """
    wild_pos = round_number - 1
    whole, _ = penalty_memo(counts, round_number, wild_points, all_wild, table, scratch)
    # Naturals, most points first (kind order within a rank).
    for i in range(N_RANKS - 1, -1, -1):
        if i == wild_pos:
            continue
        bound = max(0, whole - (i + 3))
        if bound >= best_pen:
            break
        for s in range(N_SUITS):
            k = s * N_RANKS + i
            if counts[k] == 0:
                continue
            counts[k] -= 1
            pen, _ = penalty_memo(counts, round_number, wild_points, all_wild, table, scratch)
            counts[k] += 1
            if pen < best_pen:
                best_pen = pen
                best_kind = k
                if pen == bound:
                    break
    # Wilds lose ties to naturals; all cards of the wild rank play alike, so one stands for all.
    rank_wild = -1
    for s in range(N_SUITS):
        if counts[s * N_RANKS + wild_pos] > 0:
            rank_wild = s * N_RANKS + wild_pos
            break
    first, second = JOKER, rank_wild  # more points first; equal points: lower kind first
    if wild_points >= JOKER_PENALTY:
        first, second = rank_wild, JOKER
    for k in (first, second):
        if k < 0 or counts[k] == 0:
            continue
        points = JOKER_PENALTY if k == JOKER else wild_points
        if max(0, whole - points) >= best_pen:
            continue
        counts[k] -= 1
        pen, _ = penalty_memo(counts, round_number, wild_points, all_wild, table, scratch)
        counts[k] += 1
        if pen < best_pen:
            best_pen = pen
            best_kind = k
    if best_kind < 0:
        return -1, 0
    return best_kind, best_pen


@njit(cache=True)
def penalty_batch_kernel(
    hands: np.ndarray, round_number: int, wild_points: int, all_wild: bool, table: np.ndarray
) -> np.ndarray:
    """:func:`penalty_kernel` over ``hands`` (``int8[N, 56]``); returns ``int32[N]``."""
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    out = np.empty(hands.shape[0], dtype=np.int32)
    for h in range(hands.shape[0]):
        out[h] = penalty_kernel(hands[h], round_number, wild_points, all_wild, table, scratch)[0]
    return out


@njit(cache=True)
def best_discard_batch_kernel(
    hands: np.ndarray, round_number: int, wild_points: int, all_wild: bool, table: np.ndarray
) -> np.ndarray:
    """:func:`best_discard_kernel` over ``hands`` (``int8[N, 56]``); returns ``int32[N, 2]``
    of (kind, penalty)."""
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    out = np.empty((hands.shape[0], 2), dtype=np.int32)
    for h in range(hands.shape[0]):
        kind, pen = best_discard_kernel(hands[h], round_number, wild_points, all_wild, table,
                                        scratch)
        out[h, 0] = kind
        out[h, 1] = pen
    return out


# ----------------------------------------------------------------------------------------
# Python API: validation at the edge, then the kernels.


def as_counts(hand: str | list | np.ndarray) -> np.ndarray:
    """A hand as an ``int8[56]`` count vector, from notation, tokens, kinds or counts."""
    if isinstance(hand, np.ndarray) and hand.shape == (N_KINDS,):
        counts = hand.astype(np.int8)
        if counts.min() < 0:
            raise CardError("a hand cannot hold a negative number of cards")
        return counts_from_kinds([k for k in range(N_KINDS) for _ in range(int(counts[k]))])
    if isinstance(hand, str):
        return counts_from_kinds(parse_cards(hand))
    items = list(hand)
    if all(isinstance(x, (int, np.integer)) for x in items):
        bad = [x for x in items if not 0 <= int(x) < N_KINDS]
        if bad:
            raise CardError(f"bad card id {bad[0]}: ids are 0 to {N_KINDS - 1}")
        return counts_from_kinds(int(x) for x in items)
    return counts_from_kinds(parse_cards(" ".join(str(x) for x in items)))


def setup_hand(hand, round_number: int, rules: RuleSet | None) -> tuple[np.ndarray, int, bool]:
    """Validated counts, wild points and all-wild flag for the Python API."""
    rules = rules or RuleSet()
    if not isinstance(round_number, (int, np.integer)) or not 1 <= round_number <= 11:
        raise ValueError(f"round must be 1 to 11, not {round_number!r}")
    counts = as_counts(hand)
    size = int(counts.sum())
    if size > MAX_HAND:
        raise CardError(f"a hand holds at most {MAX_HAND} cards, not {size}")
    return counts, rules.wild_points(int(round_number)), rules.all_wild_melds


def min_penalty(hand, round_number: int, rules: RuleSet | None = None) -> int:
    """The least penalty ``hand`` can leave in round ``round_number`` (exact).

    >>> min_penalty("9H JS 7D JK 7S 3H 4H", 5)  # 7s wild: 3H 4H 7S, JS 7D JK; 9H left
    9
    """
    counts, wild_points, all_wild = setup_hand(hand, round_number, rules)
    return int(penalty_kernel(counts, int(round_number), wild_points, all_wild, solver_table(),
                              new_scratch())[0])


def best_discard(hand, round_number: int, rules: RuleSet | None = None) -> tuple[str, int]:
    """For a hand of n+1 cards, the discard leaving the least penalty and that penalty."""
    counts, wild_points, all_wild = setup_hand(hand, round_number, rules)
    if counts.sum() == 0:
        raise CardError("best discard needs at least one card")
    kind, pen = best_discard_kernel(counts, int(round_number), wild_points, all_wild,
                                    solver_table(), new_scratch())
    return format_card(int(kind)), int(pen)


def min_penalty_batch(hands: np.ndarray, round_number: int,
                      rules: RuleSet | None = None) -> np.ndarray:
    """:func:`min_penalty` of every row of ``hands`` (``int8[N, 56]``) -> ``int32[N]``."""
    rules = rules or RuleSet()
    return penalty_batch_kernel(np.ascontiguousarray(hands, dtype=np.int8), int(round_number),
                                rules.wild_points(round_number), rules.all_wild_melds,
                                solver_table())


def best_discard_batch(hands: np.ndarray, round_number: int,
                       rules: RuleSet | None = None) -> np.ndarray:
    """:func:`best_discard` of every row of ``hands`` -> ``int32[N, 2]`` of (kind, penalty)."""
    rules = rules or RuleSet()
    return best_discard_batch_kernel(np.ascontiguousarray(hands, dtype=np.int8),
                                     int(round_number), rules.wild_points(round_number),
                                     rules.all_wild_melds, solver_table())
