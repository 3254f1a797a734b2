"""The one base of the errors fcsim raises on purpose, and the one fault every command
names the same way (a worker process lost)."""

from __future__ import annotations


class FcsimError(Exception):
    """An error fcsim raises on purpose — bad input, a refused state — whose message
    alone says what went wrong: the command line prints it as one line (exit code 2).

    Each subclass keeps the built-in base it had (``CardError`` is a ``ValueError`` too),
    so code that catches those still does."""


class WorkerLost(FcsimError, RuntimeError):
    """A worker process died mid-task (killed from outside, or by the system when memory
    ran out): not bad input, so the command line exits with code 1, keeping what is done."""
