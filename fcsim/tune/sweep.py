"""``fcsim sweep``: every point of a grid against the same field on the same deals."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import polars as pl

from fcsim.tune.search import Search
from fcsim.tune.space import Axis, grid_points, with_values
from fcsim.tune.summary import statistics

POINTS_FILE = "points.parquet"


def integer_columns(frame: pl.DataFrame, params: Sequence) -> pl.DataFrame:
    """Cast the columns of integer parameters to Int64 (Optuna and the grid hand floats)."""
    return frame.with_columns(pl.col(p.name).cast(pl.Int64) for p in params if p.integer)


def run_sweep(search: Search, axes: Sequence[Axis],
              on_point: Callable[[int, str], None] = lambda index, spec: None) -> pl.DataFrame:
    """Play the reference (the strategy as given) and every grid point; one row per point,
    also written to ``OUT/points.parquet``. ``on_point(index, spec)`` precedes each point."""
    reference = search.play(search.base.spec)
    rows = []
    for index, values in enumerate(grid_points(axes)):
        spec = with_values(search.base, values).spec
        on_point(index, spec)
        results = search.play(spec)  # the reference's own folder is read, not played
        rows.append({"point": index, **values, "spec": spec,
                     "reference": spec == search.base.spec, **statistics(results, reference)})
    frame = integer_columns(pl.DataFrame(rows), [axis.param for axis in axes])
    frame.write_parquet(search.out / POINTS_FILE)
    return frame


def best_row(frame: pl.DataFrame) -> dict:
    """The row with the lowest ``diff`` (the first of equals)."""
    return frame.sort("diff", maintain_order=True).row(0, named=True)
