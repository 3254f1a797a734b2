"""``fcsim info``: what a run folder holds (its run's metadata, and how much is done)."""

from __future__ import annotations

from pathlib import Path

import click

from fcsim.runner.store import stored_plan
from fcsim.runner.summary import folder_contents


@click.command("info")
@click.argument("path", type=click.Path(exists=True, file_okay=False, path_type=Path))
def info_command(path: Path) -> None:
    """Show the run stored in folder PATH: version, rules, strategies, seed, progress."""
    plan = stored_plan(path)
    if plan is None:
        raise click.ClickException(f"{path} holds no fcsim run")
    contents = folder_contents(path, plan)
    rules = ", ".join(f"{key}={value}" for key, value in plan.rules.to_dict().items())
    complete = contents.chunks == plan.chunk_count
    lines = [
        ("run", str(path)),
        ("fcsim", plan.fcsim_version),
        ("strategies", ", ".join(plan.strategies)),
        ("rules", rules),
        ("seed", str(plan.seed)),
        ("games", f"{plan.games:,}"),
        ("format", f"duplicate={plan.duplicate}, seat_rotation={plan.seat_rotation}"),
        ("chunks", f"{contents.chunks:,} of {plan.chunk_count:,} "
                   f"({plan.chunk_size:,} games each)"),
        ("present", f"{contents.games:,} games, {contents.rows:,} rows, "
                    f"{contents.bytes / 1e6:,.1f} MB"),
        ("status", "complete" if complete
         else "incomplete: run its fcsim simulate command again with --resume"),
    ]
    for key, value in lines:
        click.echo(f"{key:<11}{value}")
