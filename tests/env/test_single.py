"""The Gymnasium environment: Gymnasium's checker, registration, rewards, opponents."""

from __future__ import annotations

import random

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.error import ResetNeeded  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

import fcsim  # noqa: E402
from fcsim.env import ENV_ID, FiveCrownsEnv  # noqa: E402
from fcsim.env.encoding import action_index  # noqa: E402
from fcsim.strategies import StrategyError  # noqa: E402

SHORT = fcsim.RuleSet(players=3, rounds=6)


def test_gymnasium_check_env_passes() -> None:
    """check_env steps with actions sampled without the mask, one before a reset, so the
    environment must take any action: with illegal_reward it refuses them quietly."""
    env = gymnasium.make(ENV_ID, rules=SHORT, opponents="greedy", illegal_reward=-1)
    check_env(env.unwrapped)


def test_an_illegal_action_can_be_refused_quietly() -> None:
    env = FiveCrownsEnv(rules=SHORT, opponents="random", illegal_reward=-5)
    obs, _ = env.reset(seed=2)
    again, reward, terminated, truncated, info = env.step(9)
    assert (reward, terminated, truncated) == (-5.0, False, False)
    assert info["illegal_action"].startswith("player_0 chose action 9 (discard 10S)")
    assert all(np.array_equal(obs[k], again[k]) for k in obs)
    env.step(0)  # the game goes on


def test_registered_id_and_module_form() -> None:
    env = gymnasium.make(f"fcsim.env:{ENV_ID}", players=2, opponents="random")
    assert isinstance(env.unwrapped, FiveCrownsEnv) and env.unwrapped.table.rules.players == 2
    # the old id still plays, with gymnasium's one line that a newer version exists
    with pytest.warns(DeprecationWarning, match="FiveCrowns-v0 is out of date"):
        old = gymnasium.make("fcsim.env:fcsim/FiveCrowns-v0", players=2, opponents="random")
    assert old.unwrapped.table.encoder.version == 0 and env.unwrapped.table.encoder.version == 1


def test_return_is_minus_the_learners_total() -> None:
    env = FiveCrownsEnv(rules=SHORT, opponents=["greedy", "random"], seat=1)
    obs, _ = env.reset(seed=9)
    rng = random.Random(3)
    total, terminated = 0.0, False
    while not terminated:
        action = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
        assert env.action_masks()[action]
        obs, reward, terminated, truncated, _ = env.step(action)
        total += reward
        assert not truncated
    assert total == -env.game.totals[1] and env.game.over
    assert not obs["action_mask"].any()


def test_the_learner_playing_a_strategy_plays_its_game() -> None:
    """The learner choosing greedy's moves, against greedy and expected, plays the game
    fcsim.Game plays with those three agents — the opponents really are the built-ins."""
    rules = fcsim.RuleSet(players=3)
    env = FiveCrownsEnv(rules=rules, opponents=["greedy", "expected"], seat=0)
    env.reset(seed=4)
    learner = fcsim.agent("greedy")
    terminated = False
    while not terminated:
        action = action_index(learner(env.game.view()))
        *_, terminated, _, _ = env.step(action)
    played = fcsim.Game(seed=4, rules=rules)
    played.play([fcsim.agent(s) for s in ("greedy", "greedy", "expected")])
    assert env.game.events == played.events


def test_one_agent_plays_every_other_seat_and_a_numpy_seat_is_a_seat() -> None:
    """``opponents`` as one agent (a strategy, or a function from a view to a move) is
    that agent at every other seat, as one spec is; ``seat`` may be a numpy integer."""
    def first(view: fcsim.View) -> str:
        return view.legal_actions[0]

    for opponents in (fcsim.agent("greedy"), first):
        env = FiveCrownsEnv(rules=SHORT, opponents=opponents, seat=np.int64(1))
        assert env.seat == 1 and list(env.opponents) == [0, 2]
        assert {o.spec for o in env.opponents.values()} == {fcsim.agent(opponents).spec}
        env.reset(seed=3)
    with pytest.raises(StrategyError, match="None is not a strategy spec nor an agent"):
        FiveCrownsEnv(rules=SHORT, opponents=None)


def test_an_illegal_action_is_refused() -> None:
    env = FiveCrownsEnv(rules=SHORT, opponents="random")
    env.reset(seed=2)
    with pytest.raises(fcsim.IllegalMoveError, match=r"player_0 chose action 9 \(discard "
                                                     r"10S\), which is not a legal draw"):
        env.step(9)


@pytest.mark.parametrize(("kwargs", "error", "fragment"), [
    ({"seat": 3}, ValueError, "seat must be 0 to 2"),
    ({"opponents": ["greedy"]}, ValueError, "3 players need one opponent spec, or 2"),
    ({"opponents": "gredy"}, StrategyError, "known strategies"),
    ({"opponents": "oracle"}, StrategyError, "sees hidden cards"),
    ({"render_mode": "human"}, ValueError, "render_mode must be 'ansi' or None"),
])
def test_bad_arguments_say_what_is_allowed(kwargs, error, fragment) -> None:
    with pytest.raises(error, match=fragment):
        FiveCrownsEnv(rules=SHORT, **kwargs)


def test_render_ansi() -> None:
    env = FiveCrownsEnv(rules=SHORT, opponents="random", render_mode="ansi")
    env.reset(seed=1)
    assert "Hand of player_0:" in env.render()


def test_an_opponent_whose_code_raises_is_named(tmp_path) -> None:
    opponent = tmp_path / "stuck.py"
    # content of its own: a file of the same content loaded earlier in the process (another
    # test's) would be that module, and the error would name that file
    opponent.write_text("def agent(view):  # an opponent's\n    raise RuntimeError('stuck')\n")
    env = FiveCrownsEnv(rules=SHORT, opponents=[f"{opponent}:agent", f"{opponent}:agent"],
                        seat=2)
    with pytest.raises(fcsim.StrategyFailed, match=rf"^strategy '{opponent}:agent' raised "
                                                   rf"RuntimeError: stuck at {opponent}:2, "):
        env.reset(seed=2)


def test_a_step_before_a_deal_or_after_the_game_asks_for_a_reset() -> None:
    env = FiveCrownsEnv(players=2, opponents="greedy", illegal_reward=-1)
    for call in (lambda: env.step(0), env.action_masks):
        with pytest.raises(ResetNeeded, match="call reset"):
            call()
    env.reset(seed=1)
    terminated = False
    while not terminated:
        _, _, terminated, _, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))
    with pytest.raises(ResetNeeded, match="the game is over"):
        env.step(0)


def test_an_opponent_model_of_another_table_is_one_warning_line(tmp_path, capsys) -> None:
    """A model trained at 4 seats, an opponent at 3: it plays, and says so once."""
    from tests.learn.models import random_model

    spec = f"learned:model={random_model(tmp_path / 'm.npz', rules={'players': 4, 'rounds': 11})}"
    for _ in range(2):
        FiveCrownsEnv(rules=SHORT, opponents=spec).reset(seed=1)
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"warning: model {tmp_path / 'm.npz'} was trained under other "
                               "rules (players 4 there, 3 here; rounds")
