"""The ``fcsim`` command line: one click group; each command lives in its own module.

A command's module is imported when the command is run (or its help shown), not before:
``fcsim info`` does not load the solver, ``fcsim solve`` does not load polars.
"""

from __future__ import annotations

import gc
import importlib
from collections.abc import Iterator, MutableMapping

import click

from fcsim import __version__

# Each command's module and attribute, in the order the commands were added.
COMMAND_MODULES = {
    "solve": "fcsim.cli.solve:solve_command",
    "strategies": "fcsim.cli.strategies:strategies_command",
    "replay": "fcsim.cli.replay:replay_command",
    "play": "fcsim.cli.play:play_command",
    "advise": "fcsim.cli.advise:advise_command",
    "simulate": "fcsim.cli.simulate:simulate_command",
    "info": "fcsim.cli.info:info_command",
    "report": "fcsim.cli.report:report_command",
    "compare": "fcsim.cli.compare:compare_command",
    "tournament": "fcsim.cli.tournament:tournament_command",
    "sweep": "fcsim.cli.sweep:sweep_command",
    "tune": "fcsim.cli.tune:tune_command",
    "train": "fcsim.cli.train:train_command",
    "new-strategy": "fcsim.cli.new_strategy:new_strategy_command",
}


class LazyCommands(MutableMapping):
    """A group's commands by name, each imported from ``module:attribute`` on first use
    (click's ``Group`` reads ``commands`` only through the mapping)."""

    def __init__(self, where: dict[str, str]) -> None:
        self._where = dict(where)
        self._loaded: dict[str, click.Command] = {}

    def __getitem__(self, name: str) -> click.Command:
        if name not in self._loaded:
            module, attribute = self._where[name].split(":")  # KeyError: no such command
            self._loaded[name] = getattr(importlib.import_module(module), attribute)
        return self._loaded[name]

    def __setitem__(self, name: str, command: click.Command) -> None:
        self._where.pop(name, None)
        self._loaded[name] = command

    def __delitem__(self, name: str) -> None:
        self._where.pop(name, None)
        self._loaded.pop(name, None)

    def __iter__(self) -> Iterator[str]:
        return iter({**self._where, **self._loaded})

    def __len__(self) -> int:
        return len({**self._where, **self._loaded})

    def __contains__(self, name: object) -> bool:
        return name in self._where or name in self._loaded


@click.group(context_settings={"help_option_names": ["-h", "--help"]},
             commands=LazyCommands(COMMAND_MODULES))
@click.version_option(__version__, prog_name="fcsim")
def cli() -> None:
    """Simulate Five Crowns at scale and find out which strategies win, by how much, and why."""


def main() -> None:
    """Console-script entry point.

    The process's objects are frozen out of the garbage collector before it exits: after
    compiling the kernels it holds many of numba's and LLVM's, and collecting them for
    nothing took 1.2 s of every first run's exit (0.3 s once they load from the cache).
    """
    try:
        cli()
    finally:
        gc.freeze()
