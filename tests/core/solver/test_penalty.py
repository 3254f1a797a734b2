"""The exact least penalty against the brute-force reference, the rules' examples and edge cases."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fcsim.core.cards import JOKER, kind_of, parse_cards
from fcsim.core.rules import RuleSet
from fcsim.core.solver import (
    min_penalty,
)
from tests.core.solver.hands import (
    ODD_VARIANTS,
    VARIANTS,
    Deal,
    deals,
    examples,
    fc_penalty,
    random_deals,
    ref_penalty,
    wild_heavy_deals,
)
from tests.reference.solver import (
    is_wild,
)


@examples(1500)
@given(deals())
def test_penalty_matches_reference(deal: Deal) -> None:
    """Penalty and wilds left agree with the exhaustive reference, every size and round."""
    kinds, round_number, rules = deal
    assert fc_penalty(kinds, round_number, rules) == ref_penalty(kinds, round_number, rules)


@examples(250)
@given(deals(variants=ODD_VARIANTS))
def test_penalty_matches_reference_other_wild_penalties(deal: Deal) -> None:
    """Also with wild-rank cards worth 1, 50 (a joker's worth) or 60 (more than a joker)."""
    kinds, round_number, rules = deal
    assert fc_penalty(kinds, round_number, rules) == ref_penalty(kinds, round_number, rules)


@examples(600)
@given(
    deals(
        sizes=st.integers(12, 14),
        rounds=st.integers(2, 10),
        styles=("long run", "long run", "wild"),
    )
)
def test_long_runs_match_reference(deal: Deal) -> None:
    """12–14 cards, mostly holding a whole suit 3…K (runs cap at 11 cards) and wilds."""
    kinds, round_number, rules = deal
    assert fc_penalty(kinds, round_number, rules) == ref_penalty(kinds, round_number, rules)


@examples(150)
@given(wild_heavy_deals())
def test_wild_heavy_hands_match_reference(deal: Deal) -> None:
    """Up to 20 cards, mostly wilds: books of one natural, all-wild melds on and off."""
    kinds, round_number, rules = deal
    assert fc_penalty(kinds, round_number, rules) == ref_penalty(kinds, round_number, rules)


@examples(200)
@given(deals(sizes=st.integers(1, 14)))
def test_wilds_left_all_or_none(deal: Deal) -> None:
    """RULES.md: beside a natural card two or more wilds always meld (natural + 2 wilds is a
    book, and it takes any more), so the wilds are left out all together or not at all."""
    kinds, round_number, rules = deal
    wilds = sum(is_wild(k, round_number) for k in kinds)
    left = fc_penalty(kinds, round_number, rules)[1]
    assert left in (0, wilds)
    if 2 <= wilds < len(kinds):
        assert left == 0


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_bulk_penalties_match_reference(seed: int) -> None:
    """Thousands of dealt hands: penalty and wilds left agree with the reference."""
    for kinds, round_number, rules in random_deals(seed, 1500):
        assert fc_penalty(kinds, round_number, rules) == ref_penalty(kinds, round_number, rules), (
            kinds,
            round_number,
            rules,
        )


def test_rules_counting_example() -> None:
    """Round with 7 cards, 7s wild: 9 + J left = 20; a wild 7 and a joker = 70; all melded = 0."""
    assert min_penalty("9H JS 3D 4D 5D 6D 7D", 5) == 20  # 7D stands for itself in the run
    assert min_penalty("9H JS", 5) == 20
    assert min_penalty("7S JK", 5) == 70
    assert fc_penalty(parse_cards("7S JK"), 5, RuleSet()) == (70, 2)
    assert min_penalty("3H 4H 5H 9S 9D 9C JK", 5) == 0
    assert min_penalty("3H 4H 7C QS QD JK 10X", 5) == 10  # 3H 4H 7C, QS QD JK; 10X left


@pytest.mark.parametrize("round_number", range(2, 11))
def test_whole_suit_with_extra_cards(round_number: int) -> None:
    """3 … K of hearts plus one to three more cards (wilds, second copies, other suits):
    every such 12–14-card hand agrees with the reference."""
    suit = [kind_of(rank, 1) for rank in range(3, 14)]
    extras = [*parse_cards("JK JK 3H 8H KH 5S QC"), kind_of(round_number + 2, 0)]
    rules = VARIANTS[round_number % len(VARIANTS)]
    for count in (1, 2, 3):
        for chosen in combinations(range(len(extras)), count):
            kinds = suit + [extras[i] for i in chosen]
            want = ref_penalty(kinds, round_number, rules)
            assert fc_penalty(kinds, round_number, rules) == want, kinds


@pytest.mark.parametrize("rules", VARIANTS, ids=str)
def test_runs_stay_within_three_to_king(rules: RuleSet) -> None:
    """Runs never wrap or pass 3 … K (so never exceed 11 cards): long suits split in two."""
    cases = [
        ("4H 5H 6H 7H 8H 9H 10H JH QH KH JK JK", 1, 0),  # 4H-8H, then 7..K with 2 wilds
        ("3H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", 11, 0),  # 3H 3H KH book, 4H-QH run
        ("3S 4S 5S 6S JK JK JK JK JK JK KS KS", 11, 0),  # 12 cards: split, or a book
        ("QH KH JK", 1, 0),  # the joker is JH, not past K
        ("3H 4H JK", 2, 0),  # (4s wild) the joker is 5H, not below 3
        ("QH KH 3H", 2, 28),  # no wrap-around
        ("3H 7H JK JK JK", 2, 0),  # wilds fill a gap of three
        ("3H 8H JK JK JK", 2, 3),  # a gap of four needs four: JK JK JK 8H
    ]
    for text, round_number, want in cases:
        kinds = parse_cards(text)
        assert fc_penalty(kinds, round_number, rules) == ref_penalty(kinds, round_number, rules)
        assert min_penalty(kinds, round_number, rules) == want, text


def test_one_natural_book_takes_any_number_of_wilds() -> None:
    """One natural and twelve wilds: a book holds them all (a run could hold only 11)."""
    hand = parse_cards("4H JK JK JK JK JK JK 3S 3S 3H 3H 3D 3D")
    for rules in VARIANTS:
        assert fc_penalty(hand, 1, rules) == ref_penalty(hand, 1, rules) == (0, 0)


def test_one_natural_book_with_exactly_eleven_wilds() -> None:
    """Eleven wilds and one natural, the fewest wilds where a run falls short: a run holds
    the natural and ten of them (eleven cards), so with all-wild melds off only a book of
    the natural and all eleven leaves nothing out."""
    hand = parse_cards("4H JK JK JK JK JK JK 3S 3S 3H 3H 3D")  # round 1: the 3s are wild
    for rules in VARIANTS:
        assert fc_penalty(hand, 1, rules) == ref_penalty(hand, 1, rules) == (0, 0)


@pytest.mark.parametrize("all_wild", [True, False])
def test_all_wild_melds(all_wild: bool) -> None:
    """Three or more wilds alone meld only when the option is on."""
    rules = RuleSet(all_wild_melds=all_wild)
    assert fc_penalty(parse_cards("JK JK JK"), 1, rules) == ((0, 0) if all_wild else (150, 3))
    assert fc_penalty(parse_cards("3S 3H JK"), 1, rules) == ((0, 0) if all_wild else (90, 3))
    assert fc_penalty(parse_cards("JK JK"), 1, rules) == (100, 2)
    six = parse_cards("JK " * 6 + "3S 3S 3H 3H 3D 3D 3C 3C 3X 3X")
    assert fc_penalty(six, 1, rules) == ((0, 0) if all_wild else (500, 16))


def test_face_value_wilds() -> None:
    """wild_penalty='face': a wild-rank card counts its rank; jokers still 50."""
    face = RuleSet(wild_penalty="face")
    assert min_penalty("7S JK", 5, face) == 57
    assert min_penalty("7S 9H", 5, face) == 16
    assert min_penalty("3S 3H JK", 1, RuleSet(wild_penalty="face", all_wild_melds=False)) == 56
    assert min_penalty("KS KH", 11, face) == 26


def test_wilds_beside_naturals() -> None:
    """Two wilds and a natural make a book; a lone wild stays out only if nothing takes it."""
    assert fc_penalty(parse_cards("7S JK 9H 10D"), 5, RuleSet()) == (9, 0)  # 10D 7S JK
    assert fc_penalty(parse_cards("7S JK 4C 8D"), 5, RuleSet()) == (4, 0)  # 8D 7S JK
    assert fc_penalty(parse_cards("KH KD 7S JK 3C 9D"), 5, RuleSet()) == (12, 0)
    assert fc_penalty(parse_cards("QH QD 7S JK 5C 5C"), 5, RuleSet()) == (0, 0)
    assert fc_penalty(parse_cards("7S 9H"), 5, RuleSet()) == (29, 1)
    assert fc_penalty(parse_cards("7S 9H 9D"), 5, RuleSet()) == (0, 0)
    assert fc_penalty(parse_cards("7S JK"), 5, RuleSet(wild_penalty=60)) == (110, 2)


@pytest.mark.parametrize("round_number", range(1, 12))
def test_two_wilds_and_any_natural_is_a_book(round_number: int) -> None:
    """Every natural card plus a joker and a wild-rank card melds, options on or off."""
    wild = kind_of(round_number + 2, 2)
    for kind in range(55):
        if is_wild(kind, round_number):
            continue
        for rules in VARIANTS:
            assert fc_penalty([kind, JOKER, wild], round_number, rules) == (0, 0)
