"""The live progress bar of the game commands."""

from __future__ import annotations

import io

import pytest
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from fcsim.cli.progress import (
    DONE_BEFORE,
    RATE_AFTER_S,
    GamesPerSecond,
    TimeLeft,
    games_progress,
    print_table,
)


def test_no_rate_before_the_games_have_run_a_moment() -> None:
    """Two workers' first reports a millisecond apart read as millions of games per second:
    the rate waits until the games have run :data:`RATE_AFTER_S`, then is the mean."""
    now = [0.0]
    progress = Progress(get_time=lambda: now[0])
    task_id = progress.add_task("games", total=1000)
    for played in (100, 200):
        now[0] += 0.001
        progress.update(task_id, completed=played)
    task = progress.tasks[0]
    assert GamesPerSecond().render(task).plain == "  -  games/s"
    assert TimeLeft().render(task).plain == "-:--:--"
    now[0] = 2 * RATE_AFTER_S
    progress.update(task_id, completed=500)
    assert GamesPerSecond().render(task).plain == f"{500 / (2 * RATE_AFTER_S):,.0f} games/s"
    assert TimeLeft().render(task).plain == "0:00:02"


def test_reports_further_apart_than_the_window_show_the_mean_rate() -> None:
    """rich's recent rate needs two reports within its window (30 s): a long search's
    chunks, a minute apart, would leave the rate blank to the end."""
    now = [0.0]
    progress = Progress(get_time=lambda: now[0])
    task_id = progress.add_task("games", total=1000)
    progress.update(task_id, completed=0)
    for minute, played in ((1, 300), (2, 600)):
        now[0] = 60.0 * minute
        progress.update(task_id, completed=played)
    assert GamesPerSecond().render(progress.tasks[0]).plain == "5 games/s"
    assert TimeLeft().render(progress.tasks[0]).plain == "0:01:20"


def test_a_small_run_ends_on_its_mean_rate_not_its_last_burst() -> None:
    """The last two chunks of a 20-game run, reported together, once read as 490,292
    games per second; a resumed run's games found done do not count as played."""
    now = [0.0]
    progress = Progress(get_time=lambda: now[0])
    task_id = progress.add_task("games", total=20, completed=10, **{DONE_BEFORE: 10})
    now[0] = 0.5
    progress.update(task_id, completed=15)
    now[0] = 0.5 + 1e-5
    progress.update(task_id, completed=20)
    task = progress.tasks[0]
    assert GamesPerSecond().render(task).plain == f"{10 / (0.5 + 1e-5):,.0f} games/s"
    assert TimeLeft().render(task).plain == "0:00:00"


@pytest.mark.parametrize("width", [80, 120])
def test_a_long_label_is_cut_and_the_counts_stay_whole(monkeypatch: pytest.MonkeyPatch,
                                                        width: int) -> None:
    """A compare of specs with parameters labels its bar with both: on an 80-column
    terminal the label gives way, not the games, the rate or the times."""
    monkeypatch.setenv("COLUMNS", str(width))
    label = "search_hands_oracle:anchor=learned,confidence=1,rollout=learned, aware"
    progress = games_progress()
    progress.add_task(label, total=400_000, completed=200_000)
    out = io.StringIO()
    Console(file=out, width=width).print(progress.make_tasks_table(progress.tasks))
    line = out.getvalue().rstrip("\n")
    assert "\n" not in line and len(line) <= width
    assert line.startswith(label[:8]) and "…" in line.split()[0]
    assert "200,000/400,000 games" in line
    assert line.split()[-3:] == ["0:00:00", "left", "-:--:--"]


def test_a_result_table_is_whole_when_piped(capsys) -> None:
    table = Table("spec", "difference", "p")
    table.add_row("aware:take_margin=0,candidates=6,feed_weight=0.5,danger_turns=7,urgency=0.5",
                  "-2.47 [-2.75, -2.19]", "0.000012")
    print_table(table)  # captured: not a terminal
    lines = capsys.readouterr().out.splitlines()
    assert any(len(line) > 80 for line in lines)
    assert any("0.000012" in line and "urgency=0.5" in line for line in lines)
