"""``fcsim simulate``: play many games on every core (or a Dask cluster) into Parquet."""

from __future__ import annotations

from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

from fcsim.cli.options import make_rules, rule_options
from fcsim.cli.running import InputError, play_folder
from fcsim.runner import PlanError, RunFolder, RunFolderError, RunPlan, make_plan
from fcsim.runner.plan import DEFAULT_CHUNK_SIZE
from fcsim.runner.pool import Executor, ProcessPool
from fcsim.runner.run import default_workers
from fcsim.runner.store import stored_plan
from fcsim.runner.summary import folder_contents, strategy_stats
from fcsim.strategies import StrategyError, parse_strategies


def _players(count: int, players: int | None) -> int:
    """Seats at the table: --players, else one per listed strategy (4 for a single one)."""
    if players is None:
        return count if count > 1 else 4
    if count > 1 and count != players:
        raise InputError(f"{count} strategies for --players {players}: "
                         f"give one strategy, or one per player")
    return players


def _check_counts(games: int, workers: int | None, chunk_size: int | None,
                  scheduler: str | None, dask_local: int | None) -> None:
    for flag, value in (("--games", games), ("--workers", workers),
                        ("--chunk-size", chunk_size), ("--dask-local", dask_local)):
        if value is not None and value < 1:
            raise InputError(f"{flag} must be at least 1, not {value}")
    if scheduler and dask_local:
        raise InputError("give --scheduler or --dask-local, not both")
    if workers is not None and (scheduler or dask_local):
        raise InputError("--workers is for local runs; a Dask cluster brings its own workers")


def _plan(strategies: str, games: int, seed: int, out: Path, players: int | None,
          rule_flags: dict, chunk_size: int | None, seat_rotation: bool, duplicate: bool,
          resume: bool) -> RunPlan:
    """The run the flags describe; every problem becomes an :class:`InputError`."""
    try:
        listed = parse_strategies(strategies)
        rules = make_rules(players=_players(len(listed), players), **rule_flags)
        if chunk_size is None:
            old = stored_plan(out) if out.is_dir() else None
            chunk_size = old.chunk_size if old else DEFAULT_CHUNK_SIZE
        return make_plan([s.spec for s in listed], rules, seed, games, duplicate=duplicate,
                         seat_rotation=seat_rotation, chunk_size=chunk_size)
    except click.UsageError as err:
        raise InputError(err.message) from None
    except (StrategyError, PlanError) as err:
        raise InputError(str(err)) from None


def _executor(workers: int | None, chunks: int, scheduler: str | None,
              dask_local: int | None) -> Executor:
    """A process pool, or a Dask cluster (connected or started here)."""
    if not (scheduler or dask_local):
        return ProcessPool(max(min(workers or default_workers(), chunks), 1))
    try:
        from fcsim.runner.cluster import ClusterError, DaskCluster
    except ImportError:
        raise click.ClickException("Dask is not installed: pip install 'fcsim[dask]'") from None
    if dask_local:
        return DaskCluster.local(dask_local)
    try:
        return DaskCluster.connect(scheduler)
    except ClusterError as err:
        raise click.ClickException(str(err)) from None


def _describe(plan: RunPlan, requested: int, workers: str, out: Path) -> None:
    rules = plan.rules
    click.echo(f"{plan.games:,} games of {', '.join(plan.strategies)} "
               f"({rules.rounds} rounds, seed {plan.seed}"
               f"{', duplicate deals' if plan.duplicate else ''}"
               f"{'' if plan.seat_rotation or plan.duplicate else ', no seat rotation'}) "
               f"on {workers} -> {out}", err=True)
    if plan.games != requested:
        click.echo(f"--games rounded up from {requested:,} to {plan.games:,}: the duplicate "
                   f"format plays each deal in all {plan.players} seat rotations", err=True)


def _report(plan: RunPlan, out: Path) -> None:
    """The end-of-run table and where the data is."""
    table = Table(title=None, show_edge=False)
    for header in ("strategy", "seats/game", "win %", "mean total"):
        table.add_column(header, justify="left" if header == "strategy" else "right")
    contents = folder_contents(out, plan)
    for stats in strategy_stats(out, plan):
        table.add_row(stats.strategy, f"{stats.seat_games / contents.games:g}",
                      f"{100 * stats.win_rate:.2f}", f"{stats.mean_total:.1f}")
    Console(highlight=False).print(table)
    per_row = contents.bytes / max(contents.rows, 1)
    click.echo(f"{contents.games:,} games ({contents.rows:,} rows, "
                  f"{contents.bytes / 1e6:,.1f} MB, {per_row:.1f} bytes/row) in "
                  f"{contents.chunks} chunk files: {out}/part-*.parquet  "
                  f"(fcsim info {out})")


@click.command("simulate")
@click.option("--strategies", required=True,
              help="Comma-separated strategy specs, one per seat, or one for every seat, "
                   "e.g. greedy:take_margin=3,random.")
@click.option("--games", type=int, required=True, help="Number of games.")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), default=0, show_default=True,
              help="Root seed: the run is a pure function of seed, rules, strategies, games.")
@click.option("--out", type=click.Path(path_type=Path), required=True,
              help="Run folder: one Parquet file per chunk.")
@click.option("--players", type=int, help="Seats (2–7); default: one per strategy listed, "
                                          "or 4 for a single strategy.")
@rule_options
@click.option("--workers", type=int, help="Local worker processes [default: all cores].")
@click.option("--chunk-size", type=int,
              help=f"Games per chunk file [default: {DEFAULT_CHUNK_SIZE:,}, or that of the run "
                   f"already in --out].")
@click.option("--seat-rotation/--no-seat-rotation", default=True, show_default=True,
              help="Rotate the seating every game so each strategy plays every seat.")
@click.option("--duplicate", is_flag=True,
              help="Play every deal in all seat rotations (games rounded up to a multiple "
                   "of the players).")
@click.option("--resume", is_flag=True, help="Complete an interrupted run in --out.")
@click.option("--scheduler", metavar="tcp://HOST:PORT", help="Run on this Dask scheduler.")
@click.option("--dask-local", type=int, metavar="N",
              help="Start a local Dask cluster of N workers and run on it.")
def simulate_command(strategies, games, seed, out, players, short, wild_penalty, go_out_bonus,
                     no_all_wild_melds, turn_cap, workers, chunk_size, seat_rotation, duplicate,
                     resume, scheduler, dask_local) -> None:
    """Play games between strategies and write one row per game and seat to Parquet.

    Example: fcsim simulate --strategies greedy,random --games 100000 --out results/run
    """
    _check_counts(games, workers, chunk_size, scheduler, dask_local)
    rule_flags = {"short": short, "wild_penalty": wild_penalty, "go_out_bonus": go_out_bonus,
                  "no_all_wild_melds": no_all_wild_melds, "turn_cap": turn_cap}
    plan = _plan(strategies, games, seed, out, players, rule_flags, chunk_size, seat_rotation,
                 duplicate, resume)
    try:
        folder = RunFolder.open(out, plan, resume)
    except RunFolderError as err:
        raise InputError(str(err)) from None
    if not folder.missing:
        click.echo(f"{out} already holds this complete run; nothing to do", err=True)
        _report(plan, out)
        return
    executor = _executor(workers, len(folder.missing), scheduler, dask_local)
    where = (f"Dask ({executor.workers} worker threads)" if scheduler or dask_local else
             f"{executor.workers} worker process{'es' if executor.workers > 1 else ''}")
    try:
        folder.create()
        _describe(plan, games, where, out)
        play_folder(folder, executor)
    except (RunFolderError, StrategyError) as err:  # a Dask worker lacking a plug-in
        raise click.ClickException(str(err)) from None
    finally:
        executor.close()
    _report(plan, out)
