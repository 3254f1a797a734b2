"""``fcsim tournament``: every strategy against every other in rotated tables; ratings."""

from __future__ import annotations

import math
import shutil
import tempfile
from dataclasses import replace
from itertools import combinations
from pathlib import Path

import click
from rich.table import Table

from fcsim.cli.options import PLAYERS, Bounded, InputError, rule_options
from fcsim.cli.progress import print_table
from fcsim.cli.running import AGAIN, check_counts, play_plan
from fcsim.cli.strategies import load_plugins_noting_failures
from fcsim.core.rules import DEFAULT_PLAYERS
from fcsim.core.seeds import MAX_SEED
from fcsim.runner.format import MAX_GAMES, refuse_a_file
from fcsim.strategies import display_name, families, parse_strategies


def tables_for(specs: list[str], players: int) -> list[list[str]]:
    """The tables to play: one if the strategies fit at one table (filled cyclically),
    otherwise one per combination of ``players`` strategies."""
    if len(specs) <= players:
        return [[specs[seat % len(specs)] for seat in range(players)]]
    return [list(c) for c in combinations(specs, players)]


def table_folder(number: int) -> str:
    """The run folder of table ``number`` in a tournament's --out."""
    return f"table-{number:02d}"


def _check_out(out: Path, tables: int) -> None:
    """Refuse an --out that is a file, or holds anything but this tournament's tables
    (each table's folder then refuses a different run, or resumes its own)."""
    refuse_a_file(out, InputError)
    mine = {table_folder(number) for number in range(tables)}
    other = sorted(p.name for p in out.iterdir() if p.name not in mine) if out.is_dir() else []
    if other:
        raise InputError(f"{out} holds {other[0]}, which is no table of this tournament "
                         f"({tables} table{'s' if tables > 1 else ''}); choose another --out")


def _span(low: float, high: float) -> str:
    """A rating interval ``low-high``, or ``–`` where the games do not bound the ratings."""
    from fcsim.analysis.stats import NO_VALUE

    return f"{low:.0f}-{high:.0f}" if math.isfinite(low) and math.isfinite(high) else NO_VALUE


def _leaderboard(paths: list[Path]) -> None:
    from fcsim.analysis import load_results
    from fcsim.analysis.load import as_listed
    from fcsim.analysis.ratings import rate_strategies
    from fcsim.analysis.stats import score_summary, win_share

    lf = as_listed(load_results(paths))  # an oracle listed is marked analysis only
    ratings = rate_strategies(lf)
    shares = {r["strategy"]: r for r in win_share(lf).iter_rows(named=True)}
    means = {r["strategy"]: r for r in score_summary(lf).iter_rows(named=True)}
    table = Table(show_edge=False)
    for header in ("#", "strategy", "rating", "95% CI", "win %", "mean total"):
        table.add_column(header, justify="left" if header == "strategy" else "right")
    ordered = sorted(ratings.iter_rows(named=True), key=lambda r: -r["rating"])
    for place, r in enumerate(ordered, start=1):
        name = r["strategy"]
        table.add_row(str(place), name, f"{r['rating']:.0f}",
                      _span(r["rating_lo"], r["rating_hi"]),
                      f"{100 * shares[name]['win_share']:.1f}",
                      f"{means[name]['mean_total']:.1f}")
    print_table(table)


@click.command("tournament", short_help="Rate the strategies in rotated tables.")
@click.option("--strategies", "specs",
              help="Comma-separated strategies (default: every fair strategy on the "
                   "leaderboard, built in or installed).")
@click.option("--players", type=PLAYERS,
              default=DEFAULT_PLAYERS, show_default=True,
              help="Seats at each table, 2 to 7.")
@click.option("--games", type=Bounded(1, MAX_GAMES), default=2000, show_default=True,
              help="Games per table.")
@click.option("--seed", type=Bounded(0, MAX_SEED, "S"), default=0, show_default=True,
              help="Root seed of the first table (the next tables count up from it).")
@click.option("--out", type=click.Path(path_type=Path),
              help="Keep the games here, one run folder per table (default: temporary).")
@click.option("--workers", type=int, help="Local worker processes (default: all cores).")
@rule_options
def tournament_command(specs, players, games, seed, out, workers, rules) -> None:
    """Play the strategies in rotated tables and print a leaderboard of ratings."""
    check_counts({}, None, None, workers)
    if specs is None:  # an empty --strategies is no strategy given, as everywhere
        load_plugins_noting_failures()
    listed = (parse_strategies(specs) if specs is not None else
              parse_strategies(",".join(f.name for f in families()
                                        if f.leaderboard and not f.oracle)))
    names = list(dict.fromkeys(s.spec for s in listed))
    if len(names) < len(listed):
        twice = next(name for name in names if sum(s.spec == name for s in listed) > 1)
        raise InputError(f"{twice} is listed twice in --strategies: a tournament rates each "
                         f"strategy once")
    if len(names) < 2:
        raise InputError("a tournament needs at least two different strategies")
    rules = replace(rules, players=players)
    tables = tables_for(names, players)
    if seed + len(tables) - 1 > MAX_SEED:
        raise InputError(f"--seed {seed} leaves no seed for the last of {len(tables)} tables "
                         f"(they count up from it to at most 2^64 - 1); give --seed "
                         f"{MAX_SEED - len(tables) + 1} or less")
    if out is not None:
        _check_out(out, len(tables))
    root = out or Path(tempfile.mkdtemp(prefix="fcsim-tournament-"))
    try:
        paths = []
        for number, table in enumerate(tables):
            path = root / table_folder(number)
            click.echo(f"table {number}: {', '.join(map(display_name, table))}", err=True)
            play_plan(table, rules, seed + number, games, path, workers=workers,
                      complete=AGAIN if out else None)
            paths.append(path)
        _leaderboard(paths)
    finally:
        if out is None:
            shutil.rmtree(root, ignore_errors=True)
