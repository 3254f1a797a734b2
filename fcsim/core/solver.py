"""The exact best meld cover: the smallest penalty a hand can leave, and a best discard.

How it is exact and fast
------------------------
A hand is its natural cards, split by suit into base-3 *patterns*, plus ``W`` wilds
(jokers and cards of the round's wild rank). An arrangement is a set of books, runs and
(when allowed) one all-wild meld; the penalty is the rank total of the natural cards left
out, plus the cheapest ``u`` wilds when ``u`` wilds are left out.

* **Runs** are read from :mod:`fcsim.core.tables`: per suit, the best rank total for
  *exactly* ``w`` wilds, and (a prefix maximum stored beside it) for *at most* ``w``.
  A max-plus convolution over the five suits gives the best run total in all.
* **Books** cross suits, so they are enumerated: for each rank holding at least two natural
  cards, either no book, or a book taking some of them (the others stay for runs). A
  natural card with no card of its suit within two ranks is never better in a run than in
  its rank's book, so when that rank has a book it always joins it. A book with one
  natural card is a run in disguise (the card plus 2–10 wilds), except that a book holds
  any number of wilds; that matters only with all-wild melds off and 11 or more wilds,
  the one case where single-card books are enumerated too.
  Three or more such cards make a book that "no book" can never beat, so that option is
  dropped. Each rank's options come from a table of the books its cards can make, biggest
  first, so they go by the wilds they need and a combination only ever meets options it
  can pay for. The candidates with the most options are tried in nested loops; the rest
  are listed first (a list of at most ``_SLICE``; more are taken a slice at a time).
* **Wilds left over** after books and runs are absorbed by any book (a book takes any
  number), or by an all-wild meld when there are three or more and the rules allow it;
  otherwise they count, cheapest first. So a combination with a book needs only its best
  runs with *at most* its budget of wilds, a convolution of prefix maxima kept in
  registers: each is solved exactly, unless the whole hand's runs with that budget plus
  its books cannot beat the best so far (a book only takes cards away from the runs).
  The one combination with no book is solved last, wild count by wild count, and only
  when that bound says it could win.

:func:`penalty_memo` puts a small exact memo of recent hands in front of the kernel (games
and lookahead strategies solve the same hands again and again). :func:`discard_kernel`
finds the best discard in one pass over the same book combinations, least bound first:
the penalty after discarding ``d`` is that of the whole hand arranged with ``d`` left
out, so it tracks, per combination, the best runs that leave one natural out for free (a
column of the table) and the best with one wild fewer. The melds themselves, for display,
are rebuilt by :mod:`fcsim.core.arrangement`.

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


@njit(cache=True)
def _ix(i: int) -> np.uint64:
    """An array index as unsigned: numba reads a negative signed index from the end of the
    array, a check on every access (an eighth of a solve); the kernels' indices are
    never negative, and an unsigned one skips it."""
    return np.uint64(i)


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


# Five suit patterns travel packed in two int64 words (suits 0-2, then 3-4), 18 bits
# each (3**11 < 2**18): a book option takes its cards from all suits in two subtractions.
_PACK_BITS = 18
_PACK_MASK = (1 << _PACK_BITS) - 1
_RANK_MASK = (1 << N_RANKS) - 1

# Layout of the int64 scratch array the kernels work in (no allocation per call).
_S_CUR = 0  # 5 suit patterns left for runs by the combination being evaluated
_S_MASK = _S_CUR + N_SUITS  # 5 bit sets of the natural ranks each suit holds
_S_RUNS = _S_MASK + N_SUITS  # 17 best run totals by exact wild count (discard: scaled)
_S_FREE = _S_RUNS + MAX_WILDS + 1  # 17 the same with one natural card left out for free (discard)
_S_CAND = _S_FREE + MAX_WILDS + 1  # 11 candidate rank positions
_S_UPTO = _S_CAND + N_RANKS  # 3 x 11 options per candidate needing <= 0, 1, 2 wilds
_S_NOPT = _S_UPTO + 2  # (so the option count of candidate c is at _S_NOPT + 3c)
_S_FIRST = _S_UPTO + 3 * N_RANKS  # 11 index of each candidate's first book option
_S_SHIFT = _S_FIRST + N_RANKS  # 12 bit position of each candidate's choice in a code
_S_PLAN = _S_SHIFT + N_RANKS + 1  # best arrangement: 11 packed book takes (base 3 over suits) …
_S_PLAN_RUN_WILDS = _S_PLAN + N_RANKS  # … and the wilds in runs
PLAN_BOOKS, PLAN_RUN_WILDS = _S_PLAN, _S_PLAN_RUN_WILDS  # read by fcsim.core.arrangement
_S_OPT = _S_PLAN_RUN_WILDS + 1  # book options, _OPT_WIDTH fields each:
_O_LO, _O_HI, _O_NEED, _O_VALUE, _O_TAKES = range(5)  # packed pattern decrements, the
_OPT_WIDTH = 5  # wilds the book needs, its rank total, its takes (base 3 over suits)
_SLICE = 512  # most combinations of book options listed at once (see _fill_slice)
_S_SLICE = _S_OPT + N_RANKS * (MAX_BOOK_OPTIONS + 1) * _OPT_WIDTH  # two lists of _SLICE
_E_LO, _E_HI, _E_NEED, _E_VALUE, _E_CODE, _E_BOUND = range(6)  # combinations: patterns,
_ENTRY = 6  # the books' wild need and rank total, the choices' code, the penalty bound
_S_MEMO = _S_SLICE + 2 * _SLICE * _ENTRY  # see penalty_memo
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


_BYTE_LSB = 0x0101010101010101  # bit 0 of each byte of a word
# Per set of ranks of one suit (11 bits): 3**rank summed (its pattern, one copy each) in the
# low 32 bits, rank points summed in the high 32, so one lookup reads both.
_RANK_SETS = np.array([sum(3**i for i in range(N_RANKS) if m >> i & 1)
                       | sum(i + 3 for i in range(N_RANKS) if m >> i & 1) << 32
                       for m in range(1 << N_RANKS)], dtype=np.int64)


@njit(cache=True, inline="always")
def _byte_bits(bits: int) -> int:
    """Bit 0 of each byte of a word, gathered into 8 bits (shifts only: numba's integer
    products may not overflow, so the usual multiply trick is out)."""
    bits = (bits | (bits >> 7)) & 0x0003000300030003
    bits = (bits | (bits >> 14)) & 0x0000000F0000000F
    return (bits | (bits >> 28)) & 0xFF


@njit(cache=True, inline="always")
def _read_hand(counts: np.ndarray, wild_pos: int, scratch: np.ndarray
               ) -> tuple[int, int, int, int, int, int]:
    """Rank sets into ``scratch``, and the hand's numbers, branch-free (hands are random).

    The 56 counts are read as 7 words: the kinds held once or more, and twice, become two
    bit sets, whose 11-bit slices are the suits' rank sets; a suit's pattern and points
    are those of its ranks held plus those of its ranks held twice.

    Returns (natural points, wild-rank cards, the set of ranks held, the set of ranks
    holding two or more natural cards, the suit patterns packed in two words), naturals
    only.
    """
    words = counts.view(np.int64)
    held = 0  # kinds held, one bit each
    doubled = 0  # kinds held twice
    for j in range(N_KINDS // 8):
        w = words[_ix(j)]
        held |= _byte_bits((w | (w >> 1)) & _BYTE_LSB) << (8 * j)
        doubled |= _byte_bits((w >> 1) & _BYTE_LSB) << (8 * j)
    nat_total = 0
    n_rank_wilds = 0
    seen = 0  # ranks held in some suit so far
    twice = 0  # ranks held twice: in two suits, or both copies in one
    low_word = 0
    high_word = 0
    not_wild = ~(1 << wild_pos)
    for s in range(N_SUITS):
        mask = (held >> (N_RANKS * s)) & _RANK_MASK
        pair = (doubled >> (N_RANKS * s)) & _RANK_MASK
        n_rank_wilds += ((mask >> wild_pos) & 1) + ((pair >> wild_pos) & 1)
        mask &= not_wild
        pair &= not_wild
        both = _RANK_SETS[_ix(mask)] + _RANK_SETS[_ix(pair)]
        nat_total += both >> 32
        if s < 3:
            low_word |= (both & 0xFFFFFFFF) << (_PACK_BITS * s)
        else:
            high_word |= (both & 0xFFFFFFFF) << (_PACK_BITS * (s - 3))
        scratch[_ix(_S_MASK + s)] = mask
        twice |= (seen & mask) | pair
        seen |= mask
    return nat_total, n_rank_wilds, seen, twice, low_word, high_word


@njit(cache=True, inline="always")
def _unpack(low_word: int, high_word: int, s: int) -> int:
    """Suit ``s``'s pattern from the packed words."""
    if s < 3:
        return (low_word >> (_PACK_BITS * s)) & _PACK_MASK
    return (high_word >> (_PACK_BITS * (s - 3))) & _PACK_MASK


def _rank_books() -> tuple[np.ndarray, np.ndarray]:
    """Every book one rank's natural cards can make, by the copies each suit holds
    (``held`` = sum of copies * 3**suit): entries ``start[held]`` to ``start[held + 1]``
    of ``books``, biggest first. An entry packs the copies taken per suit (2 bits each),
    the size (bits 10-13), the suits whose copies are all taken (bits 14-18) and the takes
    as a base-3 number over suits (bits 19-26)."""
    books, start = [], [0]
    for held in range(3**N_SUITS):
        have = [held // 3**s % 3 for s in range(N_SUITS)]
        subs = []
        for t in np.ndindex(*[c + 1 for c in have]):
            if sum(t):
                full = sum(1 << s for s in range(N_SUITS) if t[s] == have[s])
                per_suit = sum(t[s] << (2 * s) for s in range(N_SUITS))
                base3 = sum(t[s] * 3**s for s in range(N_SUITS))
                subs.append((-sum(t), per_suit | sum(t) << 10 | full << 14 | base3 << 19))
        books += [entry for _, entry in sorted(subs)]
        start.append(len(books))
    return np.array(books, dtype=np.int32), np.array(start, dtype=np.int32)


_BOOKS, _BOOKS_START = _rank_books()
# One card per copy taken, packed like the patterns: suits 0-2 (an entry's low 6 bits)
# and suits 3-4 (its next 4 bits); times 3**rank, the book's pattern decrements.
_UNIT_LOW = np.array([sum((t >> (2 * s) & 3) << (_PACK_BITS * s) for s in range(3))
                      for t in range(64)], dtype=np.int64)
_UNIT_HIGH = np.array([sum((t >> (2 * s) & 3) << (_PACK_BITS * s) for s in range(2))
                       for t in range(16)], dtype=np.int64)


# The 32-bit de Bruijn sequence 0x077CB531: the top 5 bits of 2**k times it (k < 32) are
# distinct, so they tell k.
_DE_BRUIJN = 0x077CB531
_DE_BRUIJN_POS = np.array(sorted(range(32), key=lambda k: ((_DE_BRUIJN << k) & 0xFFFFFFFF) >> 27),
                          dtype=np.int64)


@njit(cache=True, inline="always")
def _lowest(bits: int) -> int:
    """The position of the lowest set bit of ``bits`` (non-zero, below bit 32)."""
    return _DE_BRUIJN_POS[_ix((((bits & -bits) * _DE_BRUIJN) & 0xFFFFFFFF) >> 27)]


@njit(cache=True, inline="always")
def _book_options(counts: np.ndarray, wild_pos: int, n_wilds: int, min_book: int,
                  twice: int, at_least: int, scratch: np.ndarray) -> tuple[int, int]:
    """Store each candidate rank's book options in ``scratch``; returns how many
    candidates there are, and how many are stored: at least ``at_least``, padded with
    stand-ins that have one option, no book (at the wild rank, which has no book).

    Option 0 of a rank is "no book", dropped when three or more of its cards are isolated;
    the others take a sub-multiset of the rank's cards holding every isolated one, biggest
    first. So a candidate's options go by the wilds they need: its first ``upto[k]``
    options need at most ``k``. ``twice`` is the set of ranks with two or more natural
    cards (the only candidates unless single-card books are allowed).
    """
    n_cand = 0
    n_stored = 0
    ranks = twice
    if min_book == 1:
        ranks = 0
        for s in range(N_SUITS):
            ranks |= scratch[_ix(_S_MASK + s)]
    smallest = max(min_book, 3 - n_wilds)
    while ranks:
        i = _lowest(ranks)
        ranks &= ranks - 1
        held = 0  # copies per suit, base 3
        forced = 0  # suits whose copies are isolated: a book of this rank takes them
        n_forced = 0
        for s in range(N_SUITS):
            c = np.int64(counts[_ix(s * N_RANKS + i)])
            isolated = np.int64((scratch[_ix(_S_MASK + s)] & _NEAR[_ix(i)]) == 0) * np.int64(c > 0)
            held += c * POW3[_ix(s)]
            forced |= isolated << s
            n_forced += isolated * c
        first = n_stored
        if n_forced < 3:
            for f in range(_OPT_WIDTH):
                scratch[_ix(_S_OPT + n_stored * _OPT_WIDTH + f)] = 0
            n_stored += 1
        up_to_0, up_to_1 = n_stored - first, n_stored - first
        for k in range(_BOOKS_START[_ix(held)], _BOOKS_START[_ix(held + 1)]):
            book = np.int64(_BOOKS[_ix(k)])
            size = (book >> 10) & 15
            if size < smallest:
                break
            if (book >> 14) & forced != forced:
                continue
            q = _S_OPT + n_stored * _OPT_WIDTH
            scratch[_ix(q + _O_LO)] = _UNIT_LOW[_ix(book & 63)] * POW3[_ix(i)]
            scratch[_ix(q + _O_HI)] = _UNIT_HIGH[_ix((book >> 6) & 15)] * POW3[_ix(i)]
            scratch[_ix(q + _O_NEED)] = max(0, 3 - size)
            scratch[_ix(q + _O_VALUE)] = size * (i + 3)
            scratch[_ix(q + _O_TAKES)] = book >> 19
            n_stored += 1
            up_to_0 += size >= 3
            up_to_1 += size >= 2
        if n_stored - first > 1 or scratch[_ix(_S_OPT + first * _OPT_WIDTH + _O_VALUE)] > 0:
            scratch[_ix(_S_CAND + n_cand)] = i
            scratch[_ix(_S_FIRST + n_cand)] = first
            scratch[_ix(_S_UPTO + 3 * n_cand)] = up_to_0
            scratch[_ix(_S_UPTO + 3 * n_cand + 1)] = up_to_1
            scratch[_ix(_S_UPTO + 3 * n_cand + 2)] = n_stored - first
            n_cand += 1
        else:
            n_stored = first  # only "no book": nothing to choose
    n_real = n_cand
    _sort_candidates(scratch, n_cand)
    while n_cand < at_least:
        for f in range(_OPT_WIDTH):
            scratch[_ix(_S_OPT + n_stored * _OPT_WIDTH + f)] = 0
        scratch[_ix(_S_CAND + n_cand)] = wild_pos
        scratch[_ix(_S_FIRST + n_cand)] = n_stored
        for k in range(3):
            scratch[_ix(_S_UPTO + 3 * n_cand + k)] = 1
        n_stored += 1
        n_cand += 1
    return n_real, n_cand


@njit(cache=True, inline="always")
def _sort_candidates(scratch: np.ndarray, n_cand: int) -> None:
    """Order the candidates by their number of options, fewest first: the last ones,
    with the most, are the ones the solver tries in place rather than lists."""
    for c_i in range(1, n_cand):
        j = c_i
        while j > 0 and scratch[_ix(_S_NOPT + 3 * (j - 1))] > scratch[_ix(_S_NOPT + 3 * j)]:
            for row, width in ((_S_CAND, 1), (_S_FIRST, 1), (_S_UPTO, 3)):
                for k in range(width):
                    a, b = row + width * (j - 1) + k, row + width * j + k
                    scratch[_ix(a)], scratch[_ix(b)] = scratch[_ix(b)], scratch[_ix(a)]
            j -= 1


# Bits a choice among n options takes in a combination's code (n <= 3**5 + 1).
_CODE_BITS = np.array([max(0, n - 1).bit_length() for n in range(256)], dtype=np.int64)


@njit(cache=True, inline="always")
def _slicing(scratch: np.ndarray, n_cand: int, n_listed: int) -> tuple[int, int]:
    """Split the candidates below ``n_listed`` in two: the last ones, with at most
    ``_SLICE`` combinations of options, are listed whole by :func:`_fill_slice`; the
    first ``n_outer`` are taken one combination at a time (usually there are none).

    Also lays out a combination's *code*: candidate ``c``'s option index in bits
    ``shift[c]`` to ``shift[c + 1]``, candidate 0 lowest (at most 30 bits: a rank's
    options number at most 2**k for its k cards, and a hand has at most 20).

    Returns (n_outer, the number of codes of the outer candidates' bits).
    """
    n_outer = n_listed
    inner = 1
    while n_outer > 0 and inner * scratch[_ix(_S_NOPT + 3 * (n_outer - 1))] <= _SLICE:
        n_outer -= 1
        inner *= scratch[_ix(_S_NOPT + 3 * n_outer)]
    shift = 0
    for c_i in range(n_cand):
        scratch[_ix(_S_SHIFT + c_i)] = shift
        shift += _CODE_BITS[_ix(scratch[_S_NOPT + 3 * c_i])]
    scratch[_ix(_S_SHIFT + n_cand)] = shift
    return n_outer, 1 << scratch[_ix(_S_SHIFT + n_outer)]


@njit(cache=True, inline="always")
def _choice(scratch: np.ndarray, c_i: int, code: int) -> int:
    """The scratch index of the option candidate ``c_i`` takes in the combination ``code``
    (-1 when the code's bits name no option: the outer codes have gaps)."""
    shift = scratch[_ix(_S_SHIFT + c_i)]
    o = (code >> shift) & ((1 << (scratch[_ix(_S_SHIFT + c_i + 1)] - shift)) - 1)
    if o >= scratch[_ix(_S_NOPT + 3 * c_i)]:
        return -1
    return _S_OPT + (scratch[_ix(_S_FIRST + c_i)] + o) * _OPT_WIDTH


@njit(cache=True, inline="always")
def _fill_slice(scratch: np.ndarray, n_outer: int, n_listed: int, outer_code: int,
                n_wilds: int, low_word: int, high_word: int) -> tuple[int, int]:
    """List the affordable choices of candidates ``n_outer`` to ``n_listed - 1`` after the
    outer candidates choose as ``outer_code`` says; returns (the list's first scratch
    index, its length).

    The candidates are expanded one at a time; an option is tried only when the wilds
    its partial combination leaves pay for it (options go by their need, so that is a
    count, not a test).
    """
    need, value = 0, 0
    for c_i in range(n_outer):
        q = _choice(scratch, c_i, outer_code)
        if q < 0:
            return _S_SLICE, 0
        low_word -= scratch[_ix(q + _O_LO)]
        high_word -= scratch[_ix(q + _O_HI)]
        need += scratch[_ix(q + _O_NEED)]
        value += scratch[_ix(q + _O_VALUE)]
    if need > n_wilds:
        return _S_SLICE, 0
    src, dst = _S_SLICE, _S_SLICE + _SLICE * _ENTRY
    scratch[_ix(src + _E_LO)] = low_word
    scratch[_ix(src + _E_HI)] = high_word
    scratch[_ix(src + _E_NEED)] = need
    scratch[_ix(src + _E_VALUE)] = value
    scratch[_ix(src + _E_CODE)] = outer_code
    n = 1
    for c_i in range(n_outer, n_listed):
        first = _S_OPT + scratch[_ix(_S_FIRST + c_i)] * _OPT_WIDTH
        shift = scratch[_ix(_S_SHIFT + c_i)]
        m = 0
        for e in range(n):
            p = src + e * _ENTRY
            for o in range(_affordable(scratch, c_i, n_wilds - scratch[_ix(p + _E_NEED)])):
                q = first + o * _OPT_WIDTH
                d = dst + m * _ENTRY
                scratch[_ix(d + _E_LO)] = scratch[_ix(p + _E_LO)] - scratch[_ix(q + _O_LO)]
                scratch[_ix(d + _E_HI)] = scratch[_ix(p + _E_HI)] - scratch[_ix(q + _O_HI)]
                scratch[_ix(d + _E_NEED)] = scratch[_ix(p + _E_NEED)] + scratch[_ix(q + _O_NEED)]
                scratch[_ix(d + _E_VALUE)] = scratch[_ix(p + _E_VALUE)] + scratch[_ix(q + _O_VALUE)]
                scratch[_ix(d + _E_CODE)] = scratch[_ix(p + _E_CODE)] | (o << shift)
                m += 1
        n = m
        src, dst = dst, src
    return src, n


@njit(cache=True, inline="always")
def _affordable(scratch: np.ndarray, c_i: int, spare: int) -> int:
    """How many of candidate ``c_i``'s options need no more than ``spare`` (>= 0) wilds."""
    return scratch[_ix(_S_UPTO + 3 * c_i + min(spare, 2))]


@njit(cache=True, inline="always")
def _bound_slice(scratch: np.ndarray, table: np.ndarray, start: int, n: int, n_wilds: int,
                 nat_total: int) -> None:
    """Give each listed combination a lower bound on its penalty: each suit's runs hold at
    most their best with every wild the books leave (a prefix maximum of the table row),
    and nothing is left over."""
    for e in range(n):
        p = start + e * _ENTRY
        budget = n_wilds - scratch[_ix(p + _E_NEED)]
        bound = nat_total - scratch[_ix(p + _E_VALUE)]
        for s in range(N_SUITS):
            bound -= _best_upto(table, _unpack(scratch[_ix(p + _E_LO)], scratch[_ix(p + _E_HI)], s),
                                budget)
        scratch[_ix(p + _E_BOUND)] = bound


@njit(cache=True, inline="always")
def _pop_least(scratch: np.ndarray, start: int, n: int) -> tuple[int, int]:
    """The listed combination of least bound (taken out of the list, so the next call
    returns the next), as (its scratch index, its bound); bounds go up from call to call."""
    best = start
    for e in range(1, n):
        p = start + e * _ENTRY
        if scratch[_ix(p + _E_BOUND)] < scratch[_ix(best + _E_BOUND)]:
            best = p
    bound = scratch[_ix(best + _E_BOUND)]
    scratch[_ix(best + _E_BOUND)] = _BIG
    return best, bound


@njit(cache=True, inline="always")
def _load(scratch: np.ndarray, p: int) -> None:
    """Put the listed combination at ``p``'s suit patterns where the convolutions read."""
    for s in range(N_SUITS):
        scratch[_ix(_S_CUR + s)] = _unpack(scratch[_ix(p + _E_LO)], scratch[_ix(p + _E_HI)], s)


@njit(cache=True, inline="always")
def _exact(table: np.ndarray, pat: int, w: int) -> int:
    """A suit's best run total with exactly ``w`` wilds, or ``_NEG``."""
    if w < NARROW:
        v = table[_ix(RUN_ROWS + pat), _ix(w)]
    else:
        v = table[_ix(WIDE_ROWS + 2 * pat), _ix(w - NARROW)]
    return _NEG if v == INFEASIBLE else int(v)


@njit(cache=True, inline="always")
def _best_upto(table: np.ndarray, pat: int, budget: int) -> int:
    """A suit's best run total with at most ``budget`` wilds."""
    if budget < NARROW:
        return int(table[_ix(RUN_ROWS + pat), _ix(NARROW + budget)])
    return int(table[_ix(WIDE_ROWS + 2 * pat + 1), _ix(budget - NARROW)])


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
    n_jokers = int(counts[_ix(JOKER)])
    nat_total, n_rank_wilds, _, twice, low_word, high_word = _read_hand(counts, wild_pos,
                                                                        scratch)
    n_wilds = n_jokers + n_rank_wilds
    min_book = 1 if (not all_wild and n_wilds >= 11) else 2
    _, n_cand = _book_options(counts, wild_pos, n_wilds, min_book, twice, 2, scratch)
    # Combinations with a book: wilds the runs leave join a book, so only the best runs
    # with <= budget wilds count. The two candidates with the most options (stand-ins
    # make two) are tried in nested loops, the others listed: most hands list nothing.
    c1, c2 = n_cand - 2, n_cand - 1
    n_outer, outer_codes = _slicing(scratch, n_cand, c1)
    first1 = _S_OPT + scratch[_ix(_S_FIRST + c1)] * _OPT_WIDTH
    first2 = _S_OPT + scratch[_ix(_S_FIRST + c2)] * _OPT_WIDTH
    # No combination's runs beat the whole hand's (a book only takes cards away), so
    # nat_total - books - whole(budget) bounds its penalty: solved only when that bound
    # beats the best so far. Biggest books first, "no book" last: the best comes early.
    whole0, whole1, whole2, whole3 = _runs_upto4(table, low_word, high_word)
    whole_all = (_pick(whole0, whole1, whole2, whole3, n_wilds) if n_wilds <= 3
                 else _runs_upto(table, low_word, high_word, n_wilds, scratch))
    best_pen = _BIG
    best_code = best_w = 0
    for outer_code in range(outer_codes):
        start, n = _fill_slice(scratch, n_outer, c1, outer_code, n_wilds, low_word,
                               high_word)
        for e in range(n):
            p = start + e * _ENTRY
            spare = n_wilds - scratch[_ix(p + _E_NEED)]
            n1 = _affordable(scratch, c1, spare)
            for j1 in range(n1):
                o1 = j1 + 1 if j1 + 1 < n1 else 0
                q1 = first1 + o1 * _OPT_WIDTH
                spare1 = spare - scratch[_ix(q1 + _O_NEED)]
                low1 = scratch[_ix(p + _E_LO)] - scratch[_ix(q1 + _O_LO)]
                high1 = scratch[_ix(p + _E_HI)] - scratch[_ix(q1 + _O_HI)]
                value1 = scratch[_ix(p + _E_VALUE)] + scratch[_ix(q1 + _O_VALUE)]
                n2 = _affordable(scratch, c2, spare1)
                for j2 in range(n2):
                    o2 = j2 + 1 if j2 + 1 < n2 else 0
                    q2 = first2 + o2 * _OPT_WIDTH
                    book_value = value1 + scratch[_ix(q2 + _O_VALUE)]
                    budget = spare1 - scratch[_ix(q2 + _O_NEED)]
                    whole = (_pick(whole0, whole1, whole2, whole3, budget) if budget <= 3
                             else whole_all)  # runs only gain from more wilds
                    if book_value == 0 or nat_total - book_value - whole >= best_pen:
                        continue
                    low2 = low1 - scratch[_ix(q2 + _O_LO)]
                    high2 = high1 - scratch[_ix(q2 + _O_HI)]
                    pen = (nat_total - book_value
                           - _runs_upto(table, low2, high2, budget, scratch))
                    if pen < best_pen:
                        best_pen = pen
                        best_code = (scratch[_ix(p + _E_CODE)]
                                     | (o1 << scratch[_ix(_S_SHIFT + c1)])
                                     | (o2 << scratch[_ix(_S_SHIFT + c2)]))
                        best_w = budget
    best_left = 0
    # The combination with no book (when every candidate may have none), last: its wilds
    # left over are melded only as an all-wild meld, so each count in runs is tried.
    no_book = True
    for c_i in range(n_cand):
        no_book &= scratch[_ix(_S_OPT + scratch[_ix(_S_FIRST + c_i)] * _OPT_WIDTH
                               + _O_VALUE)] == 0
    if no_book and nat_total - whole_all < best_pen:
        for s in range(N_SUITS):
            scratch[_ix(_S_CUR + s)] = _unpack(low_word, high_word, s)
        _convolve_runs(scratch, table, n_wilds)
        for w in range(n_wilds + 1):
            got = scratch[_ix(_S_RUNS + w)]
            if got == _NEG:
                continue
            left = n_wilds - w
            if all_wild and left >= 3:
                left = 0
            pen = nat_total - got + _wild_cost(left, n_rank_wilds, n_jokers, wild_points)
            if pen < best_pen or (pen == best_pen and left < best_left):
                best_pen = pen
                best_left = left
                best_code = 0
                best_w = w
    _write_plan(scratch, n_cand, best_code, best_w)
    return best_pen, best_left


@njit(cache=True, inline="always")
def _write_plan(scratch: np.ndarray, n_cand: int, code: int, run_wilds: int) -> None:
    """Store the books of the combination with this code (see :func:`_slicing`) and the
    wilds in runs (with a book, the most they may take), for :func:`solve`."""
    for i in range(N_RANKS):
        scratch[_ix(_S_PLAN + i)] = 0
    for c_i in range(n_cand):
        q = _choice(scratch, c_i, code)
        scratch[_ix(_S_PLAN + scratch[_S_CAND + c_i])] = scratch[_ix(q + _O_TAKES)]
    scratch[_ix(_S_PLAN_RUN_WILDS)] = run_wilds


@njit(cache=True, inline="always")
def _hand_word(counts: np.ndarray, j: int) -> np.uint64:
    """Kinds 8j…8j+7 of a hand, one byte of copies each."""
    word = np.uint64(0)
    for i in range(8):
        word |= np.uint64(counts[_ix(8 * j + i)]) << np.uint64(8 * i)
    return word


@njit(cache=True, inline="always")
def hand_hash(counts: np.ndarray) -> np.uint64:
    """A hash of a hand that is a sum over its cards, so adding card ``k`` adds
    ``card_hash(k)`` (lookaheads hash each hand after a draw in O(1))."""
    h = np.uint64(0)
    for j in range(_HAND_WORDS):
        h += _hand_word(counts, j) * _ZOBRIST[_ix(j)]
    return h


@njit(cache=True, inline="always")
def card_hash(kind: int) -> np.uint64:
    """What one card of ``kind`` adds to :func:`hand_hash`."""
    return _ZOBRIST[_ix(kind // 8)] << np.uint64(8 * (kind % 8))


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
    h = hashed + np.uint64(tag) * _ZOBRIST[_ix(_HAND_WORDS)]
    base = _S_MEMO + int(h >> np.uint64(52)) % MEMO_SLOTS * _MEMO_ENTRY
    if scratch[_ix(base + _M_TAG)] != tag:
        return base, False
    for j in range(_HAND_WORDS):
        if scratch[_ix(base + j)] != np.int64(_hand_word(counts, j)):
            return base, False
    return base, True


@njit(cache=True, inline="always")
def _memo_store(counts: np.ndarray, tag: int, scratch: np.ndarray, base: int, first: int,
                second: int) -> None:
    """Fill the memo entry at ``base`` (from :func:`_memo_slot`)."""
    for j in range(_HAND_WORDS):
        scratch[_ix(base + j)] = np.int64(_hand_word(counts, j))
    scratch[_ix(base + _M_TAG)] = tag
    scratch[_ix(base + _M_FIRST)] = first
    scratch[_ix(base + _M_SECOND)] = second


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
        return scratch[_ix(base + _M_FIRST)], scratch[_ix(base + _M_SECOND)]
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
        return scratch[_ix(base + _M_FIRST)], scratch[_ix(base + _M_SECOND)]
    kind, pen = discard_kernel(counts, round_number, wild_points, all_wild, table, scratch,
                               best_kind, best_pen)
    _memo_store(counts, tag, scratch, base, kind, pen)
    return kind, pen



@njit(cache=True, inline="always")
def _runs_upto4(table: np.ndarray, low_word: int, high_word: int
                ) -> tuple[int, int, int, int]:
    """Best run total over the five suits (packed patterns) with at most 0, 1, 2 and 3
    wilds: the max-plus convolution of the rows' prefix maxima (never infeasible)."""
    r0, r1, r2, r3 = 0, 0, 0, 0
    for s in range(N_SUITS):
        row = _ix(RUN_ROWS + _unpack(low_word, high_word, s))
        r0, r1, r2, r3 = _add_row(r0, r1, r2, r3, int(table[row, _ix(NARROW)]),
                                  int(table[row, _ix(NARROW + 1)]),
                                  int(table[row, _ix(NARROW + 2)]),
                                  int(table[row, _ix(NARROW + 3)]))
    return r0, r1, r2, r3


@njit(cache=True, inline="always")
def _add_row(r0: int, r1: int, r2: int, r3: int, v0: int, v1: int, v2: int, v3: int
             ) -> tuple[int, int, int, int]:
    """Best totals with 0-3 wilds after adding one suit whose row gives ``v0``-``v3``
    (max-plus: ``r[w] = max_b r[w - b] + v[b]``)."""
    return (r0 + v0, max(r1 + v0, r0 + v1), max(max(r2 + v0, r1 + v1), r0 + v2),
            max(max(r3 + v0, r2 + v1), max(r1 + v2, r0 + v3)))


@njit(cache=True, inline="always")
def _pick(r0: int, r1: int, r2: int, r3: int, budget: int) -> int:
    """The one of :func:`_runs_upto4`'s totals for ``budget`` (0-3)."""
    return r0 if budget == 0 else r1 if budget == 1 else r2 if budget == 2 else r3


@njit(cache=True, inline="always")
def _runs_upto(table: np.ndarray, low_word: int, high_word: int, budget: int,
               scratch: np.ndarray) -> int:
    """Best run total over the five suits (packed patterns) with at most ``budget``
    wilds (:func:`_runs_upto4` up to 3, else a loop over the budget)."""
    if budget <= 3:
        r0, r1, r2, r3 = _runs_upto4(table, low_word, high_word)
        return _pick(r0, r1, r2, r3, budget)
    for w in range(budget + 1):
        scratch[_ix(_S_RUNS + w)] = 0
    for s in range(N_SUITS):
        pat = _unpack(low_word, high_word, s)
        for w in range(budget, -1, -1):
            best = 0
            for b in range(w + 1):
                best = max(best, scratch[_ix(_S_RUNS + w - b)] + _best_upto(table, pat, b))
            scratch[_ix(_S_RUNS + w)] = best
    return scratch[_ix(_S_RUNS + budget)]


@njit(cache=True, inline="always")
def _convolve_small(scratch: np.ndarray, table: np.ndarray, budget: int) -> None:
    """:func:`_convolve_runs` for budgets of 0–3 wilds, kept in registers."""
    r0, r1, r2, r3 = 0, _NEG, _NEG, _NEG
    for s in range(N_SUITS):
        pat = scratch[_ix(_S_CUR + s)]
        if pat == 0:
            continue
        v0 = int(table[_ix(pat), _ix(0)])  # never infeasible: no runs at all
        if budget == 0:
            r0 += v0
            continue
        r0, r1, r2, r3 = _add_row(r0, r1, r2, r3, v0, _exact(table, pat, 1),
                                  _exact(table, pat, 2), _exact(table, pat, 3))
    scratch[_ix(_S_RUNS)] = r0
    scratch[_ix(_S_RUNS + 1)] = r1 if r1 > _NEG // 2 else _NEG
    scratch[_ix(_S_RUNS + 2)] = r2 if r2 > _NEG // 2 else _NEG
    scratch[_ix(_S_RUNS + 3)] = r3 if r3 > _NEG // 2 else _NEG


@njit(cache=True, inline="always")
def _convolve_runs(scratch: np.ndarray, table: np.ndarray, budget: int) -> None:
    """Best run total for exactly w = 0…budget wilds over the five suits (max-plus).

    In place, from the top: ``runs[w] = max_b runs[w - b] + row[b]`` only reads entries
    below ``w``, which still hold the previous suits' totals.
    """
    if budget <= 3:
        _convolve_small(scratch, table, budget)
        return
    scratch[_ix(_S_RUNS)] = 0
    for w in range(1, budget + 1):
        scratch[_ix(_S_RUNS + w)] = _NEG
    for s in range(N_SUITS):
        pat = scratch[_ix(_S_CUR + s)]
        if pat == 0:
            continue
        for w in range(budget, -1, -1):
            best = _NEG
            for b in range(w + 1):
                v = _exact(table, pat, b)
                have = scratch[_ix(_S_RUNS + w - b)]
                if v != _NEG and have != _NEG and have + v > best:
                    best = have + v
            scratch[_ix(_S_RUNS + w)] = best


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
    v = table[_ix(RUN_ROWS + pat), _ix(w)]
    return _FAR if v == INFEASIBLE else _KEY_SCALE * int(v)


@njit(cache=True, inline="always")
def _scaled_free(table: np.ndarray, pat: int, w: int, suit: int) -> int:
    """A suit's best runs with one natural left out, as the key part
    256 × (runs + card) + 8 × card + 7 - suit, or ``_FAR``."""
    f = table[_ix(FREE_ROWS + pat), _ix(w)]
    if f == NO_CARD:
        return _FAR
    return _KEY_SCALE * int(f) + 8 * int(table[_ix(FREE_ROWS + pat), _ix(NARROW + w)]) + 7 - suit


@njit(cache=True, inline="always")
def _convolve_free_small(scratch: np.ndarray, table: np.ndarray, budget: int) -> None:
    """:func:`_convolve_free` for budgets of 0–2 wilds, kept in registers."""
    r0, r1, r2 = 0, _FAR, _FAR
    f0, f1, f2 = _FAR, _FAR, _FAR
    for s in range(N_SUITS):
        pat = scratch[_ix(_S_CUR + s)]
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
    scratch[_ix(_S_RUNS)] = r0
    scratch[_ix(_S_FREE)] = f0 if f0 > _FAR // 2 else _FAR
    scratch[_ix(_S_RUNS + 1)] = r1 if r1 > _FAR // 2 else _FAR
    scratch[_ix(_S_FREE + 1)] = f1 if f1 > _FAR // 2 else _FAR
    scratch[_ix(_S_RUNS + 2)] = r2 if r2 > _FAR // 2 else _FAR
    scratch[_ix(_S_FREE + 2)] = f2 if f2 > _FAR // 2 else _FAR


@njit(cache=True, inline="always")
def _convolve_free(scratch: np.ndarray, table: np.ndarray, budget: int) -> None:
    """Over the five suits, for exactly w = 0…budget (≤ 7) wilds in runs: ``runs[w]`` =
    256 × the best run total, and ``free[w]`` = the best of 256 × (run total + one natural
    left out) + 8 × that card's points + 7 - its suit (``_FAR`` when there is none)."""
    if budget <= 2:
        _convolve_free_small(scratch, table, budget)
        return
    for w in range(budget + 1):
        scratch[_ix(_S_RUNS + w)] = _FAR
        scratch[_ix(_S_FREE + w)] = _FAR
    scratch[_ix(_S_RUNS)] = 0
    for s in range(N_SUITS):
        pat = scratch[_ix(_S_CUR + s)]
        if pat == 0:
            continue
        for w in range(budget, -1, -1):
            keep = _FAR
            free = _FAR
            for b in range(w + 1):
                have = scratch[_ix(_S_RUNS + w - b)]
                v = _scaled_runs(table, pat, b)
                keep = max(keep, have + v)
                free = max(free, max(scratch[_ix(_S_FREE + w - b)] + v,
                                     have + _scaled_free(table, pat, b, s)))
            scratch[_ix(_S_RUNS + w)] = keep if keep > _FAR // 2 else _FAR
            scratch[_ix(_S_FREE + w)] = free if free > _FAR // 2 else _FAR


@njit(cache=True, inline="always")
def _isolated_in_books(counts: np.ndarray, n_cand: int, scratch: np.ndarray) -> int:
    """The kinds (a bit set) of the isolated natural cards of the candidate book ranks."""
    kinds = 0
    for c_i in range(n_cand):
        i = scratch[_ix(_S_CAND + c_i)]
        for s in range(N_SUITS):
            k = s * N_RANKS + i
            if counts[_ix(k)] > 0 and (scratch[_ix(_S_MASK + s)] & _NEAR[_ix(i)]) == 0:
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
    The search puts an isolated card in its rank's book whenever that rank has one, so it
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
    n_jokers = int(counts[_ix(JOKER)])
    nat_total, n_rank_wilds, ranks, twice, low_word, high_word = _read_hand(counts, wild_pos,
                                                                          scratch)
    n_wilds = n_jokers + n_rank_wilds
    if n_wilds >= NARROW:
        return discard_search(counts, round_number, wild_points, all_wild, table, scratch,
                              best_kind, best_pen)
    rank_wild = -1
    for s in range(N_SUITS):
        if counts[_ix(s * N_RANKS + wild_pos)] > 0:
            rank_wild = s * N_RANKS + wild_pos
            break
    top = 0  # points of the highest natural card
    while ranks >> top:
        top += 1
    top += 2 if top else 0
    joker_first = wild_points < JOKER_PENALTY  # the wild worth more goes first
    n_cand, _ = _book_options(counts, wild_pos, n_wilds, 2, twice, 0, scratch)
    n_outer, outer_codes = _slicing(scratch, n_cand, n_cand)
    best_key = _KEY_SCALE * min(best_pen, _BIG)
    melds_all = False
    for outer_code in range(outer_codes):
        start, n = _fill_slice(scratch, n_outer, n_cand, outer_code, n_wilds, low_word,
                               high_word)
        _bound_slice(scratch, table, start, n, n_wilds, nat_total)
        for _ in range(n):
            p, bound = _pop_least(scratch, start, n)
            # No key of this combination is below this (the card left out <= top).
            if _KEY_SCALE * bound - (_KEY_SCALE + 8) * top + 120 >= best_key:
                break
            budget = n_wilds - scratch[_ix(p + _E_NEED)]
            book_value = scratch[_ix(p + _E_VALUE)]
            _load(scratch, p)
            _convolve_free(scratch, table, budget)
            has_book = book_value > 0
            base = nat_total - book_value
            for w in range(budget + 1):
                keep = scratch[_ix(_S_RUNS + w)]
                if keep == _FAR:
                    continue
                left = budget - w
                if has_book or (all_wild and left >= 3):
                    left = 0
                cost = base + _wild_cost(left, n_rank_wilds, n_jokers, wild_points)
                if cost * _KEY_SCALE == keep:
                    melds_all = True
                free = scratch[_ix(_S_FREE + w)]
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
    if melds_all:
        # The search never left out a card its rank's book always holds (an isolated one);
        # that matters only here (see above), so those few are tried one by one.
        isolated = _isolated_in_books(counts, n_cand, scratch)
        while isolated:
            k = 0
            while not (isolated >> k) & 1:
                k += 1
            isolated &= isolated - 1
            counts[_ix(k)] -= 1
            pen, _ = penalty_memo(counts, round_number, wild_points, all_wild, table, scratch)
            counts[_ix(k)] += 1
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
            if counts[_ix(k)] == 0:
                continue
            counts[_ix(k)] -= 1
            pen, _ = penalty_memo(counts, round_number, wild_points, all_wild, table, scratch)
            counts[_ix(k)] += 1
            if pen < best_pen:
                best_pen = pen
                best_kind = k
                if pen == bound:
                    break
    # Wilds lose ties to naturals; all cards of the wild rank play alike, so one stands for all.
    rank_wild = -1
    for s in range(N_SUITS):
        if counts[_ix(s * N_RANKS + wild_pos)] > 0:
            rank_wild = s * N_RANKS + wild_pos
            break
    first, second = JOKER, rank_wild  # more points first; equal points: lower kind first
    if wild_points >= JOKER_PENALTY:
        first, second = rank_wild, JOKER
    for k in (first, second):
        if k < 0 or counts[_ix(k)] == 0:
            continue
        points = JOKER_PENALTY if k == JOKER else wild_points
        if max(0, whole - points) >= best_pen:
            continue
        counts[_ix(k)] -= 1
        pen, _ = penalty_memo(counts, round_number, wild_points, all_wild, table, scratch)
        counts[_ix(k)] += 1
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
        return counts_from_kinds([k for k in range(N_KINDS) for _ in range(int(counts[_ix(k)]))])
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
