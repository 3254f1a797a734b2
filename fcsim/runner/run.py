"""Running a plan into a folder: play the missing chunks, write each as it finishes."""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Callable, Sequence
from numbers import Integral
from pathlib import Path

from fcsim.core.rules import RuleSet, as_rules, default_seats
from fcsim.errors import Fault
from fcsim.runner.chunk import ChunkOutput
from fcsim.runner.format import MAX_GAMES, count_problem, distinct_rotations
from fcsim.runner.plan import PlanError, RunPlan, default_chunk_size, round_up_games
from fcsim.runner.pool import Executor, InProcess, ProcessPool
from fcsim.runner.sources import strategy_sources
from fcsim.runner.store import RunFolder
from fcsim.strategies import Strategy, StrategyError, parse_strategies, parse_strategy
from fcsim.strategies.registry import nested_strategy

CGROUP_CPU_MAX = Path("/sys/fs/cgroup/cpu.max")  # cgroup v2: "QUOTA PERIOD" or "max PERIOD"


def cpu_quota(cpu_max: Path = CGROUP_CPU_MAX) -> int | None:
    """The cores a cgroup CPU quota allows (rounded up), None without a quota: a
    container may see every core of its host yet get the time of a few."""
    try:
        quota, period = cpu_max.read_text().split()[:2]
        return max(1, math.ceil(int(quota) / int(period)))
    except (OSError, ValueError):  # no cgroup v2 file, or "max": no quota
        return None


def default_workers() -> int:
    """The cores this process may use: its CPU affinity, capped by a cgroup quota."""
    cores = (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
             else os.cpu_count() or 1)
    quota = cpu_quota()
    return cores if quota is None else min(cores, quota)


def local_executor(workers: int, chunks: int) -> Executor:
    """Up to ``workers`` processes for ``chunks`` chunks: this one alone, or a pool."""
    workers = max(min(workers, chunks), 1)
    return InProcess() if workers == 1 else ProcessPool(workers)


StrategyList = str | Sequence[str | Strategy | Callable]


def table_notes(strategy: Strategy, rules: RuleSet) -> tuple[str, ...]:
    """Why ``strategy``'s files (a model) may not suit a table under ``rules``, a line
    each; those of the strategies it plays inside (a search's anchor) too."""
    family = strategy.family
    own = () if family.table_notes is None else family.table_notes(rules, **strategy.kwargs)
    inside = (table_notes(nested_strategy(str(value), f"{family.name}: {param.name}"), rules)
              for param, value in zip(family.params, strategy.values, strict=True)
              if param.strategy)
    return own + tuple(note for notes in inside for note in notes)


_WARNED: set[str] = set()  # the table notes this process has shown


def warn_table_notes(listed: Sequence[Strategy], rules: RuleSet) -> None:
    """One warning line on stderr for each note (:func:`table_notes`) on a model among
    ``listed``, once per process: a sweep's or a tournament's many runs, or an environment
    reset many times, say each once, even where the runs' parameters add other notes."""
    for note in (note for strategy in listed for note in table_notes(strategy, rules)):
        if note not in _WARNED:
            _WARNED.add(note)
            print(f"warning: {note}", file=sys.stderr)


def _listed(strategies: StrategyList) -> list[Strategy]:
    """Strategies from a comma-separated string, or from a list of specs, strategies and
    Python agents (callables from a view to an action)."""
    if isinstance(strategies, str):
        return parse_strategies(strategies)
    listed = []
    for item in strategies:
        listed += parse_strategies(item) if isinstance(item, str) else [parse_strategy(item)]
    return listed


def deal_games(seating: StrategyList, deals: int) -> int:
    """The games of ``deals`` duplicate deals of ``seating`` (a strategy per seat): a deal
    is played in its distinct seat rotations (:func:`make_plan`)."""
    return deals * distinct_rotations([s.spec for s in _listed(seating)])


def _int(value: object) -> object:
    """A whole number of any integer type (numpy's) as an int, for the run's JSON; any
    other value as it is, for the plan's checks to refuse."""
    return int(value) if isinstance(value, Integral) and not isinstance(value, bool) else value


def make_plan(strategies: StrategyList, rules: RuleSet, seed: int, games: int, *,
              duplicate: bool = False, seat_rotation: bool = True,
              chunk_size: int | None = None, decisions: bool = False,
              rotations: int | None = None) -> RunPlan:
    """A plan from strategy specs (one fills the table); raises StrategyError, PlanError.

    In the duplicate format a deal is played in its distinct seat rotations
    (:func:`~fcsim.runner.format.distinct_rotations`), or in ``rotations`` (a search's
    candidate that equals its field still plays each listed position), and ``games`` is
    rounded up to whole deals.
    Without ``chunk_size``, :func:`~fcsim.runner.plan.default_chunk_size` of the games.
    """
    games, seed, chunk_size = _int(games), _int(seed), _int(chunk_size)
    problem = count_problem("games", games, MAX_GAMES)  # before any arithmetic on it
    if problem:
        raise PlanError(problem)
    listed = _listed(strategies)
    warn_table_notes(listed, as_rules(rules))
    specs = [s.spec for s in listed]
    if len(specs) == 1:
        specs *= rules.players
    if rotations is None:
        rotations = distinct_rotations(specs) if duplicate else rules.players
    rounded = round_up_games(games, rotations, duplicate)
    if rounded > MAX_GAMES:
        raise PlanError(f"games {games:,} round up to {rounded:,} (whole deals of "
                        f"{rotations} games): at most {MAX_GAMES:,}")
    games = rounded
    return RunPlan(strategies=tuple(specs), rules=rules, seed=seed, games=games,
                   # a duplicate deal is played in its rotations, whatever seat_rotation says
                   duplicate=duplicate, seat_rotation=seat_rotation or duplicate,
                   chunk_size=default_chunk_size(games) if chunk_size is None else chunk_size,
                   sources=tuple(strategy_sources(listed).items()), decisions=decisions,
                   rotations=rotations if duplicate and rotations != rules.players else None)


class _GamesPlayed:
    """Games played so far: those of finished chunks, and the part played of chunks in
    flight (a worker's late report on a chunk already finished is ignored)."""

    def __init__(self, done: int, report: Callable[[int], None]) -> None:
        self._done = done
        self._partial: dict[int, int] = {}
        self._finished: set[int] = set()
        self._report = report

    def partial(self, index: int, games: int) -> None:
        if index not in self._finished:
            self._partial[index] = games
            self._report(self._done + sum(self._partial.values()))

    def finished(self, index: int, games: int) -> None:
        self._finished.add(index)
        self._partial.pop(index, None)
        self._done += games
        self._report(self._done + sum(self._partial.values()))


class RunIncomplete(Fault, RuntimeError):
    """The executor ended without a stop yet left chunks of the run unplayed."""


def execute(folder: RunFolder, executor: Executor,
            on_chunk: Callable[[ChunkOutput], None] | None = None,
            on_games: Callable[[int], None] | None = None) -> None:
    """Play the missing chunks of a created ``folder`` on ``executor``, writing each one,
    then release the folder. ``on_games(n)`` hears how many of the run's games are played
    (finished chunks, and the played part of the chunks in flight). An executor that ends
    with chunks unplayed is a :class:`RunIncomplete`, never a run reported complete."""
    played = None if on_games is None else _GamesPlayed(folder.done_games, on_games)
    try:
        for output in executor.run(folder.plan, folder.missing,
                                   None if played is None else played.partial):
            folder.write_chunk(output.index, output.data, output.decisions)
            if played is not None:
                played.finished(output.index, output.games)
            if on_chunk is not None:
                on_chunk(output)
        if len(folder.missing):
            raise RunIncomplete(f"{folder.path}: {len(folder.missing)} of the run's "
                                f"{folder.plan.chunk_count} chunks were not played (chunk "
                                f"{next(iter(folder.missing))} the first); --resume plays "
                                f"them")
    finally:
        folder.release()


def simulate(strategies: StrategyList, games: int, out: str | Path, *, seed: int = 0,
             rules: RuleSet | None = None, duplicate: bool = False, seat_rotation: bool = True,
             chunk_size: int | None = None, workers: int | None = None,
             resume: bool = False, allow_code_change: bool = False,
             decisions: bool = False) -> RunPlan:
    """Play a run into folder ``out`` on local processes (see ``fcsim simulate``).

    ``strategies``: specs, :class:`~fcsim.strategies.Strategy` objects and Python agents
    (callables from a :class:`~fcsim.View` to an action) in any mix, one per seat or one
    for every seat. Worker processes find an agent by its ``module:qualname``, so an agent
    played on several workers is defined at the top level of a module (or of the script
    being run). Without ``rules``, the default rules with one seat per listed strategy
    (four for one). With ``decisions``, also the turn-level decision rows
    (``OUT/decisions/``).

    >>> import tempfile
    >>> plan = simulate("greedy,random", 8, tempfile.mkdtemp() + "/run", seed=1, workers=1)
    >>> plan.games, plan.rules.players
    (8, 2)
    """
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, Integral)
                                or workers < 1):
        raise PlanError(f"workers must be a whole number, at least 1, not {workers!r}")
    if rules is None:
        listed = _listed(strategies)
        rules = RuleSet(players=default_seats(len(listed)))
    plan = make_plan(strategies, rules, seed, games, duplicate=duplicate,
                     seat_rotation=seat_rotation, chunk_size=chunk_size, decisions=decisions)
    folder = RunFolder.open(Path(out), plan, resume, allow_code_change)
    executor = local_executor(workers or default_workers(), len(folder.missing))
    if isinstance(executor, ProcessPool):
        _check_findable(plan)
    folder.create()
    execute(folder, executor)
    return folder.plan


def _check_findable(plan: RunPlan) -> None:
    """Refuse an agent that worker processes cannot import by its ``module:qualname`` (a
    lambda, or a function defined inside another): each worker would fail to load it."""
    for spec in plan.lineup:
        if "<" in spec.partition(":")[2]:
            raise StrategyError(f"strategy {spec!r} is a lambda or a function defined inside "
                                f"another: worker processes cannot find it by name; define "
                                f"it at the top level of a module, or give workers=1")
