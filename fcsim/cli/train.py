"""``fcsim train``: self-play games, training positions, a fitted model and its report."""

from __future__ import annotations

import json
import shlex
import shutil
from collections.abc import Callable
from dataclasses import replace
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING

import click
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from fcsim.cli.options import (
    PLAYERS,
    Bounded,
    InputError,
    dask_options,
    given_options,
    rule_options,
    rule_words,
    warn_resume_flags_unused,
    warn_unused,
)
from fcsim.cli.running import (
    check_counts,
    dask_cluster,
    play_folder,
    prepare_here,
    say_set_aside,
    stops_saying,
)
from fcsim.core.rules import DEFAULT_PLAYERS
from fcsim.core.seeds import MAX_SEED
from fcsim.errors import Fault, differences
from fcsim.learn.sampling import LABELS, MAX_CANDIDATES, ROLLOUTS, Sampling
from fcsim.runner import RunFolder, RunPlan, make_plan
from fcsim.runner.format import MAX_GAMES, RunFolderError, alternating, distinct_rotations
from fcsim.runner.lock import FolderLock
from fcsim.runner.pool import ProcessPool
from fcsim.runner.run import deal_games, default_workers
from fcsim.runner.store import new_folder, unwritable
from fcsim.strategies import parse_strategies

if TYPE_CHECKING:
    from fcsim.learn.fit import FitResult

DEFAULT_STRATEGIES = "aware,expected"
# The flags that change the model fitted on the same games (the others name the games, or
# only the strength check).
FIT_FLAGS = ("--share", "--labels", "--candidates", "--hidden", "--epochs", "--pool",
             "--table-model")
MIN_RECORDED_GAMES = 5  # games x share below this hold too few positions to fit anything


def _progress(label: str, unit: str) -> Progress:
    return Progress(TextColumn(label), BarColumn(),
                    TextColumn(f"{{task.completed:,.0f}}/{{task.total:,.0f}} {unit}"),
                    TimeElapsedColumn(), console=Console(stderr=True))


@click.command("train", short_help="Learn an evaluator from self-play games.")
@click.option("--strategies", default=DEFAULT_STRATEGIES, show_default=True,
              help="The self-play lineup: comma-separated specs, repeated around the table "
                   "(seats rotate every game).")
@click.option("--games", type=Bounded(1, MAX_GAMES), required=True,
              help="Self-play games to learn from.")
@click.option("--seed", type=Bounded(0, MAX_SEED, "S"), default=0, show_default=True,
              help="Root seed of the games, the sampling and the fit.")
@click.option("--out", type=click.Path(path_type=Path), required=True,
              help="Training folder: games/, positions/, model.npz, report.md/.html.")
@click.option("--players", type=PLAYERS,
              default=DEFAULT_PLAYERS, show_default=True,
              help="Seats at the table.")
@rule_options
@click.option("--share", type=click.FloatRange(0.001, 1.0), default=Sampling.share,
              show_default=True,
              help="Share of the discards (and draws) recorded as training positions.")
@click.option("--labels", type=click.Choice(LABELS), default=Sampling.labels, show_default=True,
              help="What a position is labelled with: outcome (the round's outcome of the "
                   "discard made) or rollouts (each of the --candidates best discards now "
                   "played out to the round's end, labelled with its advantage; and the "
                   "draws worth weighing, both sources played out: the model then draws "
                   "too).")
@click.option("--candidates", type=click.IntRange(2, MAX_CANDIDATES),
              default=Sampling.candidates, show_default=True,
              help="Discards played out per position (--labels rollouts); learned plays the "
                   "model on as many.")
@click.option("--hidden", type=click.IntRange(1, 1024), default=24, show_default=True,
              help="Hidden units of the network.")
@click.option("--epochs", type=click.IntRange(1, 1000), default=6, show_default=True,
              help="Passes over the training positions.")
@click.option("--check-deals", type=click.IntRange(0, MAX_GAMES), default=100,
              show_default=True, help="Fresh deals of the strength check: the new model "
                                      "against the lineup's first strategy (0: none).")
@click.option("--pool", "pools", multiple=True, metavar="DIR",
              type=click.Path(path_type=Path, file_okay=False),
              help="Fit on the positions of this training folder too (repeatable): games "
                   "of another table size or seed, labelled alike. The model records "
                   "every table size it was fitted on.")
@click.option("--table-model", "tables", multiple=True, metavar="MODEL",
              type=click.Path(path_type=Path, dir_okay=False),
              help="A model fcsim train wrote at another table size (repeatable): the model "
                   "written holds its networks too, and learned plays them at that size.")
@click.option("--workers", type=int,
              help="Local worker processes (default: all cores); with Dask, those that "
                   "derive the positions and play the strength check.")
@click.option("--resume", is_flag=True, help="Complete the training in --out.")
@click.option("--allow-code-change", is_flag=True,
              help="With --resume: complete self-play games that other fcsim code started, "
                   "mixing the two in one run (the positions are derived again).")
@dask_options("play")
def train_command(strategies, games, seed, out, players, rules, share, labels, candidates,
                  hidden, epochs, check_deals, pools, tables, workers, resume,
                  allow_code_change, scheduler, dask_local) -> None:
    """Learn the value of a discard (and, with rollouts, of a draw) from self-play games
    and write OUT/model.npz, played by the strategy learned:model=OUT/model.npz.

    Example: fcsim train --games 2000 --out results/train

    The defaults fit a small model in minutes; the shipped model's recipe is --games 20000
    --share 0.5 --hidden 64 --epochs 30, at 2 and at 4 seats
    (scripts/train_default_model.sh: 28 to 42 minutes on 2 cores).
    """
    from fcsim.learn.fit import fit
    from fcsim.learn.report import write_report
    from fcsim.learn.training import (
        GAMES,
        MODEL,
        REPORT_HTML,
        REPORT_MD,
        check_training_folder,
        derive_positions,
        pooled_positions,
        save_model,
    )
    from fcsim.strategies.learned.model import FEATURES_ONLY, RELATIVE, model_path

    check_counts({}, scheduler, dask_local, workers, local_steps=True)
    warn_resume_flags_unused(resume)
    if labels != ROLLOUTS:
        warn_unused(given_options(only={"candidates"}), f"--labels {labels} plays nothing out")
    if games * share < MIN_RECORDED_GAMES:
        raise InputError(f"--games {games:,} at --share {share:g} are too few to fit anything "
                         f"(games x share must be at least {MIN_RECORDED_GAMES})")
    lineup = parse_strategies(strategies)
    oracles = [s.spec for s in lineup if s.oracle]
    if oracles:
        raise InputError(f"{oracles[0]} sees hidden cards (analysis only): the self-play "
                         f"lineup of fcsim train plays fair strategies")
    written = (out / MODEL).resolve()
    playing = [s.spec for s in lineup
               if any(model_path(path).resolve() == written for path in s.paths.values())]
    if playing:
        raise InputError(f"{playing[0]} plays {out / MODEL}, the file this training writes: "
                         f"copy it elsewhere and play the copy")
    listed = [s.spec for s in lineup]
    if len(listed) > players:
        raise InputError(f"{len(listed)} strategies for --players {players}: list at most one "
                         f"per seat")
    rules = replace(rules, players=players)
    check_games = check_deals * distinct_rotations(_check_seating(out, listed[0], players))
    if check_games > MAX_GAMES:
        raise InputError(f"--check-deals {check_deals:,} plays {check_games:,} games at "
                         f"{players} players: at most {MAX_GAMES:,}")
    seating = [listed[seat % len(listed)] for seat in range(players)]
    plan = make_plan(seating, rules, seed, games)
    # outcome labels play nothing out: --candidates is not used, and not recorded either
    sampling = Sampling(share, labels, candidates if labels == ROLLOUTS
                        else Sampling.candidates)
    pooled = [pooled_positions(folder, plan, sampling) for folder in pools]  # checked first
    decided = [_games_of(plan), *(_games_of(run) for _, run in pooled)]
    if len(set(decided)) < len(decided):
        raise InputError("--pool names a run twice, or the run of --out, or a run of the same "
                         "seed, lineup and rules (its first games are those games again, "
                         "whatever code played them): their positions would count twice")
    _check_tables(tables, [plan.players, *(run.players for _, run in pooled)],
                  plan.metadata()["rules"])
    check_training_folder(out)
    folder = RunFolder.open(out / GAMES, plan, resume, allow_code_change)
    plan = folder.plan  # resumed: as the games folder first recorded it
    command = shlex.join(["fcsim", "train", "--strategies", ",".join(listed), "--games",
                          str(games), "--seed", str(seed), "--players", str(players),
                          *rule_words(rules), "--share", f"{share:g}", "--labels", labels,
                          *(["--candidates", str(candidates)] if labels == ROLLOUTS else []),
                          "--hidden", str(hidden), "--epochs", str(epochs),
                          "--check-deals", str(check_deals),
                          *[word for folder in pools for word in ("--pool", str(folder))],
                          *[word for table in tables for word in ("--table-model", str(table))]])
    if resume:
        _say_refitted(out / MODEL, command)
    cluster = dask_cluster(scheduler, dask_local)
    try:
        if (folder.missing or folder.problems) and not scheduler:  # this machine works
            prepare_here(plan)
        _hold_training_folder(out)  # after the kernels: one that does not compile leaves none
        say_set_aside(folder, folder.create())
        if folder.missing:
            executor = cluster or ProcessPool(max(min(workers or default_workers(),
                                                      len(folder.missing)), 1))
            play_folder(folder, executor, label="self-play")
    finally:
        folder.release()
        if cluster is not None:
            cluster.close()
    with stops_saying(lambda: f"the games and the positions done are kept in {out}; run "
                      f"the same command with --resume to complete it."):
        with _progress("positions", "games") as progress:
            task = progress.add_task("positions", total=plan.games)
            paths = derive_positions(plan, out, sampling, workers or default_workers(),
                                     lambda n: progress.advance(task, n),
                                     lambda: _say_compiling_positions(plan))
        paths += [path for pooled_paths, _ in pooled for path in pooled_paths]
        rollouts = labels == ROLLOUTS  # the draws are recorded with rollouts only
        networks = "the discards', then the draws' network" if rollouts else "the network"
        with _progress(f"fit ({networks})", "epochs") as progress:
            task = progress.add_task("fit", total=epochs * (2 if rollouts else 1))
            result = fit(paths, seed=seed, hidden=hidden, epochs=epochs,
                         inputs=RELATIVE if rollouts else FEATURES_ONLY,
                         on_epoch=lambda *_: progress.advance(task))
            draw = (_draw_network(paths, seed, hidden, epochs,
                                  lambda *_: progress.advance(task)) if rollouts else None)
        for report in (REPORT_MD, REPORT_HTML):  # they describe the model being replaced
            (out / report).unlink(missing_ok=True)
        model = save_model(out, result, plan, sampling, hidden, paths, command, draw,
                           [run.players for _, run in pooled], tables)
    check = _strength_check(out, listed[0], rules, seed, check_deals, workers)
    write_report(out, model, result, check, draw)
    click.echo(f"model: {out / MODEL} (held-out error {result.held_out_loss[-1]:.1f}, "
               f"predicting the mean {result.baseline_loss:.1f}); report: {out / REPORT_MD}")
    if check is not None:
        click.echo(f"strength check: {check['line']}")


def _fit_flags(command: str) -> dict[str, str]:
    """The values of the :data:`FIT_FLAGS` in a ``fcsim train`` command line (a repeated
    flag's joined by spaces)."""
    words = shlex.split(command)
    values: dict[str, list[str]] = {}
    for flag, value in pairwise(words):
        if flag in FIT_FLAGS:
            values.setdefault(flag, []).append(value)
    return {flag: " ".join(value) for flag, value in values.items()}


def _say_refitted(model: Path, command: str) -> None:
    """One line when the model a resumed training replaces was fitted with other flags
    than ``command``'s: what changed, and that it is fitted again."""
    from fcsim.strategies.learned.model import ModelError, load_model

    try:
        trained_by = load_model(model).metadata.get("trained_by") if model.is_file() else None
    except ModelError:  # replaced all the same
        return
    if trained_by is None:
        return
    changed = differences(_fit_flags(command), _fit_flags(trained_by), FIT_FLAGS,
                          lambda value: value or "none")
    if changed:
        click.echo(f"{model} was fitted with other flags ({'; '.join(changed)}): it is "
                   f"fitted again", err=True)


def _say_compiling_positions(plan: RunPlan) -> None:
    """Say that the kernels deriving the positions are compiled (once, in this process,
    before the workers start), as the games' kernels are announced."""
    click.echo(f"compiling the kernels that derive the positions of {', '.join(plan.lineup)} "
               f"at {plan.players} seats; this happens once, later runs load them from the "
               f"cache", err=True)


def _hold_training_folder(out: Path) -> None:
    """Take ``out``'s write lock until the command ends: one training writes a training
    folder at a time (its games folder has a lock of its own; the positions, the model and
    the reports are written here). A folder another training holds is one line, exit code
    1, as a run folder's."""
    new_folder(out)
    lock = FolderLock(out)
    try:
        lock.acquire()
    except OSError as err:
        raise unwritable(out, err) from None
    click.get_current_context().call_on_close(lock.release)


def _games_of(plan: RunPlan) -> str:
    """What decides a run's games, bar their number and the code: two runs alike in it
    play the same first games (game g's deal and seats follow from the seed alone)."""
    return json.dumps({key: plan.metadata()[key] for key in
                       ("rules", "strategies", "seed", "duplicate", "seat_rotation")},
                      sort_keys=True)


def _check_tables(tables: tuple[Path, ...], players: list[int], rules: dict) -> None:
    """Each --table-model a model of one other table size and the same rules, before any
    game is played (:func:`~fcsim.strategies.learned.model.table_seats`)."""
    from fcsim.strategies.learned.model import load_model, table_seats

    for table in tables:
        players = [*players, table_seats(load_model(table), str(table), players, rules)]


def _draw_network(paths: list[Path], seed: int, hidden: int, epochs: int,
                  on_epoch: Callable[..., None]) -> FitResult | None:
    """The draw network fitted on the draw rows, or None, with one warning line, when they
    are too few: the model then draws as ``expected``, its discards learned all the same."""
    from fcsim.learn.fit import DRAWS, FitError, fit

    try:
        return fit(paths, seed=seed, hidden=hidden, epochs=epochs, inputs=DRAWS,
                   on_epoch=on_epoch)
    except FitError as err:
        click.echo(f"warning: {err}; the model draws as expected", err=True)
        return None


def _check_seating(out: Path, against: str, players: int) -> list[str]:
    """The strength check's seats: the model ``out`` writes and ``against`` in turn."""
    from fcsim.learn.training import MODEL

    return alternating(f"learned:model={out / MODEL}", against, players)


def _strength_check(out: Path, against: str, rules, seed: int, deals: int,
                    workers: int | None) -> dict | None:
    """The new model against ``against`` on ``deals`` fresh deals (root seed ``seed + 1``,
    0 after the largest seed: none of the training games), or None."""
    if deals == 0:
        return None
    from fcsim.analysis import load_results
    from fcsim.analysis.stats import bounds_cell, paired_comparison
    from fcsim.cli.running import RESUME, play_plan
    from fcsim.learn.training import CHECK

    seating = _check_seating(out, against, rules.players)
    learned = seating[0]
    if against == learned:
        return None
    folder = out / CHECK

    def play() -> None:
        play_plan(seating, rules, (seed + 1) % (MAX_SEED + 1), deal_games(seating, deals),
                  folder, duplicate=True, workers=workers, complete=RESUME,
                  label="strength check")

    try:
        play()  # an interrupted check of this very model goes on
    except Fault:  # busy, or not writable (a full disk): what it holds is kept
        raise
    except RunFolderError:  # the check of another model (it records the model's SHA-256)
        shutil.rmtree(folder)
        play()
    row = paired_comparison(load_results(folder), [(learned, against)]).row(0, named=True)
    line = (f"learned - {against}: {row['mean_diff']:+.2f} points per game, 95% CI "
            f"{bounds_cell(row['mean_diff_lo'], row['mean_diff_hi'])} over {deals:,} fresh "
            f"deals at {rules.players} players")
    return {"line": line, "against": against, "deals": deals, **row}
