"""Argument types the scripts share: a count below its least, or a scale that is not
positive, is refused by argparse in one line before anything runs; and fcsim's own
refusals of bad input (a strategy, a run folder), given as the command line gives them."""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable, Collection, Iterator

from fcsim.core.rules import MAX_PLAYERS, MIN_PLAYERS
from fcsim.errors import FcsimError
from fcsim.strategies import StrategyError, parse_strategy

BAD_INPUT = 2  # the exit code of a refused input, as fcsim's command line has it


def at_least(least: int) -> Callable[[str], int]:
    """An argparse type: a whole number no smaller than ``least``."""

    def count(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        if value < least:
            raise argparse.ArgumentTypeError(f"must be at least {least}, not {value}")
        return value

    return count


def table_size(text: str) -> int:
    """An argparse type: a table size the game allows."""
    value = at_least(MIN_PLAYERS)(text)
    if value > MAX_PLAYERS:
        raise argparse.ArgumentTypeError(
            f"must be {MIN_PLAYERS} to {MAX_PLAYERS}, not {value}")
    return value


def names_of(known: Collection[str]) -> Callable[[str], list[str]]:
    """An argparse type: comma-separated names from ``known`` (a benchmark's cases or
    tables), in the order given; the first unknown one is refused, naming the known."""

    def names(text: str) -> list[str]:
        chosen = [name.strip() for name in text.split(",") if name.strip()]
        unknown = [name for name in chosen if name not in known]
        if unknown:
            raise argparse.ArgumentTypeError(f"unknown {unknown[0]!r}; known: "
                                             f"{', '.join(known)}")
        return chosen

    return names


def strategy(text: str) -> str:
    """An argparse type: a strategy spec fcsim reads, kept as written."""
    try:
        parse_strategy(text)
    except StrategyError as err:
        raise argparse.ArgumentTypeError(str(err)) from None
    return text


def positive(text: str) -> float:
    """An argparse type: a number above 0 (a scale)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be above 0, not {text}")
    return value


@contextlib.contextmanager
def input_refused_in_one_line() -> Iterator[None]:
    """Run the block; an error fcsim raises on purpose stops the script with its message
    alone (one line, exit code 2), not a traceback."""
    try:
        yield
    except FcsimError as err:
        print(err, file=sys.stderr)
        sys.exit(BAD_INPUT)


def summary(doc: str) -> str:
    """A script's ``--help`` description: its docstring's first paragraph, whole."""
    return doc.split("\n\n")[0]
