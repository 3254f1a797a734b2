"""Strategy names with planted edges, hand-made game tables, and intervals over deals
written out deal by deal, for the analysis tests."""

from __future__ import annotations

import numpy as np
import polars as pl
from scipy import stats as sps

from fcsim.analysis import stats

STRONG, MIDDLE, WEAK = "strong", "middle:margin=2", "weak"
EDGES = {STRONG: 0.4, MIDDLE: 0.15, WEAK: -0.3}


def table_frame(totals: list[list[int]], strategies: list[str]) -> pl.DataFrame:
    """Game × seat rows for hand-made games: ``totals[g][s]`` with ``strategies[s]`` at seat s;
    one round, stopped at the turn cap (nobody went out), whose penalty is the total."""
    rows = []
    for game, scores in enumerate(totals):
        for seat, total in enumerate(scores):
            rows.append({
                "game": game, "deal": game, "seat": seat, "strategy": strategies[seat],
                "total": total, "place": 1 + sum(t < total for t in scores),
                "win": total == min(scores), "penalty_1": total, "wild_pts_1": 0,
                "joker_pts_1": 0, "out_seat_1": -1, "turns_1": 2000, "capped_1": True,
            })
    return pl.DataFrame(rows)


def deal_sums(values: np.ndarray, deals: np.ndarray) -> tuple[float, float, int]:
    """The share or mean of ``values`` (one per seat-game), and its variance with the deals
    as the independent units, written out deal by deal; and the number of deals."""
    mean = values.sum() / values.size
    dev2 = sum((values[deals == d].sum() - mean * (deals == d).sum()) ** 2
               for d in np.unique(deals))
    return mean, dev2 / values.size ** 2, np.unique(deals).size


def deal_wilson(values: np.ndarray, deals: np.ndarray) -> tuple[float, float]:
    """Wilson's interval at the effective number of seat-games p(1 - p) / variance."""
    share, variance, _ = deal_sums(values, deals)
    n_eff = share * (1 - share) / variance
    lo, hi = stats.wilson_interval(share * n_eff, n_eff)
    return float(lo), float(hi)


def deal_t(values: np.ndarray, deals: np.ndarray) -> tuple[float, float]:
    """Student's interval over the deals (D − 1 degrees of freedom)."""
    mean, variance, count = deal_sums(values, deals)
    scale = np.sqrt(variance * count / (count - 1))
    return sps.t.interval(0.95, count - 1, loc=mean, scale=scale)
