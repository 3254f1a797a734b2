"""The reference solver's own checks: its meld rules, and a second, naive search on small hands."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fcsim.core.cards import parse_cards
from fcsim.core.rules import RuleSet
from tests.core.solver.hands import (
    ODD_VARIANTS,
    VARIANTS,
    Deal,
    deals,
    examples,
    ref_penalty,
)
from tests.reference.solver import (
    card_points,
    is_legal_meld,
    is_wild,
)


@pytest.mark.parametrize(
    ("meld", "round_number", "legal"),
    [
        ("7H 7H 7S", 1, True),  # a book, duplicates allowed
        ("7H 7S", 1, False),  # two cards
        ("7H 7S JK JK JK 3S", 1, True),  # a book takes any number of wilds
        ("3H 4H 5H", 5, True),
        ("3H 4H 5S", 5, False),  # one suit
        ("3H 5H JK", 5, True),  # a wild fills a gap
        ("3H 5H 6H", 5, False),  # a gap needs a wild
        ("3H 3H 4H", 1, True),  # round 1: the 3s are wild, so 4H + two wilds
        ("4H 4H 5H", 1, False),  # a run holds one card of each rank
        ("QH KH JK", 1, True),
        ("KH 3H 4H", 2, False),  # no wrap-around (4H is wild; KH and 3H are 10 apart)
        ("QH KH 3H", 2, False),
        ("QH KH JK JK", 1, True),  # 10H … KH
        ("3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", 5, True),  # 11 cards, 7H as itself
        ("3H 4H 5H 6H 8H 9H 10H JH QH KH JK JK", 5, False),  # 12: longer than 3 … K
        ("3H 4H 5H 6H 7H 8H 9H 10H JH QH JK", 11, True),
        ("JK JK JK", 1, True),
        ("JK 3S 3H", 1, True),
        ("5H 5S 5D", 3, True),  # all of the wild rank: an all-wild meld
    ],
)
def test_reference_meld_rules(meld: str, round_number: int, legal: bool) -> None:
    """RULES.md's meld rules as the reference reads them (all-wild melds allowed)."""
    assert is_legal_meld(parse_cards(meld), round_number) is legal


def test_reference_all_wild_melds_off() -> None:
    """With the option off, a meld needs a card that is neither a joker nor of the wild rank."""
    assert not is_legal_meld(parse_cards("JK JK JK"), 1, all_wild_melds=False)
    assert not is_legal_meld(parse_cards("5H 5S 5D"), 3, all_wild_melds=False)
    assert is_legal_meld(parse_cards("5H 5S 6D"), 3, all_wild_melds=False)


def naive_penalty(kinds: list[int], round_number: int, rules: RuleSet) -> tuple[int, int]:
    """Least (penalty, wilds left) over every split of the actual cards into legal melds."""

    def search(rest: tuple[int, ...], out: tuple[int, ...]) -> tuple[int, int]:
        if not rest:
            points = sum(card_points(k, round_number, rules.wild_penalty) for k in out)
            return points, sum(is_wild(k, round_number) for k in out)
        first, others = rest[0], rest[1:]
        best = search(others, (*out, first))
        for mask in range(1, 1 << len(others)):
            meld = [first] + [k for i, k in enumerate(others) if mask >> i & 1]
            if is_legal_meld(meld, round_number, rules.all_wild_melds):
                left = tuple(k for i, k in enumerate(others) if not mask >> i & 1)
                best = min(best, search(left, out))
        return best

    return search(tuple(kinds), ())


@examples(200)
@given(deals(sizes=st.integers(0, 8), variants=VARIANTS + ODD_VARIANTS))
def test_reference_matches_naive_search(deal: Deal) -> None:
    """On small hands the reference equals trying every split of the physical cards."""
    kinds, round_number, rules = deal
    assert ref_penalty(kinds, round_number, rules) == naive_penalty(kinds, round_number, rules)
