"""Training positions: the discards of a run's games, as features and round outcomes.

A positions chunk is derived from one chunk of a run folder: its games are played again
with the same seeds, seating and strategies, on the engine's own steps
(:func:`fcsim.core.engine.seat_move` makes each decision exactly as the batch engine did),
and at a sampled share of the discard decisions the features of the discard made
(:func:`fcsim.strategies.learned.features.discard_features`, the ones ``learned`` plays
on) are recorded with the round's outcome for that seat. Each replayed game's totals are
checked against the run's rows: a position never comes from a game the run did not play.

Two labellings (:class:`Sampling`): ``outcome`` records the discard made, labelled with the
round's outcome (a Monte Carlo return); ``rollouts`` records the ``candidates`` discards
that leave the least penalty now (the ones ``learned`` compares), each played out to the
round's end from the true position by the table's own strategies, and labels each with
its outcome less the mean of the candidates' (an advantage: the one-step improvement of
policy iteration). The play-outs use the game's true cards and stock, so the candidates
of a position share their randomness and their differences are sharp; the model sees only
the features of the seat's view, so what it learns is the fair expectation of the
advantage given that view. With ``rollouts`` the same share of the draws worth weighing
(the pile's card lowers the penalty now, or is near the hand) is recorded too, one row
each: the draw features (:mod:`fcsim.strategies.learned.draw_features`), both draws played
out, labelled with the pile's outcome less the stock's (``move`` tells the two kinds of
row apart).

A chunk is a checksummed Parquet file (the run format's encoding), written durably and
atomically, named like its games chunk, with the run's identity, the feature set and the
games chunk's checksum in its metadata: a positions folder is resumed chunk by chunk and
never mixes runs.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
from numba import njit

from fcsim.core.cards import DECK_SIZE, N_KINDS
from fcsim.core.engine import decision_tables, seat_move
from fcsim.core.events import TRACE_WIDTH
from fcsim.core.records import stored_record
from fcsim.core.rng import stream_seed, unit_double
from fcsim.core.solver import new_scratch, penalty_memo
from fcsim.core.state import (
    OK,
    PHASE_DRAW,
    PHASE_GAME_OVER,
    PHASE_ROUND_END,
    RI_OUT_SEAT,
    S_PHASE,
    S_PILE,
    S_ROUND,
    S_SEAT,
    SC_PENALTY,
    StateData,
    apply_move,
    finish_round,
    lend,
    new_state,
    reset_game,
    settle,
    state_views,
)
from fcsim.core.tables import solver_table
from fcsim.core.view import (
    DRAW_PILE,
    DRAW_STOCK,
    I_ALL_WILD,
    I_LAST_TURN,
    I_WILD_POINTS,
    INFO_SIZE,
    fill_history,
)
from fcsim.errors import FcsimError
from fcsim.learn.sampling import ROLLOUTS, Sampling
from fcsim.runner import format as fmt
from fcsim.runner.plan import Layout, RunPlan, chunk_layout
from fcsim.runner.store import write_file
from fcsim.strategies.expected import discard_candidates
from fcsim.strategies.learned.draw_features import (
    DRAW_FEATURE_SET,
    DRAW_FEATURES,
    N_DRAW_FEATURES,
    draw_features,
)
from fcsim.strategies.learned.features import FEATURE_SET, FEATURES, N_FEATURES, discard_features
from fcsim.strategies.lookahead import unseen_counts
from fcsim.strategies.search.rollout import against_table
from fcsim.strategies.search.worlds import copy_world

POSITIONS_FORMAT = 3
META_KEY = b"fcsim.positions"
SAMPLE_STREAM = 1 << 20  # the stream of a game seed that decides which discards are kept…
DRAW_SAMPLE_STREAM = 1 << 21  # … and which draws
MAX_DISCARDS_PER_GAME = 4096  # more discards (or draws) than any game under the turn cap has
FIRST_ROOM_GAMES = 2  # a chunk's rows start with room for this many games' most, then double
# as they fill: sized for its every game's most, a chunk of 10,000 games asked for 36 GiB

# A row's columns beside the features and the label, by name (a record: see
# fcsim.core.records): kept in the int64 record array, stored with their dtype and column.
PositionRow = stored_record("PositionRow", [
    ("GAME", np.int64),
    ("ROUND", np.int8),
    ("SEAT", np.int8),
    ("STRATEGY", np.int8),
    ("MOVE", np.int8),  # MOVE_DISCARD or MOVE_DRAW
    ("DECISION", np.int32),  # its number among the game's discards, or draws
    ("OWN_PENALTY", np.int16),  # the seat's penalty in the round
    ("WENT_OUT", np.bool_),  # 1 if the seat went out
])
RECORD_SIZE = len(PositionRow)  # the record array's columns
MOVE_DISCARD, MOVE_DRAW = 0, 1  # the ``move`` column: what a row's features describe
FEATURE_COLUMNS = tuple(f"f_{name}" for name, _ in FEATURES)  # a discard row's
DRAW_FEATURE_COLUMNS = tuple(f"d_{name}" for name, _ in DRAW_FEATURES)  # a draw row's
N_COLUMNS = N_FEATURES + N_DRAW_FEATURES  # a row's features: a discard's, then a draw's
LABEL = "label"  # outcome: the seat's round penalty less the other seats' mean; rollouts:
# that, less its mean over the position's candidates; a draw: the pile's less the stock's


class PositionsError(FcsimError, ValueError):
    """A positions chunk that does not belong to the run, or a replay that diverged."""


@njit(cache=True)
def _keep(seed: np.uint64, stream: int, decision: int, share: float) -> bool:
    """Whether the ``decision``-th discard (or draw: ``stream``) of the game of ``seed``
    is recorded."""
    return unit_double(stream_seed(seed ^ np.uint64(stream), decision)) < share


@njit(cache=True)
def play_out(data: StateData, roll_data: StateData, move: int, seating: np.ndarray, draws,
             discards, params: np.ndarray, sees: np.ndarray, info: np.ndarray,
             hidden: np.ndarray, table: np.ndarray, scratch: np.ndarray, trace: np.ndarray
             ) -> tuple[float, int, int]:
    """Make the pending ``move`` (a draw source or a kind to discard) in a copy of
    ``data`` (in ``roll_data``) and play the round out with the table's strategies;
    ``(outcome, own penalty, went out)`` for the seat that moved, or ``(nan, 0, 0)`` if a
    strategy made an illegal move. ``data`` is left as it was.

    Parameters
    ----------
    data, roll_data : states of the same table (:class:`~fcsim.core.state.StateData`).
    move : int64
        A draw source (``DRAW_STOCK``, ``DRAW_PILE``) or a kind to discard (0…55).
    seating : int8[P]
        The strategy index of each seat.
    draws, discards : the strategies' decision functions (a tuple each, by index).
    params : float64[S, :]
        Each strategy's parameters.
    sees : int8[S]
        What each strategy sees beyond its view's scalars (``SEES_*`` bits).
    info : int64[INFO_SIZE]
        Work space: the views cut for the play-out's decisions.
    hidden : int8[P + 1, 116]
        Work space: an oracle's hidden cards.
    table : uint8[:, 16]
        The solver's table.
    scratch : int64[SCRATCH_SIZE]
        Solver work space.
    trace : int16[0, TRACE_WIDTH]
        No trace.
    """
    copy_world(data, roll_data)
    state = lend(roll_data)
    sc = state.scalars
    seat = sc[S_SEAT]
    status, _ = apply_move(state, move, table, scratch, trace, 0)
    while status == OK and sc[S_PHASE] != PHASE_ROUND_END:
        move = seat_move(state, seating[sc[S_SEAT]], draws, discards, params, sees, info,
                         hidden, table, scratch)
        status, _ = apply_move(state, move, table, scratch, trace, 0)
    if status != OK:
        return np.nan, 0, 0
    finish_round(state, table, scratch, trace, 0)
    r = sc[S_ROUND] - 1
    went_out = 1 if state.round_info[r, RI_OUT_SEAT] == seat else 0
    return against_table(state, r, seat), state.scores[r, seat, SC_PENALTY], went_out


@njit(cache=True)
def _record_rollouts(data, roll_data, seating, draws, discards, params, sees, info,
                     roll_info, hidden, table, scratch, trace, candidates, features, record,
                     labels, at) -> int:
    """Record the ``candidates`` best discards now of the seat to move, each played out
    (:func:`play_out`), from row ``at``; the next free row, or -1 on an illegal move."""
    state = lend(data)
    sc = state.scalars
    seat = sc[S_SEAT]
    hand = state.hands[seat]
    pile = state.pile[: sc[S_PILE]]
    n, kinds, now, unseen, n_unseen = discard_candidates(hand, pile, state.known, info,
                                                         table, scratch, candidates)
    total = 0.0
    for j in range(n):
        discard_features(hand, kinds[j], now[j], state.known, info, unseen, n_unseen, table,
                         scratch, features[at + j, :N_FEATURES])
        features[at + j, N_FEATURES:] = 0.0
        record[at + j, PositionRow.MOVE] = MOVE_DISCARD
        outcome, own, went_out = play_out(data, roll_data, kinds[j], seating, draws,
                                          discards, params, sees, roll_info, hidden, table,
                                          scratch, trace)
        if np.isnan(outcome):
            return -1
        labels[at + j] = outcome
        record[at + j, PositionRow.OWN_PENALTY] = own
        record[at + j, PositionRow.WENT_OUT] = went_out
        total += outcome
    for j in range(n):
        labels[at + j] -= total / n
    return at + n


@njit(cache=True)
def _record_draw(data, roll_data, move, seating, draws, discards, params, sees, info,
                 roll_info, hidden, table, scratch, trace, features, record, labels,
                 at) -> int:
    """Record the draw of the seat to move if it is worth weighing (not a last turn, and
    the pile's card lowers the penalty now or is near the hand): its features, and both
    draws played out (:func:`play_out`), labelled with the pile's outcome less the stock's;
    own penalty and going out are the ``move`` made's. The next free row, or -1 on an
    illegal move."""
    state = lend(data)
    sc = state.scalars
    hand = state.hands[sc[S_SEAT]]
    pile = state.pile[: sc[S_PILE]]
    if info[I_LAST_TURN] == 1 or not draw_features(hand, pile, state.known, info, table,
                                                    scratch, features[at, N_FEATURES:]):
        return at  # a last draw is decided by the exact rule, never by the network
    pile_outcome, pile_own, pile_out = play_out(data, roll_data, DRAW_PILE, seating, draws,
                                                discards, params, sees, roll_info, hidden,
                                                table, scratch, trace)
    stock_outcome, stock_own, stock_out = play_out(data, roll_data, DRAW_STOCK, seating,
                                                   draws, discards, params, sees, roll_info,
                                                   hidden, table, scratch, trace)
    if np.isnan(pile_outcome) or np.isnan(stock_outcome):
        return -1
    labels[at] = pile_outcome - stock_outcome
    features[at, :N_FEATURES] = 0.0
    record[at, PositionRow.MOVE] = MOVE_DRAW
    if move == DRAW_PILE:
        record[at, PositionRow.OWN_PENALTY], record[at, PositionRow.WENT_OUT] = pile_own, pile_out
    else:
        record[at, PositionRow.OWN_PENALTY] = stock_own
        record[at, PositionRow.WENT_OUT] = stock_out
    return at + 1


@njit(cache=True)
def _stamp(record: np.ndarray, first: int, at: int, game: int, rnd: int, seat: int, who: int,
           decision: int) -> None:
    """Write who and when into rows ``first`` … ``at - 1`` of ``record``: the game, the
    round, the seat, its strategy and the decision's number."""
    for i in range(first, at):
        record[i, PositionRow.GAME], record[i, PositionRow.ROUND] = game, rnd
        record[i, PositionRow.SEAT], record[i, PositionRow.STRATEGY] = seat, who
        record[i, PositionRow.DECISION] = decision


@njit(cache=True)
def record_game(data: StateData, roll_data: StateData, seed: np.uint64, game: int,
                seating: np.ndarray, draws, discards, params: np.ndarray, sees: np.ndarray,
                info: np.ndarray, roll_info: np.ndarray, hidden: np.ndarray,
                table: np.ndarray, scratch: np.ndarray, trace: np.ndarray, share: float,
                candidates: int, features: np.ndarray, record: np.ndarray,
                labels: np.ndarray, at: int) -> int:
    """Play the game of ``seed`` with ``seating`` and record a ``share`` of its discards
    (not last turns) from row ``at`` of ``features``, ``record`` and ``labels``: the
    discard made with the round's outcome if ``candidates`` is 0, else the ``candidates``
    best discards now, each played out in ``roll_data``, and a ``share`` of the draws worth
    weighing (:func:`_record_draw`). The next free row, or -1 if a strategy made an
    illegal move.

    Parameters
    ----------
    data, roll_data : states of the same table (:class:`~fcsim.core.state.StateData`):
        the game's, and its play-outs'.
    seed : uint64
        The game seed.
    game : int64
        The game's number in the run (the ``game`` column).
    seating, draws, discards, params, sees : as :func:`play_out` takes them.
    info, roll_info : int64[INFO_SIZE]
        Work space: the game's views, and the play-outs'.
    hidden, table, scratch, trace : as :func:`play_out` takes them.
    share : float64
        The chance that a decision is recorded.
    candidates : int64
        Discards played out per position; 0: the discard made, with the round's outcome.
    features : float64[n, N_COLUMNS]
    record : int64[n, RECORD_SIZE]
        :data:`PositionRow` columns.
    labels : float64[n]
    at : int64
        The first row to write.
    """
    state = lend(data)
    sc = state.scalars
    reset_game(state, seed)
    start = at
    decision = 0
    draw_decision = 0
    unseen = np.empty(N_KINDS, dtype=np.int64)
    while True:
        settle(state, table, scratch, trace, 0)
        phase = sc[S_PHASE]
        if phase == PHASE_GAME_OVER:
            break
        seat = sc[S_SEAT]
        who = seating[seat]
        move = seat_move(state, who, draws, discards, params, sees, info, hidden, table,
                         scratch)
        if phase == PHASE_DRAW:
            draw_decision += 1
            if (candidates > 0 and _keep(seed, DRAW_SAMPLE_STREAM, draw_decision, share)
                    and at < features.shape[0]):
                fill_history(state, info)  # as learned sees it
                first = at
                at = _record_draw(data, roll_data, move, seating, draws, discards, params,
                                  sees, info, roll_info, hidden, table, scratch, trace,
                                  features, record, labels, at)
                if at < 0:
                    return -1
                _stamp(record, first, at, game, sc[S_ROUND], seat, who, draw_decision)
        else:
            if info[I_LAST_TURN] == 0 and 0 <= move < N_KINDS and state.hands[seat, move] > 0:
                decision += 1
                if (_keep(seed, SAMPLE_STREAM, decision, share)
                        and at + max(candidates, 1) <= features.shape[0]):
                    fill_history(state, info)  # as learned sees it: the history included
                    first = at
                    if candidates > 0:
                        at = _record_rollouts(data, roll_data, seating, draws, discards,
                                              params, sees, info, roll_info, hidden, table,
                                              scratch, trace, candidates, features, record,
                                              labels, at)
                        if at < 0:
                            return -1
                    else:
                        hand = state.hands[seat]
                        pile = state.pile[: sc[S_PILE]]
                        n_unseen = unseen_counts(hand, pile, state.known, seat, unseen)
                        hand[move] -= 1
                        now, _ = penalty_memo(hand, sc[S_ROUND], info[I_WILD_POINTS],
                                              info[I_ALL_WILD] == 1, table, scratch)
                        hand[move] += 1
                        discard_features(hand, move, now, state.known, info, unseen,
                                         n_unseen, table, scratch, features[at, :N_FEATURES])
                        features[at, N_FEATURES:] = 0.0
                        record[at, PositionRow.MOVE] = MOVE_DISCARD
                        at += 1
                    _stamp(record, first, at, game, sc[S_ROUND], seat, who, decision)
        status, _ = apply_move(state, move, table, scratch, trace, 0)
        if status != OK:
            return -1
    if candidates == 0:
        for i in range(start, at):
            r, s = record[i, PositionRow.ROUND] - 1, record[i, PositionRow.SEAT]
            record[i, PositionRow.OWN_PENALTY] = state.scores[r, s, SC_PENALTY]
            record[i, PositionRow.WENT_OUT] = 1 if state.round_info[r, RI_OUT_SEAT] == s else 0
            labels[i] = against_table(state, r, s)
    return at


@dataclass(frozen=True)
class PositionsChunk:
    """A checked positions chunk: its file, rows and checksum."""

    index: int
    path: Path
    rows: int


def positions_schema(metadata: dict[str, Any] | None = None) -> pa.Schema:
    """One row per recorded discard (per candidate, with rollout labels) or draw: who and
    when (``move``: a discard or a draw; ``decision``: its number among the game's
    discards or draws, shared by a position's candidates), the features (a discard row's
    draw features are 0, and the other way round), the outcome."""
    fields = [*[pa.field(field.column, pa.from_numpy_dtype(field.dtype)) for field in PositionRow],
              *[pa.field(name, pa.float32())
                for name in (*FEATURE_COLUMNS, *DRAW_FEATURE_COLUMNS)],
              pa.field(LABEL, pa.float32())]
    encoded = None if metadata is None else {META_KEY: json.dumps(metadata, sort_keys=True)}
    return pa.schema(fields, metadata=encoded)


def identity(plan: RunPlan, sampling: Sampling) -> dict[str, Any]:
    """What makes two positions folders interchangeable: the run, the sampling and the
    feature set."""
    return {"format": POSITIONS_FORMAT, "feature_set": FEATURE_SET,
            "draw_feature_set": DRAW_FEATURE_SET, "sampling": sampling.as_dict(),
            "run": plan.metadata()}


def _game_recorder(plan: RunPlan, sampling: Sampling, layout: Layout
                   ) -> tuple[Callable[..., int], Any]:
    """``(replay, data)``: ``replay(g, features, record, labels, at)`` plays game ``g`` of
    ``layout`` again by :func:`record_game` on ``plan``'s strategies, in the state ``data``,
    recording ``sampling``'s positions from row ``at``; it returns the next free row."""
    from fcsim.runner.chunk import prepare

    draws, discards, params, sees, _ = decision_tables(prepare(plan))
    rules = plan.rules
    data, roll_data = new_state(rules), new_state(rules)
    table, scratch = solver_table(), new_scratch()
    info, roll_info = np.zeros(INFO_SIZE, np.int64), np.zeros(INFO_SIZE, np.int64)
    hidden = np.full((rules.players + 1, DECK_SIZE), -1, np.int8)
    trace = np.zeros((0, TRACE_WIDTH), np.int16)  # no trace: the run has the games
    candidates = sampling.candidates if sampling.labels == ROLLOUTS else 0

    def replay(g: int, features: np.ndarray, record: np.ndarray, labels: np.ndarray,
               at: int) -> int:
        return record_game(data, roll_data, layout.seeds[g], layout.game[g],
                           layout.seating[g], draws, discards, params, sees, info, roll_info,
                           hidden, table, scratch, trace, sampling.share, candidates,
                           features, record, labels, at)

    return replay, data


def warm_positions(plan: RunPlan, sampling: Sampling) -> None:
    """Load (or compile) the kernel that derives ``plan``'s positions in this process, by
    replaying its first game with no row to record into: processes that derive positions
    afterwards load it from the cache instead of each compiling it."""
    replay, _ = _game_recorder(plan, sampling, chunk_layout(plan, 0))
    replay(0, np.zeros((0, N_COLUMNS)), np.zeros((0, RECORD_SIZE), np.int64), np.zeros(0), 0)


def derive_chunk(plan: RunPlan, index: int, games_file: Path, sampling: Sampling) -> bytes:
    """The positions of chunk ``index`` of ``plan`` (its games replayed; their totals
    checked against ``games_file``), encoded as a checksummed Parquet file."""
    layout = chunk_layout(plan, index)
    replay, data = _game_recorder(plan, sampling, layout)
    totals = _run_totals(games_file, layout.game, plan.rules.players)
    per_game = MAX_DISCARDS_PER_GAME * (sampling.rows_per_position + 1)  # a game's most rows
    capacity = FIRST_ROOM_GAMES * per_game
    features = np.zeros((capacity, N_COLUMNS))
    record = np.zeros((capacity, RECORD_SIZE), np.int64)
    labels = np.zeros(capacity)
    at = 0
    for g in range(len(layout.game)):
        if capacity - at < per_game:
            capacity *= 2
            features, record, labels = (_grown(rows, capacity, at)
                                        for rows in (features, record, labels))
        at = replay(g, features, record, labels, at)
        played = state_views(data).totals
        if at < 0 or not np.array_equal(played, totals[g]):
            raise PositionsError(f"game {layout.game[g]} replayed to totals "
                                 f"{played.tolist()}, the run has {totals[g].tolist()}: "
                                 f"its strategies are not deterministic")
    columns = {field.column: record[:at, field].astype(field.dtype) for field in PositionRow}
    for j, name in enumerate((*FEATURE_COLUMNS, *DRAW_FEATURE_COLUMNS)):
        columns[name] = features[:at, j].astype(np.float32)
    columns[LABEL] = labels[:at].astype(np.float32)
    meta = {**identity(plan, sampling), "chunk": index,
            "games_sha256": chunk_checksum(games_file.read_bytes())}
    return fmt.encode(pa.table(columns, schema=positions_schema(meta)))


def _grown(rows: np.ndarray, capacity: int, used: int) -> np.ndarray:
    """``rows`` with room for ``capacity`` rows, its first ``used`` kept (zeros after them,
    which the system maps only once they are written)."""
    grown = np.zeros((capacity, *rows.shape[1:]), rows.dtype)
    grown[:used] = rows[:used]
    return grown


def _run_totals(games_file: Path, games: np.ndarray, players: int) -> np.ndarray:
    """int64[G, P]: each game's totals as the run recorded them, in ``games`` order."""
    rows = pq.read_table(games_file, columns=["game", "seat", "total"]).to_pandas()
    rows = rows.sort_values(["game", "seat"])
    if not np.array_equal(rows["game"].to_numpy()[::players], games):
        raise PositionsError(f"{games_file} does not hold games {games[0]} to {games[-1]}")
    return rows["total"].to_numpy(np.int64).reshape(len(games), players)


def chunk_checksum(data: bytes) -> str:
    """The SHA-256 a checksummed Parquet file's footer holds for its data."""
    footer = pq.ParquetFile(pa.BufferReader(data)).metadata
    return (footer.metadata or {}).get(fmt.CHECKSUM_KEY, b"").decode()


def write_chunk(folder: Path, index: int, data: bytes) -> Path:
    """Write a positions chunk durably and atomically; its path (a
    :class:`~fcsim.runner.format.WriteError` if it cannot be written)."""
    path = folder / fmt.part_name(index)
    write_file(path, data)
    return path


_UNREADABLE = (OSError, ValueError, KeyError, pa.ArrowException)  # what a broken chunk raises


def _read_chunk(path: Path) -> tuple[bytes, pq.FileMetaData, dict[str, Any]]:
    """A chunk's bytes, Parquet footer and positions metadata (raises one of _UNREADABLE)."""
    data = path.read_bytes()
    footer = pq.ParquetFile(pa.BufferReader(data)).metadata
    return data, footer, json.loads((footer.schema.to_arrow_schema().metadata or {})[META_KEY])


def recorded_sampling(path: Path) -> Sampling | None:
    """The sampling the positions chunk in ``path`` was derived with, or None if it is not
    a readable positions chunk."""
    try:
        return Sampling(**_read_chunk(path)[2]["sampling"])
    except (*_UNREADABLE, TypeError):
        return None


def check_chunk(path: Path, index: int, expected: dict[str, Any], games_file: Path
                ) -> PositionsChunk | str:
    """The chunk in ``path`` if it is whole and derived from ``games_file`` of the same
    run, sampling and feature set; else why not (one line)."""
    try:
        data, footer, meta = _read_chunk(path)
    except _UNREADABLE:
        return f"{path}: not a complete positions chunk"
    stored = (footer.metadata or {}).get(fmt.CHECKSUM_KEY)
    if not fmt.checksum_matches(data, stored):
        return f"{path}: its data does not match its checksum"
    mine = {key: meta.get(key) for key in expected}
    if mine != expected or meta.get("chunk") != index:
        return f"{path}: positions of another run, sampling or feature set"
    if not games_file.is_file():
        return f"{path}: its games chunk {games_file} is missing"
    try:
        games_sha256 = chunk_checksum(games_file.read_bytes())
    except _UNREADABLE:
        return f"{path}: its games chunk {games_file} is not a complete games chunk"
    if meta.get("games_sha256") != games_sha256:
        return f"{path}: derived from another version of {games_file.name}"
    return PositionsChunk(index, path, footer.num_rows)
