"""Both directions of play: fcsim strategies as OpenSpiel bots (in OpenSpiel's
evaluate_bots), OpenSpiel's ISMCTS and random bots as fcsim agents."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pyspiel")

import pyspiel
from open_spiel.python.algorithms.evaluate_bots import evaluate_bots

import fcsim
from fcsim.core.state import state_views
from fcsim.env.encoding import agent_action
from fcsim.openspiel import GAME_NAME, bot, ismcts_bot
from fcsim.openspiel.bots import RoundRollout, root_from_view
from fcsim.strategies.registry import StrategyError

SHORT = {"players": 3, "rounds": 6}


def test_fcsim_strategies_and_ismcts_play_in_openspiels_evaluate_bots() -> None:
    game = pyspiel.load_game(GAME_NAME, SHORT)
    bots = [bot("greedy", 0), ismcts_bot(game, simulations=4, seed=2),
            pyspiel.make_uniform_random_bot(2, 5)]
    returns = evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(3))
    assert len(returns) == 3 and all(r <= 0 for r in returns)


def test_a_bot_plays_the_strategys_move_on_its_view() -> None:
    game = pyspiel.load_game(GAME_NAME, SHORT)
    state = game.new_initial_state()
    rng = np.random.default_rng(2)
    greedy = fcsim.agent("greedy")
    bots = [bot("greedy", p) for p in range(3)]
    moves = 0
    while not state.is_terminal() and moves < 60:
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
            continue
        player = state.current_player()
        action = bots[player].step(state)
        assert agent_action(action) == greedy(state.view(player))
        state.apply_action(action)
        moves += 1


def test_a_bot_refuses_to_move_for_another_seat_and_oracles_are_no_bots() -> None:
    state = pyspiel.load_game(GAME_NAME, SHORT).new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    with pytest.raises(pyspiel.SpielError, match="not to decide"):
        bot("greedy", (state.current_player() + 1) % 3).step(state)
    with pytest.raises(pyspiel.SpielError, match="sees hidden cards"):
        bot("oracle", 0)


def test_a_bot_whose_strategy_raises_names_it(tmp_path) -> None:
    strategy = tmp_path / "stuck.py"
    # content of its own: a file of the same content loaded earlier in the process (another
    # test's) would be that module, and the error would name that file
    strategy.write_text("def agent(view):  # a bot's\n    raise RuntimeError('stuck')\n")
    state = pyspiel.load_game(GAME_NAME, SHORT).new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    with pytest.raises(fcsim.StrategyFailed, match=r"raised RuntimeError: stuck at "):
        bot(f"{strategy}:agent", state.current_player()).step(state)


def test_a_bot_plays_every_move_a_game_takes_and_names_an_illegal_one(tmp_path) -> None:
    """A bot reads its strategy's move as fcsim.Game.step does: "STOCK" in any case, a
    discard as an int; an illegal move is one error naming the strategy and the move."""
    strategy = tmp_path / "loose.py"
    strategy.write_text(
        "def loose(view):  # moves as a Game takes them, not as legal_actions spells them\n"
        "    if view.phase == 'draw':\n"
        "        return 'STOCK'\n"
        "    return int(view.hand_counts.nonzero()[0][0])\n"
        "\n"
        "def wrong(view):\n"
        "    return 'discard' if view.phase == 'draw' else 'stock'\n")
    game = pyspiel.load_game(GAME_NAME, SHORT)
    bots = [bot(f"{strategy}:loose", 0), bot("greedy", 1), bot(f"{strategy}:loose", 2)]
    returns = evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(4))
    assert len(returns) == 3
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    with pytest.raises(fcsim.IllegalMoveError, match=r"strategy '.*loose\.py:wrong' .*'discard'"):
        bot(f"{strategy}:wrong", state.current_player()).step(state)


def test_openspiels_ismcts_searches_the_game_with_fcsims_rollout() -> None:
    game = pyspiel.load_game(GAME_NAME, SHORT)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[-1][0])
    search = ismcts_bot(game, simulations=30, seed=1)
    action = search.step(state)
    assert action in state.legal_actions()
    values = RoundRollout().evaluate(state)
    assert len(values) == 3 and all(v <= 0 for v in values)


def test_the_searched_game_keeps_the_views_rules() -> None:
    """A capped variant is searched under its own cap, not the default one."""
    rules = fcsim.RuleSet(players=3, turn_cap=10, go_out_bonus=-5, all_wild_melds=True)
    fc = fcsim.Game(rules=rules, seed=3)
    root = root_from_view(fc.view(), seed=9)
    searched = root.get_game().rules
    assert (searched.players, searched.turn_cap, searched.go_out_bonus,
            searched.all_wild_melds) == (3, 10, -5, True)


def test_the_searched_state_is_one_world_of_the_view_ending_with_the_round() -> None:
    fc = fcsim.Game(players=4, seed=3)
    fc.step("stock")
    view = fc.view()
    root = root_from_view(view, seed=9)
    assert root.current_player() == view.seat
    assert root.information_state_string(view.seat) == root_from_view(
        view, seed=10).information_state_string(view.seat)
    world = state_views(root.data)
    assert np.array_equal(world.hands[view.seat], view.hand_counts)
    assert world.stock[: view.stock_size].size == view.stock_size
    while not root.is_terminal():
        if root.is_chance_node():
            root.apply_action(root.chance_outcomes()[0][0])
        else:
            root.apply_action(root.legal_actions()[0])
    assert int(root.data.ints[0]) in (view.round, view.round + 1)  # the round, then over


@pytest.mark.parametrize("spec", ["openspiel:ismcts:simulations=6", "openspiel:random"])
def test_openspiels_bots_play_fcsim_games_as_agents(spec) -> None:
    rules = fcsim.RuleSet(players=3, rounds=6)
    games = [fcsim.Game(rules=rules, seed=4) for _ in range(2)]
    agents = [fcsim.agent(spec), fcsim.agent("greedy"), fcsim.agent("random")]
    totals = [g.play(agents) for g in games]
    assert totals[0] == totals[1]  # a function of the game's seed
    assert games[0].events == games[1].events


@pytest.mark.parametrize(("params", "fragment"), [
    ({"final_policy": 4}, "final_policy must be 1 to 3, not '4'"),
    ({"simulations": 0}, "simulations must be 1 to 1000000, not '0'"),
    ({"uct_c": -1.0}, "uct_c must be 0 to 1000000, not '-1.0'"),
])
def test_ismcts_bot_refuses_a_parameter_out_of_range_in_one_line(params, fragment) -> None:
    """final_policy=4 was a bare KeyError: 4, simulations=0 a bare AssertionError from
    OpenSpiel's ISMCTS at the first step."""
    game = pyspiel.load_game(GAME_NAME, SHORT)
    with pytest.raises(StrategyError, match=fragment):
        ismcts_bot(game, **params)
