"""Statistics against hand-computed values, scipy and numpy, and the planted effects."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pytest
from scipy import stats as sps

from fcsim.analysis import stats
from fcsim.analysis.load import load_results
from fcsim.analysis.synthetic import write_synthetic_run
from fcsim.testing import Comparison
from tests.sources import modules_saying

from .helpers import EDGES, MIDDLE, STRONG, WEAK, deal_t, deal_wilson, table_frame


def test_wilson_interval_by_hand_and_scipy() -> None:
    # 8 of 10: centre (0.8 + z²/20)/(1 + z²/10), the textbook (0.4902, 0.9433)
    lo, hi = stats.wilson_interval(np.array([8]), np.array([10]))
    assert lo[0] == pytest.approx(0.490162, abs=1e-6) and hi[0] == pytest.approx(0.943318,
                                                                                  abs=1e-6)
    for k, n in [(0, 20), (3, 7), (500, 1000), (999, 1000)]:
        ci = sps.binomtest(k, n).proportion_ci(method="wilson")
        lo, hi = stats.wilson_interval(k, n)
        assert (lo, hi) == (pytest.approx(ci.low), pytest.approx(ci.high))
    lo, hi = stats.wilson_interval(np.array([0.0, 7.0, 1200.0]), np.array([1200, 7, 1200]))
    assert lo[0] == 0.0 and hi[1] == hi[2] == 1.0  # exactly, not 1e-19 off


def test_t_interval_matches_scipy() -> None:
    x = np.array([3.0, 7.0, 8.0, 12.0, 4.0, 9.0])
    lo, hi = stats.t_interval(x.mean(), x.std(ddof=1), x.size)
    ref = sps.t.interval(0.95, x.size - 1, loc=x.mean(), scale=sps.sem(x))
    assert (lo, hi) == (pytest.approx(ref[0]), pytest.approx(ref[1]))


def test_win_share_splits_ties() -> None:
    # game 0: x and y tie for first (1/2 each); game 1: x alone; game 2: all three tie
    df = table_frame([[10, 10, 20], [5, 30, 30], [7, 7, 7]], ["x", "y", "z"])
    got = {r["strategy"]: r for r in stats.win_share(df).iter_rows(named=True)}
    assert got["x"]["wins"] == pytest.approx(0.5 + 1 + 1 / 3)
    assert got["y"]["wins"] == pytest.approx(0.5 + 1 / 3)
    assert got["z"]["wins"] == pytest.approx(1 / 3)
    assert got["x"]["win_share"] == pytest.approx((1.5 + 1 / 3) / 3)
    assert got["x"]["fair_share"] == pytest.approx(1 / 3)
    lo, hi = deal_wilson(np.array([0.5, 1, 1 / 3]), np.arange(3))  # ties vary less than 0/1
    assert (got["x"]["win_share_lo"], got["x"]["win_share_hi"]) == (pytest.approx(lo),
                                                                    pytest.approx(hi))


def test_one_seat_a_deal_gives_the_classic_intervals() -> None:
    """Deals of one seat-game each: Wilson's and Student's intervals over seat-games."""
    df = table_frame([[10, 20], [30, 5], [7, 9], [12, 40]], ["x", "y"])
    row = stats.win_share(df).filter(pl.col("strategy") == "y").row(0, named=True)
    lo, hi = stats.wilson_interval(1, 4)
    assert (row["win_share_lo"], row["win_share_hi"]) == (pytest.approx(lo), pytest.approx(hi))
    x = np.array([20, 5, 9, 40], dtype=float)
    row = stats.score_summary(df).filter(pl.col("strategy") == "y").row(0, named=True)
    lo, hi = sps.t.interval(0.95, 3, loc=x.mean(), scale=sps.sem(x))
    assert (row["mean_total_lo"], row["mean_total_hi"]) == (pytest.approx(lo),
                                                            pytest.approx(hi))


def test_a_tie_s_share_varies_less_than_a_win_or_a_loss() -> None:
    """Half a win, as often as a whole one, is a narrower interval than 0s and 1s give."""
    halves = stats.win_share(table_frame([[5, 5], [5, 5]], ["x", "y"])).row(0, named=True)
    wholes = stats.win_share(table_frame([[1, 9], [9, 1]], ["x", "y"])).row(0, named=True)
    assert halves["win_share"] == wholes["win_share"] == 0.5
    assert halves["win_share_hi"] - halves["win_share_lo"] == 0  # the same share each deal
    assert wholes["win_share_hi"] - wholes["win_share_lo"] > 0.5


def test_a_balanced_duplicate_run_s_mean_is_a_mean_over_deal_means(planted_run: Path) -> None:
    """Where the strategy holds the same seats in every deal, the interval of its mean
    total is Student's over the deals' means: the deal is the unit."""
    df = load_results(planted_run).collect()
    row = stats.score_summary(df).filter(pl.col("strategy") == WEAK).row(0, named=True)
    means = (df.filter(pl.col("strategy") == WEAK).group_by("deal")
             .agg(pl.col("total").mean())["total"].to_numpy())
    lo, hi = sps.t.interval(0.95, means.size - 1, loc=means.mean(), scale=sps.sem(means))
    assert row["deals"] == 300 and row["mean_total"] == pytest.approx(means.mean())
    assert (row["mean_total_lo"], row["mean_total_hi"]) == (pytest.approx(lo),
                                                            pytest.approx(hi))


def test_a_strategy_in_every_seat_wins_its_fair_share_exactly() -> None:
    """Its share is 1/P in every deal by construction: the interval has no width."""
    row = stats.win_share(table_frame([[1, 2], [5, 3], [4, 4]], ["s", "s"])).row(0, named=True)
    assert row["win_share"] == row["win_share_lo"] == row["win_share_hi"] == 0.5


def test_a_share_of_none_takes_the_deals_as_its_seat_games() -> None:
    """A share of 0 says nothing of its variance: Wilson's interval over the deals."""
    df = table_frame([[1, 9], [2, 9], [3, 9]], ["x", "y"])
    row = stats.win_share(df).filter(pl.col("strategy") == "y").row(0, named=True)
    assert row["win_share_lo"] == 0 and row["win_share_hi"] == pytest.approx(
        float(stats.wilson_interval(0, 3)[1]))


def test_win_shares_add_to_one_game_per_game(planted_run: Path) -> None:
    table = stats.win_share(load_results(planted_run))
    assert table["wins"].sum() == pytest.approx(1200)
    share = dict(table.select("strategy", "win_share").iter_rows())
    assert share[STRONG] > share[MIDDLE] > share[WEAK]


def test_score_summary_matches_numpy(planted_run: Path) -> None:
    df = load_results(planted_run).collect()
    table = stats.score_summary(df)
    for row in table.iter_rows(named=True):
        x = df.filter(pl.col("strategy") == row["strategy"])["total"].to_numpy().astype(float)
        assert row["mean_total"] == pytest.approx(x.mean())
        assert row["sd_total"] == pytest.approx(x.std(ddof=1))
        for q in stats.QUANTILES:
            assert row[f"q{round(q * 100):02d}"] == pytest.approx(np.quantile(x, q))
        assert row["under_100"] == pytest.approx(np.mean(x < 100))
        assert row["over_200"] == pytest.approx(np.mean(x > 200))
        deals = df.filter(pl.col("strategy") == row["strategy"])["deal"].to_numpy()
        for name, values in (("mean_total", None), ("under_100", x < 100),
                             ("over_200", x > 200)):
            lo, hi = (deal_t(x, deals) if values is None
                      else deal_wilson(values.astype(float), deals))
            assert (row[f"{name}_lo"], row[f"{name}_hi"]) == (pytest.approx(lo),
                                                              pytest.approx(hi))


def test_quantiles_on_a_tiny_frame() -> None:
    df = table_frame([[1, 2, 3, 4, 100]], ["s"] * 5)
    row = stats.score_summary(df).row(0, named=True)
    assert (row["q25"], row["q50"], row["q75"]) == (2.0, 3.0, 4.0)
    assert row["q05"] == pytest.approx(1.2) and row["q95"] == pytest.approx(80.8)


def test_round_stats_match_pandas(planted_run: Path) -> None:
    pdf = load_results(planted_run, pandas=True)
    table = stats.round_stats(load_results(planted_run))
    assert table.height == 3 * 11
    for row in table.filter(pl.col("round").is_in([1, 6, 11])).iter_rows(named=True):
        r, part = row["round"], pdf[pdf["strategy"] == row["strategy"]]
        went_out = part[f"out_seat_{r}"] == part["seat"]
        assert row["penalty"] == pytest.approx(part[f"penalty_{r}"].mean())
        assert row["go_out_rate"] == pytest.approx(went_out.mean())
        assert row["wild_pts"] == pytest.approx(part[f"wild_pts_{r}"].mean())
        assert row["joker_pts"] == pytest.approx(part[f"joker_pts_{r}"].mean())
        natural = (part[f"penalty_{r}"] - part[f"wild_pts_{r}"] - part[f"joker_pts_{r}"])
        assert row["natural_pts"] == pytest.approx(natural.where(~went_out, 0).mean())
    parts = table.select(pl.col("natural_pts") + pl.col("wild_pts") + pl.col("joker_pts")
                         + pl.col("bonus_pts") - pl.col("penalty"))
    assert parts.to_series().abs().max() < 1e-9
    per_game = stats.composition_per_game(table)
    means = stats.score_summary(pdf.pipe(pl.from_pandas))["mean_total"]
    assert np.allclose(per_game["total"], means)  # round penalties add up to the total
    rate = table.group_by("strategy").agg(pl.col("go_out_rate").mean())
    rate = dict(rate.iter_rows())
    assert rate[STRONG] > rate[MIDDLE] > rate[WEAK]


def test_seat_advantage_and_round_length(planted_run: Path) -> None:
    df = load_results(planted_run).collect()
    seats = stats.seat_advantage(df)
    assert seats["seat"].to_list() == [0, 1, 2, 3]
    assert seats["wins"].sum() == pytest.approx(1200)
    seat0 = df.filter(pl.col("seat") == 0)
    assert seats["mean_total"][0] == pytest.approx(seat0["total"].mean())
    length = stats.round_length(df)
    assert length["round"].to_list() == list(range(1, 12))
    assert length["games"].to_list() == [1200] * 11
    assert length["mean_turns"][10] == pytest.approx(seat0["turns_11"].mean())
    assert length["capped"][3] == seat0["capped_4"].sum()


def test_histogram_counts_every_row(planted_run: Path) -> None:
    hist = stats.score_histogram(load_results(planted_run), bin_width=20)
    assert hist["count"].sum() == 4800
    assert (hist["bin_start"] % 20 == 0).all()
    density = hist.group_by("strategy").agg((pl.col("density") * 20).sum())["density"]
    assert np.allclose(density, 1.0)


def test_head_to_head_by_hand() -> None:
    # seats x, y, z: x ahead of y, tie, y ahead; x ahead of z twice and one tie
    df = table_frame([[1, 2, 3], [5, 5, 5], [9, 3, 9]], ["x", "y", "z"])
    got = {(r["a"], r["b"]): r for r in stats.head_to_head(df).iter_rows(named=True)}
    assert got["x", "y"]["ahead_share"] == pytest.approx((1 + 0.5 + 0) / 3)
    assert got["y", "x"]["ahead_share"] == pytest.approx((0 + 0.5 + 1) / 3)
    assert got["x", "z"]["ahead_share"] == pytest.approx((1 + 0.5 + 0.5) / 3)
    assert got["x", "y"]["pairs"] == got["x", "y"]["deals"] == 3
    # a game a deal, one x-y pair a game; the tie varies less than a win or a loss
    assert (got["x", "y"]["ahead_share_lo"], got["x", "y"]["ahead_share_hi"]) == (
        pytest.approx(deal_wilson(np.array([1, 0.5, 0]), np.arange(3))))


def _pair_rows(df: pl.DataFrame, a: str, b: str) -> tuple[np.ndarray, np.ndarray]:
    """Each ordered seat pair (a's seat, b's seat) of every game, written out: 1 if a
    finished ahead, ½ if tied, 0 if behind; and the pair's deal."""
    values, deals = [], []
    for game in df.partition_by("game"):
        seats = game.sort("seat").rows(named=True)
        for x in seats:
            for y in seats:
                if x["seat"] != y["seat"] and (x["strategy"], y["strategy"]) == (a, b):
                    values.append(1.0 if x["place"] < y["place"]
                                  else 0.5 if x["place"] == y["place"] else 0.0)
                    deals.append(x["deal"])
    return np.array(values), np.array(deals)


def test_head_to_head_intervals_are_over_deals(planted_run: Path) -> None:
    """Each interval equals Wilson's over deals written out pair by pair (``deal_wilson``):
    the planted run holds one strategy at two seats, in every rotation of each deal."""
    df = load_results(planted_run).collect()
    table = stats.head_to_head(df)
    for a, b in [(STRONG, WEAK), (WEAK, MIDDLE)]:
        row = table.filter((pl.col("a") == a) & (pl.col("b") == b)).row(0, named=True)
        values, deals = _pair_rows(df, a, b)
        assert row["pairs"] == values.size and row["deals"] == np.unique(deals).size
        assert row["ahead_share"] == pytest.approx(values.mean())
        assert (row["ahead_share_lo"], row["ahead_share_hi"]) == pytest.approx(
            deal_wilson(values, deals))


def test_a_deal_that_gives_each_side_its_turn_is_level_in_the_head_to_head() -> None:
    """x ahead in one rotation, y in the other: every deal is level, so no width."""
    df = table_frame([[1, 9], [9, 1]] * 10, ["x", "y"]).with_columns(deal=pl.col("game") // 2)
    row = stats.head_to_head(df).row(0, named=True)
    assert row["ahead_share"] == row["ahead_share_lo"] == row["ahead_share_hi"] == 0.5
    assert (row["pairs"], row["deals"]) == (20, 10)


def test_finishing_patterns_group_games_and_deals() -> None:
    """Three games, two deals: games 0 and 1 share a deal, and games 0 and 2 a pattern."""
    df = table_frame([[1, 9], [9, 1], [2, 8]], ["x", "y"]).with_columns(
        deal=(pl.col("game") == 2).cast(pl.Int64))
    patterns = stats.finishing_patterns(df)
    assert patterns.place.tolist() == [[2, 1], [1, 2]] and patterns.games.tolist() == [1, 2]
    assert patterns.deal_patterns.tolist() == [[0, 1], [1, stats.NO_GAME]]
    assert patterns.deals.tolist() == [1, 1]
    ahead, met = patterns.deal_pair_counts
    assert ahead[:, 0, 1].tolist() == [1.0, 1.0] and met[:, 0, 1].tolist() == [2.0, 1.0]


def test_head_to_head_is_complementary(planted_run: Path) -> None:
    table = stats.head_to_head(load_results(planted_run))
    share = {(a, b): v for a, b, v in table.select("a", "b", "ahead_share").iter_rows()}
    for (a, b), v in share.items():
        assert v + share[b, a] == pytest.approx(1.0)
    assert share[STRONG, WEAK] > share[MIDDLE, WEAK] > 0.5


def test_paired_comparison_finds_the_planted_edge(planted_run: Path) -> None:
    lf = load_results(planted_run)
    row = stats.paired_comparison(lf, [(STRONG, WEAK)]).row(0, named=True)
    assert row["deals"] == 300
    assert row["mean_diff_hi"] < 0 and row["p_value"] < 1e-6
    assert row["verdict"].startswith(f"{STRONG} scores ")
    assert "points per game less than weak over 300 deals" in row["verdict"]
    # the same numbers by hand: per deal, mean total of each strategy, then a paired t test
    per_deal = (lf.group_by("deal", "strategy").agg(pl.col("total").mean()).collect()
                .pivot(on="strategy", index="deal", values="total").sort("deal"))
    ref = sps.ttest_rel(per_deal[STRONG], per_deal[WEAK])
    diff = (per_deal[STRONG] - per_deal[WEAK]).to_numpy()
    assert row["mean_diff"] == pytest.approx(diff.mean())
    assert row["p_value"] == pytest.approx(ref.pvalue, rel=1e-6)
    ci = ref.confidence_interval()
    assert (row["mean_diff_lo"], row["mean_diff_hi"]) == (pytest.approx(ci.low),
                                                          pytest.approx(ci.high))


def test_paired_by_round_adds_up_to_the_paired_total(planted_run: Path) -> None:
    """Round by round as the totals are paired, deal by deal: a total is its rounds'
    penalties, so the rounds' differences add up to the total's; each round's interval and
    p-value are a paired t test's, and each side's went-out share a mean over deals."""
    lf = load_results(planted_run)
    rounds = stats.paired_by_round(lf, STRONG, WEAK)
    total = stats.paired_comparison(lf, [(STRONG, WEAK)]).row(0, named=True)
    assert rounds["round"].to_list() == list(range(1, 12))
    assert set(rounds["deals"]) == {300}
    assert rounds["mean_diff"].sum() == pytest.approx(total["mean_diff"])
    frame = lf.collect().with_columns(out=(pl.col("out_seat_7") == pl.col("seat")).cast(pl.Float64))
    per_deal = (frame.group_by("deal", "strategy").agg(pl.col("penalty_7", "out").mean())
                .sort("deal"))
    side = {name: per_deal.filter(pl.col("strategy") == name) for name in (STRONG, WEAK)}
    ref = sps.ttest_rel(side[STRONG]["penalty_7"], side[WEAK]["penalty_7"])
    row = rounds.row(6, named=True)
    assert row["mean_diff"] == pytest.approx((side[STRONG]["penalty_7"]
                                              - side[WEAK]["penalty_7"]).mean())
    assert row["p_value"] == pytest.approx(ref.pvalue, rel=1e-6)
    ci = ref.confidence_interval()
    assert (row["mean_diff_lo"], row["mean_diff_hi"]) == (pytest.approx(ci.low),
                                                          pytest.approx(ci.high))
    assert row["went_out_a"] == pytest.approx(side[STRONG]["out"].mean())
    assert row["went_out_b"] == pytest.approx(side[WEAK]["out"].mean())


def test_paired_comparison_is_quiet_on_identical_strategies(null_run: Path) -> None:
    table = stats.paired_comparison(load_results(null_run))
    assert table.height == 1
    row = table.row(0, named=True)
    assert (row["a"], row["b"], row["deals"]) == ("a", "b", 300)
    assert row["p_value"] > 0.05
    assert row["mean_diff_lo"] < 0 < row["mean_diff_hi"]
    assert row["verdict"].startswith("no significant difference between a and b over 300 deals")


def test_paired_comparison_leaves_out_pairs_that_never_met() -> None:
    """Two tables read together: x and y met, z and w met, x never sat with z or w."""
    first = table_frame([[1, 2], [5, 3], [4, 4]], ["x", "y"])
    second = table_frame([[7, 2], [3, 3]], ["z", "w"]).with_columns(
        pl.col("game") + 10, pl.col("deal") + 10)
    table = stats.paired_comparison(pl.concat([first, second]))
    assert table.select("a", "b", "deals").rows() == [("w", "z", 2), ("x", "y", 3)]
    # a pair asked for by name is kept, saying there was nothing to compare
    asked = stats.paired_comparison(pl.concat([first, second]), [("x", "z")]).row(0, named=True)
    assert asked["deals"] == 0 and asked["verdict"] == "too few deals to compare x and z (0)"


def test_verdict_wording() -> None:
    assert stats.verdict("A", "B", -4.2, -4.8, -3.6, 50_000, 1e-9) == (
        "A scores 4.2 ± 0.6 points per game less than B over 50,000 deals (p < 0.001)")
    assert stats.verdict("A", "B", 0.04, 0.01, 0.07, 9, 0.02).startswith(
        "A scores 0.04 ± 0.03 points per game more than B")
    assert stats.verdict("A", "B", float("nan"), float("nan"), float("nan"), 1, float("nan")) \
        == "too few deals to compare A and B (1)"


@pytest.mark.parametrize("rule", ["paired", "h2h"])
def test_combined_runs_keep_games_apart(planted_run: Path, tmp_path: Path, rule: str) -> None:
    table = [STRONG, MIDDLE, WEAK, STRONG]  # the planted run's, with another seed
    other = write_synthetic_run(tmp_path / "other", table, [EDGES[s] for s in table],
                                games=1200, seed=12, duplicate=True, games_per_file=400)
    lf = load_results([planted_run, other])  # game and deal numbers repeat across runs
    single = load_results(planted_run)
    if rule == "paired":
        both = stats.paired_comparison(lf, [(STRONG, WEAK)])["deals"][0]
        assert both == 2 * stats.paired_comparison(single, [(STRONG, WEAK)])["deals"][0]
    else:
        assert stats.head_to_head(lf)["pairs"].to_list() == [
            2 * n for n in stats.head_to_head(single)["pairs"]]


def test_p_text_says_no_p_as_the_tables_do() -> None:
    """One deal, or no spread, has no p-value: ``–``, never ``nan``."""
    assert stats.p_text(float("nan")) == "p = –"
    assert stats.p_text(0.0004) == "p < 0.001" and stats.p_text(0.0456) == "p = 0.046"


def test_p_cell_never_reads_0_or_nan() -> None:
    """A t tail far out underflows to 0: it reads ``< 0.001``, as a p-value of none reads –."""
    assert stats.p_cell(0.0) == "< 0.001" and stats.p_cell(float("nan")) == "–"
    assert stats.p_cell(0.0496) == "0.050" and stats.p_text(0.0) == "p < 0.001"
    spread = np.array([300.0, 301.0, 299.0, 300.5] * 250)  # t ≈ 840 over 1,000 deals
    assert stats.mean_difference(spread).p_value == 0.0


def test_every_p_value_is_written_by_one_rule() -> None:
    """A table cell (:func:`p_cell`) and a sentence (:func:`p_text`) write a p-value alike:
    compare, the report's table, a sweep's and a tune's pages and fcsim.testing's
    Comparison all go through them, never ``1.85e-78`` beside ``p < 0.001``."""
    assert [stats.p_cell(p) for p in (float("nan"), 1.85e-78, 0.0456)] == [
        "–", "< 0.001", "0.046"]
    assert modules_saying("< {P_SHOWN}") == ["fcsim/analysis/stats.py"]
    assert modules_saying("p_value']:.3g") == modules_saying("p_value:.3g") == []
    comparison = Comparison("greedy", "random", 30, -330.78, -353.67, -307.9, 3.31e-23, "")
    assert "p < 0.001" in str(comparison)


def test_a_missing_number_is_written_by_one_rule() -> None:
    """The report's and the search pages' cells write a number, or ``–`` where there is
    none, through :func:`number_cell`."""
    assert [stats.number_cell(v, 2, "+") for v in (None, float("nan"), 1.5)] == [
        "–", "–", "+1.50"]
    assert stats.number_cell(12345.678, 1, ",") == "12,345.7"
    assert stats.bounds_cell(float("nan"), float("nan")) == "[–, –]"  # one deal: no interval
    assert stats.bounds_cell(-0.5, 1.25) == "[-0.50, +1.25]"
    assert modules_saying("_lo']:+.2f}") == []  # every interval goes through bounds_cell
    assert modules_saying('"–" if value is None') == []
    assert modules_saying('"–"') == ["fcsim/analysis/stats.py"]


def test_the_tables_by_seat_and_round_have_their_intervals_over_deals(planted_run: Path
                                                                      ) -> None:
    """Each interval equals the one written out deal by deal (``deal_t``, ``deal_wilson``)."""
    df = load_results(planted_run).collect()
    seat = stats.seat_advantage(df).row(2, named=True)
    rows = df.filter(pl.col("seat") == 2)
    wins = (df.with_columns(share=pl.col("win") / pl.col("win").sum().over("game"))
            .filter(pl.col("seat") == 2)["share"].to_numpy())
    assert (seat["win_share_lo"], seat["win_share_hi"]) == pytest.approx(
        deal_wilson(wins, rows["deal"].to_numpy()))
    assert (seat["mean_total_lo"], seat["mean_total_hi"]) == pytest.approx(
        deal_t(rows["total"].to_numpy().astype(float), rows["deal"].to_numpy()))
    rounds = stats.round_stats(df).filter((pl.col("strategy") == STRONG)
                                          & (pl.col("round") == 7)).row(0, named=True)
    rows = df.filter(pl.col("strategy") == STRONG)
    assert (rounds["penalty_lo"], rounds["penalty_hi"]) == pytest.approx(
        deal_t(rows["penalty_7"].to_numpy().astype(float), rows["deal"].to_numpy()))
    out = (rows["out_seat_7"] == rows["seat"]).to_numpy().astype(float)
    assert (rounds["go_out_rate_lo"], rounds["go_out_rate_hi"]) == pytest.approx(
        deal_wilson(out, rows["deal"].to_numpy()))
    length = stats.round_length(df).row(4, named=True)
    rows = df.filter(pl.col("seat") == 0)
    assert (length["mean_turns_lo"], length["mean_turns_hi"]) == pytest.approx(
        deal_t(rows["turns_5"].to_numpy().astype(float), rows["deal"].to_numpy()))
