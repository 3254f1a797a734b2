"""Shared set-up for the runner tests: short two-player games play fast."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import polars as pl
import pytest

from fcsim.core.rules import RuleSet
from fcsim.runner import simulate

SPECS = "greedy,random"
RULES = RuleSet(players=2, rounds=6)


def _rows(path: Path) -> pl.DataFrame:
    return pl.read_parquet(path).sort("game", "seat")


@pytest.fixture(scope="session")
def rows() -> Callable[[Path], pl.DataFrame]:
    """Every row of a run folder, sorted by game then seat."""
    return _rows


@pytest.fixture(scope="session")
def small() -> dict:
    """The run the reference folder holds (simulate keyword arguments but the folder)."""
    return {"strategies": SPECS, "games": 120, "seed": 11, "rules": RULES, "chunk_size": 10}


@pytest.fixture(scope="session")
def reference(tmp_path_factory, small) -> Path:
    """120 games of greedy vs random in chunks of 10, played in this process."""
    out = tmp_path_factory.mktemp("reference") / "run"
    simulate(out=out, workers=1, **small)
    return out
