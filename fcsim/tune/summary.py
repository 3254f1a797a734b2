"""One row of statistics per point (sweep) or trial (tune), from its per-deal results.

``advantage``: the candidate's mean total minus the field's, points per game, with its 95%
t interval over deals. ``diff``: the advantage minus the reference's on the same deals
(paired, with interval and two-sided p-value): negative means better than the reference.
``win_share``: the candidate's share of its seat-games won (Wilson interval over deals,
as :func:`fcsim.analysis.stats.with_deal_wilson`); ``mean_total``: its mean final total
(t interval over deals). Lower totals are better throughout.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from fcsim.analysis.stats import (
    MeanDifference,
    deal_wilson_interval,
    mean_difference,
    share_variance,
    t_interval,
)
from fcsim.tune.deals import DealResults

STAT_COLUMNS = ("deals", "advantage", "advantage_lo", "advantage_hi", "diff", "diff_lo",
                "diff_hi", "p_value", "win_share", "win_share_lo", "win_share_hi",
                "mean_total", "mean_total_lo", "mean_total_hi")


def paired(results: DealResults, reference: DealResults) -> MeanDifference:
    """The candidate's advantage minus the reference's, on the deals both played."""
    _, mine, theirs = np.intersect1d(results.deal, reference.deal, assume_unique=True,
                                     return_indices=True)
    return mean_difference(results.advantage[mine] - reference.advantage[theirs])


def statistics(results: DealResults, reference: DealResults) -> dict[str, Any]:
    """The :data:`STAT_COLUMNS` of one candidate against ``reference``."""
    advantage = mean_difference(results.advantage)
    diff = paired(results, reference)
    wins, seat_games = results.wins.sum(), results.seat_games.sum()
    share_lo, share_hi = deal_wilson_interval(
        wins / seat_games if seat_games else float("nan"),
        share_variance(results.wins, results.seat_games), results.deals)
    total = results.total
    sd = float(total.std(ddof=1)) if total.size > 1 else float("nan")
    mean = float(total.mean()) if total.size else float("nan")
    total_lo, total_hi = t_interval(mean, sd, total.size)
    return {
        "deals": results.deals, "advantage": advantage.mean,
        "advantage_lo": advantage.lo, "advantage_hi": advantage.hi,
        "diff": diff.mean, "diff_lo": diff.lo, "diff_hi": diff.hi, "p_value": diff.p_value,
        "win_share": float(wins / seat_games) if seat_games else float("nan"),
        "win_share_lo": float(share_lo), "win_share_hi": float(share_hi),
        "mean_total": mean, "mean_total_lo": float(total_lo), "mean_total_hi": float(total_hi),
    }
