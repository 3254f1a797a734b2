"""Stops from outside: SIGTERM raised as Ctrl-C is, held back by whole writes, reported
with its own word and exit code."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading

import pytest

from fcsim.runner import stops
from fcsim.runner.stops import (
    how_stopped,
    stop_on_sigterm,
    stops_deferred,
    stops_held_for_children,
    stops_left_to_parent,
)


@pytest.fixture
def sigterm_stops():
    """SIGTERM as the command line handles it, for one test; the last stop forgotten after."""
    previous = signal.signal(signal.SIGTERM, signal.SIG_DFL)
    stop_on_sigterm()
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
        stops._last_stop[0] = signal.SIGINT


def test_sigterm_stops_as_ctrl_c_with_its_own_word_and_exit_code(sigterm_stops) -> None:
    assert how_stopped() == ("Interrupted", 130)
    with pytest.raises(KeyboardInterrupt):
        os.kill(os.getpid(), signal.SIGTERM)
    assert how_stopped() == ("Terminated", 143)


def test_an_ignored_sigterm_stays_ignored() -> None:
    previous = signal.signal(signal.SIGTERM, signal.SIG_IGN)
    try:
        stop_on_sigterm()
        assert signal.getsignal(signal.SIGTERM) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGTERM, previous)


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM])
def test_a_stop_waits_for_the_block_to_end(sigterm_stops, number) -> None:
    done = []
    with pytest.raises(KeyboardInterrupt), stops_deferred():
        os.kill(os.getpid(), number)
        done.append("the rest of the write")
    assert done == ["the rest of the write"]
    assert how_stopped()[1] == 128 + number


def test_a_block_leaves_a_fatal_sigterm_fatal() -> None:
    """Without the command line's handler SIGTERM is not deferred, nor turned into Ctrl-C."""
    previous = signal.signal(signal.SIGTERM, signal.SIG_DFL)  # as in a library's process
    try:
        with stops_deferred():
            assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
        assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
    finally:
        signal.signal(signal.SIGTERM, previous)


def test_workers_start_ignoring_both_stops(sigterm_stops) -> None:
    before = [signal.getsignal(number) for number in stops.STOP_SIGNALS]
    with stops_left_to_parent():
        assert all(signal.getsignal(number) is signal.SIG_IGN for number in stops.STOP_SIGNALS)
    assert [signal.getsignal(number) for number in stops.STOP_SIGNALS] == before


CHILD_SEES = ("import signal; print(sorted(int(n) for n in "
              "signal.pthread_sigmask(signal.SIG_BLOCK, [])))")


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM])
def test_a_stop_while_children_start_is_kept_and_they_never_see_it(sigterm_stops, number):
    """A thread started in the block (as a Dask LocalCluster's are) starts processes that
    block both stops, also after the block; the stop that came meanwhile acts after it."""
    started = threading.Event()
    go_on = threading.Event()
    seen: list[str] = []

    def starter() -> None:
        started.set()
        go_on.wait()
        seen.append(subprocess.run([sys.executable, "-c", CHILD_SEES], text=True,
                                   capture_output=True, check=True).stdout)

    thread = threading.Thread(target=starter)
    with pytest.raises(KeyboardInterrupt), stops_held_for_children():
        thread.start()
        started.wait()
        os.kill(os.getpid(), number)
        seen.append("the rest of the start")
    go_on.set()
    thread.join()
    assert seen[0] == "the rest of the start" and how_stopped()[1] == 128 + number
    assert seen[1].strip() == str(sorted(int(n) for n in stops.STOP_SIGNALS))
