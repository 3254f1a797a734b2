"""``results/README.md`` describes the runs ``scripts/make_sample_report.py`` makes: each
run's games and every strategy as it is written; and each step's line says the games its
run holds."""

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


def test_a_step_says_the_games_its_run_holds(tmp_path: Path) -> None:
    """5 games of 4 seats in duplicate are 2 deals in their 4 rotations: 8 games."""
    run = tmp_path / "run"
    strategies = "random,greedy,greedy:take_margin=0,greedy:take_margin=15"
    assert make_sample_report.simulate(strategies, 5, 1, 10, run) == 8


def test_only_a_full_scale_run_writes_the_tracked_sample() -> None:
    """A quick look (``--scale``) must not leave a shrunken report where git tracks one."""
    results = ROOT / "results"
    assert make_sample_report.destinations(1.0) == (results / "sample-runs",
                                                    results / "sample")
    assert make_sample_report.destinations(0.01) == (results / "sample-scaled-runs",
                                                     results / "sample-scaled")
