"""Strategy names with planted edges and hand-made game tables for the analysis tests."""

from __future__ import annotations

import polars as pl

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
