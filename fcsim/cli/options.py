"""Options shared by several commands: the rule variants of RULES.md (built from their
declarations on :class:`~fcsim.core.rules.RuleSet`), bounded counts."""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import Field
from pathlib import Path

import click
from click.core import ParameterSource

from fcsim.cli import InputError
from fcsim.core.rules import MAX_PLAYERS, MIN_PLAYERS, Flag, RuleSet, default_seats, rule_flags
from fcsim.errors import Fault, FcsimError


class Bounded(click.ParamType):
    """A whole number from ``low`` to ``high``; anything else is one :class:`InputError`
    line saying what is allowed (click's own range errors add usage lines)."""

    name = "integer"

    def __init__(self, low: int, high: int, metavar: str = "N") -> None:
        self.low, self.high, self.metavar = low, high, metavar

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        return self.metavar

    def convert(self, value, param, ctx):
        flag = param.opts[0] if param is not None and param.opts else "the value"
        try:
            number = value if isinstance(value, int) else int(str(value))
        except ValueError:
            raise InputError(f"{flag} must be a whole number, not {value!r}") from None
        if not self.low <= number <= self.high:
            raise InputError(f"{flag} must be {self.low:,} to {self.high:,}, not {number:,}")
        return number


PLAYERS = Bounded(MIN_PLAYERS, MAX_PLAYERS)  # the type of a command's --players


@contextmanager
def typed_as(flags: Mapping[str, str]) -> Iterator[None]:
    """An :class:`FcsimError` whose one line starts with a field of ``flags``
    (``players must be …``, the Python API's words) as an :class:`InputError` naming the
    flag the user typed instead (``--players must be …``)."""
    try:
        yield
    except Fault:
        raise
    except FcsimError as err:
        field, space, rest = str(err).partition(" ")
        if not space or field not in flags:
            raise
        raise InputError(f"{flags[field]} {rest}") from None


def dask_missing() -> click.ClickException:
    """The one line of a Dask flag given where Dask is not installed."""
    return click.ClickException("Dask is not installed: pip install 'fcsim[dask]'")


def dask_options(verb: str) -> Callable[[Callable], Callable]:
    """A command's --scheduler and --dask-local, the cluster ``verb`` ("run", "play")
    on."""
    def add(func: Callable) -> Callable:
        func = click.option("--dask-local", type=int, metavar="N",
                            help=f"Start a local Dask cluster of N workers and {verb} on it."
                            )(func)
        return click.option("--scheduler", type=SchedulerAddress(),
                            help=f"{verb.capitalize()} on this Dask scheduler.")(func)
    return add


class SchedulerAddress(click.ParamType):
    """A Dask scheduler's address, SCHEME://HOST:PORT as Dask reads it (its network
    schemes: tcp, tls, ws, wss); anything else, an empty value too, is one
    :class:`InputError` line at once, where Dask would wait out its connect timeout or
    fail with a traceback (an empty one would run locally)."""

    name = "address"

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        return "tcp://HOST:PORT"

    def convert(self, value, param, ctx):
        try:
            from distributed.comm import get_address_host_port
        except ImportError:
            raise dask_missing() from None
        try:
            host, port = get_address_host_port(value, strict=True)
        except ValueError:  # no scheme, one Dask lacks or that has no port, no port
            host, port = "", 0
        if not host or not 0 < port < 2**16:
            raise InputError(f"--scheduler must be a Dask scheduler's address, SCHEME://HOST:"
                             f"PORT with a port 1 to 65535 (tcp://HOST:8786, or tls://, ws://, "
                             f"wss://), not {value!r}")
        return value


class RuleValue(click.ParamType):
    """The value of a rule flag, read as its :class:`Flag` says; anything else is one
    :class:`InputError` line saying what is allowed."""

    def __init__(self, flag: Flag) -> None:
        self.flag = flag
        self.name = flag.metavar

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        return self.flag.metavar

    def convert(self, value, param, ctx):
        if not isinstance(value, str):  # a default
            return value
        try:
            return self.flag.parse(value)
        except ValueError:
            raise InputError(f"{self.flag.name} must be {self.flag.what}, not {value!r}"
                             ) from None


def _option(rule: Field, flag: Flag) -> Callable:
    """The click option of one rule, its parameter named after the rule's field."""
    if flag.sets is not None:
        return click.option(flag.name, rule.name, flag_value=flag.sets, default=rule.default,
                            help=flag.help)
    return click.option(flag.name, rule.name, type=RuleValue(flag), default=rule.default,
                        show_default=True, help=flag.help)


def rule_options(func: Callable | None = None, *, hand: bool = False) -> Callable:
    """Add the rule flags declared on :class:`RuleSet` (with ``hand``, only the rules
    that change what a hand scores); the command receives them as ``rules``, a RuleSet
    at the default table size: a command that seats a table says how many
    (``dataclasses.replace(rules, players=n)``)."""
    declared = [(rule, flag) for rule, flag in rule_flags() if flag.hand or not hand]
    typed = {rule.name: flag.name for rule, flag in declared}

    def decorate(func: Callable) -> Callable:
        @functools.wraps(func)
        def command(*args, **kwargs):
            values = {rule.name: kwargs.pop(rule.name) for rule, _ in declared}
            with typed_as(typed):
                rules = RuleSet(**values)
            return func(*args, rules=rules, **kwargs)

        for rule, flag in reversed(declared):
            command = _option(rule, flag)(command)
        return command

    return decorate if func is None else decorate(func)


def rule_words(rules: RuleSet) -> list[str]:
    """The rule flags that give ``rules``, as words of a command line (none for a rule
    at its default; the table size is not a rule flag)."""
    words: list[str] = []
    for rule, flag in rule_flags():
        value = getattr(rules, rule.name)
        if value != rule.default:
            words += [flag.name] if flag.sets is not None else [flag.name, str(value)]
    return words


def given_options(only: Collection[str] | None = None, exclude: Collection[str] = ()
                  ) -> list[str]:
    """The flags the command line set, of the running command's options named ``only``
    (all if None) less ``exclude``, each as typed (``--no-seat-rotation``, not
    ``--seat-rotation``): to say which ones another input makes unused."""
    ctx = click.get_current_context()
    return [param.secondary_opts[0] if param.secondary_opts and ctx.params.get(param.name)
            is False else param.opts[0] for param in ctx.command.params
            if isinstance(param, click.Option) and param.name not in exclude
            and (only is None or param.name in only)
            and ctx.get_parameter_source(param.name) is ParameterSource.COMMANDLINE]


def warn_resume_flags_unused(resume: bool) -> None:
    """Without ``--resume``, one warning line if --allow-code-change was given: it only
    applies to a run being completed."""
    if not resume:
        warn_unused(given_options(only={"allow_code_change"}),
                    "without --resume no run is resumed")


def warn_rotation_unused(duplicate: bool) -> None:
    """With --duplicate, one warning line if --no-seat-rotation (or --seat-rotation) was
    given: every duplicate deal is played in each of its seat rotations."""
    if duplicate:
        warn_unused(given_options(only={"seat_rotation"}),
                    "--duplicate plays every deal in each of its seat rotations")


def warn_unused(flags: list[str], because: str) -> None:
    """One line on stderr naming ``flags``, which ``because`` makes unused (none: none)."""
    if flags:
        click.echo(f"warning: {because}; {', '.join(flags)} "
                   f"{'is' if len(flags) == 1 else 'are'} not used", err=True)


def table_seats(count: int, players: int | None) -> int:
    """Seats at the table of ``count`` listed strategies: --players, else one per listed
    strategy (4 for a single one, which then plays every seat)."""
    if players is None:
        if count > MAX_PLAYERS:
            raise InputError(f"{count} strategies listed: a table seats {MIN_PLAYERS} to "
                             f"{MAX_PLAYERS} players, one strategy each")
        return default_seats(count)
    if count > 1 and count != players:
        raise InputError(f"{count} strategies for --players {players}: "
                         f"give one strategy, or one per player")
    return players


def check_run_folders(paths: Sequence[Path]) -> None:
    """Refuse (one line, exit code 2) a path that is no folder, and a folder given twice:
    its games would count twice. What the folders hold is checked as they are read."""
    seen: set[Path] = set()
    for path in paths:
        if not path.is_dir():
            raise InputError(f"no such run folder: {path}")
        if path.resolve() in seen:
            raise InputError(f"{path} is given twice: its games would count twice")
        seen.add(path.resolve())
