"""A small exact memo of recent answers, kept in the work space, and the hand hash.

Games and lookahead strategies ask the same questions again and again (a best discard
re-solves the hand kept last turn, a lookahead re-solves each candidate).
``MEMO_SLOTS`` records (``MEMO_WIDTH`` int64 each, 320 KiB in all, so they stay in a
core's L2 cache) hold the hand packed in words, the *tag* of the question (round, rules,
which question; 0 = empty) and two answers. The memo is direct-mapped on the hand's hash
and the tag; a hit compares the whole hand, so it is exact.
"""

from __future__ import annotations

from itertools import accumulate

import numpy as np
from numba import njit

from fcsim.core.solver.bits import BYTE_BITS
from fcsim.core.solver.layout import (
    HAND_WORDS,
    KINDS_PER_WORD,
    MEMO_SLOTS,
    Memo,
    ix,
    memo_at,
)

# One random odd multiplier per word of a hand, and one for the tag.
_ZOBRIST = np.random.default_rng(20261130).integers(0, 2**63, HAND_WORDS + 1,
                                                    dtype=np.uint64) | 1
_TAG_ZOBRIST = HAND_WORDS
_SLOT_SHIFT = 64 - (MEMO_SLOTS.bit_length() - 1)  # a slot is the top bits of a hash

# A tag packs the question into fields of these widths (bits), lowest first: the round
# (1–11, so no tag is 0), the wild points (RuleSet allows up to 1000), all-wild melds,
# whether it is a best discard, the known discard's kind + 1 (0 for none), then its
# penalty, capped (above every penalty all known penalties ask the same), up to bit 54.
(_TAG_ROUND, _TAG_WILD_POINTS, _TAG_ALL_WILD, _TAG_DISCARD, _TAG_KNOWN_KIND,
 _TAG_KNOWN_PENALTY) = accumulate((4, 20, 1, 1, 7), initial=0)
_KNOWN_PENALTY_CAP = 1 << 20


@njit(cache=True, inline="always")
def rules_tag(round_number: int, wild_points: int, all_wild: bool) -> int:
    """The tag of a minimum-penalty question in a round under rules."""
    return ((round_number << _TAG_ROUND) | (wild_points << _TAG_WILD_POINTS)
            | (int(all_wild) << _TAG_ALL_WILD))


@njit(cache=True, inline="always")
def discard_tag(round_number: int, wild_points: int, all_wild: bool, known_kind: int,
                known_penalty: int) -> int:
    """The tag of a best-discard question, starting from a known discard (kind -1: none)."""
    return (rules_tag(round_number, wild_points, all_wild) | (1 << _TAG_DISCARD)
            | ((known_kind + 1) << _TAG_KNOWN_KIND)
            | (min(known_penalty, _KNOWN_PENALTY_CAP) << _TAG_KNOWN_PENALTY))


@njit(cache=True, inline="always")
def _hand_word(counts: np.ndarray, j: int) -> np.uint64:
    """Kinds ``KINDS_PER_WORD * j`` and the next ones of a hand, one byte of copies each."""
    word = np.uint64(0)
    for i in range(KINDS_PER_WORD):
        word |= np.uint64(counts[ix(KINDS_PER_WORD * j + i)]) << np.uint64(BYTE_BITS * i)
    return word


@njit(cache=True, inline="always")
def hand_hash(counts: np.ndarray) -> np.uint64:
    """A hash of a hand that is a sum over its cards, so adding card ``k`` adds
    ``card_hash(k)`` (lookaheads hash each hand after a draw in O(1))."""
    h = np.uint64(0)
    for j in range(HAND_WORDS):
        h += _hand_word(counts, j) * _ZOBRIST[ix(j)]
    return h


@njit(cache=True, inline="always")
def card_hash(kind: int) -> np.uint64:
    """What one card of ``kind`` adds to :func:`hand_hash`."""
    return _ZOBRIST[ix(kind // KINDS_PER_WORD)] << np.uint64(BYTE_BITS * (kind % KINDS_PER_WORD))


@njit(cache=True, inline="always")
def lookup(counts: np.ndarray, tag: int, hashed: np.uint64, scratch: np.ndarray
           ) -> tuple[int, bool]:
    """The memo record for (``counts``, ``tag``) and whether it holds them already;
    ``hashed`` is :func:`hand_hash` of ``counts``."""
    h = hashed + np.uint64(tag) * _ZOBRIST[ix(_TAG_ZOBRIST)]
    slot = int(h >> np.uint64(_SLOT_SHIFT)) % MEMO_SLOTS
    if scratch[memo_at(slot, Memo.TAG)] != tag:
        return slot, False
    for j in range(HAND_WORDS):
        if scratch[memo_at(slot, j)] != np.int64(_hand_word(counts, j)):
            return slot, False
    return slot, True


@njit(cache=True, inline="always")
def answers(scratch: np.ndarray, slot: int) -> tuple[int, int]:
    """The two answers memo record ``slot`` holds."""
    return scratch[memo_at(slot, Memo.FIRST)], scratch[memo_at(slot, Memo.SECOND)]


@njit(cache=True, inline="always")
def store(counts: np.ndarray, tag: int, scratch: np.ndarray, slot: int, first: int,
          second: int) -> None:
    """Fill memo record ``slot`` (from :func:`lookup`)."""
    for j in range(HAND_WORDS):
        scratch[memo_at(slot, j)] = np.int64(_hand_word(counts, j))
    scratch[memo_at(slot, Memo.TAG)] = tag
    scratch[memo_at(slot, Memo.FIRST)] = first
    scratch[memo_at(slot, Memo.SECOND)] = second
