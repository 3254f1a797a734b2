"""Playing a run into a folder with a live progress bar (shared by the game commands)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

import click
from rich.console import Console
from rich.progress import (
    BarColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from fcsim.core.rules import RuleSet
from fcsim.runner import PlanError, RunFolder, RunFolderError, execute, make_plan
from fcsim.runner.pool import Executor
from fcsim.runner.run import default_workers, local_executor
from fcsim.strategies import StrategyError

INTERRUPTED = 130


class InputError(click.ClickException):
    """Bad input: one line on stderr, exit code 2."""

    exit_code = 2


class GamesPerSecond(ProgressColumn):
    """The recent rate of the progress bar, in games per second."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("  -  games/s" if speed is None else f"{speed:,.0f} games/s")


def play_folder(folder: RunFolder, executor: Executor, label: str = "simulate") -> None:
    """Play the missing chunks under a progress bar; Ctrl-C exits with code 130."""
    plan = folder.plan
    progress = Progress(TextColumn(label), BarColumn(),
                        TextColumn("{task.completed:,.0f}/{task.total:,.0f} games"),
                        GamesPerSecond(), TimeElapsedColumn(), TextColumn("left"),
                        TimeRemainingColumn(), console=Console(stderr=True))
    done = plan.games - sum(len(plan.chunk_games(i)) for i in folder.missing)
    task = progress.add_task("games", total=plan.games, completed=done)
    try:
        with progress:
            execute(folder, executor, lambda output: progress.advance(task, output.games))
    except KeyboardInterrupt:
        kept = plan.chunk_count - len(RunFolder.open(folder.path, plan, resume=True).missing)
        click.echo(f"Interrupted: {kept} of {plan.chunk_count} chunks are kept in "
                   f"{folder.path}; run the same command with --resume to complete it.",
                   err=True)
        sys.exit(INTERRUPTED)


def play_plan(specs: Sequence[str], rules: RuleSet, seed: int, games: int, out: Path, *,
              duplicate: bool = False, workers: int | None = None) -> None:
    """Play (or complete) a run of ``specs`` into ``out`` on local processes."""
    try:
        plan = make_plan(list(specs), rules, seed, games, duplicate=duplicate)
        folder = RunFolder.open(out, plan, resume=True)
        folder.create()
    except (StrategyError, PlanError, RunFolderError) as err:
        raise InputError(str(err)) from None
    if not folder.missing:
        return
    executor = local_executor(workers or default_workers(), len(folder.missing))
    try:
        play_folder(folder, executor, label=", ".join(dict.fromkeys(specs)))
    finally:
        executor.close()
