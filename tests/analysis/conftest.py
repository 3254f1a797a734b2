"""Synthetic run folders with planted effects (fixed seeds), shared by the analysis tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from fcsim.analysis.synthetic import write_synthetic_run

from .helpers import EDGES, MIDDLE, STRONG, WEAK


@pytest.fixture(scope="session")
def planted_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Duplicate format, 4 seats: strong twice, middle and weak once; 1,200 games (300 deals)."""
    table = [STRONG, MIDDLE, WEAK, STRONG]
    return write_synthetic_run(tmp_path_factory.mktemp("runs") / "planted", table,
                               [EDGES[s] for s in table], games=1200, seed=11,
                               duplicate=True, games_per_file=400)


@pytest.fixture(scope="session")
def null_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two strategies that play identically (no effect to find), two seats each; 300 deals."""
    return write_synthetic_run(tmp_path_factory.mktemp("runs") / "null", ["a", "b", "a", "b"],
                               [0.0] * 4, games=1200, seed=5, duplicate=True,
                               games_per_file=400)
