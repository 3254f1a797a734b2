"""``fcsim new-strategy NAME``: write a pip-installable package with a starter strategy."""

from __future__ import annotations

from pathlib import Path

import click

from fcsim.cli.options import InputError
from fcsim.scaffold import write_package


@click.command("new-strategy", short_help="Write a pip-installable package for a new strategy.")
@click.argument("name")
@click.option("--numba", is_flag=True,
              help="Decision functions compiled with numba (fast; the default).")
@click.option("--python", is_flag=True,
              help="A Python agent (simplest to write; about 200x slower to play).")
@click.option("--out", type=click.Path(path_type=Path),
              help="Folder of the package [default: ./fcsim-NAME].")
def new_strategy_command(name: str, numba: bool, python: bool, out: Path | None) -> None:
    """Write a package holding strategy NAME: pyproject.toml with the entry point, a
    starter strategy with one parameter, and tests.

    Example: fcsim new-strategy cautious && pip install -e fcsim-cautious && pytest
    fcsim-cautious && fcsim compare cautious greedy
    """
    if numba and python:
        raise InputError("--numba and --python exclude each other: give one of them")
    kind = "python" if python else "numba"
    out = out or Path(f"fcsim-{name}")
    files = write_package(name, kind, out)
    click.echo(f"wrote the {kind} strategy {name!r} in {out}/:")
    for path in files:
        click.echo(f"  {path.relative_to(out)}")
    click.echo(f"next: pip install -e {out} && pytest {out} && fcsim compare {name} greedy")
