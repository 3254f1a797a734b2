"""Card ids and RULES.md notation: parse, format, validation and the deck."""

from __future__ import annotations

import re

import numpy as np
import pytest
from numba import njit

from fcsim.core.cards import (
    COPIES,
    DECK_COUNTS,
    DECK_SIZE,
    JOKER,
    N_KINDS,
    N_NATURAL,
    CardError,
    card_points,
    card_values,
    copies,
    counts_from_kinds,
    format_card,
    format_cards,
    format_hand,
    full_deck,
    hand_kinds,
    is_wild,
    kind_at,
    kind_of,
    parse_card,
    parse_cards,
    parse_hand,
    rank_at,
    rank_name,
    rank_of,
    suit_of,
    wild_index,
    wild_rank,
    wilds_held,
)

RANK_NAMES = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
ALL_NAMES = [f"{r}{s}" for s in "SHDCX" for r in RANK_NAMES] + ["JK"]


def test_every_kind_has_its_name_in_kind_order() -> None:
    """Kinds 0–54 are suit-major S H D C X, ranks 3…K; 55 is the joker."""
    assert [format_card(k) for k in range(N_KINDS)] == ALL_NAMES
    assert JOKER == 55


@pytest.mark.parametrize("kind", range(N_KINDS))
def test_round_trip_every_kind(kind: int) -> None:
    """format then parse gives the kind back, in upper and lower case."""
    name = format_card(kind)
    assert parse_card(name) == kind
    assert parse_card(name.lower()) == kind
    assert parse_cards(name.swapcase()) == [kind]


def test_kind_rank_suit_agree() -> None:
    """kind_of, rank_of and suit_of are inverse to each other on the 55 naturals; a rank
    index is the rank's place from 3."""
    for suit in range(5):
        for index, rank in enumerate(range(3, 14)):
            kind = kind_of(rank, suit)
            assert (rank_of(kind), suit_of(kind)) == (rank, suit)
            assert kind_at(index, suit) == kind and rank_at(index) == rank


@pytest.mark.parametrize("round_number", range(1, 12))
def test_card_points(round_number: int) -> None:
    """A natural counts its rank, a card of the wild rank the wild points, a joker 50;
    the same from numba code."""
    assert rank_at(wild_index(round_number)) == wild_rank(round_number) == round_number + 2

    @njit
    def points_in_numba(kind: int) -> int:
        return card_points(kind, round_number, 17)

    for kind in range(N_KINDS):
        want = 50 if kind == JOKER else 17 if rank_of(kind) == round_number + 2 else rank_of(
            kind)
        assert card_points(kind, round_number, 17) == points_in_numba(kind) == want


@pytest.mark.parametrize(
    ("token", "name"),
    [
        ("TH", "10H"),
        ("th", "10H"),
        ("10h", "10H"),
        ("Q*", "QX"),
        ("q★", "QX"),
        ("7x", "7X"),
        ("jk", "JK"),
        ("Jk", "JK"),
        ("ks", "KS"),
        ("jd", "JD"),
        (" 3c ", "3C"),
    ],
)
def test_aliases_and_case(token: str, name: str) -> None:
    """T means 10, * and ★ mean stars, case does not matter."""
    assert format_card(parse_card(token)) == name


def test_separators_commas_and_spaces() -> None:
    """Spaces, commas and runs of both separate tokens; leading and trailing ones are ignored."""
    expected = ["3S", "10H", "QX", "JK", "KD"]
    for text in [
        "3S 10H QX JK KD",
        "3s,th,q*,jk,kd",
        " 3S ,  10H,,QX\tJK\nKD ",
        "3S,10H QX, JK KD,",
    ]:
        assert format_cards(parse_cards(text)) == expected
    assert parse_cards(["3s", "", "JK"]) == [kind_of(3, 0), JOKER]
    assert parse_cards("") == []
    assert parse_cards("  , ") == []


@pytest.mark.parametrize(
    "token", ["1S", "2H", "11H", "ZZ", "3", "S", "10", "JKK", "3SS", "AH", "3Y", "KJ", "0X", "T"]
)
def test_bad_token_raises_naming_it(token: str) -> None:
    """Anything outside the notation is a CardError that quotes the offending token."""
    with pytest.raises(CardError, match=re.escape(repr(token))):
        parse_card(token)
    with pytest.raises(CardError, match=re.escape(repr(token))):
        parse_hand(f"3S 4S {token} 5S")


def test_card_error_is_a_value_error() -> None:
    """Callers catching ValueError also catch bad cards."""
    assert issubclass(CardError, ValueError)


def test_three_copies_raise() -> None:
    """The deck holds two copies of each natural card and six jokers."""
    assert parse_hand("7H 7h").sum() == 2
    with pytest.raises(CardError, match="7H appears 3 times"):
        parse_hand("7H 7h 7H")
    assert parse_hand(" ".join(["JK"] * 6))[JOKER] == 6
    with pytest.raises(CardError, match="JK appears 7 times"):
        parse_hand(" ".join(["JK"] * 7))
    with pytest.raises(CardError):
        counts_from_kinds([0, 0, 0])


def test_three_copies_of_any_natural_card_raise() -> None:
    """Every natural card, the last one (KX) included, is checked against its two copies."""
    for kind in range(N_NATURAL):
        with pytest.raises(CardError, match=f"{format_card(kind)} appears 3 times"):
            counts_from_kinds([kind] * (COPIES + 1))


def test_parse_hand_counts_and_back() -> None:
    """A hand is an int8[56] count vector; hand_kinds and format_hand list it in kind order."""
    counts = parse_hand("9H js 7d JK 9h")
    assert counts.dtype == np.int8 and counts.shape == (N_KINDS,)
    assert counts.nonzero()[0].tolist() == [8, 17, 26, 55]
    assert counts[17] == 2
    assert hand_kinds(counts) == [8, 17, 17, 26, 55]
    assert format_hand(counts) == ["JS", "9H", "9H", "7D", "JK"]


def test_full_deck() -> None:
    """116 cards: each natural twice in kind order, then six jokers; ``copies`` and
    ``DECK_COUNTS`` count them the same, and the counts cannot be written over."""
    deck = full_deck()
    assert len(deck) == DECK_SIZE == 116
    assert np.bincount(deck, minlength=N_KINDS).tolist() == [2] * 55 + [6]
    assert deck.tolist() == sorted(deck.tolist())
    assert DECK_COUNTS.tolist() == [copies(k) for k in range(N_KINDS)] == [2] * 55 + [6]
    with pytest.raises(ValueError, match="read-only"):
        DECK_COUNTS[0] = 3


@pytest.mark.parametrize("round_number", range(1, 12))
def test_is_wild(round_number: int) -> None:
    """The joker, and the five cards of the round's wild rank (the hand size), in Python
    and in numba code."""

    @njit
    def wild_in_numba(kind: int) -> bool:
        return is_wild(kind, round_number)

    wild = [k for k in range(N_KINDS) if is_wild(k, round_number)]
    assert wild == [*(kind_of(round_number + 2, s) for s in range(5)), JOKER]
    assert [wild_in_numba(k) for k in range(N_KINDS)] == [k in wild for k in range(N_KINDS)]
    wild_name = rank_name(wild_rank(round_number))
    hand = parse_hand(f"JK JK {wild_name}S {wild_name}X 3S KH")
    wilds = 4 if round_number not in (1, 11) else 5  # 3S, then KH, is wild in its round
    assert wilds_held(hand, round_number) == wilds


@pytest.mark.parametrize("round_number", range(1, 12))
def test_card_values(round_number: int) -> None:
    """Rank value, the wild rank at the wild penalty, the joker 50."""
    assert wild_rank(round_number) == round_number + 2
    values = card_values(round_number, 20)
    for kind in range(55):
        rank = rank_of(kind)
        assert values[kind] == (20 if rank == round_number + 2 else rank)
    assert values[JOKER] == 50
    face = card_values(round_number, round_number + 2)
    assert face[kind_of(round_number + 2, 3)] == round_number + 2


@pytest.mark.parametrize("kind", [-1, -56, N_KINDS])
def test_format_cards_refuses_a_kind_no_card_has(kind: int) -> None:
    """As format_card does: -1 is no joker, nor 56 past the deck."""
    with pytest.raises(CardError, match=f"no card has kind {kind}"):
        format_cards([0, kind])
