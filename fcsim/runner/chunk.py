"""Playing one chunk inside a worker: engine results → Parquet bytes.

A worker process prepares a plan once (parse its strategies, warm the kernels) and then
plays any number of its chunks; :func:`prepare` caches that per process.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from fcsim.core.engine import play_games, warm_up
from fcsim.runner.plan import RunPlan, chunk_layout
from fcsim.runner.table import parquet_bytes, results_table
from fcsim.strategies import Strategy, parse_strategy


@dataclass(frozen=True)
class ChunkOutput:
    """A finished chunk: its index, its game count and its Parquet file's bytes."""

    index: int
    games: int
    data: bytes


@lru_cache(maxsize=8)
def prepare(plan: RunPlan) -> tuple[Strategy, ...]:
    """The plan's distinct strategies, with the kernels warmed (once per process)."""
    strategies = tuple(parse_strategy(spec) for spec in plan.lineup)
    warm_up(strategies, plan.rules)
    return strategies


def run_chunk(plan: RunPlan, index: int) -> ChunkOutput:
    """Play chunk ``index`` of ``plan`` and encode its rows as Parquet."""
    layout = chunk_layout(plan, index)
    results = play_games(layout.seeds, layout.seating, prepare(plan), plan.rules)
    table = results_table(plan, layout, results)
    return ChunkOutput(index=index, games=len(layout.game), data=parquet_bytes(table))
