"""Playing chunks on a Dask cluster (the optional ``fcsim[dask]`` extra).

Workers need fcsim installed. A worker plugin warms the kernels once per worker (also on
workers that join during a run); the chunks and their bytes are the same as in a local run, and
the client writes the files, so workers need no shared file system.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections import deque
from collections.abc import Iterable, Iterator
from contextlib import suppress
from itertools import islice

import dask
from dask.utils import parse_timedelta
from distributed import (
    Client,
    Future,
    KilledWorker,
    LocalCluster,
    WorkerPlugin,
    as_completed,
    get_worker,
)
from distributed.comm import CommClosedError, connect
from distributed.security import Security

from fcsim.errors import Fault, FcsimError, WorkerLost
from fcsim.runner.chunk import ChunkOutput, prepare, run_chunk
from fcsim.runner.plan import RunPlan, this_code
from fcsim.runner.pool import IN_FLIGHT_PER_WORKER, PROGRESS_WAIT_S, Progress
from fcsim.runner.stops import heed_stop, stops_held_for_children
from fcsim.strategies import StrategyError

ANY_FREE_HTTP_PORT = {"dashboard_address": ":0"}  # the scheduler's HTTP server (no dashboard)


class ClusterError(Fault, RuntimeError):
    """A Dask cluster that cannot be reached, has no workers, or a worker that cannot
    import fcsim."""


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


def _run_chunk_on_worker(plan: RunPlan, index: int, topic: str) -> ChunkOutput:
    """:func:`run_chunk` on a worker (one that joined later has not been warmed), its
    progress sent to the client as events of ``topic``. A worker whose fcsim plays other
    code refuses: its rows would carry the client's code in their metadata."""
    worker = get_worker()
    if this_code() != plan.code:
        raise ClusterError(f"Dask worker {worker.address} cannot play this run: it has other "
                           f"fcsim code ({this_code()} there, {plan.code} here); install "
                           f"the same fcsim on every machine")
    try:
        return run_chunk(plan, index, lambda games: worker.log_event(topic, (index, games)))
    except StrategyError as err:
        raise _on_worker(err, worker.address) from None


def _lost(err: KilledWorker, index: int) -> WorkerLost:
    """Workers that died playing a chunk (Dask gave up on it) as the one line of a lost
    local worker."""
    tries = err.allowed_failures + 1
    also = f", the last of {tries} to try it" if tries > 1 else ""
    return WorkerLost(f"Dask worker {err.last_worker.address} died playing chunk {index}{also} "
                      f"(killed from outside, or by the system when memory ran out)")


def _check_scheduler(address: str, timeout: float) -> None:
    """Raise :class:`ClusterError` unless a Dask scheduler answers at ``address``.

    Dask's client would wait for ever on a server that does not answer its handshake (a
    web server), and reads what one that speaks first sends as a message's length (an SSH
    banner is 2.8 EiB): asked for its identity here, with a time limit, neither can.
    """
    async def identity() -> dict:
        comm = await connect(address, timeout=timeout,  # retries until the timeout
                             **Security().get_connection_args("client"))
        try:
            await comm.write({"op": "identity"})
            return await comm.read()
        finally:
            comm.abort()

    try:
        answer = asyncio.run(asyncio.wait_for(identity(), 2 * timeout))
    except (TimeoutError, CommClosedError):  # connected, then silence or a hang-up
        answer = None
    except OSError as err:  # refused, no such host, nothing within the timeout
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: "
                           f"{str(err).strip().splitlines()[0]}") from None
    except Exception:  # what else it sent reads as (an SSH banner: a MemoryError)
        answer = None
    kind = answer.get("type") if isinstance(answer, dict) else None
    if kind != "Scheduler":
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: what answers there "
                           f"is {f'a Dask {kind}' if kind else 'no Dask server'}")


def _imports_fcsim() -> None:
    """Nothing: a worker runs it only once it has imported this module."""


class _Unattended:
    """How long a client's cluster has had no workers: :meth:`check` raises
    :class:`ClusterError` once that is Dask's connect timeout (a cluster whose workers
    all died would otherwise keep a run waiting, silent, for ever)."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.patience = parse_timedelta(dask.config.get("distributed.comm.timeouts.connect"),
                                        default="seconds")
        self.since: float | None = None

    def check(self) -> None:
        if self.client.nthreads():
            self.since = None
            return
        now = time.monotonic()
        self.since = now if self.since is None else self.since
        if now - self.since >= self.patience:
            raise ClusterError(f"the Dask cluster has had no workers for {self.patience:g} s "
                               f"(start some with: dask worker {self.client.scheduler.address})")


class DaskCluster:
    """Play chunks on the workers of a Dask client."""

    def __init__(self, client: Client, cluster: LocalCluster | None = None) -> None:
        self.client = client
        self.cluster = cluster
        # Dask's client warns over the progress bar as it recovers (a chunk rescheduled
        # when a worker dies); what it cannot recover from comes back through the chunks
        logging.getLogger("distributed.client").setLevel(logging.ERROR)

    @classmethod
    def connect(cls, address: str) -> DaskCluster:
        """Connect to a running scheduler (``tcp://HOST:PORT``) with at least one worker,
        each of which can import fcsim.

        The wait is Dask's connect timeout (``DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT``),
        twice that at most for what answers there to prove a Dask scheduler.
        """
        timeout = dask.config.get("distributed.comm.timeouts.connect")
        _check_scheduler(address, parse_timedelta(timeout, default="seconds"))
        client = Client(address, timeout=timeout)
        try:
            client.wait_for_workers(1, timeout=timeout)
        except TimeoutError:
            client.close()
            raise ClusterError(f"the Dask scheduler at {address} has no workers "
                               f"(start some with: dask worker {address})") from None
        cluster = cls(client)
        try:
            cluster.check_workers()
        except ClusterError:
            client.close()
            raise
        return cluster

    def check_workers(self) -> None:
        """Raise :class:`ClusterError` naming a worker that cannot import fcsim (each
        chunk sent to it would fail with its traceback)."""
        answers = self.client.run(_imports_fcsim, on_error="return")
        for address, answer in sorted(answers.items()):
            if isinstance(answer, Exception):
                raise ClusterError(f"Dask worker {address} cannot play this run: it "
                                   f"cannot import fcsim ({answer})")

    @classmethod
    def local(cls, workers: int) -> DaskCluster:
        """Start a LocalCluster of ``workers`` single-threaded worker processes, which
        leave Ctrl-C and SIGTERM to this process (each would print a traceback); a stop
        while they start is acted on once they have, and stops them.

        The cluster's logs are silenced, its scheduler's event loop's too (a stop while
        the workers warm up leaves the scheduler a message it cannot send): what goes
        wrong in a run comes back through its chunks. Its scheduler serves no dashboard,
        and the HTTP server it starts anyway listens on a free port, not Dask's default
        (taken by any other Dask cluster on the machine, which made Dask warn in four
        lines).
        """
        logging.getLogger("asyncio").setLevel(logging.CRITICAL)
        cluster = None
        try:
            with stops_held_for_children():
                cluster = LocalCluster(n_workers=workers, threads_per_worker=1,
                                       processes=True, dashboard_address=None,
                                       scheduler_kwargs=ANY_FREE_HTTP_PORT,
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
        """Play the chunks on the cluster, ``on_progress(index, games)`` called as chunks
        in flight advance (the workers' reports arrive as events of a topic of this run).

        The warm-up plugin is the run's only: a worker that joins later warms no plan of a
        run that has ended. A cluster left without workers stops the run
        (:class:`ClusterError`) once it has had none for Dask's connect timeout."""
        todo = iter(indices)
        live: dict[Future, int] = {}  # the chunks in flight, by future
        topic = f"fcsim-progress-{uuid.uuid4().hex}"
        reports: deque[tuple[int, int]] = deque()  # filled by the client's event thread

        def submit(count: int) -> list[Future]:
            futures = {self.client.submit(_run_chunk_on_worker, plan, i, topic, pure=False): i
                       for i in islice(todo, count)}
            live.update(futures)
            return list(futures)

        def pass_on() -> None:
            while reports:
                index, games = reports.popleft()
                if on_progress is not None:
                    on_progress(index, games)

        self.client.subscribe_topic(topic, lambda event: reports.append(tuple(event[1])))
        alone = _Unattended(self.client)
        try:
            self._warm_up(plan)
            queue = as_completed(submit(IN_FLIGHT_PER_WORKER * self.workers))
            while not queue.is_empty():
                done = queue.next_batch(block=False)
                heed_stop()
                pass_on()
                if not done:
                    alone.check()
                    time.sleep(PROGRESS_WAIT_S)
                for future in done:
                    for new in submit(1):
                        queue.add(new)
                    try:
                        output = future.result()
                    except KilledWorker as err:
                        raise _lost(err, live[future]) from None
                    except ImportError as err:  # a worker that joined without fcsim
                        raise ClusterError(f"a Dask worker cannot play chunk {live[future]}: "
                                           f"{err} (install the same fcsim on every "
                                           f"worker)") from None
                    del live[future]
                    future.release()
                    yield output
        finally:
            self.client.unsubscribe_topic(topic)
            if live:
                self.client.cancel(list(live))
            with suppress(KeyError):  # not registered: a worker could not take it
                self.client.unregister_worker_plugin(WarmUp.name)

    def _warm_up(self, plan: RunPlan) -> None:
        """Register the run's warm-up plugin; a worker that cannot load it (one that
        joined without fcsim) is a :class:`ClusterError`."""
        try:
            self.client.register_plugin(WarmUp(plan))
        except FcsimError:
            raise
        except Exception as err:  # what the worker raised, as Dask sends it back
            raise ClusterError(f"a Dask worker cannot warm up for this run: {err} (install "
                               f"the same fcsim on every worker)") from None

    def close(self) -> None:
        """Disconnect, and stop the cluster if it was started here."""
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()
