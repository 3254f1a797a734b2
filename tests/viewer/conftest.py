"""Replayed games for the viewer tests: the README's game, a three-player game, one round
alone, a game that reshuffles the pile and one whose rounds stop at the turn cap."""

from __future__ import annotations

import pytest

from fcsim.core.rules import RuleSet
from fcsim.replay import game_events
from fcsim.strategies import parse_strategies

README_GAME = "greedy,expected,random,random"  # fcsim replay --seed 7 --game 0 (rotation 0)
TABLES = {  # name: strategies, rules, game seed, only this round
    "readme": (README_GAME, RuleSet(players=4), 11, None),
    "three": ("greedy:take_margin=3,random,aware", RuleSet(players=3), 11, None),
    "one-round": (README_GAME, RuleSet(players=4), 11, 4),
    "reshuffle": ("random,random,random,random", RuleSet(players=4, turn_cap=300), 3, None),
    "capped": ("random,random", RuleSet(players=2, rounds=6, turn_cap=10), 11, None),
}


def replay(name: str) -> list[dict]:
    """The events of table ``name`` of :data:`TABLES`."""
    specs, rules, seed, only_round = TABLES[name]
    return game_events(seed, parse_strategies(specs), rules, only_round)


@pytest.fixture(scope="session", params=sorted(TABLES))
def events(request: pytest.FixtureRequest) -> list[dict]:
    """The events of every table of :data:`TABLES` in turn."""
    return replay(request.param)
