"""Five Crowns as a Gymnasium environment: one learner seat, built-in opponents in the
others. Registered as ``fcsim/FiveCrowns-v1`` (and ``-v0``, the observation without the
public history) when :mod:`fcsim.env` is imported.

>>> import gymnasium, fcsim.env
>>> env = gymnasium.make("fcsim/FiveCrowns-v1", players=2, opponents="greedy")
>>> obs, info = env.reset(seed=3)
>>> obs["action_mask"][:2].tolist(), env.action_space
([1, 1], Discrete(58))
>>> obs, reward, terminated, truncated, info = env.step(0)

Observations and actions are those of the PettingZoo environment
(:mod:`fcsim.env.encoding`), seen from the learner's seat; so is the seeding
(:mod:`fcsim.env.table`). A step is the learner's action and then the opponents' moves
until the learner must decide again (or the game ends). **Reward**: minus the learner's
penalty of every round that ended during the step, so the return of a game is minus its
total. ``terminated`` when the game is over; never ``truncated``. An illegal action is
refused with :class:`~fcsim.core.view.IllegalMoveError`: choose from
``observation["action_mask"]`` (also :meth:`FiveCrownsEnv.action_masks`, the method
sb3-contrib's ``MaskablePPO`` reads) — or give ``illegal_reward`` to have it refused
without an error. Gymnasium's ``check_env`` steps with actions sampled without the mask
(one of them before a reset), so it passes with ``illegal_reward`` set. A step before
the first reset, or after the game is over, raises gymnasium's ``ResetNeeded``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.error import ResetNeeded

from fcsim.agents import agent
from fcsim.core.rules import RuleSet
from fcsim.core.view import IllegalMoveError, decide
from fcsim.env.aec import (
    RENDER_MODES,
    check_render_mode,
    observation_space,
    render_mode_missing,
    render_text,
)
from fcsim.env.encoding import LATEST_VERSION, N_ACTIONS
from fcsim.env.table import Table, play_index
from fcsim.game import Agent, table_rules
from fcsim.runner.run import warn_table_notes
from fcsim.strategies.family import Strategy


class FiveCrownsEnv(gymnasium.Env):
    """The learner at ``seat``, built-in strategies elsewhere: ``opponents`` is one
    opponent for every other seat (a spec such as ``"aware"`` or
    ``"greedy:take_margin=2"``, or an agent: :func:`fcsim.agent`'s strategy or a function
    from a view to a move) or a sequence of one per other seat, in seat order.
    ``illegal_reward`` set, an illegal action is refused without an error: nothing
    changes, the step returns that reward and ``info["illegal_action"]`` says why (for
    learners that do not read the mask, and for checkers that sample any action)."""

    metadata: ClassVar[dict] = {"render_modes": RENDER_MODES, "render_fps": 1}

    def __init__(self, players: int | None = None,
                 opponents: str | Strategy | Agent | Sequence[str | Strategy | Agent] = "aware",
                 rules: RuleSet | None = None, seat: int = 0,
                 render_mode: str | None = None, illegal_reward: float | None = None,
                 version: int = LATEST_VERSION) -> None:
        check_render_mode(render_mode)
        self.table = Table(table_rules(players, rules), version)
        count = self.table.rules.players
        if isinstance(seat, bool) or not isinstance(seat, int | np.integer) or not (
                0 <= seat < count):
            raise ValueError(f"seat must be 0 to {count - 1}, not {seat!r}")
        one = isinstance(opponents, str) or not isinstance(opponents, Sequence)
        specs = [opponents] * (count - 1) if one else list(opponents)
        if len(specs) != count - 1:
            raise ValueError(f"{count} players need one opponent spec, or {count - 1} (one "
                             f"per other seat), not {len(specs)}")
        others = [s for s in range(count) if s != seat]
        self.opponents = {s: agent(spec) for s, spec in zip(others, specs, strict=True)}
        warn_table_notes(list(self.opponents.values()), self.table.rules)
        self.seat = int(seat)
        self.illegal_reward = None if illegal_reward is None else float(illegal_reward)
        self.render_mode = render_mode
        self.observation_space = observation_space(self.table)
        self.action_space = spaces.Discrete(N_ACTIONS)
        self.names = [f"player_{s}" for s in range(count)]
        self.game = None

    def reset(self, *, seed: int | None = None, options: dict | None = None
              ) -> tuple[dict, dict]:
        """Deal the next game (game 0 of root ``seed`` if given) and play the opponents up
        to the learner's first decision; ``options`` are unused."""
        super().reset(seed=seed)
        self.game = self.table.deal(seed)
        self._state = self.game.state
        self._play_opponents()
        return self.table.encoder.observe(self._state, self.seat), {}

    def step(self, action: int) -> tuple[dict, float, bool, bool, dict]:
        self._require_game("step")
        if self.game.over:
            raise ResetNeeded("the game is over: call reset() to deal the next one")
        totals = self._state.totals
        before = int(totals[self.seat])
        try:
            play_index(self.game, action, self.names[self.seat])
        except IllegalMoveError as err:
            if self.illegal_reward is None:
                raise
            observation = self.table.encoder.observe(self._state, self.seat)
            return observation, self.illegal_reward, False, False, {"illegal_action": str(err)}
        self._play_opponents()
        reward = float(before - int(totals[self.seat]))
        observation = self.table.encoder.observe(self._state, self.seat)
        return observation, reward, self.game.over, False, {}

    def action_masks(self) -> np.ndarray:
        """bool[58]: the learner's legal actions now."""
        self._require_game("action_masks")
        return self.table.encoder.action_mask(self._state, self.seat).astype(bool)

    def render(self) -> str | None:
        if render_mode_missing(self.render_mode):
            return None
        self._require_game("render")
        return render_text(self.table, self.game, self.names)

    def _require_game(self, call: str) -> None:
        if self.game is None:
            raise ResetNeeded(f"call reset() before {call}(): no game is dealt yet")

    def _play_opponents(self) -> None:
        game = self.game
        while not game.over and game.to_move != self.seat:
            seat = game.to_move
            game.step(decide(self.opponents[seat], game.view(), self.opponents[seat].spec))
