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
from fcsim.runner.sources import changed_sources, strategy_sources
from fcsim.runner.table import decisions_table, parquet_bytes, results_table
from fcsim.strategies import Strategy, StrategyError, parse_strategy

PROGRESS_GAMES = 500  # a chunk reports its progress after every this many games, once
# its slices have grown to it from 1 game (doubling): a slow strategy's bar moves at once


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
    """The plan's distinct strategies, with the kernels warmed (once per process).

    A :class:`~fcsim.strategies.StrategyError` if the specs load other strategy code or
    model files here than the run records (a model replaced while the run played, another
    file at that path on a Dask worker): its rows would carry a digest they were not
    played by."""
    strategies = tuple(parse_strategy(spec) for spec in plan.lineup)
    changed = changed_sources(dict(plan.sources), strategy_sources(strategies))
    if changed:
        raise StrategyError(f"the run's strategies load other files here: {changed[0]}")
    warm_up(strategies, plan.rules)
    return strategies


def run_chunk(plan: RunPlan, index: int,
              on_games: Callable[[int], None] | None = None) -> ChunkOutput:
    """Play chunk ``index`` of ``plan`` and encode its rows as Parquet; ``on_games(n)``
    hears after each slice of its games (:func:`slices`) that ``n`` of them are played."""
    layout = chunk_layout(plan, index)
    results, decisions = _play_in_slices(layout, prepare(plan), plan.rules, plan.decisions,
                                         on_games)
    table = results_table(plan, layout, results)
    decided = (None if decisions is None
               else parquet_bytes(decisions_table(plan, layout, decisions)))
    return ChunkOutput(index=index, games=len(layout.game), data=parquet_bytes(table),
                       decisions=decided)


def slices(games: int) -> list[tuple[int, int]]:
    """``(start, stop)`` of the slices a chunk of ``games`` games is played in: 1 game,
    then twice as many each time up to :data:`PROGRESS_GAMES`. The first reports come
    within seconds even from a strategy that plays one game a second; a fast one pays a
    few calls more per chunk."""
    bounds, start, size = [], 0, 1
    while start < games:
        bounds.append((start, min(start + size, games)))
        start, size = start + size, min(2 * size, PROGRESS_GAMES)
    return bounds


def _play_in_slices(layout: Layout, strategies: Sequence[Strategy], rules: RuleSet,
                    recording: bool, on_games: Callable[[int], None] | None
                    ) -> tuple[GameResults, np.ndarray | None]:
    """The chunk's games, played in :func:`slices`: the same results as in one call, since
    every game has its own seed; and, if ``recording``, their decision rows (``game`` the
    index in the chunk)."""
    parts, decided = [], []
    for start, stop in slices(len(layout.seeds)):
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
