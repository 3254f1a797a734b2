"""``fcsim info``: what a run folder holds — its run, how much is done and checked, who is
writing it, and the command that plays it again — or what a model file ``fcsim train``
wrote holds: its networks, what they were fitted on and the command that made them."""

from __future__ import annotations

import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import click

from fcsim.cli.simulate import command_line
from fcsim.runner import format as fmt
from fcsim.runner.format import RunFolderError, short_digest, short_record
from fcsim.runner.lock import lock_holder
from fcsim.runner.plan import RunPlan, this_code
from fcsim.runner.store import stored_plan
from fcsim.runner.summary import decision_contents, folder_contents
from fcsim.strategies import display_name

if TYPE_CHECKING:
    from fcsim.strategies.learned.model import Model

DAMAGED = 1  # exit status of a folder with files that fail their checks


def _code_line(plan: RunPlan, codes: set[str]) -> str:
    """The code that played the run, and whether it is this fcsim's."""
    played = codes | {plan.code}
    here = this_code()
    return ", ".join(sorted(played)) + (" (this fcsim)" if played == {here}
                                        else f" (this fcsim is {here})")


def _runs_inside(path: Path) -> str:
    """Where the runs are in a folder that holds runs (a training's games, a sweep's or
    tune's candidates, a tournament's tables), as the end of a line; else nothing."""
    inside = []
    for folder in sorted((*path.glob("*"), *path.glob("*/*"))):
        try:
            if folder.is_dir() and stored_plan(folder) is not None:
                inside.append(folder)
        except RunFolderError:
            continue
    if not inside:
        return ""
    shown = ", ".join(str(f.relative_to(path)) for f in inside[:3])
    more = f" and {len(inside) - 3:,} more" if len(inside) > 3 else ""
    return f" itself; the runs in it: {shown}{more} (fcsim info {inside[0]})"


def _training(path: Path) -> tuple[Path, RunPlan, list[tuple[str, str]]] | None:
    """A training folder's self-play run, and the lines of what the training wrote (its
    model and report, the command that trained it, into ``path``: with ``--resume`` it
    completes it); None for another folder."""
    from fcsim.learn.training import (
        GAMES,
        MODEL,
        REPORT_MD,
        check_training_folder,
        derived_chunks,
    )
    from fcsim.strategies.learned.model import ModelError, load_model

    games = stored_plan(path / GAMES) if (path / GAMES).is_dir() else None
    if games is None:
        return None
    check_training_folder(path)  # nothing but what a training writes
    derived = derived_chunks(path, games)
    lines = [("training", str(path)),
             ("positions", f"{derived:,} of {games.chunk_count:,} chunks derived")]
    try:
        model = load_model(path / MODEL) if (path / MODEL).is_file() else None
    except ModelError as err:
        lines.append(("model", f"unreadable: {err}"))
        model = None
    command = "the fcsim train command that started it"
    if model is not None:
        if "trained_by" in model.metadata:  # --out is where the folder is now, from here
            command = shlex.join([*shlex.split(model.metadata["trained_by"]), "--out", str(path)])
        lines.append(("model", f"{path / MODEL} (sha256 {short_digest(model.sha256)})"))
    lines.append(("command", command))
    if (path / REPORT_MD).is_file():
        lines.append(("report", str(path / REPORT_MD)))
    return path / GAMES, games, lines


NOT_RECORDED = "not recorded"  # provenance a hand-made model file may lack


def _recorded(render: Callable[[], str], missing: str = NOT_RECORDED) -> str:
    """``render()``, or ``missing`` where the metadata it reads is absent or of another
    shape (a hand-made model file plays all the same)."""
    try:
        return render()
    except (KeyError, TypeError, ValueError, AttributeError):
        return missing


def _network_line(arrays: dict, prefix: str, fit: dict | None, rows: str) -> str:
    """A network's shape (its ``prefix``ed arrays) and how well it fitted its held-out
    rows, if the model records it."""
    inputs, hidden = arrays[prefix + "w1"].shape
    shape = f"{inputs} inputs, {hidden} hidden units"
    return f"{shape}; " + _recorded(lambda: (
        f"held-out error {fit['held_out_mse']:.2f} (predicting the mean "
        f"{fit['baseline_mse']:.2f}) on {fit['held_out_positions']:,} {rows}, "
        f"{fit['train_positions']:,} fitted, {fit['epochs']} epochs"), f"fit {NOT_RECORDED}")


def _networks_lines(model: Model, seats: int | None) -> list[tuple[str, str]]:
    """What the networks ``model`` plays at a table of ``seats`` (None: its main ones)
    were fitted on and how well, from the metadata of the training that wrote them."""
    from fcsim.strategies.learned.model import DRAW

    metadata = model.metadata if seats is None else model.metadata["tables"][str(seats)]
    arrays, inputs = model.networks(seats)
    sizes = ([size for size in metadata.get("players", ()) if size not in model.tables]
             if seats is None else [seats])  # the main networks': every other size fitted
    at = f" at {', '.join(map(str, sizes))} players" if sizes else ""
    trained = _recorded(lambda: (
        f"{metadata['games']:,} self-play games of "
        f"{', '.join(metadata.get('strategies', ()))}{at} (seed "
        f"{metadata.get('seed')}, share {metadata.get('share')}, labels "
        f"{metadata.get('labels')})"))
    rules = metadata.get("rules")
    draws = (_network_line(arrays, DRAW, metadata.get("draw_fit"), "draws")
             if DRAW + "w1" in arrays else "no network: draws as expected does")
    return [("trained", trained),
            ("rules", _recorded(lambda: ", ".join(f"{key}={value}" for key, value
                                                  in rules.items()) or NOT_RECORDED)),
            ("discards", f"{inputs} inputs over {model.candidates(seats)} candidates: "
                         f"{_network_line(arrays, '', metadata.get('fit'), 'positions')}"),
            ("draws", draws),
            ("data", _recorded(lambda: f"sha256 {short_digest(metadata['data_sha256'])}")),
            ("command", str(metadata.get("trained_by", NOT_RECORDED)))]


def _model_lines(path: Path) -> list[tuple[str, str]]:
    """What model file ``path`` holds: its format, the table sizes of its networks, and
    for each set of networks what it was fitted on (:func:`_networks_lines`)."""
    from fcsim.strategies.learned.model import DEFAULT_MODEL, load_model

    model = load_model(str(path))  # checked whole: a bad file is one ModelError line
    metadata = model.metadata
    shipped = "; learned plays it by default" if path.resolve() == DEFAULT_MODEL.resolve() else ""
    draw_set = (f", draw feature set {metadata['draw_feature_set']}" if model.plays_draws
                else "")
    own = ", ".join(map(str, model.tables))
    size = path.stat().st_size / 1e3
    lines = [("model", f"{path} (sha256 {short_digest(model.sha256)}, {size:,.0f} KB){shipped}"),
             ("format", f"{metadata['format']} {metadata.get('version', NOT_RECORDED)}: "
                        f"feature set "
                        f"{metadata['feature_set']}{draw_set}; written by fcsim "
                        f"{metadata.get('fcsim_version', NOT_RECORDED)}"),
             ("tables", f"networks of their own at {own} players, the main ones at every "
                        f"other size" if own else "the main networks at every table size")]
    for seats in (None, *model.tables):
        lines.append(("networks", "main" if seats is None else f"at {seats} players"))
        lines += [(f"  {key}", value) for key, value in _networks_lines(model, seats)]
    lines.append(("plays as", f"learned:model={path}"))
    return lines


def _echo(lines: list[tuple[str, str]]) -> None:
    """Each (key, value) line, the values in a column."""
    for key, value in lines:
        click.echo(f"{key:<11}{value}")


@click.command("info", short_help="Show what a run folder or a model file holds.")
@click.argument("path", type=click.Path(exists=True, path_type=Path))
def info_command(path: Path) -> None:
    """Show the run stored in folder PATH: its code, rules, strategies and seed, the chunks
    done and checked, and the command that plays the run again. For a model file fcsim
    train wrote: its networks, what each was fitted on, how well, and the command that
    made it."""
    if path.is_file():
        _echo(_model_lines(path))
        return
    try:
        plan = stored_plan(path)
        training = _training(path) if plan is None else None
    except RunFolderError as err:
        raise click.ClickException(str(err)) from None
    if training is not None:
        path, plan, extra = training
    elif plan is None:
        raise click.ClickException(f"{path} holds no fcsim run{_runs_inside(path)}")
    else:
        extra = []
    check = fmt.check_folder(path, plan.metadata())
    contents = folder_contents(plan, {i: c.path for i, c in check.chunks.items()})
    decided = decision_contents(plan, {i: c.path for i, c in check.chunks.items()})
    rules = ", ".join(f"{key}={value}" for key, value in plan.rules.to_dict().items())
    command = dict(extra).get("command") or command_line(plan, path)
    resume = f"{command} --resume"
    writer = lock_holder(path)
    if check.problems:
        again = " and play them again" if any(p.replayed for p in check.problems) else ""
        status = (f"damaged: {fmt.describe_problems(check.problems)}; run {resume} to set "
                  f"them aside{again}")
    elif contents.chunks == plan.chunk_count:
        status = "complete"
    elif writer:
        status = "being written"
    else:
        status = f"incomplete: run {resume} to complete it"
    lines = [
        ("run", str(path)),
        ("code", _code_line(plan, {c.code for c in check.chunks.values()})),
        ("strategies", ", ".join(map(display_name, plan.strategies))),
        *[("source", f"{name}: {short_record(record)}") for name, record in plan.sources],
        ("rules", rules),
        ("seed", str(plan.seed)),
        ("games", f"{plan.games:,}"),
        ("format", f"duplicate={plan.duplicate}, seat_rotation={plan.seat_rotation}"),
        ("chunks", f"{contents.chunks:,} of {plan.chunk_count:,} "
                   f"({plan.chunk_size:,} game{'s' if plan.chunk_size > 1 else ''} each), "
                   f"each checked"),
        ("present", f"{contents.games:,} games, {contents.rows:,} rows, "
                    f"{contents.bytes / 1e6:,.1f} MB"),
        *([("decisions", f"{decided.rows:,} rows (one a turn), {decided.bytes / 1e6:,.1f} MB "
                         f"in {path / fmt.DECISIONS}")] if decided else []),
        *([("writer", writer)] if writer else []),
        ("status", status),
        *[(key, value) for key, value in extra if key != "command"],
        ("command", command if training is None else resume),  # a training's continues
    ]
    _echo(lines)
    if check.problems:
        sys.exit(DAMAGED)
