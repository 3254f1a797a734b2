"""``results/README.md`` describes the runs ``scripts/make_sample_report.py`` makes: each
run's games and every strategy as it is written."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import make_sample_report  # noqa: E402

README = (ROOT / "results" / "README.md").read_text()


@pytest.mark.parametrize("run", make_sample_report.RUNS, ids=lambda run: run[0])
def test_the_readme_names_each_runs_games_and_strategies(run: tuple) -> None:
    _, strategies, games, _, _ = run
    assert f"{games:,} games" in README
    missing = [s for s in strategies.split(",") if f"`{s}`" not in README]
    assert missing == []
