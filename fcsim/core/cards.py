"""Cards: ids, RULES.md notation, penalty values and the hand layouts the kernels use.

A card *kind* is an integer ``0 … 55``. Natural kinds are suit-major:
``kind = suit * 11 + (rank - 3)`` with suits in notation order ``S H D C X`` and ranks
``3 … 13`` (J = 11, Q = 12, K = 13); ``JOKER = 55``. The two copies of a natural card are
interchangeable in play, so a hand is a count per kind (``int8[56]``: 0–2 per natural,
0–6 jokers). The solver reads a suit's slice of that vector as an 11-digit base-3 number
(its *pattern*), which indexes the per-suit tables directly.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import numpy as np
from numba import njit

from fcsim.errors import FcsimError

SUITS = "SHDCX"
N_SUITS = 5
N_RANKS = 11  # 3 … K
MIN_RANK = 3
MAX_RANK = MIN_RANK + N_RANKS - 1  # 13, the king: the most points of a natural card
N_NATURAL = N_SUITS * N_RANKS  # 55
JOKER = N_NATURAL  # 55
N_KINDS = N_NATURAL + 1  # 56
COPIES = 2
N_JOKERS = 6
DECK_SIZE = N_NATURAL * COPIES + N_JOKERS  # 116
JOKER_PENALTY = 50
MIN_MELD = 3  # the fewest cards a meld (a book or a run) holds

_RANK_TOKENS = {str(r): r for r in range(3, 11)} | {"T": 10, "J": 11, "Q": 12, "K": 13}
_RANK_NAMES = {r: str(r) for r in range(3, 11)} | {11: "J", 12: "Q", 13: "K"}
_SUIT_TOKENS = {"S": 0, "H": 1, "D": 2, "C": 3, "X": 4, "*": 4, "★": 4}
_SEPARATORS = re.compile(r"[\s,]+")


class CardError(FcsimError, ValueError):
    """A card token or a hand that RULES.md notation does not allow."""


# Card arithmetic, jitted so the kernels share it (each works from Python too). A *rank
# index* is a rank's place 0–10 (3 … K), its digit in a suit's pattern.


@njit(cache=True, inline="always")
def kind_of(rank: int, suit: int) -> int:
    """The kind of the natural card of ``rank`` (3–13) and ``suit`` (0–4)."""
    return suit * N_RANKS + (rank - MIN_RANK)


@njit(cache=True, inline="always")
def kind_at(index: int, suit: int) -> int:
    """The kind of the natural card of rank index ``index`` (0–10) and ``suit``."""
    return suit * N_RANKS + index


@njit(cache=True, inline="always")
def rank_of(kind: int) -> int:
    """The rank (3–13) of a natural kind, which is also its points; jokers have no rank."""
    return kind % N_RANKS + MIN_RANK


@njit(cache=True, inline="always")
def rank_at(index: int) -> int:
    """The rank (3–13), and so the points, of rank index ``index`` (0–10)."""
    return index + MIN_RANK


@njit(cache=True, inline="always")
def suit_of(kind: int) -> int:
    """The suit index (0–4) of a natural kind."""
    return kind // N_RANKS


def rank_name(rank: int) -> str:
    """A rank as written: ``3`` … ``10``, ``J``, ``Q``, ``K``."""
    return _RANK_NAMES[rank]


# Every kind's notation, and every token naming a kind (upper case), computed once: views
# and events format cards by the thousand.
def plain_python(kernel: object) -> object:
    """The Python function of a kernel, for tables built at import: calling the kernel
    itself would load it from the cache at every start of fcsim (a third of a second
    each), and a call from Python costs a dispatch."""
    return getattr(kernel, "py_func", kernel)


CARD_CODES = (*(f"{_RANK_NAMES[plain_python(rank_of)(k)]}{SUITS[plain_python(suit_of)(k)]}"
                for k in range(N_NATURAL)), "JK")
_KIND_OF_TOKEN = {"JK": JOKER} | {
    f"{rank}{suit}": plain_python(kind_of)(value, suit_index)
    for rank, value in _RANK_TOKENS.items() for suit, suit_index in _SUIT_TOKENS.items()}
_KINDS = np.arange(N_KINDS)


@njit(cache=True, inline="always")
def wild_rank(round_number: int) -> int:
    """The wild rank of round ``round_number`` (1-based): the hand size, ``round + 2``."""
    return round_number + 2


@njit(cache=True, inline="always")
def wild_index(round_number: int) -> int:
    """The rank index (0–10) of round ``round_number``'s wild rank."""
    return wild_rank(round_number) - MIN_RANK


@njit(cache=True, inline="always")
def is_wild(kind: int, round_number: int) -> bool:
    """Whether ``kind`` is wild in round ``round_number``: a joker or a card of the wild
    rank."""
    return kind == JOKER or kind % N_RANKS == wild_index(round_number)


@njit(cache=True, inline="always")
def wilds_held(hand: np.ndarray, round_number: int) -> int:
    """The wild cards in ``hand`` (``int8[56]``, counts by kind) in round
    ``round_number``: its jokers and its cards of the wild rank."""
    wild_pos = wild_index(round_number)
    wilds = int(hand[JOKER])
    for s in range(N_SUITS):
        wilds += hand[kind_at(wild_pos, s)]
    return wilds


@njit(cache=True, inline="always")
def copies(kind: int) -> int:
    """How many cards of ``kind`` the deck holds: two of each natural, six jokers."""
    return N_JOKERS if kind == JOKER else COPIES


@njit(cache=True, inline="always")
def card_points(kind: int, round_number: int, wild_points: int) -> int:
    """Points of ``kind`` left unmelded in round ``round_number``, where a card of the wild
    rank costs ``wild_points``."""
    if kind == JOKER:
        return JOKER_PENALTY
    if rank_of(kind) == wild_rank(round_number):
        return wild_points
    return rank_of(kind)


def parse_card(token: str) -> int:
    """The kind named by one token of RULES.md notation (``10H``, ``qx``, ``JK``, ``T*``)."""
    text = token.strip().upper()
    kind = _KIND_OF_TOKEN.get(text)
    if kind is not None:
        return kind
    rank = _RANK_TOKENS.get(text[:-1])
    suit = _SUIT_TOKENS.get(text[-1:]) if text else None
    if rank is None or suit is None:
        raise CardError(
            f"bad card {token!r}: expected <rank><suit> with rank 3-10, T, J, Q, K and "
            "suit S, H, D, C, X (or * / ★), or JK for a joker"
        )
    return kind_of(rank, suit)


def card_tokens(text: str) -> list[str]:
    """The card tokens of a string: separated by spaces or commas (RULES.md's notation)."""
    return [token for token in _SEPARATORS.split(text.strip()) if token]


def parse_cards(text: str | Iterable[str]) -> list[int]:
    """Kinds named by a string of tokens separated by spaces or commas, or by a list of tokens."""
    tokens = card_tokens(text) if isinstance(text, str) else list(text)
    return [parse_card(t) for t in tokens if t]


def format_card(kind: int) -> str:
    """The RULES.md notation of one kind (``JK`` for the joker)."""
    if not 0 <= kind < N_KINDS:
        raise CardError(f"no card has kind {kind}: kinds are 0 to {N_KINDS - 1}")
    return CARD_CODES[kind]


def format_cards(kinds: Iterable[int]) -> list[str]:
    """RULES.md notation of several kinds (0 … 55), in the order given."""
    if isinstance(kinds, np.ndarray):
        kinds = kinds.tolist()
    return [format_card(k) for k in kinds]


def counts_from_kinds(kinds: Iterable[int]) -> np.ndarray:
    """The ``int8[56]`` count vector of a multiset of kinds, checked against the deck."""
    counts = np.zeros(N_KINDS, dtype=np.int8)
    for kind in kinds:
        counts[kind] += 1
    over = [k for k in range(N_NATURAL) if counts[k] > COPIES]
    if over:
        raise CardError(f"{format_card(over[0])} appears {counts[over[0]]} times; the deck has 2")
    if counts[JOKER] > N_JOKERS:
        raise CardError(f"JK appears {counts[JOKER]} times; the deck has 6 jokers")
    return counts


def parse_hand(text: str | Iterable[str]) -> np.ndarray:
    """A hand in RULES.md notation as an ``int8[56]`` count vector.

    >>> parse_hand("9H js 7d JK").nonzero()[0].tolist()
    [8, 17, 26, 55]
    """
    return counts_from_kinds(parse_cards(text))


def hand_kinds(counts: np.ndarray) -> list[int]:
    """The kinds of a count vector, each repeated by its count, in kind order."""
    return np.repeat(_KINDS, counts).tolist()


def format_hand(counts: np.ndarray) -> list[str]:
    """RULES.md notation of every card of a count vector, in kind order."""
    return format_cards(hand_kinds(counts))


def card_values(round_number: int, wild_penalty: int) -> np.ndarray:
    """Penalty of each kind left unmelded in a round (``int32[56]``).

    Naturals count their rank, cards of the round's wild rank ``wild_penalty``, the joker 50.
    """
    return np.array([card_points(k, round_number, wild_penalty) for k in range(N_KINDS)],
                    dtype=np.int32)


def full_deck() -> np.ndarray:
    """The 116 cards as kinds in canonical order: each natural twice, then six jokers."""
    return np.array(
        [k for k in range(N_NATURAL) for _ in range(COPIES)] + [JOKER] * N_JOKERS, dtype=np.int8
    )


DECK_COUNTS = np.array([plain_python(copies)(k) for k in range(N_KINDS)], dtype=np.int64)
"""The copies of each kind in the deck (``int64[56]``), read-only."""
DECK_COUNTS.flags.writeable = False
