"""Bradley–Terry ratings: the MM fit against a direct optimiser, the Elo scale, the planted
order, ties, and a deterministic bootstrap over deals."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pytest
from scipy.optimize import minimize

from fcsim.analysis import ratings
from fcsim.analysis.load import load_results
from fcsim.analysis.stats import Z95

from .helpers import MIDDLE, STRONG, WEAK, table_frame


def _neg_log_likelihood(theta: np.ndarray, wins: np.ndarray) -> float:
    diff = theta[:, None] - theta[None, :]
    return float(np.sum(wins * np.logaddexp(0, -diff)))


def test_mm_fit_matches_a_direct_optimiser() -> None:
    rng = np.random.default_rng(3)
    wins = rng.integers(5, 60, size=(4, 4)).astype(float)
    np.fill_diagonal(wins, 0)
    fitted = ratings.bradley_terry(wins, prior=0.0)
    ref = minimize(_neg_log_likelihood, np.zeros(4), args=(wins,), method="BFGS",
                   options={"gtol": 1e-10}).x
    assert np.allclose(fitted, ref - ref.mean(), atol=1e-5)
    assert fitted.mean() == pytest.approx(0.0, abs=1e-12)


def test_fits_are_vectorised_over_replicates() -> None:
    wins = np.array([[[0, 30], [10, 0]], [[0, 10], [10, 0]]], dtype=float)
    fitted = ratings.bradley_terry(wins, prior=0.0)
    assert fitted.shape == (2, 2)
    assert fitted[0, 0] - fitted[0, 1] == pytest.approx(np.log(3))
    assert fitted[1] == pytest.approx([0.0, 0.0])


def test_elo_scale() -> None:
    # 3:1 odds of finishing ahead is 400·log10(3) ≈ 190.8 Elo points; the mean is 1500
    elo = ratings.to_elo(ratings.bradley_terry(np.array([[0.0, 75.0], [25.0, 0.0]]), prior=0))
    assert elo.mean() == pytest.approx(1500)
    assert elo[0] - elo[1] == pytest.approx(400 * np.log10(3))


def test_prior_keeps_a_clean_sweep_finite() -> None:
    fitted = ratings.bradley_terry(np.array([[0.0, 50.0], [0.0, 0.0]]))
    assert np.all(np.isfinite(fitted)) and fitted[0] > fitted[1]


def test_planted_order_is_recovered(planted_run: Path) -> None:
    table = ratings.rate_strategies(load_results(planted_run))
    assert table["strategy"].to_list() == [STRONG, MIDDLE, WEAK]
    assert table["rating"].mean() == pytest.approx(1500)
    assert (table["rating_lo"] < table["rating"]).all()
    assert (table["rating"] < table["rating_hi"]).all()
    # the intervals separate the planted levels
    assert table["rating_lo"][0] > table["rating_hi"][1]
    assert table["rating_lo"][1] > table["rating_hi"][2]


def test_bootstrap_is_deterministic(planted_run: Path) -> None:
    lf = load_results(planted_run)
    first = ratings.rate_strategies(lf, bootstrap=50, seed=1)
    assert first.equals(ratings.rate_strategies(lf, bootstrap=50, seed=1))
    assert not first.equals(ratings.rate_strategies(lf, bootstrap=50, seed=2))


def test_the_bootstrap_resamples_whole_deals() -> None:
    """Each deal's luck goes to x in one rotation and to y in the other: every deal is
    level, so resampled deals give the ratings no width (resampled games would: 10 of 20
    games drawn at random are rarely level)."""
    rotations = table_frame([[1, 9], [9, 1]] * 10, ["x", "y"])
    deals = rotations.with_columns(deal=pl.col("game") // 2)
    table = ratings.rate_strategies(deals, bootstrap=50)
    assert (table["rating_lo"] == 1500).all() and (table["rating_hi"] == 1500).all()
    games = ratings.rate_strategies(rotations, bootstrap=50)
    assert (games["rating_hi"] - games["rating_lo"] > 50).all()


def test_the_rating_interval_is_a_95_percent_one() -> None:
    """x ahead in half of 400 one-game deals: the log-odds of x finishing ahead has the
    standard error 1 / √(400 · ½ · ½) = 0.1, and each rating moves by half the gap, so the
    bootstrap's 95% interval is ± 1.96 · 0.1 · ELO_SCALE / 2 ≈ 17 points (a 90% one, 14)."""
    deals, ahead = 400, 0.5
    table = ratings.rate_strategies(table_frame([[1, 9], [9, 1]] * (deals // 2), ["x", "y"]),
                                    bootstrap=2000)
    expected = Z95 * ratings.ELO_SCALE / 2 / np.sqrt(deals * ahead * (1 - ahead))
    half_width = (table["rating_hi"] - table["rating_lo"]) / 2
    assert half_width.to_list() == pytest.approx([expected] * 2, rel=0.08)  # 2,000 draws' noise


def test_the_bootstrap_draws_the_same_replicates_in_any_block_size(
        planted_run: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Replicates are drawn a block at a time to bound memory: the blocks' size changes
    nothing."""
    lf = load_results(planted_run)
    whole = ratings.rate_strategies(lf, bootstrap=30, seed=4)
    monkeypatch.setattr(ratings, "DRAWS_AT_ONCE", 1)
    assert ratings.rate_strategies(lf, bootstrap=30, seed=4).equals(whole)


def test_ties_count_half() -> None:
    # x and y always tie: equal ratings; both always beat z
    df = table_frame([[5, 5, 9]] * 20, ["x", "y", "z"])
    table = ratings.rate_strategies(df, bootstrap=20)
    rating = dict(table.select("strategy", "rating").iter_rows())
    assert rating["x"] == pytest.approx(rating["y"])
    assert rating["x"] > rating["z"] + 400
    ahead = dict(table.select("strategy", "ahead_share").iter_rows())
    assert ahead["x"] == pytest.approx(0.75) and ahead["z"] == 0.0


def test_null_run_rates_equal(null_run: Path) -> None:
    table = ratings.rate_strategies(load_results(null_run))
    assert (table["rating_lo"] < 1500).all() and (table["rating_hi"] > 1500).all()


def test_ratings_the_games_do_not_bound_have_no_interval() -> None:
    # x always beats y: with one virtual drawn pair the gap is 400·log10(2n + 1), so it
    # grows with the games, and every bootstrap of one pattern gives the same value
    few, many = (ratings.rate_strategies(table_frame([[1, 9]] * n, ["x", "y"]), bootstrap=20)
                 for n in (10, 1000))
    assert few["rating"][0] < many["rating"][0]
    for table in (few, many):
        assert table["rating_lo"].is_nan().all() and table["rating_hi"].is_nan().all()
    # z never finishes ahead: x and y's ratings against each other are bounded, the table not
    swept = ratings.rate_strategies(table_frame([[1, 5, 9], [5, 1, 9]] * 10, ["x", "y", "z"]),
                                    bootstrap=20)
    assert swept["rating_lo"].is_nan().all()
    # one loss of z is enough to bound every rating
    bounded = ratings.rate_strategies(
        table_frame([[1, 5, 9], [5, 1, 9], [5, 9, 1]] * 10, ["x", "y", "z"]), bootstrap=20)
    assert (bounded["rating_lo"] < bounded["rating"]).all()
    assert (bounded["rating"] < bounded["rating_hi"]).all()


def test_bounded_by_data_follows_wins_and_ties_both_ways() -> None:
    assert ratings.bounded_by_data(np.array([[0.0, 3.0], [1.0, 0.0]]))
    assert ratings.bounded_by_data(np.array([[0.0, 0.5], [0.5, 0.0]]))  # ties link both ways
    assert not ratings.bounded_by_data(np.array([[0.0, 3.0], [0.0, 0.0]]))
    # a chain x > y > z > w with w beating x closes the loop; without it, it is open
    chain = np.diag([1.0, 1.0, 1.0], k=1)
    assert not ratings.bounded_by_data(chain)
    chain[3, 0] = 1.0
    assert ratings.bounded_by_data(chain)
    assert ratings.bounded_by_data(np.zeros((1, 1)))
