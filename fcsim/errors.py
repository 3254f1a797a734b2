"""The one base of the errors fcsim raises on purpose, and the base of the faults: what
stops a command that is no fault of its input (a worker process lost, a file that cannot
be written)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any


class FcsimError(Exception):
    """An error fcsim raises on purpose — bad input, a refused state — whose message
    alone says what went wrong: the command line prints it as one line (exit code 2).

    Each subclass keeps the built-in base it had (``CardError`` is a ``ValueError`` too),
    so code that catches those still does."""


class Fault(FcsimError):
    """What stops a command that is no fault of its input: the command line prints it as
    one line with exit code 1 (not 2), keeping what is done."""


class WorkerLost(Fault, RuntimeError):
    """A worker process died mid-task (killed from outside, or by the system when memory
    ran out)."""


def differences(mine: Mapping[str, Any], theirs: Mapping[str, Any],
                fields: Iterable[str] | None = None,
                show: Callable[[Any], str] = str) -> list[str]:
    """What ``theirs`` (a stored run, model or record) and ``mine`` disagree on, as fcsim's
    refusals name it: ``key X there, Y here`` for each of ``fields`` (default: every key of
    either, sorted) whose values differ, each value written by ``show``."""
    keys = sorted(mine.keys() | theirs.keys()) if fields is None else fields
    return [f"{key} {show(theirs.get(key))} there, {show(mine.get(key))} here"
            for key in keys if mine.get(key) != theirs.get(key)]
