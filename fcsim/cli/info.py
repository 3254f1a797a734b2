"""``fcsim info``: what a run folder holds — its run, how much is done and checked, who is
writing it, and the command that plays it again."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import click

from fcsim.cli.simulate import command_line
from fcsim.runner import format as fmt
from fcsim.runner.format import RunFolderError
from fcsim.runner.lock import lock_holder
from fcsim.runner.plan import RunPlan, this_code
from fcsim.runner.store import stored_plan
from fcsim.runner.summary import decision_contents, folder_contents
from fcsim.strategies import display_name

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


def _short(record: str) -> str:
    """A source record with its digest cut to 12 characters, as messages cut them."""
    named, digest, value = record.partition(" sha256 ")
    return f"{named}{digest}{value[:12]}" if digest else record


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
        lines.append(("model", f"{path / MODEL} (sha256 {model.sha256[:12]})"))
    lines.append(("command", command))
    if (path / REPORT_MD).is_file():
        lines.append(("report", str(path / REPORT_MD)))
    return path / GAMES, games, lines


@click.command("info", short_help="Show what a run folder holds and how to play it again.")
@click.argument("path", type=click.Path(exists=True, file_okay=False, path_type=Path))
def info_command(path: Path) -> None:
    """Show the run stored in folder PATH: its code, rules, strategies and seed, the chunks
    done and checked, and the command that plays the run again."""
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
        *[("source", f"{name}: {_short(record)}") for name, record in plan.sources],
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
    for key, value in lines:
        click.echo(f"{key:<11}{value}")
    if check.problems:
        sys.exit(DAMAGED)
