"""Stopping a process pool mid-run leaves nothing waiting, whatever a worker was doing."""

from __future__ import annotations

import os
import struct
import threading
from concurrent.futures import InvalidStateError, ProcessPoolExecutor
from multiprocessing import get_context

from fcsim.runner.pool import _quiet_about_cancelled_chunks, terminate_pool

MANAGER_EXIT_S = 60  # generous: once its wait ends the thread exits at once


def test_a_result_cut_in_half_does_not_leave_the_pool_waiting() -> None:
    """As if a worker was stopped mid-send: a header announcing 1,000 bytes, then 10."""
    pool = ProcessPoolExecutor(1, mp_context=get_context("spawn"))
    assert pool.submit(abs, -1).result() == 1  # the worker and the manager thread run
    manager = pool._executor_manager_thread
    os.write(pool._result_queue._writer.fileno(), struct.pack("!i", 1000) + b"x" * 10)
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
