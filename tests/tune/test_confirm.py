"""The confirmation's statistics against scipy, and against ``fcsim compare``'s."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats as sps

from fcsim.analysis import load_results
from fcsim.analysis.load import read_metadata
from fcsim.analysis.stats import paired_comparison, wilson_interval
from fcsim.tune.confirm import confirm, confirmation_seed
from fcsim.tune.deals import DealResults
from fcsim.tune.output import run_folder
from fcsim.tune.summary import STAT_COLUMNS, paired, statistics
from tests.tune.helpers import make_search


def _results(deals: np.ndarray, advantage: np.ndarray) -> DealResults:
    count = deals.size
    return DealResults(deals.astype(np.int64), advantage.astype(float),
                       np.full(count, 100.0), np.ones(count), np.full(count, 2, np.int64))


def test_paired_difference_matches_scipy_on_a_small_case() -> None:
    rng = np.random.default_rng(3)
    best = rng.normal(-2, 6, 15).round(2)
    start = rng.normal(0, 6, 15).round(2)
    order = rng.permutation(15)  # deals pair by index, not by position
    got = paired(_results(np.arange(15), best), _results(order, start[order]))
    test = sps.ttest_rel(best, start)
    low, high = test.confidence_interval(0.95)
    assert got.deals == 15
    assert got.mean == pytest.approx(np.mean(best - start))
    assert got.p_value == pytest.approx(test.pvalue)
    assert (got.lo, got.hi) == (pytest.approx(low), pytest.approx(high))


def test_statistics_intervals_match_scipy() -> None:
    advantage = np.array([-4.0, 1.5, -2.5, 0.0, -6.0, 3.0])
    row = statistics(_results(np.arange(6), advantage), _results(np.arange(6), np.zeros(6)))
    assert tuple(row) == STAT_COLUMNS
    test = sps.ttest_1samp(advantage, 0.0)
    low, high = test.confidence_interval(0.95)
    assert (row["advantage_lo"], row["advantage_hi"]) == (pytest.approx(low), pytest.approx(high))
    assert row["diff"] == pytest.approx(advantage.mean()) and row["p_value"] == pytest.approx(
        test.pvalue)
    assert row["win_share"] == 0.5  # 1 of 2 seat-games won in every deal: no width
    assert row["win_share_lo"] == row["win_share_hi"] == 0.5


def test_the_mean_total_s_interval_is_over_deals() -> None:
    """Each deal's mean total of the candidate is one value, whatever its seat-games there
    (2 a deal here): Student's interval over the deals, D − 1 degrees of freedom."""
    totals = np.array([110.0, 95.5, 130.0, 102.0, 88.0, 121.5])
    deals = np.arange(totals.size)
    row = statistics(DealResults(deals, np.zeros(totals.size), totals, np.ones(totals.size),
                                 np.full(totals.size, 2, np.int64)),
                     _results(deals, np.zeros(totals.size)))
    low, high = sps.ttest_1samp(totals, 0.0).confidence_interval(0.95)
    assert row["mean_total"] == pytest.approx(totals.mean())
    assert (row["mean_total_lo"], row["mean_total_hi"]) == (pytest.approx(low),
                                                            pytest.approx(high))


def test_the_win_share_s_interval_is_over_deals() -> None:
    """Wilson's at the effective number of seat-games that the deals' spread gives, as
    ``fcsim.analysis.stats.win_share``: 0/1 wins of one seat-game a deal, the classic one."""
    won = np.array([1.0, 0, 0, 1, 1, 0, 1, 1])
    row = statistics(DealResults(np.arange(8), np.zeros(8), np.full(8, 100.0), won,
                                 np.ones(8, np.int64)), _results(np.arange(8), np.zeros(8)))
    binom = sps.binomtest(5, 8).proportion_ci(method="wilson")
    assert (row["win_share_lo"], row["win_share_hi"]) == (pytest.approx(binom.low),
                                                          pytest.approx(binom.high))
    two_seats = np.array([2.0, 0, 1, 1, 2, 0, 1.5, 0.5])  # of 2 seat-games a deal
    row = statistics(DealResults(np.arange(8), np.zeros(8), np.full(8, 100.0), two_seats,
                                 np.full(8, 2, np.int64)), _results(np.arange(8), np.zeros(8)))
    share = two_seats.sum() / 16
    n_eff = share * (1 - share) / (((two_seats - 2 * share) ** 2).sum() / 16 ** 2)
    lo, hi = wilson_interval(share * n_eff, n_eff)
    assert (row["win_share_lo"], row["win_share_hi"]) == (pytest.approx(lo), pytest.approx(hi))


def test_confirmation_on_fresh_deals_is_compare_s_paired_comparison(tmp_path) -> None:
    search = make_search(tmp_path, deals=16)
    result = confirm(search.arena, tmp_path, "greedy:take_margin=6", "greedy", 5, 16)
    assert result.seed == confirmation_seed(5) != 5
    # against a field of the start itself, the start's advantage is 0 on every deal, so the
    # confirmation is exactly fcsim compare's statistic on the best's run
    lf = load_results(run_folder(tmp_path, "greedy:take_margin=6", confirm=True))
    row = paired_comparison(lf, [("greedy:take_margin=6", "greedy")]).row(0, named=True)
    assert result.diff.deals == row["deals"] == 16
    assert result.diff.mean == pytest.approx(row["mean_diff"])
    assert result.diff.p_value == pytest.approx(row["p_value"])
    assert result.significant == (row["mean_diff_hi"] < 0)
    assert result.verdict.startswith("confirmed on fresh deals: " if result.significant
                                     else "not confirmed: ")
    assert result.to_dict()["diff"]["deals"] == 16


def test_both_sides_of_the_confirmation_play_the_fresh_deals(tmp_path) -> None:
    """The best found on the search's own deals would score its luck there again: the best
    and the start are both played on the root seed that no search saw."""
    search = make_search(tmp_path, deals=4)
    result = confirm(search.arena, tmp_path, "greedy:take_margin=6", "greedy", search.seed, 4)
    for spec in ("greedy:take_margin=6", "greedy"):
        played = read_metadata(run_folder(tmp_path, spec, confirm=True))
        assert played["seed"] == result.seed == confirmation_seed(search.seed)


def test_nothing_to_confirm_when_the_start_is_best(tmp_path) -> None:
    search = make_search(tmp_path)
    result = confirm(search.arena, tmp_path, "greedy", "greedy", 5, 10)
    assert result.diff is None and not result.significant
    assert "found nothing better than the starting strategy greedy" in result.verdict
    assert not (tmp_path / "confirm").exists()
