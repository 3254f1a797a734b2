"""Options shared by several commands: the rule variants of RULES.md, bounded counts."""

from __future__ import annotations

from collections.abc import Callable

import click

from fcsim.cli import InputError
from fcsim.core.rules import DEFAULT_TURN_CAP, FACE, RuleSet


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


class WildPenalty(click.ParamType):
    """``face`` or a positive whole number."""

    name = "face|N"

    def convert(self, value, param, ctx):
        if isinstance(value, int) or value == FACE:
            return value
        text = str(value).strip().lower()
        if text == FACE:
            return FACE
        try:
            return int(text)
        except ValueError:
            self.fail(f"{value!r} is not 'face' or a whole number", param, ctx)


_SHORT = click.option("--short", is_flag=True, help="Short game: 6 rounds (3…8 cards).")
_WILD_PENALTY = click.option("--wild-penalty", type=WildPenalty(), default=20, show_default=True,
                             help="Points of an unmelded wild-rank card: N or 'face'.")
_GO_OUT_BONUS = click.option("--go-out-bonus", type=int, default=0, show_default=True,
                             help="Points for the player who goes out (e.g. -10).")
_NO_ALL_WILD_MELDS = click.option(
    "--no-all-wild-melds", is_flag=True,
    help="Every meld needs a natural card (3+ wilds alone are no meld).")
_TURN_CAP = click.option(
    "--turn-cap", type=int, default=DEFAULT_TURN_CAP, show_default=True,
    help="Turns after which a round nobody goes out of is stopped and flagged.")


def _with(options: list[Callable], func: Callable) -> Callable:
    for option in reversed(options):
        func = option(func)
    return func


def rule_options(func: Callable) -> Callable:
    """Add the rule-variant flags that mirror :class:`RuleSet`."""
    return _with([_SHORT, _WILD_PENALTY, _GO_OUT_BONUS, _NO_ALL_WILD_MELDS, _TURN_CAP], func)


def hand_rule_options(func: Callable) -> Callable:
    """Add the rule flags that change what a hand scores (for commands that solve hands
    and play no game: the other rules could change nothing)."""
    return _with([_WILD_PENALTY, _NO_ALL_WILD_MELDS], func)


def make_rules(players: int = 4, short: bool = False, wild_penalty=20, go_out_bonus: int = 0,
               no_all_wild_melds: bool = False, turn_cap: int = DEFAULT_TURN_CAP) -> RuleSet:
    """The RuleSet the flags describe."""
    return RuleSet(players=players, rounds=6 if short else 11, wild_penalty=wild_penalty,
                   go_out_bonus=go_out_bonus, all_wild_melds=not no_all_wild_melds,
                   turn_cap=turn_cap)
