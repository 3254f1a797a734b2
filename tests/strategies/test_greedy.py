"""``greedy`` against its twin: the least penalty now, draw and discard."""

from __future__ import annotations

import pytest

from tests.strategies.positions import DISCARD, DRAW, disagreements


@pytest.mark.parametrize("spec", ["greedy", "greedy:take_margin=3"])
@pytest.mark.parametrize("stage", [DRAW, DISCARD])
def test_decisions_match_the_twin(spec: str, stage: str) -> None:
    assert disagreements(spec, stage, seed=51, count=132, last_share=0.2) == []
