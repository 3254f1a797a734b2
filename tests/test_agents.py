"""Python agents beside numba strategies: same games, in batch runs too, and named."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import polars as pl
import pytest

import fcsim
from fcsim.core.engine import play_games
from fcsim.core.rng import game_seed
from fcsim.core.view import DRAW_PILE, DRAW_STOCK, HISTORY_END, I_HISTORY
from fcsim.strategies import Family, Strategy, StrategyError, parse_strategy
from fcsim.strategies.base import decision
from fcsim.strategies.random import discard as random_discard
from fcsim.strategies.random import draw as random_draw

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


def _heads_up(games: int) -> np.ndarray:
    """The seating of ``games`` games of two: strategy 0 in seat 0, strategy 1 in seat 1."""
    return np.tile(np.arange(2, dtype=np.int8), (games, 1))


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
    seating = _heads_up(3)
    with pytest.raises(fcsim.IllegalMoveError,
                       match=r"strategy 'test_agents:always_pile' chose 'JK', which is not "
                             r"a legal discard \(legal: .*\) in game 0"):
        play_games(_seeds(3), seating, [parse_strategy(always_pile), RANDOM],
                   fcsim.RuleSet(players=2))


def make_required(margin):
    """An agent factory whose parameter lacks a default: taken for an agent."""
    return lambda view: GREEDY(view)


def test_a_factory_taken_for_an_agent_is_told_what_a_factory_needs() -> None:
    seating = _heads_up(1)
    with pytest.raises(fcsim.IllegalMoveError,
                       match=r"strategy 'test_agents:make_required' returned <function .*> "
                             r"instead of a move in game 0: a function that takes one argument "
                             r"is played as the agent; an agent factory's parameters all need "
                             r"numeric defaults"):
        play_games(_seeds(1), seating, [parse_strategy(make_required), RANDOM],
                   fcsim.RuleSet(players=2))


def fails_in_round_two(view: fcsim.View) -> str:
    """greedy's move, until a bug in round 2."""
    if view.round == 2:
        return {}["missing"]  # the strategy's own bug
    return GREEDY(view)


def test_an_agent_that_raises_is_named_with_its_game_and_line() -> None:
    seating = _heads_up(3)
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


def test_a_module_whose_import_raises_is_one_line_naming_its_code(tmp_path,
                                                                  monkeypatch) -> None:
    """As a strategy file's or a plug-in's: the error and the module's own line (not a
    traceback, nor a line of fcsim's)."""
    (tmp_path / "boom_on_import.py").write_text("x = 1\n1 / 0\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(StrategyError) as err:
        parse_strategy("boom_on_import:agent")
    assert str(err.value) == (f"strategy 'boom_on_import:agent': cannot import "
                              f"'boom_on_import' (ZeroDivisionError: division by zero "
                              f"({tmp_path / 'boom_on_import.py'}, line 2))")


def test_module_attribute_specs_resolve_families_and_agents() -> None:
    agent = parse_strategy("test_agents:greedy_in_python")
    assert agent.spec == "test_agents:greedy_in_python" and not agent.family.is_numba
    family = parse_strategy("fcsim.strategies.greedy:FAMILY:take_margin=2")
    assert family.spec == "fcsim.strategies.greedy:FAMILY:take_margin=2"
    assert family.family.is_numba and family.values == (2.0,)
    with pytest.raises(StrategyError, match="cannot import 'no_such_module'"):
        parse_strategy("no_such_module:thing")
    with pytest.raises(StrategyError, match=r"cannot import '\.relative' \(TypeError: "):
        parse_strategy(".relative:thing")  # whatever the import raises: a TypeError here
    with pytest.raises(StrategyError, match="has no 'nothing'"):
        parse_strategy("test_agents:nothing")
    with pytest.raises(StrategyError, match="known strategies: random, greedy"):
        parse_strategy("gredy")


@decision
def _draw_nowhere(hand, pile, known, info, hidden, params, table, scratch, rng):
    return -1


@decision
def _discard_nothing(hand, pile, known, info, hidden, params, table, scratch, rng):
    return -1


@pytest.mark.parametrize(("draw", "discard", "message"), [
    (_draw_nowhere, random_discard, r"^strategy 'bad' chose draw source -1 \(must be 0 or 1\)$"),
    (random_draw, _discard_nothing, r"^strategy 'bad' discarded -1, which is not in its hand$"),
])
def test_an_agent_s_move_out_of_range_is_refused_as_the_engine_refuses_it(
        draw, discard, message) -> None:
    """-1 would index the draw actions from the end (the pile) if nothing checked it."""
    bad = fcsim.agent(Strategy(Family("bad", "", draw, discard)))
    game = fcsim.Game(players=2, seed=1)
    if discard is _discard_nothing:
        game.step("stock")
    with pytest.raises(fcsim.IllegalMoveError, match=message):
        bad(game.view())


@decision
def _discard_a_card_not_held(hand, pile, known, info, hidden, params, table, scratch, rng):
    """The first kind of card the hand holds no copy of: in range, but not its to throw."""
    for k in range(hand.shape[0]):
        if hand[k] == 0:
            return k
    return -1


def test_an_agent_s_discard_of_a_card_not_held_is_refused_as_the_engine_refuses_it() -> None:
    """A card in range that the hand does not hold is refused as the strategy decides,
    naming it as the batch engine does, not passed on as the agent's move."""
    bad = fcsim.agent(Strategy(Family("bad", "", random_draw, _discard_a_card_not_held)))
    game = fcsim.Game(players=2, seed=1)
    game.step("stock")  # now the discard
    with pytest.raises(fcsim.IllegalMoveError, match=r"^strategy 'bad' discarded \w+, which "
                                                     r"is not in its hand$"):
        bad(game.view())


@decision
def _pile_if_the_history_is_filled(hand, pile, known, info, hidden, params, table, scratch,
                                   rng):
    passed = 0
    for k in range(I_HISTORY, HISTORY_END):
        passed += info[k]
    return DRAW_PILE if passed else DRAW_STOCK


def test_an_agent_gets_the_history_only_if_its_family_declares_it() -> None:
    """As the batch engine: a family that does not declare history=True sees none, so the
    agent plays the engine's moves even if it reads the blocks."""
    family = Family("peeker", "", _pile_if_the_history_is_filled, random_discard)
    game = fcsim.Game(players=2, seed=1)
    game.step("stock")
    game.step(game.view().legal_actions[0])  # now seat 1 draws, with a history to see
    view = game.view()
    assert fcsim.agent(Strategy(family))(view) == "stock"
    assert fcsim.agent(Strategy(replace(family, history=True)))(view) == "pile"
