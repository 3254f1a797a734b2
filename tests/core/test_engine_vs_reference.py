"""The numba engine and the pure-Python reference play the same games, event for event."""

from __future__ import annotations

import pytest

from fcsim import RuleSet
from fcsim.replay import game_events
from fcsim.strategies import parse_strategy
from tests.reference.engine import compare_fields, first_difference, play_game

TABLES = [
    (RuleSet(players=4), ["greedy"] * 4, range(6)),
    (RuleSet(players=2), ["greedy", "greedy:take_margin=5"], range(6)),
    (RuleSet(players=3, wild_penalty="face", go_out_bonus=-10), ["random", "greedy", "greedy"],
     range(4)),
    (RuleSet(players=5, all_wild_melds=False, rounds=6), ["random"] * 5, range(4)),
    (RuleSet(players=7, turn_cap=30), ["random", "greedy"] * 3 + ["random"], range(2)),
    (RuleSet(players=4, turn_cap=12, wild_penalty=60), ["random"] * 4, range(3)),
]


# The lookahead strategies against their twins, in the positions real games reach.
LOOKAHEAD_TABLES = [
    (RuleSet(players=4, rounds=6), ["expected", "aware", "greedy", "random"], range(3)),
    (RuleSet(players=3, wild_penalty="face"),
     ["aware", "expected:candidates=5", "aware:feed_weight=10,danger_turns=1,urgency=0.25"],
     range(1)),
    (RuleSet(players=2, all_wild_melds=False, wild_penalty=60, rounds=6),
     ["aware:take_margin=2", "expected:take_margin=1.5"], range(2)),
]
ORACLE_TABLES = [
    (RuleSet(players=4, rounds=6), ["oracle", "greedy", "expected", "random"], range(2)),
    (RuleSet(players=2), ["oracle", "oracle"], range(2)),
]


def _check_same_games(rules: RuleSet, specs: list[str], seeds: range) -> None:
    strategies = [parse_strategy(s) for s in specs]
    for seed in seeds:
        ours = game_events(seed * 7919 + 1, strategies, rules)
        theirs = play_game(seed * 7919 + 1, rules, specs)
        assert first_difference(theirs, ours) is None, (seed, first_difference(theirs, ours))
        assert [compare_fields(e) for e in ours] == [compare_fields(e) for e in theirs]


@pytest.mark.parametrize(("rules", "specs", "seeds"), TABLES)
def test_engine_matches_reference(rules: RuleSet, specs: list[str], seeds: range) -> None:
    _check_same_games(rules, specs, seeds)


@pytest.mark.slow
@pytest.mark.parametrize(("rules", "specs", "seeds"), LOOKAHEAD_TABLES)
def test_lookahead_strategies_match_their_twins_in_whole_games(
        rules: RuleSet, specs: list[str], seeds: range) -> None:
    _check_same_games(rules, specs, seeds)


@pytest.mark.parametrize(("rules", "specs", "seeds"), ORACLE_TABLES)
def test_oracle_matches_its_twin_in_whole_games(rules: RuleSet, specs: list[str],
                                               seeds: range) -> None:
    _check_same_games(rules, specs, seeds)
