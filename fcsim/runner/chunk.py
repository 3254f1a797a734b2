"""Playing one chunk inside a worker: engine results → Parquet bytes.

A worker process prepares a plan once (parse its strategies, warm the kernels) and then
plays any number of its chunks; :func:`prepare` caches that per process.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from functools import lru_cache

import numpy as np

from fcsim.core.decisions import DC_GAME
from fcsim.core.engine import GameResults, play_games, play_recorded, warm_up
from fcsim.core.rules import RuleSet
from fcsim.runner.plan import Layout, RunPlan, chunk_layout
from fcsim.runner.table import decisions_table, parquet_bytes, results_table
from fcsim.strategies import Strategy, parse_strategy

PROGRESS_GAMES = 500  # a chunk reports its progress after every this many games


@dataclass(frozen=True)
class ChunkOutput:
    """A finished chunk: its index, its game count, its Parquet file's bytes and, in a run
    with decision rows, its decision file's bytes."""

    index: int
    games: int
    data: bytes
    decisions: bytes | None = None


@lru_cache(maxsize=8)
def prepare(plan: RunPlan) -> tuple[Strategy, ...]:
    """The plan's distinct strategies, with the kernels warmed (once per process)."""
    strategies = tuple(parse_strategy(spec) for spec in plan.lineup)
    warm_up(strategies, plan.rules)
    return strategies


def run_chunk(plan: RunPlan, index: int,
              on_games: Callable[[int], None] | None = None) -> ChunkOutput:
    """Play chunk ``index`` of ``plan`` and encode its rows as Parquet; ``on_games(n)``
    hears, every :data:`PROGRESS_GAMES` games, that ``n`` of its games are played."""
    layout = chunk_layout(plan, index)
    results, decisions = _play_in_slices(layout, prepare(plan), plan.rules, plan.decisions,
                                         on_games)
    table = results_table(plan, layout, results)
    decided = (None if decisions is None
               else parquet_bytes(decisions_table(plan, layout, decisions)))
    return ChunkOutput(index=index, games=len(layout.game), data=parquet_bytes(table),
                       decisions=decided)


def _play_in_slices(layout: Layout, strategies: Sequence[Strategy], rules: RuleSet,
                    recording: bool, on_games: Callable[[int], None] | None
                    ) -> tuple[GameResults, np.ndarray | None]:
    """The chunk's games, played :data:`PROGRESS_GAMES` at a time: the same results as in
    one call, since every game has its own seed; and, if ``recording``, their decision
    rows (``game`` the index in the chunk)."""
    parts, decided = [], []
    for start in range(0, len(layout.seeds), PROGRESS_GAMES):
        stop = min(start + PROGRESS_GAMES, len(layout.seeds))
        seeds, seating = layout.seeds[start:stop], layout.seating[start:stop]
        first_game = int(layout.game[start])  # what an error names: the run's game
        if recording:
            results, decisions = play_recorded(seeds, seating, strategies, rules, first_game)
            decisions[:, DC_GAME] += start
            decided.append(decisions)
        else:
            results = play_games(seeds, seating, strategies, rules, first_game)
        parts.append(results)
        if on_games is not None:
            on_games(stop)
    decisions = np.concatenate(decided) if recording else None
    if len(parts) == 1:
        return parts[0], decisions
    return GameResults(**{f.name: np.concatenate([getattr(p, f.name) for p in parts])
                          for f in fields(GameResults)}), decisions
