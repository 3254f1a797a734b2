"""What a run folder holds: chunk and game counts, and each strategy's results."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import polars as pl
import pyarrow.parquet as pq

from fcsim.runner.plan import RunPlan
from fcsim.runner.store import part_files


@dataclass(frozen=True)
class FolderContents:
    """The finished chunks of a run folder."""

    chunks: int
    games: int
    rows: int
    bytes: int


def folder_contents(path: Path, plan: RunPlan) -> FolderContents:
    """Count the chunks, games and rows present (from the Parquet footers only)."""
    parts = [p for i, p in part_files(path).items() if i < plan.chunk_count]
    rows = sum(pq.ParquetFile(p).metadata.num_rows for p in parts)
    return FolderContents(chunks=len(parts), games=rows // plan.players, rows=rows,
                          bytes=sum(p.stat().st_size for p in parts))


@dataclass(frozen=True)
class StrategyStats:
    """One strategy's seats in a run: how often it won and its mean total."""

    strategy: str
    seat_games: int
    win_rate: float
    mean_total: float


def strategy_stats(path: Path, plan: RunPlan) -> list[StrategyStats]:
    """Win rate (ties share the win) and mean total per strategy, in listing order."""
    parts = sorted(str(p) for i, p in part_files(path).items() if i < plan.chunk_count)
    if not parts:
        return []
    frame = (pl.scan_parquet(parts)
             .group_by(pl.col("strategy").cast(pl.String))
             .agg(seat_games=pl.len(), win_rate=pl.col("win").mean(),
                  mean_total=pl.col("total").cast(pl.Float64).mean())
             .collect(engine="streaming"))
    by_spec = {row["strategy"]: row for row in frame.iter_rows(named=True)}
    return [StrategyStats(**by_spec[spec]) for spec in plan.lineup if spec in by_spec]
