"""The ``fcsim`` command line: one click group; each command lives in its own module.

A command's module is imported when the command is run (or its help shown), not before:
``fcsim info`` does not load the solver, ``fcsim solve`` does not load polars, and
``fcsim --help`` reads each command's line from its module's source, loading none.

Three things every command does the same way are done here, once: an :class:`FcsimError`
is one line on stderr and exit code 2, a worker process lost mid-run one line and exit
code 1, and Ctrl-C at any moment one line and exit code 130; SIGTERM the same, with exit
code 143 (a command that has more to say, such as which chunks were kept, says it).
"""

from __future__ import annotations

import ast
import gc
import importlib
import importlib.util
import inspect
import sys
from collections.abc import Iterator, MutableMapping
from contextlib import contextmanager
from typing import NoReturn

import click

from fcsim._version import __version__
from fcsim.errors import Fault, FcsimError
from fcsim.runner.stops import how_stopped, watch_stops

FAULT = click.ClickException.exit_code  # a command stopped by a fault, not its input

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
            try:
                self._loaded[name] = getattr(importlib.import_module(module), attribute)
            except KeyError as err:
                # A fault inside the command's imports, not an unknown command: click asks
                # through ``get``, which would turn it into "No such command 'NAME'".
                raise ImportError(f"importing the {name} command ({module}) failed: "
                                  f"KeyError: {err}") from err
        return self._loaded[name]

    def short_help(self, name: str) -> str | None:
        """The command's line in the group's help, read from its module's source without
        importing it: the ``short_help`` of its ``@click.command``. None where that is not
        all the decorator says of its help (the command is then imported and asked)."""
        if name in self._loaded or name not in self._where:
            return None
        module, attribute = self._where[name].split(":")
        spec = importlib.util.find_spec(module)
        if spec is None or spec.origin is None:
            return None
        with open(spec.origin, encoding="utf-8") as source:
            tree = ast.parse(source.read())
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name == attribute:
                return _declared_short_help(node)
        return None

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


def _declared_short_help(function: ast.FunctionDef) -> str | None:
    """The literal ``short_help`` of ``function``'s ``@click.command(...)``, if that is the
    only keyword that changes how the group lists it."""
    for decorator in function.decorator_list:
        if (isinstance(decorator, ast.Call) and ast.unparse(decorator.func) == "click.command"):
            keywords = {k.arg: k.value for k in decorator.keywords}
            text = keywords.get("short_help")
            if ({"hidden", "deprecated"} & keywords.keys() or not isinstance(text, ast.Constant)
                    or not isinstance(text.value, str)):
                return None
            return inspect.cleandoc(text.value).strip()
    return None


class InputError(FcsimError, click.ClickException):
    """Bad input: one line on stderr, exit code 2 (how any :class:`FcsimError` is shown)."""

    exit_code = 2


class Interrupted(FcsimError, click.ClickException):
    """Ctrl-C or SIGTERM as the command line shows it: one line, exit code 130 or 143
    (click's own is "Aborted!" and 1)."""

    def __init__(self) -> None:
        word, self.exit_code = how_stopped()
        super().__init__(f"{word}.")

    def show(self, file=None) -> None:
        click.echo(self.message, file=file, err=True)


@contextmanager
def one_line():
    """Turn an :class:`FcsimError` (a :class:`~fcsim.errors.Fault` among them), a flag
    click refuses, a file the system refuses or Ctrl-C into its one line on stderr and
    exit code."""
    try:
        yield
    except click.UsageError as err:  # click's own shows the usage and a hint around it
        raise InputError(err.format_message()) from None
    except click.ClickException:
        raise
    except Fault as err:  # not bad input: exit code 1
        raise click.ClickException(str(err)) from None
    except BrokenPipeError:  # output piped into a reader that stopped: nothing to say
        raise
    except OSError as err:  # a folder that cannot be made, a full disk, no permission
        raise click.ClickException(system_refusal(err)) from None
    except FcsimError as err:
        raise InputError(str(err)) from None
    except KeyboardInterrupt:
        raise Interrupted() from None


def exit_stopped(what: str) -> NoReturn:
    """Leave a command that Ctrl-C or SIGTERM stopped: ``Interrupted: what`` (or
    ``Terminated: what``) on stderr, exit code 130 (or 143)."""
    word, code = how_stopped()
    click.echo(f"{word}: {what}", err=True)
    sys.exit(code)


def system_refusal(err: OSError) -> str:
    """What the system refused (a file that cannot be read or written), in one line that
    names the file, if the error does."""
    if err.filename is None:
        return err.strerror or str(err)
    return f"{err.filename}: {err.strerror}"


class FcsimGroup(click.Group):
    """The command group: its commands' errors and Ctrl-C are shown by :func:`one_line`,
    from parsing the options to the command's end."""

    def make_context(self, *args, **kwargs) -> click.Context:
        with one_line():
            return super().make_context(*args, **kwargs)

    def invoke(self, ctx: click.Context):
        with one_line():
            return super().invoke(ctx)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The commands and their lines, as click lists them, each read without importing
        its module where it can be (:meth:`LazyCommands.short_help`): ``fcsim --help``
        in a tenth of the time."""
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(name) for name in names)  # as click's own
        lazy = self.commands if isinstance(self.commands, LazyCommands) else None
        rows = []
        for name in names:
            text = lazy.short_help(name) if lazy is not None else None
            if text is None:
                command = self.get_command(ctx, name)
                if command is None or command.hidden:
                    continue
                text = command.get_short_help_str(limit)
            rows.append((name, text))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


@click.group(cls=FcsimGroup, context_settings={"help_option_names": ["-h", "--help"]},
             commands=LazyCommands(COMMAND_MODULES))
@click.version_option(__version__, prog_name="fcsim")
def cli() -> None:
    """Simulate Five Crowns at scale and find out which strategies win, by how much, and why."""


def main() -> None:
    """Console-script entry point.

    SIGTERM stops a command as Ctrl-C does, and a stop whose exception Python lost is
    raised again where the command next waits (:func:`~fcsim.runner.stops.watch_stops`).
    Ctrl-C in the few steps of click's before and after the group's own handling is one
    line and exit code 130 too (only Python's start-up and the 15 ms of importing this
    module, without numba, come before this function). The process's objects are
    frozen out of the garbage collector before it exits: after compiling the kernels it
    holds many of numba's and LLVM's, and collecting them for nothing took 1.2 s of
    every first run's exit (0.3 s once they load from the cache).
    """
    watch_stops()
    try:
        cli()
    except KeyboardInterrupt:
        stop = Interrupted()
        stop.show()
        sys.exit(stop.exit_code)
    finally:
        gc.freeze()
