"""The batch engine: complete games between strategies, played on the steps of
:mod:`fcsim.core.state`.

:func:`advance` is the one driver: it settles the game and lets each numba seat decide
(a first-class function call, never leaving compiled code) until a seat decided outside
compiled code — a Python agent — must move, or the game is over. A table of numba
strategies plays whole games in one compiled loop (:func:`play_games`); a table with
Python agents runs a Python loop that hands them a :class:`~fcsim.core.view.View` and
calls :func:`advance` for everything else. Either way the same steps play the same game:
``seating[g, seat]`` says which of the distinct strategies sits where in game ``g``.
"""

from __future__ import annotations

import traceback
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from pathlib import Path
from typing import NamedTuple

import numpy as np
from numba import NumbaExperimentalFeatureWarning, njit
from numba.core.errors import NumbaError

from fcsim.core.borrow import borrow
from fcsim.core.cards import DECK_SIZE, N_KINDS, format_card
from fcsim.core.decisions import COPIED, collect_turns, empty_decisions
from fcsim.core.events import TRACE_WIDTH, rows_per_game
from fcsim.core.records import RoundInfo, Score
from fcsim.core.rules import RuleSet
from fcsim.core.state import (
    DRAW_PILE,
    DRAW_STOCK,
    ERR_DRAW,
    INLINE_STEP,
    OK,
    PHASE_DRAW,
    PHASE_GAME_OVER,
    GameState,
    Scalar,
    StateData,
    apply_move,
    lend,
    new_game,
    new_state,
    play_action,
    reset_game,
    settle,
    shared_scratch,
)
from fcsim.core.tables import solver_table
from fcsim.core.view import (
    INFO_SIZE,
    SEES_HIDDEN,
    SEES_HISTORY,
    IllegalMoveError,
    JitStrategy,
    StrategyFailed,
    View,
    action_code,
    compiled,
    decide,
    fill_history,
    fill_info,
    illegal_action,
    no_decision,
    reveal,
    seat_stream,
    strategy_failed,
)

# Strategies are numba first-class functions, still flagged experimental; fcsim relies on
# them deliberately (and tests them), so the warning would only be noise for users.
warnings.filterwarnings("ignore", category=NumbaExperimentalFeatureWarning)

# What advance() stopped for (beside the steps' ERR_* statuses).
GAME_OVER = -1
WAITING = -2  # a seat decided outside compiled code is to move

Agent = Callable[[View], object]  # a Python agent: view -> action
EXPECTED_TURNS = 250  # decision rows a game is first given room for (4 x greedy: ~150)


class ResultArrays(NamedTuple):
    """What :func:`record` fills (G games, R rounds, P seats): the seats' game results,
    and every round's :data:`~fcsim.core.records.Score` and
    :data:`~fcsim.core.records.RoundInfo` records as the state holds them."""

    total: np.ndarray  # int16[G, P]
    place: np.ndarray  # int8[G, P]
    win: np.ndarray  # bool[G, P]
    scores: np.ndarray  # int16[G, R, P, len(Score)]
    rounds: np.ndarray  # int16[G, R, len(RoundInfo)]

    @classmethod
    def empty(cls, games: int, rules: RuleSet) -> ResultArrays:
        g, r, p = games, rules.rounds, rules.players
        return cls(total=np.zeros((g, p), np.int16), place=np.zeros((g, p), np.int8),
                   win=np.zeros((g, p), np.bool_),
                   scores=np.zeros((g, r, p, len(Score)), _wide(Score)),
                   rounds=np.zeros((g, r, len(RoundInfo)), _wide(RoundInfo)))


def _wide(record: type[IntEnum]) -> np.dtype:
    """A type that holds every field of ``record`` as it is stored."""
    return np.result_type(*(field.dtype for field in record))


@dataclass(frozen=True)
class GameResults:
    """Per-game results of :func:`play_games` (G games, R rounds, P seats); the per-round
    fields are those of :data:`~fcsim.core.records.Score` and
    :data:`~fcsim.core.records.RoundInfo`, by their column names and types."""

    total: np.ndarray  # int16[G, P]
    place: np.ndarray  # int8[G, P]
    win: np.ndarray  # bool[G, P]
    penalty: np.ndarray  # int16[G, R, P]
    wild_pts: np.ndarray  # int16[G, R, P]
    joker_pts: np.ndarray  # int16[G, R, P]
    out_seat: np.ndarray  # int8[G, R]
    out_turn: np.ndarray  # int16[G, R]
    turns: np.ndarray  # int16[G, R]
    capped: np.ndarray  # bool[G, R]

    @classmethod
    def of(cls, arrays: ResultArrays) -> GameResults:
        """The results held in ``arrays``, each record field its own array."""
        per_round = {f.column: arrays.scores[..., f].astype(f.dtype) for f in Score}
        per_round |= {f.column: arrays.rounds[..., f].astype(f.dtype) for f in RoundInfo}
        return cls(total=arrays.total, place=arrays.place, win=arrays.win, **per_round)

    @classmethod
    def empty(cls, games: int, rules: RuleSet) -> GameResults:
        return cls.of(ResultArrays.empty(games, rules))


@njit(cache=True)
def advance(state: GameState, seating: np.ndarray, draws, discards, params: np.ndarray,
            sees: np.ndarray, external: np.ndarray, info: np.ndarray, hidden: np.ndarray,
            table: np.ndarray, scratch: np.ndarray, trace: np.ndarray, row: int
            ) -> tuple[int, int, int, int]:
    """Play on until a seat whose strategy is ``external`` must decide, or the game ends.

    ``seating`` int8[P]: the strategy index of each seat; ``draws`` / ``discards``: the
    strategies' decision functions; ``params`` float64[S, :]; ``sees`` int8[S], what
    each sees beyond its view's scalars (``SEES_*`` bits); ``external`` bool[S]; ``info``
    int64[INFO_SIZE] and ``hidden`` int8[P + 1, 116] are
    work space. Returns ``(status, strategy, move, next trace row)``: status
    ``GAME_OVER``, ``WAITING``, or a step's ``ERR_*`` with the strategy and its move.
    """
    # The arrays this call was given, borrowed: no step pays for counting references.
    table, scratch, trace = borrow(table), borrow(scratch), borrow(trace)
    seating, params, info, hidden = borrow(seating), borrow(params), borrow(info), borrow(hidden)
    sc = state.scalars
    while True:
        row = settle(state, table, scratch, trace, row)
        phase = sc[Scalar.PHASE]
        if phase == PHASE_GAME_OVER:
            return GAME_OVER, -1, 0, row
        who = seating[sc[Scalar.SEAT]]
        if external[who]:
            return WAITING, who, 0, row
        move = seat_move(state, who, draws, discards, params, sees, info, hidden, table,
                         scratch)
        status, row = apply_move(state, move, table, scratch, trace, row)
        if status != OK:
            return status, who, move, row


@njit(cache=True, inline=INLINE_STEP)
def seat_move(state: GameState, who: int, draws, discards, params: np.ndarray,
              sees: np.ndarray, info: np.ndarray, hidden: np.ndarray, table: np.ndarray,
              scratch: np.ndarray) -> int:
    """The pending decision of the seat to move, made by its numba strategy ``who``: the
    view cut from ``state`` into ``info`` (with the public history if ``sees[who]`` says
    so, and for an oracle ``hidden``), its draw or discard function called. The move is
    not applied."""
    sc = state.scalars
    seat = sc[Scalar.SEAT]
    hand = state.hands[seat]
    pile = state.pile[: sc[Scalar.PILE]]
    seen = hidden[:0, :0]  # what a fair seat gets
    oracle = sees[who] & SEES_HIDDEN != 0
    if oracle:
        seen = hidden
    fill_info(state, info)
    if sees[who] & SEES_HISTORY:
        fill_history(state, info)
    if sc[Scalar.PHASE] == PHASE_DRAW:
        if oracle:
            reveal(state, hidden)  # as the turn starts; the discard sees the same
        return draws[who](hand, pile, state.known, info, seen, params[who], table, scratch,
                          state.seat_rng[seat])
    return discards[who](hand, pile, state.known, info, seen, params[who], table, scratch,
                         state.seat_rng[seat])


@njit(cache=True)
def run_to_decision(data: StateData, seating: np.ndarray, draws, discards,
                    params: np.ndarray, sees: np.ndarray, external: np.ndarray,
                    info: np.ndarray, hidden: np.ndarray, table: np.ndarray,
                    scratch: np.ndarray, trace: np.ndarray, row: int
                    ) -> tuple[int, int, int, int]:
    """:func:`advance` on ``data``, for callers in Python."""
    return advance(lend(data), seating, draws, discards, params, sees, external, info,
                   hidden, table, scratch, trace, row)


@njit(cache=True)
def record_game(data: StateData, g: int, out: ResultArrays) -> None:
    """:func:`record` on ``data``, for callers in Python."""
    record(lend(data), g, out)


@njit(cache=True)
def record(state: GameState, g: int, out: ResultArrays) -> None:
    """Copy the finished game in ``state`` into row ``g`` of ``out``."""
    totals = state.totals
    players = totals.shape[0]
    best = totals.min()
    for s in range(players):
        out.total[g, s] = totals[s]
        lower = 0
        for o in range(players):
            if totals[o] < totals[s]:
                lower += 1
        out.place[g, s] = lower + 1
        out.win[g, s] = totals[s] == best
    scores, rounds = out.scores[g], out.rounds[g]
    for r in range(state.round_info.shape[0]):
        for s in range(players):
            for field in range(scores.shape[2]):
                scores[r, s, field] = state.scores[r, s, field]
        for field in range(rounds.shape[1]):
            rounds[r, field] = state.round_info[r, field]


# _play_games' progress array, by name.
Progress = IntEnum("Progress", [
    "STATUS",  # an illegal move: the step's status, …
    "STRATEGY",  # … the strategy that made it, …
    "GAME",  # … in which game, …
    "MOVE",  # … and the move
    "TRACE_ROWS",  # the trace rows used
    "DECISIONS",  # the decision rows used
    "GAMES",  # the games played
], start=0)


@njit(cache=True)
def _play_games(seeds, seating, draws, discards, params, sees, external, data, table,
                scratch, out, trace, decisions, progress):
    """Play one game per seed with numba seats only, from game ``progress[Progress.GAMES]``; see
    :func:`play_games`.

    With a ``decisions`` array (more than zero rows) each game is traced on its own in
    ``trace`` and its turns are collected into ``decisions``; the loop stops early, before
    a game that might not fit. ``progress`` int64[len(Progress)]: see :data:`Progress`.
    """
    state = lend(data)
    info = np.zeros(INFO_SIZE, dtype=np.int64)
    hidden = np.full((seating.shape[1] + 1, DECK_SIZE), -1, dtype=np.int8)
    recording = decisions.shape[0] > 0
    # int64, not the literal 0: numba would compile advance() for that literal too.
    first_row = np.int64(0)
    row = first_row
    used = progress[Progress.DECISIONS]
    for g in range(progress[Progress.GAMES], seeds.shape[0]):
        if recording:
            if decisions.shape[0] - used < trace.shape[0]:
                break
            row = first_row
        reset_game(state, seeds[g])
        status, who, move, row = advance(state, seating[g], draws, discards, params, sees,
                                         external, info, hidden, table, scratch, trace, row)
        if status != GAME_OVER:
            progress[Progress.STATUS], progress[Progress.STRATEGY] = status, who
            progress[Progress.GAME], progress[Progress.MOVE] = g, move
            return
        record(state, g, out)
        if recording:
            used = collect_turns(trace, row, g, seating[g], COPIED, decisions, used)
        progress[Progress.GAMES] = g + 1
    progress[Progress.TRACE_ROWS], progress[Progress.DECISIONS] = row, used


def illegal_move(strategy: str, status: int, move: int, game: int | None = None
                 ) -> IllegalMoveError:
    """The error for an illegal move by ``strategy`` (``status`` ERR_DRAW / ERR_DISCARD)."""
    where = "" if game is None else f" in game {game}"
    if status == ERR_DRAW:
        return IllegalMoveError(f"strategy {strategy!r} chose draw source {move} (must be "
                                f"{DRAW_STOCK} or {DRAW_PILE}){where}")
    card = format_card(move) if 0 <= move < N_KINDS else str(move)
    return IllegalMoveError(f"strategy {strategy!r} discarded {card}, which is not in its "
                            f"hand{where}")


def _name(strategy: object) -> str:
    return getattr(strategy, "spec", None) or getattr(strategy, "__name__", repr(strategy))


def decision_tables(strategies: Sequence[object]) -> tuple:
    """The engine's view of the strategies: decision functions, parameters, flags. A
    strategy whose code does not compile is named (:class:`StrategyFailed`)."""
    pairs = [_decisions(s) for s in strategies]
    jit = [pair is not None for pair in pairs]
    draws = tuple(compiled(no_decision) if pair is None else pair[0] for pair in pairs)
    discards = tuple(compiled(no_decision) if pair is None else pair[1] for pair in pairs)
    vectors = [np.asarray(s.param_vector, np.float64) if j else np.zeros(0)
               for s, j in zip(strategies, jit, strict=True)]
    params = np.zeros((len(strategies), max([1] + [v.size for v in vectors])), np.float64)
    for i, v in enumerate(vectors):
        params[i, : v.size] = v
    sees = np.array([(SEES_HIDDEN if s.oracle else 0)
                     | (SEES_HISTORY if getattr(s, "history", False) else 0) if j else 0
                     for s, j in zip(strategies, jit, strict=True)], dtype=np.int8)
    external = np.array([not j for j in jit], dtype=np.bool_)
    return draws, discards, params, sees, external


def _decisions(strategy: object) -> tuple[object, object] | None:
    """The compiled draw and discard of a numba strategy (compiled now, or loaded from the
    cache), None for a Python agent."""
    try:  # the protocol's check reads the decisions too
        if not isinstance(strategy, JitStrategy) or strategy.draw is None:
            return None
        return strategy.draw, strategy.discard
    except NumbaError as err:
        raise strategy_failed(err, _name(strategy)) from err


def _failed_in_compiled(strategies: Sequence[object], err: Exception, game: int
                        ) -> StrategyFailed | None:
    """The error naming the numba strategy whose code raised ``err`` in game ``game``, or
    None if no strategy's code did (the engine's own exception: let it be)."""
    raiser = _raised_by(strategies, err)
    return None if raiser is None else strategy_failed(err, raiser[0], game, raiser[1])


def _raised_by(strategies: Sequence[object], err: Exception) -> tuple[str, str] | None:
    """The numba strategy whose decision code raised ``err`` in compiled play, and the line
    (``FILE:LINE, in FUNCTION``), if one did (else the engine itself did: not a strategy's
    fault). A frame names the file the code was first compiled from (a kernel loaded from
    the cache keeps it), so a file of another path but the same name counts when no other
    strategy has one."""
    frames = traceback.extract_tb(err.__traceback__)
    found: dict[str, dict[str, str]] = {"path": {}, "name": {}}
    for strategy in strategies:
        pair = _decisions(strategy)
        for code in () if pair is None else (d.py_func.__code__ for d in pair):
            for frame in frames:
                if frame.name != code.co_name:
                    continue
                line = f"{code.co_filename}:{frame.lineno}, in {frame.name}"
                if frame.filename == code.co_filename:
                    found["path"][_name(strategy)] = line
                elif Path(frame.filename).name == Path(code.co_filename).name:
                    found["name"][_name(strategy)] = line
    for matches in found.values():
        if len(matches) == 1:
            return next(iter(matches.items()))
    return None


def _check(seeds: np.ndarray, seating: np.ndarray, strategies: Sequence[object],
           rules: RuleSet) -> tuple[np.ndarray, np.ndarray]:
    seeds = np.ascontiguousarray(seeds, dtype=np.uint64)
    seating = np.ascontiguousarray(seating, dtype=np.int8)
    n_games, n_players = seating.shape
    if n_players != rules.players or seeds.shape[0] != n_games:
        raise ValueError("seating must be (games, rules.players) and match the seeds")
    if seating.size and (seating.min() < 0 or seating.max() >= len(strategies)):
        raise ValueError("seating refers to a strategy that was not given")
    return seeds, seating


def _play_with_agents(seeds, seating, strategies, rules, tables, out, trace,
                      recorder: _Recorder | None = None, first_game: int = 0) -> int:
    """Play games where some seats are Python agents: a Python loop over :func:`advance`
    for the numba seats and the same steps for the agents. Returns trace rows used.
    With a ``recorder``, each game is traced on its own and its turns are recorded."""
    draws, discards, params, sees, external = tables
    table, scratch = solver_table(), shared_scratch()
    data = new_state(rules)
    info = np.zeros(INFO_SIZE, dtype=np.int64)
    hidden = np.full((rules.players + 1, DECK_SIZE), -1, dtype=np.int8)
    row = 0
    for g in range(seeds.shape[0]):
        if recorder is not None:
            row = 0
        row = new_game(data, seeds[g], table, scratch, trace, row)
        while True:
            try:
                status, who, move, row = run_to_decision(
                    data, seating[g], draws, discards, params, sees, external, info, hidden,
                    table, scratch, trace, row)
            except Exception as err:  # raised in compiled code: a strategy's, or the engine's
                failed = _failed_in_compiled(strategies, err, first_game + g)
                if failed is None:
                    raise
                raise failed from err
            if status == GAME_OVER:
                break
            if status != WAITING:
                raise illegal_move(_name(strategies[who]), status, move, first_game + g)
            view = View.of(data)
            action = decide(strategies[who], view, _name(strategies[who]), first_game + g)
            seat_stream(data)[:] = view.rng  # the random choices it drew are played
            status, row = play_action(data, action_code(action, view.phase == "draw"), table,
                                      scratch, trace, row)
            if status != OK:
                raise illegal_action(action, view, _name(strategies[who]), first_game + g)
        record_game(data, g, out)
        if recorder is not None:
            recorder.collect(trace, row, g, seating[g])
    return row


class _Recorder:
    """The decision rows of a batch, in an array that grows as games are collected."""

    def __init__(self, games: int, per_game: int) -> None:
        self.per_game = per_game  # room a game may need: its trace rows
        self.rows = empty_decisions(max(games * EXPECTED_TURNS, per_game))
        self.used = 0

    def make_room(self) -> None:
        """Grow the array so that one more game surely fits."""
        if self.rows.shape[0] - self.used < self.per_game:
            grown = empty_decisions(max(2 * self.rows.shape[0], self.used + self.per_game))
            grown[: self.used] = self.rows[: self.used]
            self.rows = grown

    def collect(self, trace: np.ndarray, rows: int, game: int, seating: np.ndarray) -> None:
        """Record the turns of one game's trace."""
        self.make_room()
        self.used = collect_turns(trace, rows, game, seating, COPIED, self.rows, self.used)

    def result(self) -> np.ndarray:
        """The decision rows collected, in play order."""
        return self.rows[: self.used]


def _run(seeds, seating, strategies: Sequence[object], rules: RuleSet, trace_rows: int,
         recorder: _Recorder | None = None, first_game: int = 0
         ) -> tuple[GameResults, np.ndarray]:
    """Play the games (see :func:`play_games`); errors name game ``first_game + g`` for
    ``seeds[g]``."""
    seeds, seating = _check(seeds, seating, strategies, rules)
    out = ResultArrays.empty(len(seeds), rules)
    trace = np.zeros((trace_rows, TRACE_WIDTH), np.int16)
    tables = decision_tables(strategies)
    if tables[-1].any():  # some seat is a Python agent
        rows = _play_with_agents(seeds, seating, strategies, rules, tables, out, trace,
                                 recorder, first_game)
        return GameResults.of(out), trace[:rows]
    progress = np.zeros(len(Progress), np.int64)
    draws, discards, params, sees, external = tables
    data, table, scratch = new_state(rules), solver_table(), shared_scratch()
    no_decisions = empty_decisions(0)
    while True:
        if recorder is not None:
            recorder.make_room()
            progress[Progress.DECISIONS] = recorder.used
        try:
            _play_games(seeds, seating, draws, discards, params, sees, external, data,
                        table, scratch, out, trace,
                        no_decisions if recorder is None else recorder.rows, progress)
        except Exception as err:  # raised in compiled code: a strategy's, or the engine's
            failed = _failed_in_compiled(strategies, err,
                                         first_game + int(progress[Progress.GAMES]))
            if failed is None:
                raise
            raise failed from err
        if progress[Progress.STATUS] != OK:
            who = int(progress[Progress.STRATEGY])
            raise illegal_move(_name(strategies[who]), int(progress[Progress.STATUS]),
                               int(progress[Progress.MOVE]),
                               first_game + int(progress[Progress.GAME]))
        if recorder is not None:
            recorder.used = int(progress[Progress.DECISIONS])
        if recorder is None or progress[Progress.GAMES] == len(seeds):
            return GameResults.of(out), trace[: int(progress[Progress.TRACE_ROWS])]


def play_games(seeds: np.ndarray, seating: np.ndarray, strategies: Sequence[object],
               rules: RuleSet, first_game: int = 0) -> GameResults:
    """Play one game per seed.

    Parameters
    ----------
    seeds : uint64[G]
        Game seeds (``fcsim.core.rng.game_seed(root, g)`` for game g of a run).
    seating : int8[G, P]
        For each game and seat, the index in ``strategies`` of the strategy sitting there.
    strategies : the distinct strategies at the tables: numba strategies
        (:class:`~fcsim.core.view.JitStrategy`) and Python agents (callables from a
        :class:`~fcsim.core.view.View` to an action), in any mix.
    rules : the RuleSet (``rules.players == P``).
    first_game : the run's index of ``seeds[0]``, for the errors' messages.

    Raises :class:`~fcsim.core.view.IllegalMoveError` naming the strategy, the move and the
    game; :class:`~fcsim.core.view.StrategyFailed` when a strategy's code does not compile
    or raises.
    """
    return _run(seeds, seating, strategies, rules, 0, first_game=first_game)[0]


def play_recorded(seeds: np.ndarray, seating: np.ndarray, strategies: Sequence[object],
                  rules: RuleSet, first_game: int = 0) -> tuple[GameResults, np.ndarray]:
    """:func:`play_games`, and the decision rows of every turn: an int32[turns,
    DECISION_WIDTH] array, columns :data:`fcsim.core.decisions.DECISION_COLUMN` (``game``
    is the index in ``seeds``, ``strategy`` the index in ``strategies``), in play order.
    The results are those :func:`play_games` gives."""
    recorder = _Recorder(len(seeds), rows_per_game(rules))
    results, _ = _run(seeds, seating, strategies, rules, rows_per_game(rules), recorder,
                      first_game)
    return results, recorder.result()


def trace_game(seed: int, strategies: Sequence[object], rules: RuleSet,
               ) -> tuple[GameResults, np.ndarray]:
    """Play one game with ``strategies[seat]`` in each seat and return its event trace
    (``int16[rows, TRACE_WIDTH]``, rows as in :mod:`fcsim.core.events`)."""
    seating = np.arange(rules.players, dtype=np.int8)[None, :]
    return _run(np.array([seed], np.uint64), seating, strategies, rules, rows_per_game(rules))


def warm_up(strategies: Sequence[object], rules: RuleSet) -> None:
    """Load (or compile) the engine, the strategies and the solver table for this table.

    Compiling happens without playing: the engine is compiled for these strategies'
    decision functions on zero games (Python agents have nothing to compile).
    """
    no_games = np.zeros(0, np.uint64)
    seating = np.zeros((0, rules.players), np.int8)
    out = ResultArrays.empty(0, rules)
    draws, discards, params, sees, external = decision_tables(strategies)
    _play_games(no_games, seating, draws, discards, params, sees, external,
                new_state(rules), solver_table(), shared_scratch(), out,
                np.zeros((0, TRACE_WIDTH), np.int16), empty_decisions(0),
                np.zeros(len(Progress), np.int64))


__all__ = ["GAME_OVER", "WAITING", "GameResults", "ResultArrays", "advance", "decision_tables",
           "illegal_move", "play_games", "play_recorded", "record", "seat_move", "trace_game",
           "warm_up"]
