"""The ``fcsim`` command line: one click group; each command lives in its own module."""

from __future__ import annotations

import click

from fcsim import __version__
from fcsim.cli.advise import advise_command
from fcsim.cli.compare import compare_command
from fcsim.cli.info import info_command
from fcsim.cli.new_strategy import new_strategy_command
from fcsim.cli.play import play_command
from fcsim.cli.replay import replay_command
from fcsim.cli.report import report_command
from fcsim.cli.simulate import simulate_command
from fcsim.cli.solve import solve_command
from fcsim.cli.strategies import strategies_command
from fcsim.cli.sweep import sweep_command
from fcsim.cli.tournament import tournament_command
from fcsim.cli.tune import tune_command


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="fcsim")
def cli() -> None:
    """Simulate Five Crowns at scale and find out which strategies win, by how much, and why."""


for command in (solve_command, strategies_command, replay_command, play_command, advise_command,
                simulate_command, info_command, report_command, compare_command,
                tournament_command, sweep_command, tune_command, new_strategy_command):
    cli.add_command(command)


def main() -> None:
    """Console-script entry point."""
    cli()
