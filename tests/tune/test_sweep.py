"""The sweep's best point: the lowest difference from the reference."""

from __future__ import annotations

import polars as pl

from fcsim.tune.sweep import best_row


def test_the_best_point_scores_least_against_the_reference() -> None:
    """``diff`` is a point's advantage minus the reference's (negative: fewer points, so
    better); the best is the lowest, the first of equals, never the largest."""
    points = pl.DataFrame({"point": [0, 1, 2, 3], "diff": [0.0, -1.5, 2.0, -1.5]})
    assert best_row(points)["point"] == 1
