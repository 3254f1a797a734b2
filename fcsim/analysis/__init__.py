"""Analysis of run folders written by ``fcsim simulate``.

- :mod:`~fcsim.analysis.load`: open runs as a lazy polars scan, read their metadata.
- :mod:`~fcsim.analysis.stats`: win shares, totals, per-round play, seats, head to head,
  paired comparisons, each with 95% intervals.
- :mod:`~fcsim.analysis.ratings`: Bradley–Terry ratings on the Elo scale.
- :mod:`~fcsim.analysis.plots` and :mod:`~fcsim.analysis.report`: charts and the report.
- :mod:`~fcsim.analysis.synthetic`: synthetic runs with planted effects (tests, benchmarks).

Only the loading API is imported here, so ``import fcsim.analysis`` stays light (no scipy
or matplotlib).
"""

from fcsim.analysis.load import RunFolderError, load_results, long_rounds, read_metadata

__all__ = ["RunFolderError", "load_results", "long_rounds", "read_metadata"]
