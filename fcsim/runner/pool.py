"""Local executors: chunks in this process, or in a pool of worker processes.

An executor's ``run(plan, indices)`` yields finished chunks in completion order, keeping
at most two chunks per worker in flight so memory stays flat however many games a run
has. Leaving the loop early (an error, Ctrl-C) cancels the pending chunks.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from itertools import islice
from multiprocessing import get_context
from typing import Protocol

from fcsim.runner.chunk import ChunkOutput, prepare, run_chunk
from fcsim.runner.plan import RunPlan

IN_FLIGHT_PER_WORKER = 2


class Executor(Protocol):
    """Where chunks are played."""

    workers: int

    def run(self, plan: RunPlan, indices: Iterable[int]) -> Iterator[ChunkOutput]:
        """Play the chunks ``indices`` of ``plan``; yield each as it finishes."""
        ...

    def close(self) -> None:
        """Release what the executor holds (processes, cluster connections)."""
        ...


class InProcess:
    """Play chunks one after another in this process (``simulate(..., workers=1)``).

    Ctrl-C takes effect between chunks only; the command line always uses processes.
    """

    workers = 1

    def run(self, plan: RunPlan, indices: Iterable[int]) -> Iterator[ChunkOutput]:
        for index in indices:
            yield run_chunk(plan, index)

    def close(self) -> None:
        """Nothing to release."""


def _start_worker(plan: RunPlan, parent: int) -> None:
    """Pool initializer: end with the parent, warm the kernels once.

    ``parent`` is the pid the parent passed in: asking ``os.getppid()`` here would get the
    wrong answer if the parent was killed while this worker was still starting.
    """
    _watch_parent(parent)
    prepare(plan)


def _watch_parent(parent: int) -> None:
    """Start a thread that ends this worker with the parent (also LastingPool's initializer)."""
    threading.Thread(target=_exit_with, args=(parent,), daemon=True).start()


def _exit_with(parent: int) -> None:
    """End this worker once ``parent`` is gone (a killed parent leaves workers waiting)."""
    while os.getppid() == parent:
        time.sleep(1)
    os._exit(1)


class ProcessPool:
    """Play chunks in ``workers`` spawned processes, each warmed once."""

    def __init__(self, workers: int) -> None:
        self.workers = workers

    def run(self, plan: RunPlan, indices: Iterable[int]) -> Iterator[ChunkOutput]:
        todo = iter(indices)
        pool = ProcessPoolExecutor(self.workers, mp_context=get_context("spawn"),
                                   initializer=_start_worker, initargs=(plan, os.getpid()))

        def submit(count: int) -> set[Future]:
            return {pool.submit(run_chunk, plan, i) for i in islice(todo, count)}

        finished = False
        try:
            with _ctrl_c_left_to_parent():  # the workers start now, inheriting SIG_IGN
                pending = submit(IN_FLIGHT_PER_WORKER * self.workers)
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    pending |= submit(1)
                    yield future.result()
            finished = True
        finally:
            if finished:
                pool.shutdown()
            else:
                _terminate(pool)

    def close(self) -> None:
        """Nothing to release: each run's pool ends with the run."""


class LastingPool:
    """Play chunks in ``workers`` spawned processes that live across runs until :meth:`close`.

    For commands that play many short runs (``fcsim sweep``, ``fcsim tune``), where a pool
    per run would spend a second or two starting each time. A worker prepares each plan on
    its first chunk of it (:func:`~fcsim.runner.chunk.prepare` caches that). Leaving a run
    early cancels its chunks that have not started; the workers stay for the next run.
    """

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None

    def _start(self) -> ProcessPoolExecutor:
        pool = ProcessPoolExecutor(self.workers, mp_context=get_context("spawn"),
                                   initializer=_watch_parent, initargs=(os.getpid(),))
        with _ctrl_c_left_to_parent():  # a task each starts every worker now, with SIG_IGN
            for _ in range(self.workers):
                pool.submit(os.getpid)
        return pool

    def run(self, plan: RunPlan, indices: Iterable[int]) -> Iterator[ChunkOutput]:
        if self._pool is None:
            self._pool = self._start()
        pool, todo = self._pool, iter(indices)

        def submit(count: int) -> set[Future]:
            return {pool.submit(run_chunk, plan, i) for i in islice(todo, count)}

        pending = submit(IN_FLIGHT_PER_WORKER * self.workers)
        try:
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    pending |= submit(1)
                    yield future.result()
        finally:
            for future in pending:
                future.cancel()

    def close(self) -> None:
        """Stop the workers now (mid-chunk if need be)."""
        if self._pool is not None:
            _terminate(self._pool)
            self._pool = None


@contextmanager
def _ctrl_c_left_to_parent() -> Iterator[None]:
    """Ignore SIGINT while worker processes start, so that they ignore it too.

    Ctrl-C in a terminal reaches every process of the group; only the parent should act
    on it (by stopping the workers), not each worker with its own traceback.
    """
    if threading.current_thread() is not threading.main_thread():
        yield  # signals belong to the main thread
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _terminate(pool: ProcessPoolExecutor) -> None:
    """Cancel pending chunks and stop the workers now, mid-chunk if need be."""
    processes = list((pool._processes or {}).values())  # no public handle before 3.14
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    for process in processes:
        process.join()
