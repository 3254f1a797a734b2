"""Training positions: the discards of a run's games, as features and round outcomes.

A positions chunk is derived from one chunk of a run folder: its games are played again
with the same seeds, seating and strategies, on the engine's own steps
(:func:`fcsim.core.engine.seat_move` makes each decision exactly as the batch engine did),
and at a sampled share of the discard decisions the features of the discard made
(:func:`fcsim.strategies.learned.features.discard_features`, the ones ``learned`` plays
on) are recorded with the round's outcome for that seat. Each replayed game's totals are
checked against the run's rows: a position never comes from a game the run did not play.

A chunk is a checksummed Parquet file (the run format's encoding), written durably and
atomically, named like its games chunk, with the run's identity, the feature set and the
games chunk's checksum in its metadata: a positions folder is resumed chunk by chunk and
never mixes runs.
"""

from __future__ import annotations

import json
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
from fcsim.core.rng import stream_seed
from fcsim.core.solver import new_scratch, penalty_memo
from fcsim.core.state import (
    OK,
    PHASE_DRAW,
    PHASE_GAME_OVER,
    RI_OUT_SEAT,
    S_PHASE,
    S_PILE,
    S_ROUND,
    S_SEAT,
    SC_PENALTY,
    apply_discard,
    apply_draw,
    lend,
    new_state,
    reset_game,
    settle,
    state_views,
)
from fcsim.core.tables import solver_table
from fcsim.core.view import I_ALL_WILD, I_LAST_TURN, I_WILD_POINTS, INFO_SIZE, fill_history
from fcsim.errors import FcsimError
from fcsim.runner import format as fmt
from fcsim.runner.durable import write_durably
from fcsim.runner.plan import RunPlan, chunk_layout
from fcsim.strategies.learned.features import FEATURE_SET, FEATURES, N_FEATURES, discard_features
from fcsim.strategies.lookahead import unseen_counts

POSITIONS_FORMAT = 1
META_KEY = b"fcsim.positions"
SAMPLE_STREAM = 1 << 20  # the stream of a game seed that decides which positions are kept
MAX_POSITIONS_PER_GAME = 4096  # more discards than any game under the turn cap has

# Columns of the int64 record array, beside the features and the labels.
(M_GAME, M_ROUND, M_SEAT, M_STRATEGY, M_OWN, M_OUT) = range(6)
M_SIZE = 6
FEATURE_COLUMNS = tuple(f"f_{name}" for name, _ in FEATURES)
LABEL = "label"  # the seat's round penalty less the mean of the other seats'


class PositionsError(FcsimError, ValueError):
    """A positions chunk that does not belong to the run, or a replay that diverged."""


@njit(cache=True)
def _keep(seed: np.uint64, decision: int, share: float) -> bool:
    """Whether the ``decision``-th discard of the game of ``seed`` is recorded."""
    draw = stream_seed(seed ^ np.uint64(SAMPLE_STREAM), decision) >> np.uint64(11)
    return draw * (1.0 / 9007199254740992.0) < share


@njit(cache=True)
def record_game(data, seed, game, seating, draws, discards, params, sees, info, hidden,
                table, scratch, trace, share, features, record, labels, at) -> int:
    """Play the game of ``seed`` with ``seating`` (int8[P]) and record a ``share`` of its
    discards (not last turns) from row ``at`` of ``features`` (float64[n, F]), ``record``
    (int64[n, M_SIZE]) and ``labels`` (float64[n]); the next free row, or -1 if a
    strategy made an illegal move."""
    state = lend(data)
    sc = state.scalars
    players = seating.shape[0]
    reset_game(state, seed)
    start = at
    decision = 0
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
            status, _ = apply_draw(state, move, table, scratch, trace, 0)
        else:
            if info[I_LAST_TURN] == 0 and 0 <= move < N_KINDS and state.hands[seat, move] > 0:
                decision += 1
                if _keep(seed, decision, share) and at < features.shape[0]:
                    fill_history(state, info)  # as learned sees it: the history included
                    hand = state.hands[seat]
                    pile = state.pile[: sc[S_PILE]]
                    n_unseen = unseen_counts(hand, pile, state.known, seat, unseen)
                    hand[move] -= 1
                    now, _ = penalty_memo(hand, sc[S_ROUND], info[I_WILD_POINTS],
                                          info[I_ALL_WILD] == 1, table, scratch)
                    hand[move] += 1
                    discard_features(hand, move, now, state.known, info, unseen, n_unseen,
                                     table, scratch, features[at])
                    record[at, M_GAME], record[at, M_ROUND] = game, sc[S_ROUND]
                    record[at, M_SEAT], record[at, M_STRATEGY] = seat, who
                    at += 1
            status, _ = apply_discard(state, move, table, scratch, trace, 0)
        if status != OK:
            return -1
    for i in range(start, at):
        r, s = record[i, M_ROUND] - 1, record[i, M_SEAT]
        own = state.scores[r, s, SC_PENALTY]
        others = 0.0
        for o in range(players):
            if o != s:
                others += state.scores[r, o, SC_PENALTY]
        record[i, M_OWN] = own
        record[i, M_OUT] = 1 if state.round_info[r, RI_OUT_SEAT] == s else 0
        labels[i] = own - others / (players - 1)
    return at


@dataclass(frozen=True)
class PositionsChunk:
    """A checked positions chunk: its file, rows and checksum."""

    index: int
    path: Path
    rows: int


def positions_schema(metadata: dict[str, Any] | None = None) -> pa.Schema:
    """One row per recorded discard: who and when, the features, the round's outcome."""
    fields = [pa.field("game", pa.int64()), pa.field("round", pa.int8()),
              pa.field("seat", pa.int8()), pa.field("strategy", pa.int8()),
              pa.field("own_penalty", pa.int16()), pa.field("went_out", pa.bool_()),
              *[pa.field(name, pa.float32()) for name in FEATURE_COLUMNS],
              pa.field(LABEL, pa.float32())]
    encoded = None if metadata is None else {META_KEY: json.dumps(metadata, sort_keys=True)}
    return pa.schema(fields, metadata=encoded)


def identity(plan: RunPlan, share: float) -> dict[str, Any]:
    """What makes two positions folders interchangeable: the run, the sampling and the
    feature set."""
    return {"format": POSITIONS_FORMAT, "feature_set": FEATURE_SET, "share": share,
            "run": plan.metadata()}


def derive_chunk(plan: RunPlan, index: int, games_file: Path, share: float) -> bytes:
    """The positions of chunk ``index`` of ``plan`` (its games replayed; their totals
    checked against ``games_file``), encoded as a checksummed Parquet file."""
    from fcsim.runner.chunk import prepare

    layout = chunk_layout(plan, index)
    strategies = prepare(plan)
    draws, discards, params, sees, _ = decision_tables(strategies)
    rules = plan.rules
    data = new_state(rules)
    table, scratch = solver_table(), new_scratch()
    info = np.zeros(INFO_SIZE, np.int64)
    hidden = np.full((rules.players + 1, DECK_SIZE), -1, np.int8)
    trace = np.zeros((0, TRACE_WIDTH), np.int16)  # no trace: the run has the games
    totals = _run_totals(games_file, layout.game, rules.players)
    size = len(layout.game) * MAX_POSITIONS_PER_GAME
    capacity = min(size, max(1024, int(size * share * 1.5)))
    features = np.zeros((capacity, N_FEATURES))
    record = np.zeros((capacity, M_SIZE), np.int64)
    labels = np.zeros(capacity)
    at = 0
    for g in range(len(layout.game)):
        if capacity - at < MAX_POSITIONS_PER_GAME:
            capacity *= 2
            features = np.resize(features, (capacity, N_FEATURES))
            record = np.resize(record, (capacity, M_SIZE))
            labels = np.resize(labels, capacity)
        at = record_game(data, layout.seeds[g], layout.game[g], layout.seating[g], draws,
                         discards, params, sees, info, hidden, table, scratch, trace, share,
                         features, record, labels, at)
        played = state_views(data).totals
        if at < 0 or not np.array_equal(played, totals[g]):
            raise PositionsError(f"game {layout.game[g]} replayed to totals "
                                 f"{played.tolist()}, the run has {totals[g].tolist()}: "
                                 f"its strategies are not deterministic")
    columns = {"game": record[:at, M_GAME], "round": record[:at, M_ROUND].astype(np.int8),
               "seat": record[:at, M_SEAT].astype(np.int8),
               "strategy": record[:at, M_STRATEGY].astype(np.int8),
               "own_penalty": record[:at, M_OWN].astype(np.int16),
               "went_out": record[:at, M_OUT].astype(bool)}
    for j, name in enumerate(FEATURE_COLUMNS):
        columns[name] = features[:at, j].astype(np.float32)
    columns[LABEL] = labels[:at].astype(np.float32)
    meta = {**identity(plan, share), "chunk": index,
            "games_sha256": chunk_checksum(games_file.read_bytes())}
    return fmt.encode(pa.table(columns, schema=positions_schema(meta)))


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
    """Write a positions chunk durably and atomically; its path."""
    path = folder / fmt.part_name(index)
    write_durably(path, data, folder / fmt.temp_name(path.name))
    return path


def check_chunk(path: Path, index: int, expected: dict[str, Any], games_file: Path
                ) -> PositionsChunk | str:
    """The chunk in ``path`` if it is whole and derived from ``games_file`` of the same
    run, sampling and feature set; else why not (one line)."""
    try:
        data = path.read_bytes()
        parquet = pq.ParquetFile(pa.BufferReader(data))
        footer = parquet.metadata
        meta = json.loads((footer.schema.to_arrow_schema().metadata or {})[META_KEY])
    except (OSError, ValueError, KeyError, pa.ArrowException):
        return f"{path}: not a complete positions chunk"
    stored = (footer.metadata or {}).get(fmt.CHECKSUM_KEY)
    if not fmt.checksum_matches(data, stored):
        return f"{path}: its data does not match its checksum"
    mine = {key: meta.get(key) for key in expected}
    if mine != expected or meta.get("chunk") != index:
        return f"{path}: positions of another run, sampling or feature set"
    if meta.get("games_sha256") != chunk_checksum(games_file.read_bytes()):
        return f"{path}: derived from another version of {games_file.name}"
    return PositionsChunk(index, path, footer.num_rows)
