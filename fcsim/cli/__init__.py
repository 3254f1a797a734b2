"""The ``fcsim`` command line: one click group; each command lives in its own module."""

from __future__ import annotations

import click

from fcsim import __version__
from fcsim.cli.solve import solve_command


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="fcsim")
def cli() -> None:
    """Simulate Five Crowns at scale and find out which strategies win, by how much, and why."""


cli.add_command(solve_command)


def main() -> None:
    """Console-script entry point."""
    cli()
