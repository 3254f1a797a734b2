"""Playing one candidate in the field: a duplicate-format run folder per spec and seed.

Every run of a sweep or a tune uses the same root seed, so every candidate plays exactly
the same deals in the same seats (common random numbers) and two runs pair deal by deal.
A run is a pure function of its spec, so its folder is a cache: a spec met again (Optuna
often proposes an integer value twice) is read, not played, and an interrupted run is
completed. Chunks are handed on in index order, whatever order the workers finish them
in, so a run stopped early (a pruned trial) always stops at the same deal.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pyarrow.parquet as pq

from fcsim.core.rules import RuleSet
from fcsim.errors import FcsimError
from fcsim.runner import RunFolder, RunPlan, execute, make_plan
from fcsim.runner.chunk import ChunkOutput
from fcsim.runner.format import Problem, part_name
from fcsim.runner.pool import Executor
from fcsim.tune.deals import COLUMNS, DealResults, deal_results
from fcsim.tune.lineup import Lineup

# A run is cut into about this many chunks (a pruned trial stops at a chunk's end) …
CHUNKS_PER_RUN = 8
# … of at least and at most this many deals each.
MIN_CHUNK_DEALS = 4
MAX_CHUNK_DEALS = 2_500

OnDeals = Callable[[DealResults], bool]


class _Stop(FcsimError):
    """Raised inside a run's chunk loop when the caller wants no more deals."""


def chunk_deals(deals: int) -> int:
    """Deals per chunk for a run of ``deals`` deals (a function of ``deals`` alone, so a
    resumed run has the chunks it had, on any number of workers)."""
    return min(MAX_CHUNK_DEALS, max(MIN_CHUNK_DEALS, -(-deals // CHUNKS_PER_RUN)))


def folder_name(spec: str) -> str:
    """A file-name form of a canonical spec: ``greedy:take_margin=3`` → ``greedy_take_margin=3``."""
    return spec.replace(":", "_").replace(",", "_")


@dataclass
class Arena:
    """The table and the workers every run of one sweep or tune shares.

    ``on_games(n)`` is told of every ``n`` games played or read (a progress bar); a run
    that stops early reports its unplayed games too, so each run counts its full size.
    ``on_set_aside(run, problems)`` is told of the damaged chunk files of a run moved
    aside (to be played again) as its folder is taken.
    """

    lineup: Lineup
    rules: RuleSet
    executor: Executor
    on_games: Callable[[int], None] = lambda games: None
    on_set_aside: Callable[[RunFolder, list[Problem]], None] = lambda run, problems: None

    def plan(self, spec: str, seed: int, deals: int) -> RunPlan:
        """The duplicate-format run of candidate ``spec`` on ``deals`` deals of ``seed``."""
        # the rotations that move the candidate's positions, even for a candidate equal
        # to its field: its advantage is then 0 on every deal, as it should be
        rotations = self.lineup.rotations
        return make_plan(self.lineup.seating(spec), self.rules, seed, deals * rotations,
                         duplicate=True, chunk_size=chunk_deals(deals) * rotations,
                         rotations=rotations)

    def play(self, spec: str, seed: int, deals: int, folder: Path,
             on_deals: OnDeals | None = None) -> DealResults:
        """The candidate's per-deal results, played into (or read from) ``folder``.

        ``on_deals`` receives each chunk's deals in order; returning False stops the run
        there (the deals so far are returned). Ctrl-C leaves every finished chunk on disk.
        """
        run = RunFolder.open(folder, self.plan(spec, seed, deals), resume=True)
        self.on_set_aside(run, run.create())
        reader = _InOrder(run, self.lineup, on_deals, self.on_games)
        try:
            if reader.advance() and run.missing:
                execute(run, self.executor, reader.arrived)
        except _Stop:
            pass
        finally:
            run.release()
        self.on_games(run.plan.games - reader.counted)
        return DealResults.concat(reader.parts)


class _InOrder:
    """Hands a run's chunks on in index order: finished files first, then new chunks as
    the ones before them arrive."""

    def __init__(self, run: RunFolder, lineup: Lineup, on_deals: OnDeals | None,
                 on_games: Callable[[int], None]) -> None:
        self.run, self.lineup, self.on_deals, self.on_games = run, lineup, on_deals, on_games
        self.waiting: dict[int, DealResults] = {}
        self.parts: list[DealResults] = []
        self.counted = 0

    def arrived(self, output: ChunkOutput) -> None:
        """A chunk played by the executor (``execute``'s callback): raise _Stop to end."""
        self.count(output.games)
        table = pq.read_table(io.BytesIO(output.data), columns=COLUMNS)
        self.waiting[output.index] = deal_results(table, self.lineup)
        if not self.advance():
            raise _Stop

    def count(self, games: int) -> None:
        self.counted += games
        self.on_games(games)

    def advance(self) -> bool:
        """Hand on every chunk now available in order; False once the caller said stop."""
        while len(self.parts) < self.run.plan.chunk_count:
            index = len(self.parts)
            if index in self.waiting:
                part = self.waiting.pop(index)
            elif index in self.run.present:
                self.count(len(self.run.plan.chunk_games(index)))
                part = deal_results(pq.read_table(self.run.path / part_name(index),
                                                  columns=COLUMNS), self.lineup)
            else:
                return True
            self.parts.append(part)
            if self.on_deals is not None and not self.on_deals(part):
                return False
        return True
