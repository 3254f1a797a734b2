"""``search`` against its twin (tests/reference/strategies/search.py): the same worlds,
the same rollouts on the reference engine, the same choice, decision for decision."""

from __future__ import annotations

import pytest

from fcsim.strategies import parse_strategy
from tests.reference.rng import Xoshiro256
from tests.reference.strategies import search as twin
from tests.reference.strategies import twin_of
from tests.reference.strategies.view import view_from_arguments
from tests.strategies.positions import DISCARD, DRAW, SCALE, disagreements, positions


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
    ("search:worlds=10,rollout=random,anchor=expected", DISCARD, 12,
     {"short_stock_share": 0.5}),
])
def test_decisions_match_the_twin(spec: str, stage: str, count: int, options: dict) -> None:
    assert disagreements(spec, stage, seed=93, count=count, **options) == []


@pytest.mark.skipif(SCALE < 1, reason="counts the full set of positions "
                                       "($FCSIM_POSITIONS_SCALE is below 1)")
def test_the_positions_are_searched_and_the_search_leaves_the_anchor() -> None:
    """The twin positions are real searches: most have several candidates, and in some
    the search's choice is not the anchor's move (else agreeing would prove little)."""
    spec = "search:worlds=16,confidence=0"
    strategy = parse_strategy(spec)
    _, params = twin_of(spec)
    searched = moved = 0
    for position in positions(93, 24, DISCARD, last_share=0.1):
        hand, pile, known, info, hidden, *_, state = position.arguments(strategy)
        view = view_from_arguments(hand, pile, known, info, hidden)
        anchor = twin.anchor_move(view, twin.policy(params["anchor"]),
                                  Xoshiro256.from_state(state))
        searched += len(twin.candidate_actions(view, params["candidates"], anchor)) > 1
        moved += twin.decide(view, params, Xoshiro256.from_state(state)) != anchor
    assert searched >= 12 and moved >= 3
