"""``search`` and ``search_oracle`` against their twins (tests/reference/strategies/search.py,
search_oracle.py): the same worlds, the same rollouts on the reference engine, the same
choice, decision for decision."""

from __future__ import annotations

import numpy as np
import pytest

from fcsim.core.view import DRAW_PILE
from fcsim.strategies import parse_strategy
from tests.reference.rng import Xoshiro256
from tests.reference.strategies import search as twin
from tests.reference.strategies import twin_of
from tests.reference.strategies.view import view_from_arguments
from tests.strategies.positions import (
    DISCARD,
    DRAW,
    SCALE,
    disagreements,
    fast_decision,
    positions,
)


@pytest.mark.parametrize(("spec", "stage", "count", "options"), [
    # confidence 0: every candidate that looks better is taken (the default, 2, keeps the
    # anchor's move in most positions, which would test the choice little)
    ("search:worlds=16,confidence=0", DRAW, 40, {}),
    ("search:worlds=16,confidence=0", DISCARD, 24, {"last_share": 0.1}),
    # the default effort, and every objective
    ("search", DISCARD, 4, {"players": (3, 4)}),
    ("search:worlds=12,objective=0,candidates=2", DISCARD, 16, {}),
    ("search:worlds=12,objective=2,confidence=0.5", DISCARD, 16, {}),
    # skilled opponents (the best of several draws), stocks short enough to be rebuilt
    # in the rollouts, and a search bound to other policies (a copy of its kernels) whose
    # rollouts draw from the play stream
    ("search:worlds=10,skill=1.5", DISCARD, 16, {"short_stock_share": 0.5}),
    # hands resampled by the public history (every position has one), alone, with skill,
    # and at evidence 1, where a world whose every draw is refuted picks uniformly
    ("search:worlds=10,evidence=0.8", DISCARD, 16, {"short_stock_share": 0.3}),
    ("search:worlds=8,skill=1,evidence=1,confidence=0", DRAW, 12, {}),
    ("search:worlds=10,rollout=random,anchor=expected", DISCARD, 12,
     {"short_stock_share": 0.5}),
    # the oracle: every world the real state; a stock never shown (rebuilt from the pile
    # by the draw) is shuffled by each world's generator, so its worlds differ
    ("search_oracle:confidence=0", DRAW, 24, {}),
    ("search_oracle:confidence=0", DISCARD, 24, {"short_stock_share": 0.3}),
    ("search_oracle:worlds=6,confidence=0.5", DISCARD, 16, {"unshown_stock_share": 0.6}),
    # the real hands with the stock resampled: each world's generator shuffles the stock
    ("search_hands_oracle:worlds=8,confidence=0", DRAW, 16, {}),
    ("search_hands_oracle:worlds=8,confidence=0.5", DISCARD, 16,
     {"short_stock_share": 0.3, "unshown_stock_share": 0.3}),
    # … and a partial reading of them: each card not shown kept with a chance
    ("search_hands_oracle:worlds=8,confidence=0,reveal=0.5", DRAW, 12, {}),
    ("search_hands_oracle:worlds=8,confidence=0,reveal=0.3", DISCARD, 12,
     {"short_stock_share": 0.3}),
])
def test_decisions_match_the_twin(spec: str, stage: str, count: int, options: dict) -> None:
    assert disagreements(spec, stage, seed=93, count=count, **options) == []


@pytest.mark.skipif(SCALE < 1, reason="counts the full set of positions "
                                       "($FCSIM_POSITIONS_SCALE is below 1)")
@pytest.mark.parametrize(("spec", "count", "options", "least"), [
    ("search:worlds=16,confidence=0", 24, {"last_share": 0.1}, (12, 3, 0)),
    ("search_oracle:worlds=6,confidence=0.5", 16, {"unshown_stock_share": 0.6}, (8, 3, 4)),
])
def test_the_positions_are_searched_and_the_search_leaves_the_anchor(
        spec: str, count: int, options: dict, least: tuple[int, int, int]) -> None:
    """The twin positions are real searches: most have several candidates, in some the
    search's choice is not the anchor's move (else agreeing would prove little), and the
    oracle's include stocks it was never shown (its worlds then differ)."""
    strategy = parse_strategy(spec)
    spec_twin, params = twin_of(spec)
    searched = moved = unshown = 0
    for position in positions(93, count, DISCARD, **options):
        hand, pile, known, info, hidden, *_, state = position.arguments(strategy)
        view = view_from_arguments(hand, pile, known, info, hidden)
        anchor = twin.anchor_move(view, twin.policy(params["anchor"]),
                                  Xoshiro256.from_state(state))
        several = len(twin.candidate_actions(view, params["candidates"], anchor)) > 1
        searched += several
        unshown += several and view.stock is not None and len(view.stock) < view.stock_size
        moved += spec_twin.discard(view, params, Xoshiro256.from_state(state)) != anchor
    least_searched, least_moved, least_unshown = least
    assert searched >= least_searched and moved >= least_moved and unshown >= least_unshown


def test_a_draw_with_nothing_to_weigh_is_the_anchor_s() -> None:
    """When the pile's card lowers nothing now there is nothing to search: the anchor's
    draw stands. ``learned`` takes some such cards (near the hand, for later), and the
    search anchored on it takes the same ones (it drew from the stock there before)."""
    search, learned = parse_strategy("search"), parse_strategy("learned")
    near_takes = 0
    for position in positions(95, 120, DRAW):
        hand, pile, known, info, *_ = position.arguments(search)
        view = view_from_arguments(hand, pile, known, info, np.zeros((0, 0), np.int8))
        anchor = fast_decision(learned, position)
        if len(twin.candidate_actions(view, 4, anchor)) == 1:
            assert fast_decision(search, position) == anchor, position.describe()
            near_takes += anchor == DRAW_PILE
    assert near_takes > 0
