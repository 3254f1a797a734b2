"""The confirmation of a tune: the best parameters against the starting strategy, on fresh
deals (another root seed), each in the same field; a paired comparison and a plain verdict.

The search picks the best of many noisy estimates, so its own figure for the best is
optimistic; only deals the search never saw can say whether the gain is real.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from fcsim.analysis.stats import MeanDifference, verdict
from fcsim.core.rng import splitmix64
from fcsim.tune.arena import Arena
from fcsim.tune.output import run_folder
from fcsim.tune.summary import paired, statistics


def confirmation_seed(seed: int) -> int:
    """The root seed of the confirmation's deals: ``splitmix64(seed)``, never the search's."""
    return int(splitmix64(np.uint64(seed)))


@dataclass(frozen=True)
class Confirmation:
    """``best`` against ``start`` on ``deals`` fresh deals of root seed ``seed``.

    ``diff`` is best's advantage minus start's, paired by deal (negative: best scores
    less); ``best_stats`` and ``start_stats`` are each one's statistics (advantage over the
    field, win share, mean total; ``diff`` columns against start). ``None`` stats mean the
    search found nothing but the start, so nothing was played.
    """

    best: str
    start: str
    seed: int
    deals: int
    diff: MeanDifference | None
    best_stats: dict[str, Any] | None
    start_stats: dict[str, Any] | None

    @property
    def significant(self) -> bool:
        """Whether best scores significantly less than start (the interval is below 0)."""
        return self.diff is not None and self.diff.hi < 0

    @property
    def verdict(self) -> str:
        """One plain sentence: is the gain real?"""
        if self.diff is None:
            return (f"the search found nothing better than the starting strategy "
                    f"{self.start}; nothing to confirm")
        d = self.diff
        said = verdict(self.best, self.start, d.mean, d.lo, d.hi, d.deals, d.p_value)
        if self.significant:
            return f"confirmed on fresh deals: {said}"
        return f"not confirmed: {said}; the best found is not significantly better"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready record (``confirmation.json``)."""
        return {"best": self.best, "start": self.start, "seed": self.seed,
                "deals": self.deals, "diff": None if self.diff is None else self.diff._asdict(),
                "significant": self.significant, "verdict": self.verdict,
                "best_stats": self.best_stats, "start_stats": self.start_stats}


def confirm(arena: Arena, out: Path, best: str, start: str, seed: int,
            deals: int) -> Confirmation:
    """Play ``best`` and ``start`` on ``deals`` deals of ``confirmation_seed(seed)``."""
    fresh = confirmation_seed(seed)
    if best == start:
        return Confirmation(best, start, fresh, deals, None, None, None)
    start_results = arena.play(start, fresh, deals, run_folder(out, start, confirm=True))
    best_results = arena.play(best, fresh, deals, run_folder(out, best, confirm=True))
    return Confirmation(best, start, fresh, deals, paired(best_results, start_results),
                        statistics(best_results, start_results),
                        statistics(start_results, start_results))
