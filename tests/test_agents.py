"""Python agents beside numba strategies: same games, in batch runs too, and named."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

import fcsim
from fcsim.core.engine import play_games
from fcsim.core.rng import game_seed
from fcsim.strategies import StrategyError, parse_strategy

GREEDY = fcsim.agent("greedy")
RANDOM = parse_strategy("random")


def greedy_in_python(view: fcsim.View) -> str:
    """greedy's move, decided in Python."""
    return GREEDY(view)


def always_pile(view: fcsim.View) -> str:
    """Takes the pile, then tries to throw a joker it may not hold."""
    return "pile" if view.phase == "draw" else "JK"


def _seeds(n: int) -> np.ndarray:
    return np.array([game_seed(np.uint64(5), np.uint64(g)) for g in range(n)], np.uint64)


def test_a_python_agent_plays_the_moves_of_its_strategy() -> None:
    rules = fcsim.RuleSet(players=3)
    seating = np.array([[(s + g) % 3 for s in range(3)] for g in range(6)], np.int8)
    numba = play_games(_seeds(6), seating, [parse_strategy("greedy"), RANDOM,
                                            parse_strategy("expected")], rules)
    python = play_games(_seeds(6), seating, [greedy_in_python, RANDOM,
                                             parse_strategy("expected")], rules)
    for field in ("total", "penalty", "turns", "out_seat", "wild_pts"):
        assert np.array_equal(getattr(numba, field), getattr(python, field)), field


def test_an_illegal_agent_move_names_the_agent_the_move_and_the_game() -> None:
    seating = np.zeros((3, 2), np.int8)
    seating[:, 1] = 1
    with pytest.raises(fcsim.IllegalMoveError,
                       match=r"strategy 'test_agents:always_pile' chose 'JK', which is not "
                             r"a legal discard \(legal: .*\) in game 0"):
        play_games(_seeds(3), seating, [parse_strategy(always_pile), RANDOM],
                   fcsim.RuleSet(players=2))


def fails_in_round_two(view: fcsim.View) -> str:
    """greedy's move, until a bug in round 2."""
    if view.round == 2:
        return {}["missing"]  # the strategy's own bug
    return GREEDY(view)


def test_an_agent_that_raises_is_named_with_its_game_and_line() -> None:
    seating = np.zeros((3, 2), np.int8)
    seating[:, 1] = 1
    with pytest.raises(fcsim.StrategyFailed,
                       match=r"^strategy 'test_agents:fails_in_round_two' raised KeyError: "
                             r"'missing' in game 0 at .*test_agents\.py:\d+, in "
                             r"fails_in_round_two$") as err:
        play_games(_seeds(3), seating, [parse_strategy(fails_in_round_two), RANDOM],
                   fcsim.RuleSet(players=2))
    assert isinstance(err.value.__cause__, KeyError)  # the traceback, for a debugger


def test_simulate_with_agents_is_deterministic_and_keeps_the_schema(tmp_path) -> None:
    runs = {}
    for name, strategies, workers in (("numba", ["greedy", "random"], 1),
                                      ("python", [greedy_in_python, "random"], 1),
                                      ("python-2", [greedy_in_python, "random"], 2)):
        fcsim.simulate(strategies, 24, tmp_path / name, seed=3, workers=workers,
                       chunk_size=6)
        runs[name] = pl.read_parquet(tmp_path / name).sort("game", "seat")
    assert runs["python"].schema == runs["numba"].schema
    assert set(runs["python"]["strategy"]) == {"test_agents:greedy_in_python", "random"}
    assert runs["python"].equals(runs["python-2"])  # whatever the number of workers
    assert runs["python"].drop("strategy").equals(runs["numba"].drop("strategy"))


def test_module_attribute_specs_resolve_families_and_agents() -> None:
    agent = parse_strategy("test_agents:greedy_in_python")
    assert agent.spec == "test_agents:greedy_in_python" and not agent.family.is_numba
    family = parse_strategy("fcsim.strategies.greedy:FAMILY:take_margin=2")
    assert family.spec == "fcsim.strategies.greedy:FAMILY:take_margin=2"
    assert family.family.is_numba and family.values == (2.0,)
    with pytest.raises(StrategyError, match="cannot import 'no_such_module'"):
        parse_strategy("no_such_module:thing")
    with pytest.raises(StrategyError, match="has no 'nothing'"):
        parse_strategy("test_agents:nothing")
    with pytest.raises(StrategyError, match="known strategies: random, greedy"):
        parse_strategy("gredy")
