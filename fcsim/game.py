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
from fcsim.core.rng import game_seed
from fcsim.core.rules import DEFAULT_PLAYERS, RulesError, RuleSet, as_rules
from fcsim.core.seeds import MAX_SEED
from fcsim.core.state import (
    OK,
    PHASE_DISCARD,
    PHASE_DRAW,
    PHASE_GAME_OVER,
    GameState,
    Scalar,
    StateData,
    copy_state,
    new_game,
    new_state,
    play_action,
    shared_scratch,
    state_views,
)
from fcsim.core.tables import solver_table
from fcsim.core.view import (
    IllegalMoveError,
    View,
    action_code,
    decide,
    illegal_action,
    seat_stream,
)

Agent = Callable[[View], object]


def table_rules(players: int | None = None, rules: RuleSet | None = None) -> RuleSet:
    """``rules``, else the standard rules for ``players`` (4 if neither is given); both
    must agree."""
    if rules is None:
        return RuleSet(players=DEFAULT_PLAYERS if players is None else players)
    as_rules(rules)
    if players is not None and players != rules.players:
        raise RulesError(f"players={players} but rules.players={rules.players}: give one of "
                         f"them, or the same number")
    return rules


class _Block:
    """One step's trace rows in a game's history, linked to the block before: copies of a
    game share their common history (copying is O(1)), and each block is decoded into
    events once, the first time anyone asks (with the running totals after it)."""

    __slots__ = ("events", "prev", "rows", "totals")

    def __init__(self, rows: np.ndarray, prev: _Block | None) -> None:
        self.rows, self.prev = rows, prev
        self.events: list[dict] | None = None
        self.totals: list[int] | None = None


class Game:
    """One game of Five Crowns, stepped one decision at a time.

    ``Game(players=4, seed=7, game=0)`` is game 0 of a run with root seed 7 (its deals are
    those of ``fcsim replay --seed 7 --game 0``); ``rules`` sets any variant (then
    ``players`` may be left out). Going out is automatic, so the only decisions are the
    draw (``"stock"`` or ``"pile"``) and the discard (a card code such as ``"7H"``).
    """

    def __init__(self, players: int | None = None, seed: int = 0, game: int = 0,
                 rules: RuleSet | None = None) -> None:
        rules = table_rules(players, rules)
        for name, value in (("seed", seed), ("game", game)):
            if isinstance(value, bool) or not isinstance(value, int | np.integer) or not (
                    0 <= value <= MAX_SEED):
                raise ValueError(f"{name} must be a whole number from 0 to 2**64 - 1, "
                                 f"not {value!r}")
        self.rules = rules
        self.seed, self.game = int(seed), int(game)
        self._data = new_state(rules)
        self._table, self._scratch = solver_table(), shared_scratch()
        self._trace = np.zeros((rows_per_step(rules.players), TRACE_WIDTH), np.int16)
        self._last: _Block | None = None
        self._stream: np.ndarray | None = None  # the pending decision's views' stream
        seed_of_game = np.uint64(game_seed(np.uint64(seed), np.uint64(game)))
        self._keep(new_game(self._data, seed_of_game, self._table, self._scratch,
                            self._trace, 0))

    def _keep(self, rows: int) -> None:
        if rows:
            self._last = _Block(self._trace[:rows].copy(), self._last)

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
        """Whether the last round has been scored (no seat is to move)."""
        return int(self._data.ints[Scalar.PHASE]) == PHASE_GAME_OVER

    @property
    def to_move(self) -> int | None:
        """The seat that decides next (None once the game is over)."""
        return None if self.over else int(self._data.ints[Scalar.SEAT])

    @property
    def phase(self) -> str | None:
        """``"draw"`` or ``"discard"`` (None once the game is over)."""
        phase = int(self._data.ints[Scalar.PHASE])
        return {PHASE_DRAW: "draw", PHASE_DISCARD: "discard"}.get(phase)

    @property
    def round(self) -> int:
        """The round being played (the last one once the game is over)."""
        return int(self._data.ints[Scalar.ROUND])

    @property
    def totals(self) -> list[int]:
        """Every seat's total of the rounds finished so far."""
        return [int(x) for x in state_views(self._data).totals]

    def view(self) -> View:
        """What :attr:`to_move` may see, nothing more. Its ``rng`` is a copy of the seat's
        stream, shared by every view of this decision and written back by :meth:`step`, so
        the random choices drawn from it are played with the move."""
        if self.over:
            raise IllegalMoveError("the game is over: no seat is to move")
        if self._stream is None:
            self._stream = seat_stream(self._data).copy()
        return View.of(self._data, self._stream)

    def _play_stream(self, mover: np.ndarray) -> None:
        """Write the stream the pending decision's views handed out (advanced by whatever
        random choices were drawn from it) back into ``mover``, the stream of the seat
        whose move was played."""
        if self._stream is not None:
            mover[:] = self._stream
            self._stream = None

    def legal_actions(self) -> list[str]:
        """The actions :meth:`step` takes now (:attr:`View.legal_actions`): ``"stock"`` and
        ``"pile"`` when drawing, the distinct cards held when discarding."""
        return self.view().legal_actions

    def step(self, action: object, who: str | None = None) -> None:
        """Make the pending decision: ``"stock"`` / ``"pile"`` when drawing, a card code
        when discarding (or the move as an int). An illegal action changes nothing and
        raises :class:`~fcsim.core.view.IllegalMoveError` naming it, and ``who`` chose it
        (an agent's name; by default the seat)."""
        if self.over:
            raise IllegalMoveError(f"the game is over: {action!r} cannot be played")
        drawing = int(self._data.ints[Scalar.PHASE]) == PHASE_DRAW
        code = action_code(action, drawing)
        mover = seat_stream(self._data)  # read before the move passes the turn on
        status, rows = play_action(self._data, code, self._table, self._scratch,
                                   self._trace, 0)
        if status != OK:
            raise illegal_action(action, self.view(), who)
        self._play_stream(mover)
        self._keep(rows)

    def play(self, agents: Sequence[Agent], names: Sequence[str] | None = None) -> list[int]:
        """Play to the end with ``agents[seat]`` deciding for each seat; the totals.

        An agent's illegal move raises :class:`IllegalMoveError` naming the agent (by
        ``names[seat]``, else its ``spec`` or function name) and the move; an exception
        its code raises, :class:`~fcsim.core.view.StrategyFailed` naming it.
        """
        if len(agents) != self.rules.players:
            raise ValueError(f"{self.rules.players} players need {self.rules.players} "
                             f"agents, not {len(agents)}")
        for seat, player in enumerate(agents):
            if not callable(player):
                raise TypeError(f"agents are callables from a View to a move, such as "
                                f"fcsim.agent('greedy'), not {player!r} (seat {seat})")
        names = list(names) if names else [_name_of(a) for a in agents]
        if len(names) != len(agents):
            raise ValueError(f"{len(agents)} agents need {len(agents)} names, not "
                             f"{len(names)}")
        while not self.over:
            seat = self.to_move
            self.step(decide(agents[seat], self.view(), names[seat]), names[seat])
        return self.totals

    @property
    def events(self) -> list[dict]:
        """The events so far: the dicts ``fcsim replay --json`` prints, in the same order.

        Each step's events are decoded once and then shared — by later calls and by
        copies — so asking after every step costs little; copy a dict before changing it.
        """
        blocks = []
        block = self._last
        while block is not None:
            blocks.append(block)
            block = block.prev
        blocks.reverse()
        events: list[dict] = []
        totals = [0] * self.rules.players
        decoder = None  # decoded blocks are a prefix: decoding goes from the first on
        for block in blocks:
            if block.events is None:
                if decoder is None:
                    decoder = EventDecoder(self.rules)
                    decoder.totals = list(totals)
                block.events = list(decoder.decode(block.rows))
                block.totals = list(decoder.totals)
            totals = block.totals
            events += block.events
        return events

    def copy(self) -> Game:
        """An independent copy: stepping it leaves this game unchanged."""
        twin = object.__new__(Game)
        twin.rules, twin.seed, twin.game = self.rules, self.seed, self.game
        twin._data = copy_state(self._data)
        twin._stream = None if self._stream is None else self._stream.copy()
        twin._table, twin._scratch = self._table, self._scratch
        twin._trace = self._trace  # scratch for one step's rows, copied out at once
        twin._last = self._last  # the history so far: blocks are never changed once kept
        return twin

    __copy__ = copy  # copy.copy(game) is as independent as game.copy()

    def __repr__(self) -> str:
        where = "over" if self.over else f"round {self.round}, seat {self.to_move} to {self.phase}"
        return f"Game(players={self.rules.players}, seed={self.seed}, game={self.game}: {where})"


def _name_of(agent: object) -> str:
    return getattr(agent, "spec", None) or getattr(agent, "__name__", None) or repr(agent)
