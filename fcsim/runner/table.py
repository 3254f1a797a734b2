"""Engine results as Arrow tables and Parquet bytes: one row per game x seat.

The columns and their types are those of :mod:`fcsim.runner.format`; rows are sorted by
game then seat, and the schema metadata holds the run.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from fcsim.runner import format as fmt
from fcsim.runner.plan import Layout, RunPlan


def result_schema(plan: RunPlan) -> pa.Schema:
    """The Arrow schema of a run's files, with the run in its metadata."""
    return fmt.result_schema(plan.rules.rounds, plan.metadata_json())


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
    for name, _ in fmt.SEAT_COLUMNS:
        columns[name] = getattr(results, name).reshape(seat_rows)
    for r in range(plan.rules.rounds):
        for name, _ in fmt.ROUND_SEAT_COLUMNS:
            columns[f"{name}_{r + 1}"] = getattr(results, name)[:, r, :].reshape(seat_rows)
        for name, _ in fmt.ROUND_COLUMNS:
            columns[f"{name}_{r + 1}"] = per_game(getattr(results, name)[:, r])
    arrays = [columns[f.name] if isinstance(columns[f.name], pa.Array)
              else pa.array(columns[f.name], f.type) for f in schema]
    return pa.Table.from_arrays(arrays, schema=schema)


def decision_schema(plan: RunPlan) -> pa.Schema:
    """The Arrow schema of a run's decision files, with the run in its metadata."""
    return fmt.decision_schema(plan.metadata_json())


def decisions_table(plan: RunPlan, layout: Layout, decisions: np.ndarray) -> pa.Table:
    """One chunk's decision rows from its :class:`Layout` and the engine's decision array
    (:func:`fcsim.core.engine.play_recorded`; ``game`` is the index in the chunk)."""
    from fcsim.core.decisions import DECISION_COLUMN

    schema = decision_schema(plan)
    local = decisions[:, DECISION_COLUMN["game"]]
    given = {"game": layout.game[local], "deal": layout.deal[local],
             "rotation": layout.rotation[local],
             "strategy": pa.DictionaryArray.from_arrays(
                 pa.array(decisions[:, DECISION_COLUMN["strategy"]], pa.int8()),
                 pa.array(plan.lineup, pa.string()))}
    arrays = []
    for f in schema:
        column = given.get(f.name)
        if column is None:
            column = decisions[:, DECISION_COLUMN[f.name]]
        arrays.append(column if isinstance(column, pa.Array)
                      else pa.array(column.astype(f.type.to_pandas_dtype()), f.type))
    return pa.Table.from_arrays(arrays, schema=schema)


def manifest_bytes(plan: RunPlan) -> bytes:
    """The manifest of a run folder: a Parquet file with the run's schema and no rows."""
    return fmt.encode(result_schema(plan).empty_table())


def parquet_bytes(table: pa.Table) -> bytes:
    """``table`` as one Parquet file with its checksum (:func:`fcsim.runner.format.encode`)."""
    return fmt.encode(table)
