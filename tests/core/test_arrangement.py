"""The melds rebuilt for display: legal, the whole hand, and the penalty the kernel found."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from fcsim.core.arrangement import solve
from fcsim.core.cards import kind_of, parse_cards
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
    fc_discard,
    fc_penalty,
    problems,
)
from tests.reference.solver import (
    is_wild,
)


@examples(300)
@given(deals(sizes=st.integers(0, 15), variants=VARIANTS + ODD_VARIANTS))
def test_solve_arrangement_is_legal(deal: Deal) -> None:
    """solve's melds are legal, melds + deadwood are the hand, deadwood points = penalty."""
    kinds, round_number, rules = deal
    arr = solve(kinds, round_number, rules)
    assert arr.penalty == min_penalty(kinds, round_number, rules)
    assert problems(kinds, arr, round_number, rules) == []
    left = sum(1 for k in arr.deadwood if is_wild(k, round_number))
    assert left == fc_penalty(kinds, round_number, rules)[1]


@examples(100)
@given(deals(sizes=st.integers(1, 15)))
def test_solve_with_discard(deal: Deal) -> None:
    """With discard=True the best discard is made and the rest arranged legally."""
    kinds, round_number, rules = deal
    arr = solve(kinds, round_number, rules, discard=True)
    assert (arr.discard, arr.penalty) == fc_discard(kinds, round_number, rules)
    rest = list(kinds)
    rest.remove(arr.discard)
    assert problems(rest, arr, round_number, rules) == []


def test_both_copies_in_two_runs() -> None:
    """The two copies of a card go to two runs, never to one."""
    arr = solve("5H 6H 7H 5H 6H 7H", 1)
    assert arr.penalty == 0
    assert sorted(sorted(m) for m in arr.melds) == [parse_cards("5H 6H 7H")] * 2
    assert min_penalty("5H 5H 6H", 1) == 16  # not a run; a pair is no book
    assert min_penalty("5H 5H 6H 7H", 1) == 5  # 5H 6H 7H; 5H left
    assert min_penalty("5H 5H 6H JK", 1) == 5  # 5H 6H JK; 5H left
    assert min_penalty("5H 5H 6H 6H JK", 1) == 10  # 6H 6H JK book; 5H 5H left
    assert min_penalty("5H 5H 6H 6H JK JK", 1) == 0  # 5H 6H JK twice


def test_eleven_card_run() -> None:
    """3 … K of one suit is one 11-card run in every round (the wild card plays itself)."""
    hand = [kind_of(rank, 1) for rank in range(3, 14)]
    for round_number in range(1, 12):
        assert min_penalty(hand, round_number) == 0
        arr = solve(hand, round_number)
        assert arr.deadwood == ()
        assert problems(hand, arr, round_number, RuleSet()) == []


def test_runs_shown_in_rank_order() -> None:
    """A run is shown as it lies: wilds fill its gaps, then extend it upwards, and go below
    it only once it reaches the king (no rank lies above K)."""
    assert solve("4H 6H JK JK", 1).melds == (tuple(parse_cards("4H JK 6H JK")),)  # 4 … 7
    assert solve("QH KH JK", 1).melds == (tuple(parse_cards("JK QH KH")),)  # J … K
    assert solve("JH KH JK JK", 2).melds == (tuple(parse_cards("JK JH JK KH")),)  # 10 … K
