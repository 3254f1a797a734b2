"""Batch simulation: split a run into chunks, play them on local processes or a Dask
cluster, and write one Parquet file per chunk into a resumable run folder.

Modules: :mod:`~fcsim.runner.format` (the run folder's files, columns and checks; no
numba), :mod:`~fcsim.runner.plan` (seeds, seating, chunks), :mod:`~fcsim.runner.chunk`
(one chunk in a worker), :mod:`~fcsim.runner.table` (rows and Parquet),
:mod:`~fcsim.runner.durable` and :mod:`~fcsim.runner.lock` (safe writes, one writer),
:mod:`~fcsim.runner.store` (the run folder), :mod:`~fcsim.runner.pool` and
:mod:`~fcsim.runner.cluster` (executors), :mod:`~fcsim.runner.run` (putting it together),
:mod:`~fcsim.runner.summary` (what a folder holds).

The names below are imported on first use, so that reading a run folder
(:mod:`fcsim.runner.format`) does not load the engine.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fcsim.runner.format import RunFolderError
    from fcsim.runner.plan import DEFAULT_CHUNK_SIZE, PlanError, RunPlan
    from fcsim.runner.run import execute, make_plan, simulate
    from fcsim.runner.store import RunFolder

_LAZY = {"DEFAULT_CHUNK_SIZE": "plan", "PlanError": "plan", "RunPlan": "plan",
         "execute": "run", "make_plan": "run", "simulate": "run", "RunFolder": "store",
         "RunFolderError": "format"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(f"fcsim.runner.{_LAZY[name]}"), name)
    raise AttributeError(f"module 'fcsim.runner' has no attribute {name!r}")


__all__ = [
    "DEFAULT_CHUNK_SIZE",
    "PlanError",
    "RunFolder",
    "RunFolderError",
    "RunPlan",
    "execute",
    "make_plan",
    "simulate",
]
