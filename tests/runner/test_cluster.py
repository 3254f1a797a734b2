"""Dask executor: a bad address fails fast, a worker lacking a plug-in says so in one line
(tests/cli/test_simulate.py runs a LocalCluster)."""

from __future__ import annotations

import re
import sys

import pytest

pytest.importorskip("distributed")

import dask

from fcsim.core.rules import RuleSet
from fcsim.runner.cluster import ClusterError, DaskCluster, WarmUp
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


def test_the_warm_up_plugin_ends_with_the_run(tmp_path):
    """A worker that joins later warms no plan of a run that has ended."""
    from fcsim.runner import make_plan

    plan = make_plan(["random"], RuleSet(players=2, rounds=6), 1, 2, chunk_size=1)
    cluster = DaskCluster.local(1)
    try:
        assert len(list(cluster.run(plan, [0, 1]))) == 2
        assert WarmUp.name not in worker_plugins(cluster)
    finally:
        cluster.close()
