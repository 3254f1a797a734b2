"""``oracle`` against its twin: one-step lookahead that reads the real stock."""

from __future__ import annotations

import pytest

from tests.strategies.positions import DISCARD, DRAW, disagreements


@pytest.mark.parametrize("stage", [DRAW, DISCARD])
def test_decisions_match_the_twin(stage: str) -> None:
    """Also with a stock shorter than the table (no coming card) or empty (draw: the pile)."""
    assert disagreements("oracle", stage, seed=71, count=132, last_share=0.2,
                         short_stock_share=0.25) == []
