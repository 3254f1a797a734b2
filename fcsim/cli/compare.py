"""``fcsim compare A B``: duplicate-format games between two strategies, paired statistics."""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import click

from fcsim.cli.options import (
    PLAYERS,
    Bounded,
    InputError,
    check_run_folders,
    given_options,
    rule_options,
    warn_unused,
)
from fcsim.cli.running import AGAIN, check_counts, play_plan
from fcsim.core.rules import COMPARE_PLAYERS
from fcsim.core.seeds import MAX_SEED
from fcsim.runner.format import (
    MAX_GAMES,
    RunFolderError,
    alternating,
    distinct_rotations,
)
from fcsim.runner.run import deal_games
from fcsim.strategies import display_name, parse_strategies

if TYPE_CHECKING:
    import polars as pl


def _print_comparison(paths: list[Path], a: str, b: str, by_round: bool) -> None:
    """The paired comparison of ``a`` and ``b`` over the deals of the runs ``paths``,
    pooled deal by deal (runs of other seeds hold other deals; none may count twice), and
    with ``by_round`` where it falls, round by round."""
    from fcsim.analysis import load_results
    from fcsim.analysis.load import as_listed, mixed_sources, read_metadata
    from fcsim.analysis.stats import (
        bounds_cell,
        p_text,
        paired_by_round,
        paired_comparison,
        win_share,
    )

    try:
        metas = [read_metadata(path) for path in paths]
        for path, meta in zip(paths, metas, strict=True):
            if not meta.get("duplicate"):
                raise InputError(f"{path} is not a duplicate-format run "
                                 f"(fcsim simulate --duplicate)")
            names = set(meta["strategies"])
            if a not in names or b not in names:
                raise InputError(f"{path} holds {', '.join(sorted(names))}, "
                                 f"not both {a} and {b}")
        lf = load_results(paths)
    except RunFolderError as err:
        raise click.ClickException(str(err)) from None
    for phrase in mixed_sources(paths):
        click.echo(f"warning: {phrase}", err=True)
    a, b = display_name(a), display_name(b)  # as listings name them: an oracle marked
    lf = as_listed(lf)
    row = paired_comparison(lf, [(a, b)]).row(0, named=True)
    shares = {r["strategy"]: r for r in win_share(lf).iter_rows(named=True)}
    players = metas[0]["rules"]["players"]
    seeds = ", ".join(str(meta["seed"]) for meta in metas)
    source = f"seed {seeds}" if len(metas) == 1 else f"{len(metas)} runs, seeds {seeds}"
    rotations = distinct_rotations(metas[0]["strategies"])  # the games counted per deal
    click.echo(f"{a} vs {b}: {row['deals']:,} deal{'s' if row['deals'] != 1 else ''} x "
               f"{rotations} seat rotations, {players} players, {source}")
    spread = (f"95% CI {bounds_cell(row['mean_diff_lo'], row['mean_diff_hi'])}, "
              f"{p_text(row['p_value'])}" if row["deals"] > 1
              else "no interval from one deal")
    click.echo(f"  {a} - {b}: {row['mean_diff']:+.2f} points per game, {spread}")
    for name in (a, b):
        s = shares[name]
        click.echo(f"  win share {name}: {s['win_share']:.3f} "
                   f"[{s['win_share_lo']:.3f}, {s['win_share_hi']:.3f}]")
    click.echo(f"  verdict: {row['verdict']}")
    if by_round:
        for line in _by_round_lines(paired_by_round(lf, a, b), a, b):
            click.echo(line)


def _by_round_lines(rounds: pl.DataFrame, a: str, b: str) -> list[str]:
    """The table of :func:`~fcsim.analysis.stats.paired_by_round` as aligned lines."""
    from fcsim.analysis.stats import bounds_cell, p_text

    difference = f"{a} - {b}"
    width = max(len(difference), len("+0.00"))
    lines = ["  by round (their differences add up to the total's; went out: the share of its "
             "rounds each went out in):",
             f"  {'round':>5}  {difference:>{width}}  {'95% CI':<16}  {'':<9}  "
             f"went out: {a} / {b}"]
    for r in rounds.iter_rows(named=True):
        ci = bounds_cell(r["mean_diff_lo"], r["mean_diff_hi"])
        lines.append(f"  {r['round']:>5}  {r['mean_diff']:>+{width}.2f}  {ci:<16}  "
                     f"{p_text(r['p_value']):<9}  {r['went_out_a']:.3f} / {r['went_out_b']:.3f}")
    return lines


def _one_strategy(text: str, which: str) -> str:
    """The spec of the one strategy given for ``which`` (A or B)."""
    listed = parse_strategies(text)
    if len(listed) > 1:
        raise InputError(f"compare takes one strategy for A and one for B, not {text!r} for "
                         f"{which} (fcsim tournament plays several)")
    return listed[0].spec


@click.command("compare", short_help="Compare two strategies on the same deals.")
@click.argument("a")
@click.argument("b")
@click.option("--deals", type=Bounded(1, MAX_GAMES), default=5000, show_default=True,
              help="Deals; each is played in its distinct seat rotations.")
@click.option("--players", type=PLAYERS, default=COMPARE_PLAYERS,
              show_default=True, help="Seats, 2 to 7; A and B alternate around the table.")
@click.option("--seed", type=Bounded(0, MAX_SEED, "S"), default=0, show_default=True,
              help="Root seed of the deals, 0 to 2^64 - 1.")
@click.option("--from", "sources", type=click.Path(path_type=Path), multiple=True,
              help="Read an existing duplicate-format run instead of playing; repeat it to "
                   "pool runs of other seeds, deal by deal.")
@click.option("--out", type=click.Path(path_type=Path),
              help="Keep the games in this run folder (default: a temporary one).")
@click.option("--workers", type=int, help="Local worker processes (default: all cores).")
@click.option("--by-round", is_flag=True,
              help="Also show where the difference falls, round by round.")
@rule_options
def compare_command(a, b, deals, players, seed, sources, out, workers, by_round,
                    rules) -> None:
    """Which of two strategies A and B scores less, by how much, and how sure that is:
    both play the same deals in every distinct seat rotation (2 seats unless --players says
    more; at 4, A, B, A, B has 2).

    Example: fcsim compare expected greedy --deals 20000 --players 4
    """
    check_counts({}, None, None, workers)
    a, b = _one_strategy(a, "A"), _one_strategy(b, "B")
    if a == b:
        raise InputError(f"compare two different strategies, not {a} with itself")
    if sources:  # one line, not an error: the runs' own deals and rules are read
        warn_unused(given_options(exclude={"sources", "by_round"}),
                    "--from reads runs as they were played")
        check_run_folders(sources)
        _print_comparison(list(sources), a, b, by_round)
        return
    seating = alternating(a, b, players)
    games = deal_games(seating, deals)
    if games > MAX_GAMES:
        raise InputError(f"--deals {deals:,} at {players} seats are {games:,} games, more "
                         f"than a run holds ({MAX_GAMES:,})")
    rules = replace(rules, players=players)
    folder = out or Path(tempfile.mkdtemp(prefix="fcsim-compare-")) / "run"
    try:
        play_plan(seating, rules, seed, games, folder,
                  duplicate=True, workers=workers, complete=AGAIN if out else None)
        _print_comparison([folder], a, b, by_round)
    finally:
        if out is None:
            shutil.rmtree(folder.parent, ignore_errors=True)
