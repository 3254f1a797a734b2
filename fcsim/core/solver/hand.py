"""A hand as the solver reads it: per suit a pattern and a set of ranks; its wilds' cost.

A suit's *pattern* is the base-3 number of the copies (0–2) of its 11 ranks (rank index i
is digit i); its rank set has bit i for a rank held. The five patterns travel packed in
two int64 words, suits 0–2 then 3–4, ``PACK_BITS`` each (3**11 < 2**18): a book option
takes its cards from every suit in two subtractions.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from fcsim.core.cards import JOKER_PENALTY, N_RANKS, N_SUITS, kind_at, plain_python, rank_at
from fcsim.core.solver.bits import BYTE_LSB, byte_bits
from fcsim.core.solver.layout import HAND_WORDS, KINDS_PER_WORD, SUIT_RANKS, at, ix

PACK_BITS = 18
LOW_SUITS = 3  # suits packed in the low word; the others in the high word
_PACK_MASK = (1 << PACK_BITS) - 1
_RANK_MASK = (1 << N_RANKS) - 1
_HALF_BITS = 32
_LOW_HALF = (1 << _HALF_BITS) - 1
# Per set of ranks of one suit (11 bits): its pattern with one copy of each (the sum of
# 3**i) in the low half, the ranks' points summed in the high half: one lookup reads both.
_rank_points = plain_python(rank_at)
_RANK_SETS = np.array([sum(3**i for i in range(N_RANKS) if m >> i & 1)
                       | sum(_rank_points(i) for i in range(N_RANKS) if m >> i & 1) << _HALF_BITS
                       for m in range(1 << N_RANKS)], dtype=np.int64)
# A natural card with no card of its suit within this many ranks is *isolated*: it is never
# better in a run than in its rank's book.
_NEAR_RANKS = 2
_NEAR = np.array([sum(1 << j for j in range(max(0, i - _NEAR_RANKS),
                                            min(N_RANKS, i + _NEAR_RANKS + 1)) if j != i)
                  for i in range(N_RANKS)], dtype=np.int64)


@njit(cache=True, inline="always")
def read_hand(counts: np.ndarray, wild_pos: int, scratch: np.ndarray
              ) -> tuple[int, int, int, int, int, int]:
    """Suits' rank sets into ``scratch``, and the hand's numbers, branch-free (hands are
    random).

    The 56 counts are read as ``HAND_WORDS`` words: the kinds held once or more, and twice,
    become two bit sets, whose 11-bit slices are the suits' rank sets; a suit's pattern and
    points are those of its ranks held plus those of its ranks held twice.

    Returns (natural points, wild-rank cards, the set of ranks held, the set of ranks
    holding two or more natural cards, the suit patterns packed in two words), naturals
    only.
    """
    words = counts.view(np.int64)
    held = 0  # kinds held, one bit each
    doubled = 0  # kinds held twice
    for j in range(HAND_WORDS):
        w = words[ix(j)]
        held |= byte_bits((w | (w >> 1)) & BYTE_LSB) << (KINDS_PER_WORD * j)
        doubled |= byte_bits((w >> 1) & BYTE_LSB) << (KINDS_PER_WORD * j)
    nat_total = 0
    n_rank_wilds = 0
    seen = 0  # ranks held in some suit so far
    twice = 0  # ranks held twice: in two suits, or both copies in one
    low_word = 0
    high_word = 0
    not_wild = ~(1 << wild_pos)
    for s in range(N_SUITS):
        mask = (held >> kind_at(0, s)) & _RANK_MASK
        pair = (doubled >> kind_at(0, s)) & _RANK_MASK
        n_rank_wilds += ((mask >> wild_pos) & 1) + ((pair >> wild_pos) & 1)
        mask &= not_wild
        pair &= not_wild
        both = _RANK_SETS[ix(mask)] + _RANK_SETS[ix(pair)]
        nat_total += both >> _HALF_BITS
        if s < LOW_SUITS:
            low_word |= (both & _LOW_HALF) << (PACK_BITS * s)
        else:
            high_word |= (both & _LOW_HALF) << (PACK_BITS * (s - LOW_SUITS))
        scratch[at(SUIT_RANKS, s)] = mask
        twice |= (seen & mask) | pair
        seen |= mask
    return nat_total, n_rank_wilds, seen, twice, low_word, high_word


@njit(cache=True, inline="always")
def unpack(low_word: int, high_word: int, s: int) -> int:
    """Suit ``s``'s pattern from the packed words."""
    if s < LOW_SUITS:
        return (low_word >> (PACK_BITS * s)) & _PACK_MASK
    return (high_word >> (PACK_BITS * (s - LOW_SUITS))) & _PACK_MASK


@njit(cache=True, inline="always")
def isolated(scratch: np.ndarray, s: int, i: int) -> bool:
    """Whether no natural card of suit ``s`` is within ``_NEAR_RANKS`` of rank index ``i``
    (rank sets from :func:`read_hand`)."""
    return (scratch[at(SUIT_RANKS, s)] & _NEAR[ix(i)]) == 0


HUGE_PENALTY = 1 << 30  # above any penalty a hand can leave: "none yet"


@njit(cache=True, inline="always")
def wild_cost(u: int, n_rank_wilds: int, n_jokers: int, wild_points: int) -> int:
    """Points of the ``u`` cheapest of the hand's wilds left unmelded."""
    if wild_points <= JOKER_PENALTY:
        cheap, cheap_n, dear = wild_points, n_rank_wilds, JOKER_PENALTY
    else:
        cheap, cheap_n, dear = JOKER_PENALTY, n_jokers, wild_points
    if u <= cheap_n:
        return u * cheap
    return cheap_n * cheap + (u - cheap_n) * dear
