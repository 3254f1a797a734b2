"""The live progress bar over games, and result tables, of the game commands (rich, on
the terminal)."""

from __future__ import annotations

from datetime import timedelta

from rich.console import Console
from rich.progress import (
    BarColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Column, Table
from rich.text import Text

RATE_AFTER_S = 1.0  # no rate before the games have run this long: two workers' first
# reports a millisecond apart would read as millions of games per second


DONE_BEFORE = "done_before"  # a task's field: the games a resumed run found done


def games_per_second(task: Task) -> float | None:
    """The mean rate of the games played since the bar began (not those a resumed run
    found done); None before any, or before :data:`RATE_AFTER_S` of a bar still running.

    A mean, not rich's recent rate: that one is the slope between the last reports, and
    two workers' reports a millisecond apart, or a small run's last ones, read as
    hundreds of thousands of games per second; and a long search's chunks, a minute
    apart, leave it blank."""
    played = task.completed - task.fields.get(DONE_BEFORE, 0)
    elapsed = task.finished_time if task.finished else task.elapsed
    if played <= 0 or not elapsed or (not task.finished and elapsed < RATE_AFTER_S):
        return None
    return played / elapsed


class GamesPerSecond(ProgressColumn):
    """The bar's rate in games per second (:func:`games_per_second`)."""

    def render(self, task: Task) -> Text:
        speed = games_per_second(task)
        return Text("  -  games/s" if speed is None else f"{speed:,.0f} games/s")


class TimeLeft(ProgressColumn):
    """The time the bar's games left take at its rate (:func:`games_per_second`)."""

    def render(self, task: Task) -> Text:
        speed = games_per_second(task)
        if task.finished:
            return Text("0:00:00")
        if speed is None or task.total is None:
            return Text("-:--:--")
        return Text(str(timedelta(seconds=int((task.total - task.completed) / speed))))


PIPED_WIDTH = 240  # a result table's line when piped: whole, where rich would cut at 80


def print_table(table: Table) -> None:
    """A result table on stdout: as wide as the terminal allows, and whole when the output
    goes to a file or a pipe (a reader there wants every column, not a cut at 80)."""
    console = Console(highlight=False)
    if not console.is_terminal:
        console.width = PIPED_WIDTH
    console.print(table)


COLUMNS_AFTER_LABEL = 64  # what the bar's counts, rate and times take on a line, about
LABEL_COLUMNS = (8, 48)  # the least and the most columns the label takes


def games_progress() -> Progress:
    """A progress bar over games on stderr, each task's description its label. A long
    label (a spec with its parameters) is cut with an ellipsis to leave the counts, the
    rate and the times whole on the terminal's line."""
    console = Console(stderr=True)
    least, most = LABEL_COLUMNS
    label = Column(no_wrap=True, overflow="ellipsis",
                   max_width=min(max(least, console.width - COLUMNS_AFTER_LABEL), most))
    whole = Column(no_wrap=True)  # rich copies a column's settings for each table
    return Progress(
        TextColumn("{task.description}", table_column=label), BarColumn(),
        TextColumn("{task.completed:,.0f}/{task.total:,.0f} games", table_column=whole),
        GamesPerSecond(table_column=whole), TimeElapsedColumn(table_column=whole),
        TextColumn("left", table_column=whole), TimeLeft(table_column=whole),
        console=console)
