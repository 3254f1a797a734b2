"""The PettingZoo AEC environment: PettingZoo's own checkers, rewards, seeding, the same
games as fcsim.Game, illegal actions refused."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test

import fcsim
from fcsim.env import env, raw_env
from fcsim.env.encoding import action_index
from tests.sources import modules_saying

SHORT = fcsim.RuleSet(players=3, rounds=6, turn_cap=60)


def _play_masked(table, rng: random.Random) -> dict[str, float]:
    """Play a game with actions drawn from the masks; every agent's return."""
    returns = dict.fromkeys(table.possible_agents, 0.0)
    for agent in table.agent_iter():
        obs, reward, terminated, truncated, _ = table.last()
        returns[agent] += reward
        action = None if terminated or truncated else rng.choice(
            np.flatnonzero(obs["action_mask"]).tolist())
        table.step(action)
    return returns


@pytest.mark.parametrize("rules", [SHORT, fcsim.RuleSet(players=2, go_out_bonus=-10)])
def test_pettingzoo_api_test_passes(rules) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(rules=rules), num_cycles=2000)
    # What PettingZoo warns of in any dict observation with an action mask (its own card
    # games are on its list of exceptions), and the all-zero mask of a finished game
    assert {str(w.message) for w in caught} <= {
        "Observation is not a NumPy array",
        "Observation space for each agent probably should be gymnasium.spaces.box or "
        "gymnasium.spaces.discrete",
        "Action mask numpy array is all zeros (no legal actions)."}


def test_pettingzoo_seed_test_passes() -> None:
    seed_test(lambda: env(players=4), num_cycles=300)


def test_returns_are_minus_the_totals() -> None:
    table = env(rules=SHORT)
    table.reset(seed=5)
    returns = _play_masked(table, random.Random(1))
    totals = table.unwrapped.game.totals
    assert [returns[a] for a in table.possible_agents] == [-t for t in totals]
    assert any(totals) and not table.agents  # every agent's episode ended


def test_the_games_end_terminates_every_agent_and_nothing_truncates() -> None:
    """The game's end is a true end (terminated), not a cut (truncated) that a learner
    would bootstrap past; a round stopped by the turn cap is scored, not truncated."""
    table = env(rules=SHORT)  # a turn cap of 60: some rounds are capped
    table.reset(seed=5)
    rng = random.Random(1)
    ended = set()
    for agent in table.agent_iter():
        obs, _, terminated, truncated, _ = table.last()
        assert not truncated
        if terminated:
            ended.add(agent)
        table.step(None if terminated else rng.choice(
            np.flatnonzero(obs["action_mask"]).tolist()))
    assert ended == set(table.possible_agents)
    assert "capped" in {event["event"] for event in table.unwrapped.game.events}


def test_builtin_strategies_through_the_env_play_their_games() -> None:
    """Actions chosen by agents on the game's views, made through the environment, play the
    very game fcsim.Game plays with those agents."""
    rules = fcsim.RuleSet(players=3)
    agents = [fcsim.agent(s) for s in ("greedy", "random", "expected")]
    table = raw_env(rules=rules)
    table.reset(seed=2)
    for _ in table.agent_iter():
        *_, terminated, truncated, _ = table.last()
        game = table.game
        table.step(None if terminated or truncated else
                   action_index(agents[game.to_move](game.view())))
    played = fcsim.Game(seed=2, game=0, rules=rules)
    played.play(agents)
    assert table.game.events == played.events


def test_seeding_deals_the_games_of_a_root_seed_in_order() -> None:
    table = raw_env(rules=SHORT)
    deals = []
    for seed in (7, None, None, 7):
        table.reset(seed=seed)
        deals.append(table.game.events[0])
    expected = [fcsim.Game(seed=7, game=g, rules=SHORT).events[0] for g in (0, 1, 2, 0)]
    assert deals == expected and deals[0] != deals[1]
    fresh = raw_env(rules=SHORT)
    fresh.reset()
    assert fresh.game.events[0] == fcsim.Game(seed=0, game=0, rules=SHORT).events[0]


def test_the_mask_is_the_views_legal_actions() -> None:
    table = raw_env(rules=SHORT)
    table.reset(seed=3)
    rng = random.Random(0)
    for agent in table.agent_iter():
        obs, _, terminated, truncated, _ = table.last()
        if terminated or truncated:
            table.step(None)
            continue
        legal = sorted(action_index(a) for a in table.game.view().legal_actions)
        assert np.flatnonzero(obs["action_mask"]).tolist() == legal
        others = [a for a in table.agents if a != agent]
        assert not any(table.observe(a)["action_mask"].any() for a in others)
        table.step(rng.choice(legal))


@pytest.mark.parametrize(("action", "fragment"), [
    (2, r"action 2 \(discard 3S\), which is not a legal draw; legal now: 0 \(stock\), "
        r"1 \(pile\)"),
    (58, r"action 58 \(no action \(actions are 0 to 57\)\)"),
    (-1, "action -1"),
    ("stock", "an action is a whole number from 0 to 57"),
])
def test_an_illegal_draw_is_refused_and_changes_nothing(action, fragment) -> None:
    table = raw_env(rules=SHORT)
    table.reset(seed=1)
    before = table.observe(table.agent_selection)
    with pytest.raises(fcsim.IllegalMoveError, match=fragment):
        table.step(action)
    after = table.observe(table.agent_selection)
    assert all(np.array_equal(before[k], after[k]) for k in before)


def test_an_illegal_discard_names_the_card_and_the_mask() -> None:
    table = raw_env(rules=SHORT)
    table.reset(seed=1)
    agent = table.agent_selection
    table.step(0)
    if table.agent_selection != agent:
        pytest.skip("went out on the first draw")
    mask = table.observe(agent)["action_mask"]
    missing = int(np.flatnonzero(mask[2:] == 0)[0]) + 2
    with pytest.raises(fcsim.IllegalMoveError, match=rf"{agent} chose action {missing} "
                       r"\(discard .+\), which is not a legal discard; legal now: .*"
                       r"observation\['action_mask'\]"):
        table.step(missing)
    with pytest.raises(fcsim.IllegalMoveError,
                       match=r"action 0 \(stock\), which is not a legal discard"):
        table.step(0)  # a draw while discarding


def test_render_ansi_shows_the_seat_to_move() -> None:
    table = raw_env(rules=SHORT, render_mode="ansi")
    table.reset(seed=4)
    text = table.render()
    assert text.startswith("Round 1 of 6: 3 cards, 3s wild")
    assert f"Hand of {table.agent_selection}:" in text
    _play_masked(table, random.Random(2))
    assert table.render().startswith("== Game over. Totals: player_0")
    with pytest.raises(ValueError, match="render_mode must be 'ansi' or None"):
        raw_env(render_mode="human")


def test_bad_table_arguments_say_what_is_allowed() -> None:
    with pytest.raises(ValueError, match="players must be 2 to 7"):
        raw_env(players=8)
    with pytest.raises(ValueError, match=r"players=3 but rules\.players=4"):
        raw_env(players=3, rules=fcsim.RuleSet(players=4))


def test_a_refused_seed_leaves_the_environment_as_it_was() -> None:
    """The next reset() deals the next game of the root seed the environment had."""
    table = env(players=2)
    table.reset(seed=1)
    with pytest.raises(ValueError, match="seed must be a whole number"):
        table.reset(seed=2**64)
    table.reset()
    again = env(players=2)
    again.reset(seed=1)
    again.reset()
    assert np.array_equal(table.observe(table.agent_selection)["observation"],
                          again.observe(again.agent_selection)["observation"])


def test_both_environments_check_and_render_through_one_place() -> None:
    """The render modes, their check and the warning of a render without a mode are
    written once, for the AEC and the Gymnasium environment alike."""
    assert modules_saying("render_mode must be") == ["fcsim/env/aec.py"]
    assert modules_saying("render() needs render_mode") == ["fcsim/env/aec.py"]
