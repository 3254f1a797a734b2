"""What ``fcsim sweep`` and ``fcsim tune`` share: the field, the deals, the workers, the
output folder, the progress bar and the summary of a point or trial."""

from __future__ import annotations

import shlex
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from types import TracebackType

import click

from fcsim._version import __version__
from fcsim.cli.options import PLAYERS, Bounded, dask_options, rule_options, rule_words
from fcsim.cli.progress import games_progress
from fcsim.cli.running import dask_cluster, say_set_aside
from fcsim.core.rules import RuleSet
from fcsim.core.seeds import MAX_SEED
from fcsim.runner.pool import Executor, LastingPool
from fcsim.runner.run import default_workers
from fcsim.strategies import Strategy, display_name, parse_strategies, parse_strategy
from fcsim.tune.arena import Arena
from fcsim.tune.lineup import Lineup, make_lineup
from fcsim.tune.output import RECORD, open_output

DEFAULT_DEALS = 500


def search_options(func: Callable) -> Callable:
    """The options of both commands (after their own), rule variants included."""
    options = [
        click.option("--against", metavar="SPECS",
                     help="The field: one strategy (seats alternate with it) or one per other "
                          "seat, comma-separated [default: the strategy's family at its "
                          "defaults]."),
        click.option("--players", type=PLAYERS,
                     help="Seats [default: 4 with one --against strategy, else one per "
                          "listed strategy plus the candidate]."),
        click.option("--deals", type=int, default=DEFAULT_DEALS, show_default=True,
                     help="Deals per candidate, each played in its distinct seat rotations; every "
                          "candidate plays the same deals."),
        click.option("--seed", type=Bounded(0, MAX_SEED, "S"), default=0,
                     show_default=True, help="Root seed of the deals."),
        click.option("--out", type=click.Path(path_type=Path), required=True,
                     help="Output folder: runs, Parquet, charts, report."),
        click.option("--resume", is_flag=True, help="Continue the search already in --out."),
        click.option("--workers", type=int, help="Local worker processes [default: all cores]."),
    ]
    func = dask_options("run")(rule_options(func))
    for option in reversed(options):
        func = option(func)
    return func


@dataclass(frozen=True)
class Setting:
    """The strategy as given, its table and the rules, checked."""

    base: Strategy
    lineup: Lineup
    rules: RuleSet


def setting(spec: str, against: str | None, players: int | None, rules: RuleSet) -> Setting:
    """Parse the strategy and the field, and seat the rules at its table."""
    base = parse_strategy(spec)
    field = [s.spec for s in parse_strategies(against)] if against else [base.family.name]
    lineup = make_lineup(field, players)
    return Setting(base, lineup, replace(rules, players=lineup.players))


def make_executor(workers: int | None, scheduler: str | None, dask_local: int | None
                  ) -> Executor:
    """Worker processes that live through the whole search, or a Dask cluster (connected
    and checked: made before the output folder is written), closed when the command ends."""
    executor = dask_cluster(scheduler, dask_local) or LastingPool(workers or default_workers())
    click.get_current_context().call_on_close(executor.close)
    return executor


def arena(where: Setting, executor: Executor, progress: SearchProgress) -> Arena:
    """The table every run of the search plays at: its games advance ``progress``, and
    the damaged chunk files it moves aside are said, one line each (as ``simulate`` says
    them)."""
    return Arena(where.lineup, where.rules, executor, progress.advance, say_set_aside)


def hold_output(out: Path, described: dict, resume: bool, free: tuple[str, ...] = ()) -> None:
    """:func:`~fcsim.tune.output.open_output`, its write lock held until the command ends;
    a folder another sweep or tune is writing is refused in one line (exit code 1, as a
    run folder's: not bad input)."""
    if resume and not (out / RECORD).exists():  # a mistyped --out would start over unsaid
        click.echo(f"warning: {out} holds no search to resume; a new one starts there",
                   err=True)
    lock = open_output(out, described, resume, free)
    click.get_current_context().call_on_close(lock.release)


def record(command: str, setting: Setting, seed: int, deals: int) -> dict:
    """What the output folder holds, common part (see :mod:`fcsim.tune.output`)."""
    return {"command": command, "fcsim_version": __version__, "strategy": setting.base.spec,
            "table": setting.lineup.describe(), "rules": setting.rules.to_dict(),
            "seed": seed, "deals": deals}


def command_line(command: str, spec: str, options: list[tuple[str, object]],
                 rules: RuleSet) -> str:
    """The command as a user would type it (options given as ``(flag, value)``; None and
    False are left out, True is a bare flag), with the flags of its rules."""
    words = ["fcsim", command, spec]
    for flag, value in options:
        if value is True:
            words.append(flag)
        elif value is not None and value is not False:
            words += [flag, str(value)]
    return shlex.join([*words, *rule_words(rules)])


def header(command: str, setting: Setting, seed: int, deals: int, extra: list[str]) -> list[str]:
    """The page's header lines (markdown)."""
    rules = setting.rules.to_dict()
    return [f"**Command:** `{command}`",
            f"**Strategy:** {display_name(setting.base.spec)} (the reference)",
            f"**Table:** {setting.lineup.describe(display_name)}, every deal in its "
            f"{setting.lineup.rotations} distinct seat rotations",
            f"**Deals:** {deals:,} per candidate, root seed {seed}, the same for every candidate",
            "**Rules:** " + ", ".join(f"{k} {v}" for k, v in rules.items()),
            *extra]


def describe_row(row: dict) -> str:
    """One line: a point's or trial's difference against the reference, share and total."""
    from fcsim.analysis.stats import p_text
    from fcsim.tune.page import interval

    return (f"{display_name(row['spec'])}: {interval(row, 'diff')} points per game vs the "
            f"reference ({p_text(row['p_value'])}), win share {interval(row, 'win_share', 3, '')}, "
            f"mean total {row['mean_total']:.1f}")


class SearchProgress:
    """A progress bar over the games of a search, with a line saying what is playing."""

    def __init__(self, label: str, total_games: int) -> None:
        self.progress = games_progress()
        self.label = label
        self.task = self.progress.add_task(label, total=total_games)

    def advance(self, games: int) -> None:
        """``games`` more games played or read."""
        self.progress.advance(self.task, games)

    def say(self, text: str) -> None:
        """Show what is playing now."""
        self.progress.update(self.task, description=f"{self.label}: {text}")

    def __enter__(self) -> SearchProgress:
        self.progress.start()
        return self

    def __exit__(self, kind: type | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        if kind is None:
            self.progress.update(self.task, completed=self.progress.tasks[0].total)
        self.progress.stop()
