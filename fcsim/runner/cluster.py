"""Playing chunks on a Dask cluster (the optional ``fcsim[dask]`` extra).

Workers need fcsim installed. A worker plugin warms the kernels once per worker (also on
workers that join during a run); the chunks and their bytes are the same as in a local run, and
the client writes the files, so workers need no shared file system.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable, Iterator
from itertools import islice

import dask
from distributed import (
    Client,
    Future,
    KilledWorker,
    LocalCluster,
    WorkerPlugin,
    as_completed,
    get_worker,
)

from fcsim.errors import FcsimError, WorkerLost
from fcsim.runner.chunk import ChunkOutput, prepare, run_chunk
from fcsim.runner.plan import RunPlan
from fcsim.runner.pool import IN_FLIGHT_PER_WORKER, Progress
from fcsim.runner.stops import stops_held_for_children
from fcsim.strategies import StrategyError


class ClusterError(FcsimError, RuntimeError):
    """A Dask cluster that cannot be reached or has no workers."""


class WarmUp(WorkerPlugin):
    """Prepare a plan (strategies, kernels) on each worker, off its event loop."""

    name = "fcsim-warm-up"

    def __init__(self, plan: RunPlan) -> None:
        self.plan = plan

    async def setup(self, worker: object) -> None:
        try:
            await asyncio.get_running_loop().run_in_executor(None, prepare, self.plan)
        except StrategyError as err:
            raise _on_worker(err, worker.address) from None


def _on_worker(err: StrategyError, address: str) -> StrategyError:
    """A strategy a worker cannot load (a plug-in it lacks, say), naming the worker."""
    return StrategyError(f"Dask worker {address} cannot play this run: {err}")


def _run_chunk_on_worker(plan: RunPlan, index: int) -> ChunkOutput:
    """:func:`run_chunk` on a worker (one that joined later has not been warmed)."""
    try:
        return run_chunk(plan, index)
    except StrategyError as err:
        raise _on_worker(err, get_worker().address) from None


def _lost(err: KilledWorker, index: int) -> WorkerLost:
    """Workers that died playing a chunk (Dask gave up on it) as the one line of a lost
    local worker."""
    tries = err.allowed_failures + 1
    also = f", the last of {tries} to try it" if tries > 1 else ""
    return WorkerLost(f"Dask worker {err.last_worker.address} died playing chunk {index}{also} "
                      f"(killed from outside, or by the system when memory ran out)")


class DaskCluster:
    """Play chunks on the workers of a Dask client."""

    def __init__(self, client: Client, cluster: LocalCluster | None = None) -> None:
        self.client = client
        self.cluster = cluster

    @classmethod
    def connect(cls, address: str) -> DaskCluster:
        """Connect to a running scheduler (``tcp://HOST:PORT``) with at least one worker.

        The wait is Dask's connect timeout (``DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT``).
        """
        timeout = dask.config.get("distributed.comm.timeouts.connect")
        try:
            client = Client(address, timeout=timeout)
        except (OSError, TimeoutError, ValueError) as err:
            first_line = str(err).strip().splitlines()[0] if str(err).strip() else repr(err)
            raise ClusterError(f"cannot reach the Dask scheduler at {address}: "
                               f"{first_line}") from None
        try:
            client.wait_for_workers(1, timeout=timeout)
        except TimeoutError:
            client.close()
            raise ClusterError(f"the Dask scheduler at {address} has no workers "
                               f"(start some with: dask worker {address})") from None
        return cls(client)

    @classmethod
    def local(cls, workers: int) -> DaskCluster:
        """Start a LocalCluster of ``workers`` single-threaded worker processes, which
        leave Ctrl-C and SIGTERM to this process (each would print a traceback); a stop
        while they start is acted on once they have, and stops them.

        The cluster's logs are silenced, its scheduler's event loop's too (a stop while
        the workers warm up leaves the scheduler a message it cannot send): what goes
        wrong in a run comes back through its chunks.
        """
        logging.getLogger("asyncio").setLevel(logging.CRITICAL)
        cluster = None
        try:
            with stops_held_for_children():
                cluster = LocalCluster(n_workers=workers, threads_per_worker=1,
                                       processes=True, dashboard_address=None,
                                       silence_logs=logging.CRITICAL)
            return cls(Client(cluster), cluster)
        except BaseException:
            if cluster is not None:
                cluster.close()
            raise

    @property
    def workers(self) -> int:
        """Worker threads in the cluster now."""
        return max(sum(self.client.nthreads().values()), 1)

    def run(self, plan: RunPlan, indices: Iterable[int],
            on_progress: Progress | None = None) -> Iterator[ChunkOutput]:
        """Play the chunks on the cluster; progress is reported per chunk (as they end).

        The warm-up plugin is the run's only: a worker that joins later warms no plan of a
        run that has ended."""
        todo = iter(indices)
        live: dict[Future, int] = {}  # the chunks in flight, by future

        def submit(count: int) -> list[Future]:
            futures = {self.client.submit(_run_chunk_on_worker, plan, i, pure=False): i
                       for i in islice(todo, count)}
            live.update(futures)
            return list(futures)

        try:
            self.client.register_plugin(WarmUp(plan))
            queue = as_completed(submit(IN_FLIGHT_PER_WORKER * self.workers))
            for future in queue:
                for new in submit(1):
                    queue.add(new)
                try:
                    output = future.result()
                except KilledWorker as err:
                    raise _lost(err, live[future]) from None
                del live[future]
                future.release()
                yield output
        finally:
            if live:
                self.client.cancel(list(live))
            self.client.unregister_worker_plugin(WarmUp.name)

    def close(self) -> None:
        """Disconnect, and stop the cluster if it was started here."""
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()
