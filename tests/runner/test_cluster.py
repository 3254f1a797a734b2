"""Dask executor: a bad address fails fast, a worker lacking a plug-in says so in one line
(tests/cli/test_simulate.py runs a LocalCluster)."""

from __future__ import annotations

import re
import sys

import pytest

pytest.importorskip("distributed")

import dask

from fcsim.core.rules import RuleSet
from fcsim.runner.cluster import ClusterError, DaskCluster
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
    finally:
        sys.path.remove(str(elsewhere))
        cluster.close()
