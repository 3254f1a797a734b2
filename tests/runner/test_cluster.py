"""Dask executor: a bad address fails fast, a worker lacking a plug-in says so in one line
(tests/cli/test_simulate.py runs a LocalCluster)."""

from __future__ import annotations

import re
import socket
import sys
import threading
import time
import warnings
from collections.abc import Iterator
from contextlib import suppress

import pytest

pytest.importorskip("distributed")

import dask
from distributed import LocalCluster

from fcsim.core.rules import RuleSet
from fcsim.runner.cluster import ClusterError, DaskCluster, WarmUp
from fcsim.runner.plan import RunPlan
from fcsim.strategies import StrategyError


def test_an_unreachable_scheduler_is_one_clear_error():
    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}), \
            pytest.raises(ClusterError, match="cannot reach the Dask scheduler at tcp://"):
        DaskCluster.connect("tcp://127.0.0.1:1")


def test_a_worker_without_the_plugin_fails_in_one_line_naming_both(tmp_path, plugins):
    from fcsim.runner import make_plan
    from fcsim.runner.store import RunFolder
    from tests.conftest import STOCK_ONLY, write_package

    elsewhere = tmp_path / "not-on-the-workers"
    write_package(elsewhere, "fcsim-stockonly", {"stockonly": "stock_only:FAMILY"},
                  {"stock_only.py": STOCK_ONLY})
    cluster = DaskCluster.local(1)  # its worker starts before the plug-in is installed here
    try:
        sys.path.insert(0, str(elsewhere))
        plan = make_plan(["stockonly", "random"], RuleSet(players=2, rounds=6), 1, 4,
                         chunk_size=2)
        folder = RunFolder.open(tmp_path / "run", plan, resume=False)
        with pytest.raises(StrategyError) as err:
            list(cluster.run(folder.plan, folder.missing))
        message = str(err.value)
        assert "\n" not in message
        assert re.fullmatch(r"Dask worker tcp://\S+ cannot play this run: unknown strategy "
                            r"'stockonly'; known strategies: .*", message), message
        assert WarmUp.name not in worker_plugins(cluster)
    finally:
        sys.path.remove(str(elsewhere))
        cluster.close()


def worker_plugins(cluster: DaskCluster) -> list[str]:
    """The worker plugins registered on the cluster's scheduler."""
    return cluster.client.run_on_scheduler(lambda dask_scheduler: list(
        dask_scheduler.worker_plugins))


@pytest.fixture
def one_worker() -> Iterator[DaskCluster]:
    """A local cluster of one worker process, closed after the test."""
    cluster = DaskCluster.local(1)
    try:
        yield cluster
    finally:
        cluster.close()


def short_plan(strategy: str = "greedy", games: int = 2, chunk_size: int = 1) -> RunPlan:
    """Heads-up short games of ``strategy``, a chunk of ``chunk_size`` games each."""
    from fcsim.runner import make_plan

    return make_plan([strategy], RuleSet(players=2, rounds=6), 1, games, chunk_size=chunk_size)


def test_the_warm_up_plugin_ends_with_the_run(one_worker):
    """A worker that joins later warms no plan of a run that has ended."""
    assert len(list(one_worker.run(short_plan("random"), [0, 1]))) == 2
    assert WarmUp.name not in worker_plugins(one_worker)


@pytest.fixture
def quick_connect():
    """Dask's connect timeout at half a second, for one test."""
    with dask.config.set({"distributed.comm.timeouts.connect": "0.5s"}):
        yield


def serve(reply: bytes | None) -> tuple[str, socket.socket]:
    """A TCP server that sends ``reply`` to whoever connects (None: never a word)."""
    server = socket.create_server(("127.0.0.1", 0))

    def answer() -> None:
        with suppress(OSError):
            peer, _ = server.accept()
            if reply is not None:
                peer.sendall(reply)

    if reply is not None:
        threading.Thread(target=answer, daemon=True).start()
    return f"tcp://127.0.0.1:{server.getsockname()[1]}", server


@pytest.mark.parametrize("reply", [None, b"SSH-2.0-OpenSSH_9.6\r\n"])
def test_a_server_that_is_not_dask_is_one_clear_error_in_time(quick_connect, reply):
    """A web server never answers Dask's handshake; an SSH server's banner read as a Dask
    message would take 2.8 EiB."""
    address, server = serve(reply)
    start = time.monotonic()
    with server, pytest.raises(ClusterError) as err:
        DaskCluster.connect(address)
    assert str(err.value) == (f"cannot reach the Dask scheduler at {address}: what answers "
                              f"there is no Dask server")
    assert time.monotonic() - start < 5


def test_a_worker_that_cannot_import_fcsim_is_named_before_the_run(tmp_path):
    blocked = tmp_path / "no_fcsim.py"
    blocked.write_text("import sys\n\nsys.modules['fcsim'] = None\n")
    with LocalCluster(n_workers=1, threads_per_worker=1, dashboard_address=None,
                      preload=[str(blocked)]) as cluster, \
            pytest.raises(ClusterError) as err:
        DaskCluster.connect(cluster.scheduler_address)
    assert re.fullmatch(r"Dask worker tcp://\S+ cannot play this run: it cannot import fcsim "
                        r"\(ModuleNotFoundError\(.*\)\)", str(err.value)), str(err.value)


def test_progress_comes_back_from_dask_workers_within_a_chunk(one_worker):
    """A chunk of a large run plays for minutes: its games are reported as they are
    played, not when it ends."""
    from fcsim.runner.chunk import PROGRESS_GAMES

    plan = short_plan(games=3 * PROGRESS_GAMES, chunk_size=3 * PROGRESS_GAMES)
    reports = []
    assert len(list(one_worker.run(plan, [0], lambda index, games: reports.append(games)))) == 1
    assert reports == sorted(reports) and 0 < reports[0] < 3 * PROGRESS_GAMES


def test_progress_from_dask_workers_names_each_chunk(one_worker):
    """The bar adds up the games in flight chunk by chunk: a report filed under another
    chunk's index is lost once that chunk is done, and the bar stops moving."""
    from fcsim.runner.chunk import PROGRESS_GAMES

    chunk_games, chunks = 3 * PROGRESS_GAMES, 2
    plan = short_plan(games=chunks * chunk_games, chunk_size=chunk_games)
    reports = []
    played = one_worker.run(plan, range(chunks),
                            lambda index, games: reports.append((index, games)))
    assert len(list(played)) == chunks
    assert {index for index, _ in reports} == set(range(chunks))


def test_a_cluster_left_without_workers_stops_the_run(one_worker, monkeypatch):
    monkeypatch.setitem(dask.config.config["distributed"]["comm"]["timeouts"], "connect", "1s")
    one_worker.cluster.scale(0)
    deadline = time.monotonic() + 30
    while one_worker.client.nthreads() and time.monotonic() < deadline:
        time.sleep(0.1)  # as when every worker has died
    with pytest.raises(ClusterError, match=r"has had no workers for 1 s"):
        list(one_worker.run(short_plan(games=4), [0, 1, 2, 3]))


def test_a_worker_with_other_fcsim_code_refuses_to_play(one_worker):
    """Its rows would carry the client's code in their metadata: a mix no run could tell."""
    from dataclasses import replace

    other = replace(short_plan(), code_digest="0123456789abcdef")  # another fcsim's client
    with pytest.raises(ClusterError, match=r"Dask worker .* cannot play this run: it has "
                                           r"other fcsim code \(fcsim .* there, fcsim "
                                           r"0\.1\.0 \(code 0123456789abcdef\) here\)"):
        list(one_worker.run(other, [0, 1]))


def test_a_worker_without_fcsim_that_joins_later_is_one_line(tmp_path):
    """Checked at connect, a worker can still join later without fcsim."""
    from distributed import Client

    blocked = tmp_path / "no_fcsim.py"
    blocked.write_text("import sys\n\nsys.modules['fcsim'] = None\n")
    plan = short_plan()
    with LocalCluster(n_workers=1, threads_per_worker=1, dashboard_address=None,
                      preload=[str(blocked)]) as local:
        cluster = DaskCluster(Client(local))  # as if it had joined after the check
        try:
            with pytest.raises(ClusterError, match=r"a Dask worker cannot warm up for this "
                                                   r"run: .*fcsim.* \(install the same fcsim "
                                                   r"on every worker\)"):
                list(cluster.run(plan, [0, 1]))
        finally:
            cluster.close()


def test_a_local_cluster_starts_quietly_beside_another_on_dask_s_port():
    """Dask's scheduler starts an HTTP server even without a dashboard, on port 8787 by
    default; with that port taken (another Dask cluster on the machine) Dask warned in
    four lines. fcsim's local cluster listens on a free port instead."""
    taken = socket.socket()
    with suppress(OSError):  # already taken by someone else: as good for this test
        taken.bind(("", 8787))
        taken.listen()
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            cluster = DaskCluster.local(1)
            cluster.close()
    finally:
        taken.close()
    assert [str(w.message) for w in caught if "in use" in str(w.message)] == []
