"""Playing a run into a folder with a live progress bar (:mod:`fcsim.cli.progress`), shared
by the game commands."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import click

from fcsim.cli import FAULT, exit_stopped
from fcsim.cli.options import InputError, dask_missing
from fcsim.cli.progress import DONE_BEFORE, games_progress
from fcsim.core.rules import RuleSet
from fcsim.errors import Fault
from fcsim.runner import RunFolder, RunPlan, execute, make_plan
from fcsim.runner.format import ASIDE, Problem
from fcsim.runner.pool import Executor, compile_once
from fcsim.runner.run import default_workers, local_executor

__all__ = ["InputError", "check_counts", "dask_cluster", "play_folder", "play_plan",
           "prepare_here", "say_set_aside", "stops_saying"]


def prepare_here(plan: RunPlan) -> None:
    """Compile (or load) the run's kernels in this process before its folder is taken and
    the workers start (a strategy that does not compile leaves no folder behind), and say
    so when they have to be compiled."""
    def say() -> None:
        click.echo(f"compiling the kernels for {', '.join(plan.lineup)} at "
                   f"{plan.players} seats; this happens once, later runs load them from "
                   f"the cache", err=True)

    compile_once(plan, say)


def say_set_aside(folder: RunFolder, problems: list[Problem]) -> None:
    """One line per chunk file moved aside by :meth:`RunFolder.create`."""
    for problem in problems:
        again = "; it is played again" if problem.replayed else ""
        click.echo(f"{problem}: moved to {folder.path / ASIDE}{again}", err=True)


RESUME = "run the same command with --resume to complete it"  # simulate's, train's way
AGAIN = "run the same command again to complete it"  # compare's and tournament's


def play_folder(folder: RunFolder, executor: Executor, label: str = "simulate",
                complete: str | None = RESUME) -> None:
    """Play the missing chunks of a created folder under a progress bar that moves as the
    games are played; Ctrl-C exits with code 130, a worker lost or a chunk that cannot be
    written (a full disk) with code 1, each saying what is kept and, by ``complete``, how
    to complete the run (None: the folder is temporary, nothing is kept)."""
    plan = folder.plan
    progress = games_progress()

    def kept() -> str:
        if complete is None:
            return "nothing is kept (the run's folder is temporary: give --out to keep it)"
        return (f"{len(folder.present):,} of {plan.chunk_count:,} chunks are kept in "
                f"{folder.path}; {complete}.")

    with stops_saying(kept):
        task = progress.add_task(label, total=plan.games, completed=folder.done_games,
                                 **{DONE_BEFORE: folder.done_games})
        with progress:
            execute(folder, executor,
                    on_games=lambda played: progress.update(task, completed=played))


@contextmanager
def stops_saying(kept: Callable[[], str]) -> Iterator[None]:
    """Stop a command that Ctrl-C or SIGTERM (exit code 130 or 143), a lost worker or a
    file that cannot be written (exit code 1) interrupts with one line ending in
    ``kept()``: what is kept, and how to continue."""
    try:
        yield
    except KeyboardInterrupt:
        exit_stopped(kept())
    except Fault as err:
        click.echo(f"Error: {err}: {kept()}", err=True)
        sys.exit(FAULT)


def play_plan(specs: Sequence[str], rules: RuleSet, seed: int, games: int, out: Path, *,
              duplicate: bool = False, workers: int | None = None,
              complete: str | None = AGAIN, label: str | None = None) -> None:
    """Play (or complete) a run of ``specs`` into ``out`` on local processes, its progress
    bar named ``label`` (else the specs); stopped, it says what is kept and, by
    ``complete``, how to complete it (see :func:`play_folder`)."""
    plan = make_plan(list(specs), rules, seed, games, duplicate=duplicate)
    folder = RunFolder.open(out, plan, resume=True)
    if not folder.missing and not folder.problems:
        return
    prepare_here(plan)
    say_set_aside(folder, folder.create())
    try:
        if folder.missing:
            executor = local_executor(workers or default_workers(), len(folder.missing))
            try:
                play_folder(folder, executor, label=label or ", ".join(dict.fromkeys(specs)),
                            complete=complete)
            finally:
                executor.close()
    finally:
        folder.release()


def check_counts(counts: dict[str, int | None], scheduler: str | None,
                 dask_local: int | None, workers: int | None, *,
                 local_steps: bool = False) -> None:
    """Counts must be positive; one way of running at a time (with ``local_steps`` the
    command has steps on local processes even with Dask, which --workers sizes)."""
    for flag, value in {**counts, "--workers": workers, "--dask-local": dask_local}.items():
        if value is not None and value < 1:
            raise InputError(f"{flag} must be at least 1, not {value}")
    if scheduler and dask_local:
        raise InputError("give --scheduler or --dask-local, not both")
    if workers is not None and (scheduler or dask_local) and not local_steps:
        raise InputError("--workers is for local runs; a Dask cluster brings its own workers")


def dask_cluster(scheduler: str | None, dask_local: int | None) -> Executor | None:
    """A Dask cluster (connected or started here), or None for a local run."""
    if not (scheduler or dask_local):
        return None
    try:
        from fcsim.runner.cluster import DaskCluster
    except ImportError:
        raise dask_missing() from None
    return DaskCluster.local(dask_local) if dask_local else DaskCluster.connect(scheduler)
