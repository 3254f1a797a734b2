"""Engine results as Arrow tables and Parquet bytes: one row per game x seat.

Columns: game, deal, rotation, seat, strategy (dictionary of the run's specs), total,
place, win, then for each round r: penalty_r, wild_pts_r, joker_pts_r (the seat's) and
out_seat_r, out_turn_r, turns_r, capped_r (the round's, repeated on each seat row).
Rows are sorted by game then seat. The schema metadata key ``fcsim`` holds the run.
"""

from __future__ import annotations

import io
import json

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from fcsim.runner.plan import Layout, RunPlan

METADATA_KEY = b"fcsim"
COMPRESSION = "zstd"
COMPRESSION_LEVEL = 9

GAME_COLUMNS = (("game", pa.int64()), ("deal", pa.int64()), ("rotation", pa.int8()))
SEAT_COLUMNS = (("total", pa.int16()), ("place", pa.int8()), ("win", pa.bool_()))
ROUND_SEAT_COLUMNS = (("penalty", pa.int16()), ("wild_pts", pa.int16()),
                      ("joker_pts", pa.int16()))
ROUND_COLUMNS = (("out_seat", pa.int8()), ("out_turn", pa.int16()), ("turns", pa.int16()),
                 ("capped", pa.bool_()))
STRATEGY_TYPE = pa.dictionary(pa.int8(), pa.string())


def result_schema(plan: RunPlan) -> pa.Schema:
    """The Arrow schema of a run's files, with the run in its metadata."""
    fields = [*GAME_COLUMNS, ("seat", pa.int8()), ("strategy", STRATEGY_TYPE), *SEAT_COLUMNS]
    for r in range(1, plan.rules.rounds + 1):
        fields += [(f"{name}_{r}", kind) for name, kind in (*ROUND_SEAT_COLUMNS, *ROUND_COLUMNS)]
    return pa.schema(fields, metadata={METADATA_KEY: plan.metadata_json()})


def results_table(plan: RunPlan, layout: Layout, results: object) -> pa.Table:
    """One chunk's rows from its :class:`Layout` and the engine's ``GameResults``."""
    schema = result_schema(plan)
    games, players = layout.seating.shape
    seat_rows = games * players

    def per_game(values: np.ndarray) -> np.ndarray:
        return np.repeat(values, players)

    columns = {
        "game": per_game(layout.game),
        "deal": per_game(layout.deal),
        "rotation": per_game(layout.rotation),
        "seat": np.tile(np.arange(players, dtype=np.int8), games),
        "strategy": pa.DictionaryArray.from_arrays(
            pa.array(layout.seating.reshape(seat_rows), pa.int8()),
            pa.array(plan.lineup, pa.string())),
    }
    for name, _ in SEAT_COLUMNS:
        columns[name] = getattr(results, name).reshape(seat_rows)
    for r in range(plan.rules.rounds):
        for name, _ in ROUND_SEAT_COLUMNS:
            columns[f"{name}_{r + 1}"] = getattr(results, name)[:, r, :].reshape(seat_rows)
        for name, _ in ROUND_COLUMNS:
            columns[f"{name}_{r + 1}"] = per_game(getattr(results, name)[:, r])
    arrays = [columns[f.name] if isinstance(columns[f.name], pa.Array)
              else pa.array(columns[f.name], f.type) for f in schema]
    return pa.Table.from_arrays(arrays, schema=schema)


def parquet_bytes(table: pa.Table) -> bytes:
    """``table`` as one Parquet file (zstd, one row group) in memory."""
    sink = io.BytesIO()
    pq.write_table(table, sink, compression=COMPRESSION, compression_level=COMPRESSION_LEVEL,
                   row_group_size=max(table.num_rows, 1))
    return sink.getvalue()


def read_run_metadata(schema: pa.Schema) -> dict:
    """The run stored in a file's schema metadata; KeyError for a file fcsim did not write."""
    return json.loads((schema.metadata or {})[METADATA_KEY])
