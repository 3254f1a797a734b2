"""``fcsim simulate``: play many games on every core (or a Dask cluster) into Parquet."""

from __future__ import annotations

import shlex
from dataclasses import replace
from pathlib import Path

import click
from rich.table import Table

from fcsim.cli.options import (
    PLAYERS,
    Bounded,
    dask_options,
    rule_options,
    rule_words,
    table_seats,
    warn_resume_flags_unused,
    warn_rotation_unused,
)
from fcsim.cli.progress import print_table
from fcsim.cli.running import (
    check_counts,
    dask_cluster,
    play_folder,
    prepare_here,
    say_set_aside,
)
from fcsim.core.rules import RuleSet
from fcsim.core.seeds import MAX_SEED
from fcsim.runner import RunFolder, RunFolderError, RunPlan, make_plan
from fcsim.runner.format import DECISIONS, MAX_CHUNK_SIZE, MAX_GAMES, PART_GLOB
from fcsim.runner.plan import CHUNKS_PER_RUN, DEFAULT_CHUNK_SIZE, MIN_DEFAULT_CHUNK_SIZE
from fcsim.runner.pool import Executor, ProcessPool
from fcsim.runner.run import default_workers
from fcsim.runner.store import stored_plan
from fcsim.runner.summary import decision_contents, folder_contents, strategy_stats
from fcsim.strategies import StrategyError, display_name, parse_strategies


def command_line(plan: RunPlan, out: Path) -> str:
    """The ``fcsim simulate`` command that plays ``plan`` into ``out`` (the rule flags
    that differ from the defaults, every other flag that the run's identity needs)."""
    words = ["fcsim", "simulate", "--strategies", ",".join(plan.strategies),
             "--games", str(plan.games), "--seed", str(plan.seed),
             "--chunk-size", str(plan.chunk_size), *rule_words(plan.rules)]
    if plan.duplicate:
        words.append("--duplicate")
    if not plan.seat_rotation:
        words.append("--no-seat-rotation")
    if plan.decisions:
        words.append("--decisions")
    words += ["--out", str(out)]
    return shlex.join(words)


def _plan(strategies: str, games: int, seed: int, out: Path, players: int | None,
          rules: RuleSet, chunk_size: int | None, seat_rotation: bool, duplicate: bool,
          decisions: bool = False) -> RunPlan:
    """The run the flags describe."""
    listed = parse_strategies(strategies)
    rules = replace(rules, players=table_seats(len(listed), players))
    def plan(size: int | None) -> RunPlan:
        return make_plan([s.spec for s in listed], rules, seed, games, duplicate=duplicate,
                         seat_rotation=seat_rotation, chunk_size=size, decisions=decisions)

    planned = plan(chunk_size)
    old = stored_plan(out) if chunk_size is None and out.is_dir() else None
    if old is not None and old.chunk_size != planned.chunk_size and not (
            planned.differences(old)):  # this run, resumed: it goes on in its own chunks
        return plan(old.chunk_size)
    return planned


def _describe(plan: RunPlan, requested: int, workers: str, out: Path) -> None:
    rules = plan.rules
    click.echo(f"{plan.games:,} games of {', '.join(map(display_name, plan.strategies))} "
               f"({rules.rounds} rounds, seed {plan.seed}"
               f"{', duplicate deals' if plan.duplicate else ''}"
               f"{'' if plan.seat_rotation or plan.duplicate else ', no seat rotation'}) "
               f"in {plan.chunk_count:,} chunk{'s' if plan.chunk_count > 1 else ''} of "
               f"{plan.chunk_size:,} on {workers} -> {out}",
               err=True)
    if plan.games != requested:
        click.echo(f"--games rounded up from {requested:,} to {plan.games:,}: the duplicate "
                   f"format plays each deal in its {plan.deal_rotations} distinct seat "
                   f"rotations", err=True)


def _report(plan: RunPlan, folder: RunFolder) -> None:
    """The end-of-run table and where the data is."""
    files = folder.done_files()
    table = Table(title=None, show_edge=False)
    for header in ("strategy", "seats/game", "win %", "mean total"):
        table.add_column(header, justify="left" if header == "strategy" else "right")
    contents = folder_contents(plan, files)
    for stats in strategy_stats(plan, files):
        table.add_row(display_name(stats.strategy), f"{stats.seat_games / contents.games:g}",
                      f"{100 * stats.win_share:.2f}", f"{stats.mean_total:.1f}")
    print_table(table)
    per_row = contents.bytes / max(contents.rows, 1)
    click.echo("win %: share of seat-games won, a win shared by k tied seats counting 1/k "
               "(as in fcsim report)")
    click.echo(f"{contents.games:,} games ({contents.rows:,} rows, "
               f"{contents.bytes / 1e6:,.1f} MB, {per_row:.1f} bytes/row) in "
               f"{contents.chunks} chunk files: {folder.path}/{PART_GLOB}  "
               f"(fcsim info {folder.path})")
    decided = decision_contents(plan, files)
    if decided is not None:
        click.echo(f"{decided.rows:,} decision rows ({decided.bytes / 1e6:,.1f} MB, "
                   f"{decided.bytes / max(decided.rows, 1):.2f} bytes/row): "
                   f"{folder.path}/{DECISIONS}/{PART_GLOB}")


@click.command("simulate", short_help="Play games between strategies into a run folder.")
@click.option("--strategies", required=True,
              help="Comma-separated strategy specs, one per seat, or one for every seat, "
                   "e.g. greedy:take_margin=3,random.")
@click.option("--games", type=Bounded(1, MAX_GAMES), required=True,
              help=f"Number of games (1 to {MAX_GAMES:,}).")
@click.option("--seed", type=Bounded(0, MAX_SEED, "S"), default=0, show_default=True,
              help="Root seed, 0 to 2^64 - 1: the run is a pure function of seed, rules, "
                   "strategies and games.")
@click.option("--out", type=click.Path(path_type=Path), required=True,
              help="Run folder: one Parquet file per chunk.")
@click.option("--players", type=PLAYERS, help="Seats (2 to 7); default: one per strategy "
                                          "listed, or 4 for a single strategy.")
@rule_options
@click.option("--workers", type=int, help="Local worker processes (default: all cores).")
@click.option("--chunk-size", type=Bounded(1, MAX_CHUNK_SIZE),
              help=f"Games per chunk file, 1 to {MAX_CHUNK_SIZE:,} (default: that of the run "
                   f"already in --out, else --games / {CHUNKS_PER_RUN} within "
                   f"{MIN_DEFAULT_CHUNK_SIZE:,} to {DEFAULT_CHUNK_SIZE:,}).")
@click.option("--seat-rotation/--no-seat-rotation", default=True,
              help="Rotate the seating every game so each strategy plays every seat "
                   "(the default), or keep the listed seating.")
@click.option("--duplicate", is_flag=True,
              help="Play every deal in each of its distinct seat rotations (games rounded "
                   "up to whole deals; A, B, A, B has 2).")
@click.option("--decisions", is_flag=True,
              help="Also write one row per turn (draw, discard, penalties, wilds held) to "
                   "OUT/decisions/, for the Decisions part of fcsim report.")
@click.option("--resume", is_flag=True,
              help="Complete the run in --out: play its missing chunks, and again those "
                   "found damaged.")
@click.option("--allow-code-change", is_flag=True,
              help="With --resume: complete a run that other fcsim code started, mixing "
                   "the two in one run.")
@dask_options("run")
def simulate_command(strategies, games, seed, out, players, rules, workers, chunk_size,
                     seat_rotation, duplicate, decisions, resume, allow_code_change, scheduler,
                     dask_local) -> None:
    """Play games between strategies and write one row per game and seat to Parquet.

    Example: fcsim simulate --strategies greedy,random --games 100000 --out results/run
    """
    check_counts({}, scheduler, dask_local, workers)
    warn_resume_flags_unused(resume)
    warn_rotation_unused(duplicate)
    plan = _plan(strategies, games, seed, out, players, rules, chunk_size, seat_rotation,
                 duplicate, decisions)
    folder = RunFolder.open(out, plan, resume, allow_code_change)
    if not folder.missing and not folder.problems:
        click.echo(f"{out} already holds this complete run; nothing to do", err=True)
        _report(plan, folder)
        return
    cluster = dask_cluster(scheduler, dask_local)  # before the folder: an unreachable one fails
    try:
        if not scheduler:  # the workers are this machine's: compile for them here
            prepare_here(plan)
        say_set_aside(folder, folder.create())
        if folder.missing:
            executor = cluster or ProcessPool(max(min(workers or default_workers(),
                                                      len(folder.missing)), 1))
            _play(folder, executor, games)
    except (RunFolderError, StrategyError) as err:  # a Dask worker lacking a plug-in
        raise click.ClickException(str(err)) from None
    finally:
        folder.release()
        if cluster is not None:
            cluster.close()
    _report(plan, folder)


def _play(folder: RunFolder, executor: Executor, requested: int) -> None:
    """Play the missing chunks of a created folder on ``executor``."""
    where = (f"{executor.workers} worker process{'es' if executor.workers > 1 else ''}"
             if isinstance(executor, ProcessPool) else f"Dask ({executor.workers} worker threads)")
    _describe(folder.plan, requested, where, folder.path)
    play_folder(folder, executor)
