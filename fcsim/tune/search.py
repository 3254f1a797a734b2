"""What every run of one sweep or tune shares: the starting strategy, the table and workers,
the root seed and the number of deals, and the output folder."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from fcsim.strategies import Strategy
from fcsim.tune.arena import Arena, OnDeals
from fcsim.tune.deals import DealResults
from fcsim.tune.output import run_folder


@dataclass(frozen=True)
class Search:
    """A sweep or a tune: ``base`` is the strategy as given (the reference every point or
    trial is compared with); every run plays ``deals`` deals of root seed ``seed``."""

    base: Strategy
    arena: Arena
    seed: int
    deals: int
    out: Path

    def play(self, spec: str, on_deals: OnDeals | None = None) -> DealResults:
        """Candidate ``spec`` on the search's deals (see :meth:`Arena.play`)."""
        return self.arena.play(spec, self.seed, self.deals, run_folder(self.out, spec),
                               on_deals)
