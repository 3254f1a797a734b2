"""Stopping from outside: Ctrl-C (SIGINT), and SIGTERM (``kill``, a batch scheduler's time
limit, a container's stop), which the command line makes stop a command the same way.

Python raises ``KeyboardInterrupt`` on SIGINT; once :func:`watch_stops` is called it
raises it on SIGTERM too, so every path that keeps what is done on Ctrl-C keeps it on
SIGTERM, and :func:`how_stopped` gives the word and the exit code (128 + the signal's
number: 130 and 143) to report it with. A stop whose ``KeyboardInterrupt`` was lost (raised
in a garbage-collection callback or a ``__del__``, where Python prints "Exception ignored"
and goes on) is raised again at the next :func:`heed_stop`, which the loops that wait for
work call. Writes that must be whole hold both signals back (:func:`stops_deferred`);
worker processes leave both to their parent (:func:`stops_left_to_parent`,
:func:`stops_held_for_children`), which stops them.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from multiprocessing import resource_tracker
from types import FrameType

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
STOP_WORDS = {signal.SIGINT: "Interrupted", signal.SIGTERM: "Terminated"}
SIGNAL_EXIT_BASE = 128  # a shell's exit code for a process stopped by signal N is 128 + N

_DEFAULT_HANDLERS = {signal.SIGINT: signal.default_int_handler, signal.SIGTERM: signal.SIG_DFL}

_last_stop = [signal.SIGINT]  # the signal of the latest stop (Ctrl-C unless SIGTERM came)
_unreported = [False]  # a stop came that no one has reported yet (its exception may be lost)


def _stop(number: int, frame: FrameType | None) -> None:
    _last_stop[0] = signal.Signals(number)
    _unreported[0] = True
    raise KeyboardInterrupt


def watch_stops() -> None:
    """Make Ctrl-C and SIGTERM raise ``KeyboardInterrupt`` in the main thread and be
    remembered until reported (:func:`how_stopped`), so that :func:`heed_stop` raises one
    whose exception was lost. A signal the process was started ignoring (as a parent may
    ask: ``nohup``, a background job) stays ignored."""
    for number, default in _DEFAULT_HANDLERS.items():
        if signal.getsignal(number) is default:
            signal.signal(number, _stop)


def heed_stop() -> None:
    """Raise ``KeyboardInterrupt`` again if a stop came that no one has reported.

    Python cannot raise an exception out of a garbage-collection callback or a
    ``__del__``: a stop that lands in one (an SQLAlchemy callback, under Optuna, or Dask's)
    is printed as "Exception ignored" and the command would go on as if none had come.
    Loops that wait for work call this between steps; it costs a list lookup.
    """
    if _unreported[0]:
        raise KeyboardInterrupt


def how_stopped() -> tuple[str, int]:
    """The word and the exit code for the stop under way: ``("Interrupted", 130)`` for
    Ctrl-C, ``("Terminated", 143)`` for SIGTERM. Asking reports the stop: :func:`heed_stop`
    no longer raises it."""
    _unreported[0] = False
    number = _last_stop[0]
    return STOP_WORDS[number], SIGNAL_EXIT_BASE + int(number)


def _handled(number: signal.Signals) -> bool:
    """Whether ``number`` raises in this process now (neither ignored nor fatal)."""
    return callable(signal.getsignal(number))


@contextmanager
def stops_deferred() -> Iterator[None]:
    """Hold Ctrl-C and a handled SIGTERM back until the block is done, then act on them
    (main thread only: other threads receive no signals)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    held = {number: signal.signal(number, lambda n, frame: caught.append(n))
            for number in STOP_SIGNALS if _handled(number)}
    try:
        yield
    finally:
        for number, previous in held.items():
            signal.signal(number, previous)
    if caught:
        held[signal.Signals(caught[0])](caught[0], None)


@contextmanager
def stops_left_to_parent() -> Iterator[None]:
    """Ignore SIGINT and SIGTERM while worker processes start, so that they ignore them too.

    Ctrl-C in a terminal reaches every process of the group, and so does a SIGTERM sent to
    the group; only the parent should act on them (by stopping the workers with SIGKILL),
    not each worker with its own traceback.
    """
    if threading.current_thread() is not threading.main_thread():
        yield  # signals belong to the main thread
        return
    previous = {number: signal.signal(number, signal.SIG_IGN) for number in STOP_SIGNALS}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


@contextmanager
def stops_held_for_children() -> Iterator[None]:
    """Leave SIGINT and SIGTERM to this process in the worker processes that other threads
    start meanwhile (a Dask LocalCluster's, which takes a second or more), and act on a
    stop that comes meanwhile once the block is done (main thread only).

    The signals are blocked in this thread, and so in the threads it starts and the
    processes those start, now or later: they never see them. Ignoring them instead, as
    :func:`stops_left_to_parent` does, would drop a stop that comes meanwhile: a thread
    that does not block them (numpy's, say) takes it. multiprocessing's resource tracker
    unblocks them in the thread that starts it, so it is started first.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    resource_tracker.ensure_running()
    with stops_deferred():
        signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
        try:
            yield
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
