"""A game you step from Python: a person, an agent, a search, an environment.

>>> import fcsim
>>> game = fcsim.Game(players=2, seed=7)
>>> game.view().phase, game.view().legal_actions
('draw', ['stock', 'pile'])
>>> totals = game.play([fcsim.agent("greedy"), fcsim.agent("random")])
>>> game.over, totals == game.totals, game.events[-1]["event"]
(True, True, 'end')

Every step goes through the njit steps of :mod:`fcsim.core.state` — the same ones batch
runs use — so ``Game(seed=S, game=G)`` deals what ``fcsim replay --seed S --game G``
deals, and the built-in strategies as agents play its very moves.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from fcsim.core.events import TRACE_WIDTH, EventDecoder, rows_per_step
from fcsim.core.rng import MAX_SEED, game_seed
from fcsim.core.rules import RulesError, RuleSet
from fcsim.core.state import (
    OK,
    PHASE_DISCARD,
    PHASE_DRAW,
    PHASE_GAME_OVER,
    S_PHASE,
    S_ROUND,
    S_SEAT,
    GameState,
    StateData,
    copy_state,
    new_game,
    new_state,
    play_action,
    shared_scratch,
    state_views,
)
from fcsim.core.tables import solver_table
from fcsim.core.view import IllegalMoveError, View, action_code, illegal_action

Agent = Callable[[View], object]


class Game:
    """One game of Five Crowns, stepped one decision at a time.

    ``Game(players=4, seed=7, game=0)`` is game 0 of a run with root seed 7 (its deals are
    those of ``fcsim replay --seed 7 --game 0``); ``rules`` sets any variant (then
    ``players`` may be left out). Going out is automatic, so the only decisions are the
    draw (``"stock"`` or ``"pile"``) and the discard (a card code such as ``"7H"``).
    """

    def __init__(self, players: int | None = None, seed: int = 0, game: int = 0,
                 rules: RuleSet | None = None) -> None:
        if rules is None:
            rules = RuleSet(players=4 if players is None else players)
        elif players is not None and players != rules.players:
            raise RulesError(f"players={players} but rules.players={rules.players}: give "
                             f"one of them, or the same number")
        for name, value in (("seed", seed), ("game", game)):
            if isinstance(value, bool) or not isinstance(value, int | np.integer) or not (
                    0 <= value <= MAX_SEED):
                raise ValueError(f"{name} must be a whole number from 0 to 2**64 - 1, "
                                 f"not {value!r}")
        self.rules = rules
        self.seed, self.game = int(seed), int(game)
        self._data = new_state(rules)
        self._trace = np.zeros((rows_per_step(rules.players), TRACE_WIDTH), np.int16)
        self._blocks: list[np.ndarray] = []
        seed_of_game = np.uint64(game_seed(np.uint64(seed), np.uint64(game)))
        self._keep(new_game(self._data, seed_of_game, solver_table(), shared_scratch(),
                            self._trace, 0))

    def _keep(self, rows: int) -> None:
        if rows:
            self._blocks.append(self._trace[:rows].copy())

    @property
    def data(self) -> StateData:
        """The full state (every hand and the stock) as the kernels take it: for analysis
        and search, never for a fair player (use :meth:`view`)."""
        return self._data

    @property
    def state(self) -> GameState:
        """:attr:`data`'s parts by name (views: writing them changes the game)."""
        return state_views(self._data)

    @property
    def over(self) -> bool:
        return int(self._data.ints[S_PHASE]) == PHASE_GAME_OVER

    @property
    def to_move(self) -> int | None:
        """The seat that decides next (None once the game is over)."""
        return None if self.over else int(self._data.ints[S_SEAT])

    @property
    def phase(self) -> str | None:
        """``"draw"`` or ``"discard"`` (None once the game is over)."""
        phase = int(self._data.ints[S_PHASE])
        return {PHASE_DRAW: "draw", PHASE_DISCARD: "discard"}.get(phase)

    @property
    def round(self) -> int:
        """The round being played (the last one once the game is over)."""
        return int(self._data.ints[S_ROUND])

    @property
    def totals(self) -> list[int]:
        """Every seat's total of the rounds finished so far."""
        return [int(x) for x in state_views(self._data).totals]

    def view(self) -> View:
        """What :attr:`to_move` may see, nothing more."""
        if self.over:
            raise IllegalMoveError("the game is over: no seat is to move")
        return View.of(self._data)

    def legal_actions(self) -> list[str]:
        return self.view().legal_actions

    def step(self, action: object) -> None:
        """Make the pending decision: ``"stock"`` / ``"pile"`` when drawing, a card code
        when discarding (or the move as an int). An illegal action changes nothing and
        raises :class:`~fcsim.core.view.IllegalMoveError` naming it."""
        if self.over:
            raise IllegalMoveError(f"the game is over: {action!r} cannot be played")
        drawing = int(self._data.ints[S_PHASE]) == PHASE_DRAW
        status, rows = play_action(self._data, action_code(action, drawing), solver_table(),
                                   shared_scratch(), self._trace, 0)
        if status != OK:
            raise illegal_action(action, self.view())
        self._keep(rows)

    def play(self, agents: Sequence[Agent], names: Sequence[str] | None = None) -> list[int]:
        """Play to the end with ``agents[seat]`` deciding for each seat; the totals.

        An agent's illegal move raises :class:`IllegalMoveError` naming the agent (by
        ``names[seat]``, else its ``spec`` or function name) and the move.
        """
        if len(agents) != self.rules.players:
            raise ValueError(f"{self.rules.players} players need {self.rules.players} "
                             f"agents, not {len(agents)}")
        while not self.over:
            seat = self.to_move
            view = self.view()
            action = agents[seat](view)
            drawing = view.phase == "draw"
            status, rows = play_action(self._data, action_code(action, drawing),
                                       solver_table(), shared_scratch(), self._trace, 0)
            if status != OK:
                raise illegal_action(action, view, names[seat] if names else
                                     _name_of(agents[seat]))
            self._keep(rows)
        return self.totals

    @property
    def events(self) -> list[dict]:
        """The events so far: the dicts ``fcsim replay --json`` prints, in the same order."""
        decoder = EventDecoder(self.rules)
        return [e for block in self._blocks for e in decoder.decode(block)]

    def copy(self) -> Game:
        """An independent copy: stepping it leaves this game unchanged."""
        twin = object.__new__(Game)
        twin.rules, twin.seed, twin.game = self.rules, self.seed, self.game
        twin._data = copy_state(self._data)
        twin._trace = self._trace  # scratch for one step's rows, copied out at once
        twin._blocks = list(self._blocks)  # blocks are never changed once kept
        return twin

    def __repr__(self) -> str:
        where = "over" if self.over else f"round {self.round}, seat {self.to_move} to {self.phase}"
        return f"Game(players={self.rules.players}, seed={self.seed}, game={self.game}: {where})"


def _name_of(agent: object) -> str:
    return getattr(agent, "spec", None) or getattr(agent, "__name__", None) or repr(agent)
