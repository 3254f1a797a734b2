"""``random`` against its twin: the same draw source and discard from the same play stream."""

from __future__ import annotations

import pytest

from fcsim.strategies import parse_strategy
from tests.reference.rng import Xoshiro256
from tests.reference.strategies import random as twin
from tests.reference.strategies.view import view_from_arguments
from tests.strategies.positions import DISCARD, DRAW, disagreements, positions


@pytest.mark.parametrize("stage", [DRAW, DISCARD])
def test_decisions_match_the_twin(stage: str) -> None:
    assert disagreements("random", stage, seed=41, count=132) == []


@pytest.mark.parametrize("stage", [DRAW, DISCARD])
def test_each_decision_takes_one_number_from_the_play_stream(stage: str) -> None:
    strategy = parse_strategy("random")
    decide, decide_twin = ((strategy.family.draw, twin.draw) if stage == DRAW
                           else (strategy.family.discard, twin.discard))
    answers = set()
    for position in positions(43, 66, stage):
        arguments = position.arguments(strategy)
        stream = Xoshiro256.from_state(arguments[-1])
        answers.add(decide_twin(view_from_arguments(*arguments[:5]), {}, stream))
        decide(*arguments)
        assert [int(word) for word in arguments[-1]] == stream.state
    assert len(answers) > 1
