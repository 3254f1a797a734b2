"""What the done chunks of a run folder hold: chunk and game counts, each strategy's results."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import polars as pl
import pyarrow.parquet as pq

from fcsim.runner import format as fmt
from fcsim.runner.plan import RunPlan


@dataclass(frozen=True)
class FolderContents:
    """The finished chunks of a run folder."""

    chunks: int
    games: int
    rows: int
    bytes: int


def folder_contents(plan: RunPlan, chunks: Mapping[int, Path]) -> FolderContents:
    """Count the ``chunks`` (done chunk files by index), their games, rows and bytes."""
    games = sum(len(plan.chunk_games(i)) for i in chunks)
    return FolderContents(chunks=len(chunks), games=games, rows=games * plan.players,
                          bytes=sum(p.stat().st_size for p in chunks.values()))


def decision_contents(plan: RunPlan, chunks: Mapping[int, Path]) -> FolderContents | None:
    """The decision files of the done ``chunks`` (chunk files by index): their games, rows
    (turns, from the files' footers) and bytes; None for a run without decision rows."""
    if not plan.decisions:
        return None
    files = [fmt.decision_file(path.parent, i) for i, path in chunks.items()]
    return FolderContents(chunks=len(files), games=sum(len(plan.chunk_games(i)) for i in chunks),
                          rows=sum(pq.read_metadata(f).num_rows for f in files),
                          bytes=sum(f.stat().st_size for f in files))


@dataclass(frozen=True)
class StrategyStats:
    """One strategy's seats in a run: its share of the wins and its mean total."""

    strategy: str
    seat_games: int
    win_share: float  # a win shared by k tied seats counts 1/k, as in fcsim report
    mean_total: float


def strategy_stats(plan: RunPlan, chunks: Mapping[int, Path]) -> list[StrategyStats]:
    """Win share and mean total per strategy over ``chunks``, in listing order."""
    from fcsim.analysis.stats import win_share  # the report's own count of shared wins

    if not chunks:
        return []
    lf = pl.scan_parquet([str(p) for p in chunks.values()])
    shares = {row["strategy"]: row for row in win_share(lf).iter_rows(named=True)}
    means = dict(lf.group_by(pl.col("strategy").cast(pl.String))
                 .agg(pl.col("total").cast(pl.Float64).mean())
                 .collect(engine="streaming").iter_rows())
    return [StrategyStats(strategy=spec, seat_games=shares[spec]["seat_games"],
                          win_share=shares[spec]["win_share"], mean_total=means[spec])
            for spec in plan.lineup if spec in shares]
