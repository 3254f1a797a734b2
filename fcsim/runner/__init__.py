"""Batch simulation: split a run into chunks, play them on local processes or a Dask
cluster, and write one Parquet file per chunk into a resumable run folder.

Modules: :mod:`~fcsim.runner.plan` (seeds, seating, chunks), :mod:`~fcsim.runner.chunk`
(one chunk in a worker), :mod:`~fcsim.runner.table` (rows and Parquet),
:mod:`~fcsim.runner.store` (the run folder), :mod:`~fcsim.runner.pool` and
:mod:`~fcsim.runner.cluster` (executors), :mod:`~fcsim.runner.run` (putting it together),
:mod:`~fcsim.runner.summary` (what a folder holds).
"""

from fcsim.runner.plan import DEFAULT_CHUNK_SIZE, PlanError, RunPlan
from fcsim.runner.run import execute, make_plan, simulate
from fcsim.runner.store import RunFolder, RunFolderError

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
