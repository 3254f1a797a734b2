"""Dask executor: a bad address fails fast (tests/cli/test_simulate.py runs a LocalCluster)."""

from __future__ import annotations

import pytest

pytest.importorskip("distributed")

import dask

from fcsim.runner.cluster import ClusterError, DaskCluster


def test_an_unreachable_scheduler_is_one_clear_error():
    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}), \
            pytest.raises(ClusterError, match="cannot reach the Dask scheduler at tcp://"):
        DaskCluster.connect("tcp://127.0.0.1:1")
