"""Five Crowns as a PettingZoo AEC environment: agents ``player_0`` … ``player_{P-1}``, one
per seat, each deciding its own draws and discards.

>>> from fcsim.env import env
>>> table = env(players=3)
>>> table.reset(seed=7)
>>> table.agent_selection, table.action_space("player_0")
('player_1', Discrete(58))
>>> obs, reward, terminated, truncated, info = table.last()
>>> obs["action_mask"][:3].tolist()  # drawing: stock or pile, no discard
[1, 1, 0]
>>> table.step(0)  # from the stock

The agent to move is the seat to move: the same agent draws, then discards (going out
is automatic), and rounds start at the dealer's left. Observations and actions:
:mod:`fcsim.env.encoding`; seeding: :mod:`fcsim.env.table`. **Rewards**: at the end of
each round every agent gets minus its penalty for the round (a negative go-out bonus is
a reward), so an agent's return over a game is minus its total — fewest points wins.
The game ends every agent's episode (``terminations``); nothing truncates (the rules'
turn cap ends a round, scored). An illegal action — one the ``action_mask`` does not
allow — is refused with :class:`~fcsim.core.view.IllegalMoveError` and changes nothing:
sample from the mask.
"""

from __future__ import annotations

from typing import ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from fcsim.board import board, event_line
from fcsim.core.rules import RuleSet
from fcsim.env.encoding import LATEST_VERSION, N_ACTIONS
from fcsim.env.table import Table, play_index
from fcsim.game import Game, table_rules


def observation_space(table: Table) -> spaces.Dict:
    """The space of a seat's observation at ``table`` (:mod:`fcsim.env.encoding`)."""
    encoder = table.encoder
    return spaces.Dict({
        "observation": spaces.Box(encoder.low, encoder.high, dtype=np.float32),
        "action_mask": spaces.Box(0, 1, (N_ACTIONS,), dtype=np.int8),
    })


RENDER_MODES = ["ansi"]  # the render modes of both environments: the table as text


def check_render_mode(render_mode: str | None) -> None:
    """Refuse (``ValueError``) a render mode the environments do not have."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be 'ansi' or None, not {render_mode!r}")


def render_mode_missing(render_mode: str | None) -> bool:
    """True, with Gymnasium's warning, when ``render()`` is called without a render mode
    (it then returns None, as Gymnasium's own environments do)."""
    if render_mode is None:
        gymnasium.logger.warn("render() needs render_mode='ansi'")
    return render_mode is None


def render_text(table: Table, game: Game, names: list[str]) -> str:
    """The table as the seat to move sees it, or the game's end."""
    if game.over:
        return event_line(game.events[-1], names, 0).lstrip("\n")
    return board(game.view(), names, table.rules.rounds)


class raw_env(AECEnv):
    """Five Crowns for ``players`` agents under ``rules`` (see the module)."""

    metadata: ClassVar[dict] = {"render_modes": RENDER_MODES, "render_fps": 1,
                                "name": "fivecrowns_v0", "is_parallelizable": False}

    def __init__(self, players: int | None = None, rules: RuleSet | None = None,
                 render_mode: str | None = None, version: int = LATEST_VERSION) -> None:
        super().__init__()
        check_render_mode(render_mode)
        self.table = Table(table_rules(players, rules), version)
        self.metadata = {**self.metadata, "name": f"fivecrowns_v{version}"}
        self.render_mode = render_mode
        self.possible_agents = [f"player_{s}" for s in range(self.table.rules.players)]
        self._seat = {agent: s for s, agent in enumerate(self.possible_agents)}
        self.observation_spaces = {a: observation_space(self.table) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(N_ACTIONS) for a in self.possible_agents}
        self.game = None

    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Deal the next game (game 0 of root ``seed`` if given); ``options`` are unused."""
        self.game = self.table.deal(seed)
        self._state = self.game.state
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.game.to_move]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return self.table.encoder.observe(self._state, self._seat[agent])

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        totals = self._state.totals
        before = totals.copy()
        play_index(self.game, action, agent)
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: float(b - t) for a, b, t in zip(self.agents, before, totals,
                                                          strict=True)}
        self._accumulate_rewards()
        if self.game.over:
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[self.game.to_move]

    def render(self) -> str | None:
        if render_mode_missing(self.render_mode):
            return None
        return render_text(self.table, self.game, self.possible_agents)

    def close(self) -> None:
        """Nothing to release."""


def env(**kwargs: object) -> wrappers.OrderEnforcingWrapper:
    """:class:`raw_env` (same arguments) wrapped as PettingZoo's own games are: calling
    ``step``, ``observe`` or ``render`` before ``reset`` is an error."""
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))
