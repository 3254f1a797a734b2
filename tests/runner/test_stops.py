"""Stops from outside: SIGTERM raised as Ctrl-C is, held back by whole writes, reported
with its own word and exit code, raised again where its exception was lost."""

from __future__ import annotations

import gc
import os
import signal
import subprocess
import sys
import threading

import pytest

from fcsim.core.rules import RuleSet
from fcsim.runner import make_plan, pool, stops
from fcsim.runner.stops import (
    heed_stop,
    how_stopped,
    stops_deferred,
    stops_held_for_children,
    stops_left_to_parent,
    watch_stops,
)


@pytest.fixture
def sigterm_stops():
    """Both stops as the command line handles them, for one test; forgotten after."""
    previous = {number: signal.signal(number, default)
                for number, default in stops._DEFAULT_HANDLERS.items()}
    watch_stops()
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
        how_stopped()  # reported: heed_stop raises nothing in the next test
        stops._last_stop[0] = signal.SIGINT


def test_sigterm_stops_as_ctrl_c_with_its_own_word_and_exit_code(sigterm_stops) -> None:
    assert how_stopped() == ("Interrupted", 130)
    with pytest.raises(KeyboardInterrupt):
        os.kill(os.getpid(), signal.SIGTERM)
    assert how_stopped() == ("Terminated", 143)


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM])
def test_an_ignored_stop_stays_ignored(number) -> None:
    """As ``nohup`` or a shell's background job asks."""
    previous = {number: signal.signal(number, signal.SIG_IGN) for number in stops.STOP_SIGNALS}
    try:
        watch_stops()
        assert signal.getsignal(number) is signal.SIG_IGN
    finally:
        for each, handler in previous.items():
            signal.signal(each, handler)


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


LOST = pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")


def _lost(number: int) -> None:
    """A stop that lands where Python cannot raise it: a garbage-collection callback."""
    def callback(phase: str, info: dict) -> None:
        if phase == "start":
            called.append(phase)
            os.kill(os.getpid(), number)
    called: list[str] = []
    gc.callbacks.append(callback)
    try:
        gc.collect()
    finally:
        gc.callbacks.remove(callback)
    assert called  # the callback ran; the exception it raised was printed, not raised


@LOST
@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM])
def test_a_stop_whose_exception_was_lost_is_raised_at_the_next_wait(sigterm_stops,
                                                                    number) -> None:
    """As a Ctrl-C in SQLAlchemy's collection callback under fcsim tune once was: the run
    went on to its end and exited 0."""
    _lost(number)
    with pytest.raises(KeyboardInterrupt):
        heed_stop()
    assert how_stopped()[1] == 128 + number
    heed_stop()  # reported: no longer raised


@LOST
def test_a_run_stops_between_chunks_after_a_lost_stop(sigterm_stops, monkeypatch) -> None:
    played: list[int] = []
    monkeypatch.setattr(pool, "run_chunk", lambda plan, index, report: index)

    def chunks():
        for index in range(3):
            if index == 1:
                _lost(signal.SIGINT)
            played.append(index)
            yield index

    with pytest.raises(KeyboardInterrupt):
        for _ in pool.InProcess().run(None, chunks()):
            pass
    assert played == [0, 1]


POOL_WORKERS = 2
POOL_CHUNKS = 8
LOST_AT_CHUNK = 5  # handed out after the first batch, once the parent takes stops again


@LOST
def test_a_pool_run_stops_after_a_lost_stop(sigterm_stops) -> None:
    """The parent of worker processes waits for their chunks: a stop lost there ends the
    run at its next wait, not after the last chunk."""
    plan = make_plan("greedy,random", RuleSet(players=2, rounds=6), 1, POOL_CHUNKS,
                     chunk_size=1)

    def chunks():
        for index in range(POOL_CHUNKS):
            if index == LOST_AT_CHUNK:
                _lost(signal.SIGINT)
            yield index

    collected: list[int] = []
    with pytest.raises(KeyboardInterrupt):
        for output in pool.ProcessPool(POOL_WORKERS).run(plan, chunks()):
            collected.append(output.index)
    assert len(collected) < POOL_CHUNKS


def test_a_stop_without_the_command_line_is_not_remembered() -> None:
    """In a library's process (no watch_stops) Ctrl-C is Python's own; heed_stop is silent."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGINT)
    finally:
        signal.signal(signal.SIGINT, previous)
    heed_stop()
