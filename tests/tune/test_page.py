"""Charts and pages of sweeps and tunes, on made-up rows (no games played)."""

from __future__ import annotations

import polars as pl

from fcsim.analysis.stats import MeanDifference
from fcsim.strategies import parse_strategy
from fcsim.tune import charts
from fcsim.tune.confirm import Confirmation
from fcsim.tune.page import TOP_TRIALS, interval, sweep_page, tune_page
from fcsim.tune.space import parse_grid, parse_ranges
from tests.figures import saved_figures

PNG = b"\x89PNG\r\n\x1a\n"
AWARE = parse_strategy("aware").family


def _stats(diff: float) -> dict:
    return {"deals": 10, "advantage": diff, "advantage_lo": diff - 1, "advantage_hi": diff + 1,
            "diff": diff, "diff_lo": diff - 1, "diff_hi": diff + 1, "p_value": 0.0004,
            "win_share": 0.3, "win_share_lo": 0.25, "win_share_hi": 0.35, "mean_total": 120.0,
            "mean_total_lo": 118.0, "mean_total_hi": 122.0}


def _points(grids: list[str]) -> tuple[pl.DataFrame, list]:
    from fcsim.tune.space import grid_points

    axes = parse_grid(AWARE, grids)
    rows = [{"point": i, **values, "spec": f"aware:{i}", "reference": i == 0,
             **_stats(-float(i))} for i, values in enumerate(grid_points(axes))]
    return pl.DataFrame(rows), axes


def test_sweep_pages_for_one_two_and_three_parameters(tmp_path) -> None:
    for count, grids in enumerate([["candidates=2,4,6"], ["candidates=2,4", "urgency=0,1"],
                                   ["candidates=2,4", "urgency=0,1", "feed_weight=1,2"]]):
        out = tmp_path / str(count)
        out.mkdir()
        points, axes = _points(grids)
        page = sweep_page(out, ["**Strategy:** aware"], points, axes)
        assert (out / "sweep.png").read_bytes().startswith(PNG)
        text = (out / "report.md").read_text()
        assert text.startswith("# fcsim sweep") and "aware:0 (reference)" in text
        assert "< 0.001" in text and "data:image/png;base64," in page.read_text()


def test_tune_page_with_its_confirmation(tmp_path) -> None:
    ranges = parse_ranges(AWARE, ["candidates=2:8", "urgency=0:1"])
    rows = [{"trial": i, "candidates": 2 + i, "urgency": i / 10, "spec": f"aware:{i}",
             "pruned": i % 3 == 2, "seconds": 1.0, "objective": -float(i), **_stats(-float(i))}
            for i in range(6)]
    trials = pl.DataFrame(rows)
    confirmation = Confirmation("aware:5", "aware", 7, 20, MeanDifference(20, -2.0, -3.0, -1.0,
                                                                          0.01),
                                _stats(-2.0), _stats(0.0))
    tune_page(tmp_path, ["**Strategy:** aware"], trials, ranges, confirmation)
    for chart in ("confirmation", "objective_by_param", "progress"):
        assert (tmp_path / f"{chart}.png").read_bytes().startswith(PNG)
    text = (tmp_path / "report.md").read_text()
    assert "confirmed on fresh deals: aware:5 scores 2.0 ± 1.0 points per game less" in text
    assert "aware:5 − aware | -2.00 [-3.00, -1.00], p = 0.010" in text
    assert "aware:2 (pruned)" in text and "| 6 | 2 | 6 |" in text
    nothing = Confirmation("aware", "aware", 7, 20, None, None, None)
    tune_page(tmp_path, [], trials.with_columns(spec=pl.lit("aware")), ranges, nothing)
    assert "found nothing better than the starting strategy aware" in (
        tmp_path / "report.md").read_text()


def test_an_oracle_is_named_analysis_only_on_both_pages(tmp_path) -> None:
    """As every listing names it: a sweep or tune of a strategy that sees hidden cards
    shows it as analysis only."""
    oracle = parse_strategy("search_hands_oracle").family
    axes = parse_grid(oracle, ["worlds=2,4"])
    points = pl.DataFrame([{"point": i, "worlds": w, "spec": f"search_hands_oracle:worlds={w}",
                            "reference": i == 0, **_stats(-float(i))}
                           for i, w in enumerate((2, 4))])
    (tmp_path / "sweep").mkdir()
    sweep_page(tmp_path / "sweep", [], points, axes)
    text = (tmp_path / "sweep" / "report.md").read_text()
    assert "search_hands_oracle:worlds=2 (analysis only) (reference)" in text
    assert "search_hands_oracle:worlds=4 (analysis only) |" in text
    ranges = parse_ranges(oracle, ["worlds=2:8"])
    trials = pl.DataFrame([{"trial": i, "worlds": 2 + i,
                            "spec": f"search_hands_oracle:worlds={2 + i}", "pruned": False,
                            "seconds": 1.0, "objective": -float(i),
                            **_stats(-float(i))} for i in range(3)])
    confirmation = Confirmation("search_hands_oracle:worlds=4", "search_hands_oracle", 7, 20,
                                MeanDifference(20, -2.0, -3.0, -1.0, 0.01), _stats(-2.0),
                                _stats(0.0))
    tune_page(tmp_path, [], trials, ranges, confirmation)
    text = (tmp_path / "report.md").read_text()
    assert ("search_hands_oracle:worlds=4 (analysis only) − search_hands_oracle (analysis only)"
            in text)
    assert "| search_hands_oracle:worlds=3 (analysis only) |" in text
    assert "search_hands_oracle:worlds=2 |" not in text


def test_an_interval_cell_reads_value_then_low_then_high() -> None:
    """A table cell ``value [lo, hi]``: the low end first, whatever the signs."""
    row = {"diff": -1.0, "diff_lo": -2.5, "diff_hi": 0.5}
    assert interval(row, "diff") == "-1.00 [-2.50, +0.50]"


def test_the_best_trials_table_lists_the_lowest_objectives_first(tmp_path) -> None:
    """Of more trials than the table holds, it lists the TOP_TRIALS lowest objectives
    (lower is better), best first, whatever order they were tried in."""
    ranges = parse_ranges(AWARE, ["candidates=2:8"])
    objectives = [3.0, -5.0, 0.0, 7.0, -1.0, 2.0, -4.0, 6.0, 1.0, -2.0, 5.0, 4.0]
    trials = pl.DataFrame([{"trial": i, "candidates": 2 + i % 7, "spec": f"aware:{i}",
                            "pruned": False, "seconds": 1.0, "objective": value,
                            **_stats(value)} for i, value in enumerate(objectives)])
    confirmation = Confirmation("aware:1", "aware", 7, 20, None, None, None)
    tune_page(tmp_path, [], trials, ranges, confirmation)
    text = (tmp_path / "report.md").read_text()
    table = text.split(f"## Best {TOP_TRIALS} of {len(objectives)} trials")[1].split("\n## ")[0]
    listed = [line.split(" | ")[0].strip("| ") for line in table.splitlines()
              if line.startswith("| ") and "---" not in line][1:]
    best_first = sorted(range(len(objectives)), key=objectives.__getitem__)[:TOP_TRIALS]
    assert listed == [str(trial) for trial in best_first]
    assert listed[0] == "1" and "3" not in listed and "7" not in listed  # 7.0 and 6.0: out


def test_the_sweep_line_stars_the_point_of_least_difference(tmp_path, monkeypatch) -> None:
    """The star marks the best point, the lowest difference (aware:2's candidates = 6)."""
    figures = saved_figures(monkeypatch, charts)
    points, _ = _points(["candidates=2,4,6"])  # differences 0, -1, -2
    charts.plot_sweep_line(points, "candidates", tmp_path / "sweep.png")
    labels = [text.get_text() for text in figures[0].axes[0].get_legend().get_texts()]
    assert "best: candidates = 6" in labels


def test_the_progress_chart_s_best_so_far_is_the_running_least_of_complete_trials(
        tmp_path, monkeypatch) -> None:
    """Lower is better; a pruned trial (deals so far only) never sets the best."""
    figures = saved_figures(monkeypatch, charts)
    diffs = [3.0, -1.0, 2.0, -4.0, -2.0]
    pruned = [False, False, False, True, False]
    trials = pl.DataFrame({"trial": range(len(diffs)), "diff": diffs, "pruned": pruned})
    charts.plot_progress(trials, tmp_path / "progress.png")
    best = next(line for line in figures[0].axes[0].get_lines()
                if line.get_label() == "best so far")
    assert list(best.get_ydata()) == [3.0, -1.0, -1.0, -1.0, -2.0]
