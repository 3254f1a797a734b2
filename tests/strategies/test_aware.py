"""``aware`` against its twin: feeding, last turns and late rounds."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import numpy as np
import pytest

from fcsim.core.cards import N_KINDS, hand_kinds
from fcsim.strategies import parse_strategy
from fcsim.strategies.aware import feeds
from fcsim.strategies.base import I_PLAYERS, I_TURN
from tests.reference.strategies import aware as twin
from tests.sources import modules_saying
from tests.strategies.positions import (
    DISCARD,
    DRAW,
    disagreements,
    fast_decision,
    positions,
    twin_decision,
)

DANGER_TURNS = 3  # whole turns per player: the late round starts on a turn of its own


def test_draws_match_the_twin() -> None:
    assert disagreements("aware:take_margin=1.5", DRAW, seed=81, count=88, last_share=0.2) == []


@pytest.mark.parametrize(("spec", "count"), [
    ("aware", 88),
    ("aware:feed_weight=0,candidates=2", 88),
    ("aware:feed_weight=100,danger_turns=0,urgency=1", 88),
    ("aware:feed_weight=1.5,danger_turns=1.5,urgency=0.25", 88),
    ("aware:feed_weight=0.7,danger_turns=2,urgency=0.3,candidates=14", 44),
])
def test_discards_match_the_twin(spec: str, count: int) -> None:
    """Known cards of the next seat (the feeding rule), a quarter of last turns, and turns
    on both sides of ``danger_turns``."""
    assert disagreements(spec, DISCARD, seed=82, count=count, last_share=0.25) == []


def test_the_round_is_late_from_danger_turns_per_player_on() -> None:
    """The round is late at ``danger_turns`` turns per player *or more*: with urgency 1 the
    discard is then the best now, one turn earlier the best expected after the next draw.
    The jitted strategy and its twin agree on both sides of the edge, and the edge changes
    some discards (the twin tests' random turns seldom land on it)."""
    spec = f"aware:feed_weight=0,danger_turns={DANGER_TURNS},urgency=1"
    strategy = parse_strategy(spec)
    changed = 0
    for position in positions(84, 44, DISCARD):
        edge = DANGER_TURNS * int(position.info[I_PLAYERS])
        answers = []
        for turn in (edge - 1, edge):
            info = position.info.copy()
            info[I_TURN] = turn
            at = replace(position, info=info)
            answers.append(fast_decision(strategy, at))
            assert answers[-1] == twin_decision(spec, at), at.describe()
        changed += answers[0] != answers[1]
    assert changed > 0


def test_feeding_rule_matches_the_twin() -> None:
    rng = np.random.default_rng(83)
    fed = 0
    for i in range(300):
        round_number = 1 + i % 11
        known_row = rng.binomial(1, (0.0, 0.02, 0.08)[i % 3], N_KINDS).astype(np.int8)
        known = Counter(hand_kinds(known_row))
        for kind in range(N_KINDS):
            want = twin.feeds(kind, known, round_number)
            assert feeds(known_row, kind, round_number) == want, (round_number, known, kind)
            fed += want
    assert 0 < fed < 300 * N_KINDS


def test_the_strategies_break_ties_by_one_tolerance() -> None:
    """aware, expected and learned call two scores a tie within base.TIE, one number for
    the three."""
    assert [m for m in modules_saying("1e-9") if m.startswith("fcsim/strategies/")] == [
        "fcsim/strategies/base.py"]
    assert {"fcsim/strategies/aware.py", "fcsim/strategies/expected.py",
            "fcsim/strategies/learned/__init__.py"} <= set(modules_saying("- TIE"))
