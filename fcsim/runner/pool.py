"""Local executors: chunks in this process, or in a pool of worker processes.

An executor's ``run(plan, indices, on_progress)`` yields finished chunks in completion
order, keeping at most two chunks per worker in flight so memory stays flat however many
games a run has, and calls ``on_progress(index, games)`` as chunks in flight advance.
Leaving the loop early (an error, Ctrl-C) cancels the pending chunks.
"""

from __future__ import annotations

import gc
import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import (
    FIRST_COMPLETED,
    Future,
    InvalidStateError,
    ProcessPoolExecutor,
    wait,
)
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager, suppress
from itertools import islice
from multiprocessing import get_context
from multiprocessing.connection import Connection
from multiprocessing.queues import Queue
from queue import Empty
from typing import Protocol

from numba.core import event

from fcsim.core.solver import link_searches
from fcsim.errors import WorkerLost
from fcsim.runner.chunk import ChunkOutput, prepare, run_chunk
from fcsim.runner.plan import RunPlan, chunk_layout
from fcsim.runner.stops import heed_stop, stops_left_to_parent

MANAGER_GRACE_S = 0.2  # how long the pool's manager thread gets to end on its own
MANAGER_UNBLOCK_S = 10.0  # how long filler is written to unblock it
FILLER_BYTES = 1 << 16  # a pipe's buffer
IN_FLIGHT_PER_WORKER = 2
PROGRESS_WAIT_S = 0.25  # how often the parent passes on progress and checks its workers
WORKER_LOST = ("a worker process died mid-chunk (killed from outside, or by the system when "
               "memory ran out)")

Progress = Callable[[int, int], None]  # (chunk index, games of it played so far)


class Executor(Protocol):
    """Where chunks are played."""

    workers: int

    def run(self, plan: RunPlan, indices: Iterable[int],
            on_progress: Progress | None = None) -> Iterator[ChunkOutput]:
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

    def run(self, plan: RunPlan, indices: Iterable[int],
            on_progress: Progress | None = None) -> Iterator[ChunkOutput]:
        for index in indices:
            heed_stop()
            report = None if on_progress is None else (
                lambda games, index=index: on_progress(index, games))
            yield run_chunk(plan, index, report)

    def close(self) -> None:
        """Nothing to release."""


_progress: Queue | None = None  # a worker's line to the parent, set by _start_worker


def _start_worker(plan: RunPlan, parent: int, progress: Queue) -> None:
    """Pool initializer: end with the parent, keep its progress queue, warm the kernels.

    ``parent`` is the pid the parent passed in: asking ``os.getppid()`` here would get the
    wrong answer if the parent was killed while this worker was still starting. The loaded
    kernels live as long as the worker: frozen out of the garbage collector, they cost its
    collections and its exit nothing (the exit took 0.3 s).
    """
    global _progress
    watch_parent(parent)
    _progress = progress
    prepare(plan)
    gc.freeze()


def watch_parent(parent: int) -> None:
    """Start a thread that ends this worker with the parent (also LastingPool's initializer)."""
    threading.Thread(target=_exit_with, args=(parent,), daemon=True).start()


def _run_reporting(plan: RunPlan, index: int) -> ChunkOutput:
    """:func:`run_chunk` in a worker, its progress sent to the parent."""
    return run_chunk(plan, index, lambda games: _progress.put((index, games)))


def _pass_on(progress: Queue, on_progress: Progress | None) -> None:
    """Hand every progress message waiting in the queue to ``on_progress``."""
    while True:
        try:
            index, games = progress.get_nowait()
        except Empty:
            return
        if on_progress is not None:
            on_progress(index, games)


def _exit_with(parent: int) -> None:
    """End this worker once ``parent`` is gone (a killed parent leaves workers waiting)."""
    while os.getppid() == parent:
        time.sleep(1)
    os._exit(1)


class _FirstCompile(event.Listener):
    """Calls ``say()`` when numba starts compiling something (not when it loads from the
    cache), the first time only."""

    def __init__(self, say: Callable[[], None]) -> None:
        self.say: Callable[[], None] | None = say

    def on_start(self, compilation: event.Event) -> None:
        if self.say is not None:
            say, self.say = self.say, None
            say()

    def on_end(self, compilation: event.Event) -> None:
        """Nothing to do when a compilation ends."""


def compile_once(plan: RunPlan, on_compile: Callable[[], None] = lambda: None) -> None:
    """Load or compile ``plan``'s kernels in this process, before any worker starts: the
    workers then load them from the cache instead of each compiling them at the same time.
    ``on_compile()`` is called first if anything has to be compiled (never on a warm cache).

    When something has to be compiled, a helper process compiles the solver's searches
    (the late kernels, :mod:`fcsim.core.late_link`: about 40 s) on another core
    meanwhile; this process compiles everything else, then loads them from the cache.
    """
    helper = get_context("spawn").Process(target=link_searches, daemon=True)

    def first_compile() -> None:
        with stops_left_to_parent():
            helper.start()
        on_compile()

    try:
        with on_first_compile(first_compile):
            prepare(plan)
            chunk_layout(plan, 0)  # the game seeds' kernel
            if helper.pid is not None:
                helper.join()
            link_searches()  # loaded from the cache (compiled here if the helper failed)
    finally:
        if helper.pid is not None and helper.is_alive():
            helper.kill()


@contextmanager
def on_first_compile(say: Callable[[], None]) -> Iterator[None]:
    """Within the block, call ``say()`` when numba first starts compiling something (not
    when it loads from the cache), once."""
    with event.install_listener("numba:compile", _FirstCompile(say)):
        yield


class ProcessPool:
    """Play chunks in ``workers`` spawned processes; the kernels are compiled here first
    (:func:`compile_once`), so the workers only load them."""

    def __init__(self, workers: int) -> None:
        self.workers = workers

    def run(self, plan: RunPlan, indices: Iterable[int],
            on_progress: Progress | None = None) -> Iterator[ChunkOutput]:
        compile_once(plan)
        todo = iter(indices)
        context = get_context("spawn")
        progress = context.Queue()
        pool = ProcessPoolExecutor(self.workers, mp_context=context,
                                   initializer=_start_worker,
                                   initargs=(plan, os.getpid(), progress))

        def submit(count: int) -> set[Future]:
            return {pool.submit(_run_reporting, plan, i) for i in islice(todo, count)}

        finished = False
        try:
            with worker_loss_named():
                with stops_left_to_parent():  # the workers start now, inheriting SIG_IGN
                    pending = submit(IN_FLIGHT_PER_WORKER * self.workers)
                while pending:
                    done, pending = wait_alive(pool, pending)
                    heed_stop()
                    _pass_on(progress, on_progress)
                    for future in done:
                        pending |= submit(1)
                        yield future.result()
            finished = True
        finally:
            if finished:
                pool.shutdown()
            else:
                terminate_pool(pool)
            progress.close()

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
                                   initializer=watch_parent, initargs=(os.getpid(),))
        with stops_left_to_parent():  # a task each starts every worker now, with SIG_IGN
            for _ in range(self.workers):
                pool.submit(os.getpid)
        return pool

    def run(self, plan: RunPlan, indices: Iterable[int],
            on_progress: Progress | None = None) -> Iterator[ChunkOutput]:
        """Play the chunks as :meth:`ProcessPool.run` does; these workers report whole
        chunks only, so ``on_progress`` is never called (the caller counts finished ones)."""
        if self._pool is None:
            self._pool = self._start()
        pool, todo = self._pool, iter(indices)

        def submit(count: int) -> set[Future]:
            return {pool.submit(run_chunk, plan, i) for i in islice(todo, count)}

        pending: set[Future] = set()
        try:
            with worker_loss_named():
                pending = submit(IN_FLIGHT_PER_WORKER * self.workers)
                while pending:
                    done, pending = wait_alive(pool, pending)
                    heed_stop()
                    for future in done:
                        pending |= submit(1)
                        yield future.result()
        except WorkerLost:
            self.close()  # a broken pool takes no more chunks: the next run starts another
            raise
        finally:
            for future in pending:
                future.cancel()

    def close(self) -> None:
        """Stop the workers now (mid-chunk if need be)."""
        if self._pool is not None:
            terminate_pool(self._pool)
            self._pool = None


def wait_alive(pool: ProcessPoolExecutor, pending: Iterable[Future]
               ) -> tuple[set[Future], set[Future]]:
    """``(done, not done)`` of ``pending`` once one is done, or after
    :data:`PROGRESS_WAIT_S`; raise :class:`~fcsim.errors.WorkerLost` when nothing is done
    and a worker has died. The pool says so itself only if it hears of the death: a worker
    killed while sending its result leaves the pool's manager reading the rest for ever."""
    done, left = wait(pending, timeout=PROGRESS_WAIT_S, return_when=FIRST_COMPLETED)
    # no public handle before 3.14; copied at once, as the pool's manager thread may
    # change the dict
    processes = list((pool._processes or {}).values())
    if not done and any(process.exitcode is not None for process in processes):
        raise WorkerLost(WORKER_LOST)
    return done, left


@contextmanager
def worker_loss_named() -> Iterator[None]:
    """Raise a broken pool (a worker process died mid-chunk) as
    :class:`~fcsim.errors.WorkerLost`, one line, where the pool raises
    ``BrokenProcessPool`` with its traceback."""
    try:
        yield
    except BrokenProcessPool:
        raise WorkerLost(WORKER_LOST) from None


def terminate_pool(pool: ProcessPoolExecutor) -> None:
    """Cancel pending chunks and stop the workers now, mid-chunk if need be."""
    processes = list((pool._processes or {}).values())
    manager = pool._executor_manager_thread  # shutdown() forgets both
    results = pool._result_queue
    with _quiet_about_cancelled_chunks(manager):
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.kill()
        for process in processes:
            process.join()
        if manager is not None and results is not None:
            _unblock_results(manager, results._writer)


@contextmanager
def _quiet_about_cancelled_chunks(manager: threading.Thread | None) -> Iterator[None]:
    """Keep the pool's manager thread from printing a traceback as the pool is stopped.

    Python before 3.12 has a race there: a manager that finds its workers gone marks every
    pending chunk failed, cancelled ones too, and ``InvalidStateError`` ends the thread
    with a traceback on the screen after "Interrupted" (seen in the Ctrl-C test of
    ``fcsim tune``). The chunks are abandoned either way; only that message is dropped.
    """
    previous = threading.excepthook

    def hook(args: threading.ExceptHookArgs) -> None:
        if not (args.thread is manager and isinstance(args.exc_value, InvalidStateError)):
            previous(args)

    threading.excepthook = hook
    try:
        yield
    finally:
        threading.excepthook = previous


def _unblock_results(manager: threading.Thread, writer: Connection) -> None:
    """End the pool's manager thread even if a worker was stopped mid-send.

    A worker stopped while it was sending a result leaves half a message in the result
    pipe, and the manager thread would wait for the rest for ever (this process then
    hangs at exit, joining it). Filler bytes complete the message; the thread cannot
    decode it, takes the pool for broken and ends.
    """
    manager.join(MANAGER_GRACE_S)
    if not manager.is_alive() or writer.closed:
        return
    os.set_blocking(writer.fileno(), False)
    deadline = time.monotonic() + MANAGER_UNBLOCK_S
    while manager.is_alive() and time.monotonic() < deadline:
        with suppress(BlockingIOError):
            os.write(writer.fileno(), bytes(FILLER_BYTES))
        manager.join(MANAGER_GRACE_S)
