"""Stopping a process pool mid-run leaves nothing waiting, whatever a worker was doing; a
worker that dies is named, however it died."""

from __future__ import annotations

import os
import signal
import struct
import threading
import time
from concurrent.futures import InvalidStateError, ProcessPoolExecutor
from multiprocessing import get_context

import pytest

from fcsim.core.rules import RuleSet
from fcsim.errors import WorkerLost
from fcsim.runner import make_plan
from fcsim.runner.chunk import run_chunk
from fcsim.runner.pool import (
    LastingPool,
    _quiet_about_cancelled_chunks,
    terminate_pool,
    wait_alive,
)

MANAGER_EXIT_S = 60  # generous: once its wait ends the thread exits at once
LONG_TASK_S = 60  # a chunk that is still running when the test looks
WORKER_BUSY_S = 0.5  # long enough that a second task finds the first worker busy


def _cut_a_result_short(pool: ProcessPoolExecutor) -> None:
    """Put a result that promises 1,000 bytes and brings 10 on the pool's result queue:
    as if a worker was stopped mid-send: its manager waits on the rest, and never hears
    of a worker that dies."""
    os.write(pool._result_queue._writer.fileno(), struct.pack("!i", 1000) + b"x" * 10)


def test_a_result_cut_in_half_does_not_leave_the_pool_waiting() -> None:
    """As if a worker was stopped mid-send: a header announcing 1,000 bytes, then 10."""
    pool = ProcessPoolExecutor(1, mp_context=get_context("spawn"))
    assert pool.submit(abs, -1).result() == 1  # the worker and the manager thread run
    manager = pool._executor_manager_thread
    _cut_a_result_short(pool)
    terminate_pool(pool)
    manager.join(MANAGER_EXIT_S)
    assert not manager.is_alive()


def test_the_managers_race_over_cancelled_chunks_prints_nothing(monkeypatch) -> None:
    seen = []
    monkeypatch.setattr(threading, "excepthook", lambda args: seen.append(args.exc_type))

    def cancelled() -> None:
        raise InvalidStateError("CANCELLED: <Future state=cancelled>")

    def other() -> None:
        raise ValueError("a real error")

    manager, bystander = threading.Thread(target=cancelled), threading.Thread(target=other)
    with _quiet_about_cancelled_chunks(manager):
        for thread in (manager, bystander):
            thread.start()
            thread.join()
    assert seen == [ValueError]


def test_a_worker_killed_while_its_result_is_read_is_named() -> None:
    """The pool's manager, reading a result cut short, never hears that the worker died:
    :func:`wait_alive` sees it and says so, where the pool would wait for ever."""
    pool = ProcessPoolExecutor(1, mp_context=get_context("spawn"))
    try:
        assert pool.submit(abs, -1).result() == 1
        _cut_a_result_short(pool)
        pending = {pool.submit(time.sleep, LONG_TASK_S)}
        assert wait_alive(pool, pending) == (set(), pending)  # all alive: nothing to say
        for process in pool._processes.values():
            os.kill(process.pid, signal.SIGKILL)
            process.join()
        with pytest.raises(WorkerLost, match="a worker process died mid-chunk"):
            wait_alive(pool, pending)
    finally:
        terminate_pool(pool)


def test_one_worker_killed_among_several_is_named() -> None:
    """The others still run, but the chunk the dead one held never ends: one death is
    enough to stop the run, not the death of every worker."""
    workers = 2
    pool = ProcessPoolExecutor(workers, mp_context=get_context("spawn"))
    try:
        busy = [pool.submit(time.sleep, WORKER_BUSY_S) for _ in range(workers)]
        for future in busy:
            future.result()  # both at once: the pool started a process for each
        assert len(pool._processes) == workers
        _cut_a_result_short(pool)
        pending = {pool.submit(time.sleep, LONG_TASK_S)}
        victim = next(iter(pool._processes.values()))
        os.kill(victim.pid, signal.SIGKILL)
        victim.join()
        with pytest.raises(WorkerLost, match="a worker process died mid-chunk"):
            wait_alive(pool, pending)
    finally:
        terminate_pool(pool)


def test_a_lasting_pool_that_lost_a_worker_starts_afresh() -> None:
    """``fcsim sweep`` and ``fcsim tune`` keep one pool across runs: the run that lost a
    worker is named, and the next run gets new workers and the same chunks."""
    plan = make_plan(["greedy", "random"], RuleSet(players=2, rounds=6), 1, 40, chunk_size=10)
    lasting = LastingPool(1)
    try:
        assert [out.index for out in lasting.run(plan, [0])] == [0]
        for process in lasting._pool._processes.values():
            os.kill(process.pid, signal.SIGKILL)
            process.join()
        with pytest.raises(WorkerLost):
            list(lasting.run(plan, [1, 2]))
        assert [out.data for out in lasting.run(plan, [1])] == [run_chunk(plan, 1).data]
    finally:
        lasting.close()
