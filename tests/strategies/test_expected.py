"""``expected`` against its twin: the exact expectation over every unseen card."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from fcsim.core.cards import parse_card, parse_cards
from fcsim.strategies import parse_strategy
from tests.reference.strategies.view import (
    expected_penalty_after_draw,
    penalty,
    penalty_after_best_discard,
    unseen_cards,
    view_from_arguments,
)
from tests.strategies.positions import (
    DISCARD,
    DRAW,
    VARIANTS,
    deal_position,
    disagreements,
    fast_decision,
    positions,
    twin_decision,
)

UNSEEN = 64  # a power of two: means of unseen draws are exact binary fractions


@pytest.mark.parametrize("spec", ["expected", "expected:take_margin=2.5",
                                  "expected:take_margin=0.3"])
def test_draws_match_the_twin(spec: str) -> None:
    assert disagreements(spec, DRAW, seed=61, count=88, last_share=0.2) == []


@pytest.mark.parametrize(("spec", "count"), [("expected", 88), ("expected:candidates=1", 88),
                                           ("expected:candidates=14", 44)])
def test_discards_match_the_twin(spec: str, count: int) -> None:
    assert disagreements(spec, DISCARD, seed=62, count=count, last_share=0.2) == []


def test_take_margin_boundaries_match_the_twin() -> None:
    """With 64 unseen cards every expectation is a multiple of 1/64, exact in floats, so
    the margin can sit exactly on each edge: the pile's advantage over the expected stock
    draw (a tie leaves the pile), 1/64 below it, and around the saving that lets the draw
    skip the expectation (``keep - from_pile``)."""
    sides = Counter()
    for position in positions(64, 88, DRAW, unseen=UNSEEN, players=(2, 3, 4),
                              known_shares=(0.0, 0.2)):
        strategy = parse_strategy("expected")
        view = view_from_arguments(*position.arguments(strategy)[:5])
        unseen = unseen_cards(view)
        assert len(unseen) == UNSEEN
        keep = penalty(view.hand, view)
        from_pile = penalty_after_best_discard([*view.hand, view.pile[-1]], view)
        advantage = expected_penalty_after_draw(view.hand, unseen, view) - from_pile
        for margin in {advantage, advantage - Fraction(1, UNSEEN), Fraction(keep - from_pile),
                       Fraction(keep - from_pile - 1)}:
            if 0 <= margin <= 100:
                spec = f"expected:take_margin={float(margin)!r}"
                fast = fast_decision(parse_strategy(spec), position)
                assert fast == twin_decision(spec, position), position.describe()
                sides[margin == advantage, fast] += 1
    assert sides[True, 0] > 0 and sides[True, 1] == 0  # a tie leaves the pile
    assert sides[False, 1] > 0


def test_a_pile_that_saves_one_point_more_than_the_margin_is_weighed() -> None:
    """Round 3: 7H 8H 9H 10H and a 3S left (penalty 3); the joker on the pile goes out
    (0). On the first turn at least 80 cards are unseen and at most 20 of them (a wild, 6H,
    JH) save the 3, so a stock draw leaves more than 2 on average: with ``take_margin=2``
    the pile (3 points better, one more than the margin) must be taken — the expectation
    is needed, not skipped as when the pile saves no more than the margin."""
    rng = np.random.default_rng(65)
    hand, joker = parse_cards("7H 8H 9H 10H 3S"), parse_card("JK")
    for i in range(12):
        rules = VARIANTS[i % len(VARIANTS)]
        position = deal_position(rng, DRAW, 3, 2 + i % 6, rules, hand=hand, top=joker,
                                 max_turn=0)
        for spec, taken in (("expected:take_margin=2", 1), ("expected:take_margin=3", 0)):
            assert fast_decision(parse_strategy(spec), position) == taken, position.describe()
            assert twin_decision(spec, position) == taken, position.describe()
