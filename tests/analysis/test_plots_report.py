"""Charts and the report, end to end on a synthetic run, and the ``fcsim report`` command."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from click.testing import CliRunner

from fcsim.analysis import plots, ratings, stats
from fcsim.analysis.load import load_results
from fcsim.analysis.report import build_report
from fcsim.analysis.synthetic import write_synthetic_run
from fcsim.cli import cli
from tests.figures import saved_figures

PNG = b"\x89PNG\r\n\x1a\n"
CHARTS = ["win_share", "score_distribution", "ratings", "head_to_head", "penalty_by_round",
          "go_out_rate", "penalty_composition", "seat_advantage"]


def test_colours_are_fixed_by_name() -> None:
    one = plots.strategy_colors(["weak", "strong", "middle"])
    assert one == plots.strategy_colors(["middle", "weak", "strong", "weak"])
    assert len(set(one.values())) == 3
    assert one["middle"] == plots.strategy_colors(["middle", "zzz"])["middle"]


def test_error_bars_reach_from_the_value_down_to_lo_and_up_to_hi() -> None:
    """An asymmetric interval (Wilson, bootstrap) keeps its shape: the first row of lengths
    runs below the value, the second above; an undefined interval draws no bar."""
    table = pl.DataFrame({"win_share": [0.3, 0.5], "win_share_lo": [0.2, float("nan")],
                          "win_share_hi": [0.6, float("nan")]})
    below, above = 0.3 - 0.2, 0.6 - 0.3
    assert plots.error_bars(table, "win_share") == pytest.approx(
        np.array([[below, 0.0], [above, 0.0]]))


def test_the_head_to_head_heatmap_puts_the_row_strategy_ahead_of_the_column_one(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The cell in strong's row and weak's column is the share strong finished ahead of weak,
    not the other way round."""
    strong_ahead = 0.8
    figures = saved_figures(monkeypatch, plots)
    plots.plot_head_to_head(pl.DataFrame({"a": ["strong", "weak"], "b": ["weak", "strong"],
                                          "ahead_share": [strong_ahead, 1 - strong_ahead]}),
                            tmp_path / "h2h.png")
    cells = figures[0].axes[0].images[0].get_array()  # rows and columns: strong, weak
    assert cells[0, 1] == pytest.approx(strong_ahead)
    assert cells[1, 0] == pytest.approx(1 - strong_ahead)


def test_the_score_distribution_draws_each_bin_s_share_per_point_where_it_lies(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Totals 5, 8, 25, 27 in bins of 10: half the seat-games in [0, 10) and half in
    [20, 30), so 0.5 / 10 = 0.05 per point there, and nothing in the empty bin between."""
    figures = saved_figures(monkeypatch, plots)
    histogram = stats.score_histogram(pl.DataFrame({"strategy": ["a"] * 4,
                                                    "total": [5, 8, 25, 27]}), bin_width=10)
    plots.plot_score_distribution(histogram, tmp_path / "totals.png")
    (steps,) = figures[0].axes[0].patches
    drawn = steps.get_data()
    half_per_point = 0.5 / 10
    assert list(drawn.edges) == [0, 10, 20, 30]
    assert drawn.values == pytest.approx([half_per_point, 0.0, half_per_point])


def test_each_chart_is_a_png(planted_run: Path, tmp_path: Path) -> None:
    lf = load_results(planted_run)
    colors = plots.strategy_colors(stats.strategies_of(lf))
    rounds = stats.round_stats(lf)
    written = [
        plots.plot_win_share(stats.win_share(lf), tmp_path / "a.png", colors),
        plots.plot_score_distribution(stats.score_histogram(lf), tmp_path / "b.png", colors),
        plots.plot_penalty_by_round(rounds, tmp_path / "c.png", colors),
        plots.plot_go_out_rate(rounds, tmp_path / "d.png"),
        plots.plot_penalty_composition(rounds, tmp_path / "e.png", colors),
        plots.plot_seat_advantage(stats.seat_advantage(lf), tmp_path / "f.png"),
        plots.plot_head_to_head(stats.head_to_head(lf), tmp_path / "g.png"),
        plots.plot_ratings(ratings.rate_strategies(lf, bootstrap=20), tmp_path / "h.png", colors),
    ]
    for path in written:
        assert path.read_bytes()[:8] == PNG and path.stat().st_size > 5000


@pytest.fixture(scope="module")
def report_dir(planted_run: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("report")
    assert build_report(planted_run, out) == out / "report.html"
    return out


def test_report_writes_every_chart(report_dir: Path) -> None:
    for name in CHARTS:
        png = report_dir / f"{name}.png"
        assert png.read_bytes()[:8] == PNG and png.stat().st_size > 5000


def test_html_is_self_contained(report_dir: Path) -> None:
    page = (report_dir / "report.html").read_text(encoding="utf-8")
    images = re.findall(r"<img [^>]*src='([^']*)'", page)
    assert len(images) == len(CHARTS)
    assert all(src.startswith("data:image/png;base64,iVBORw0KGgo") for src in images)
    assert page.count("<table>") == 11  # the last: games to watch (none: synthetic run)
    assert "strong scores" in page and "points per game less than weak" in page


def test_markdown_has_header_tables_and_charts(report_dir: Path) -> None:
    md = (report_dir / "report.md").read_text(encoding="utf-8")
    assert md.startswith("# fcsim report")
    assert "**Games:** 1,200 (4,800 game × seat rows)" in md
    assert "**Strategies:** middle:margin=2, strong, weak" in md
    assert "players 4, rounds 11" in md
    for name in CHARTS:
        assert f"({name}.png)" in md
    assert md.count("\n## ") == 11
    assert "none: cannot be replayed: unknown strategy 'strong'" in md


def test_the_paired_table_holds_only_pairs_that_shared_a_table(planted_run: Path,
                                                              tmp_path: Path) -> None:
    """A run of strong, middle and weak read with a run of a and b: no row pairs strategies
    of different runs."""
    other = write_synthetic_run(tmp_path / "other", ["a", "b"] * 2, [0.0] * 4, games=40, seed=3,
                                duplicate=True, games_per_file=40)
    build_report([planted_run, other], tmp_path / "report")
    md = (tmp_path / "report" / "report.md").read_text(encoding="utf-8")
    paired = md.split("\n## Paired comparison")[1].split("\n## ")[0]
    rows = [line for line in paired.splitlines() if line.startswith("| ") and "---" not in line]
    assert [row.split(" | ")[:2] for row in rows[1:]] == [
        ["| a", "b"], ["| middle:margin=2", "strong"], ["| middle:margin=2", "weak"],
        ["| strong", "weak"]]
    assert "too few deals" not in paired


def test_the_head_to_head_table_gives_each_pair_once_with_its_interval(
        planted_run: Path, report_dir: Path) -> None:
    """The table lists each pair of strategies that met once (a before b), with the share of
    seat pairs a finished ahead in and its interval over deals, as the statistics give them;
    the other way round is the rest."""
    md = (report_dir / "report.md").read_text(encoding="utf-8")
    section = md.split("\n## Head to head")[1].split("\n## ")[0]
    rows = [line.strip("| ").split(" | ") for line in section.splitlines()
            if line.startswith("| ") and "---" not in line]
    assert rows[0] == ["a", "b", "deals", "seat pairs", "a ahead [95% CI]"]
    h2h = stats.head_to_head(load_results(planted_run))
    expected = [[a, b, f"{deals:,}", f"{pairs:,}", f"{share:.3f} [{lo:.3f}, {hi:.3f}]"]
                for a, b, deals, pairs, share, lo, hi in h2h.filter(
                    h2h["a"] < h2h["b"]).sort("a", "b").select(
                    "a", "b", "deals", "pairs", "ahead_share", "ahead_share_lo",
                    "ahead_share_hi").iter_rows()]
    assert rows[1:] == expected
    assert [row[:2] for row in rows[1:]] == [["middle:margin=2", "strong"],
                                             ["middle:margin=2", "weak"], ["strong", "weak"]]
    back = h2h.filter((h2h["a"] == "weak") & (h2h["b"] == "strong"))["ahead_share"].item()
    assert float(rows[3][4].split()[0]) == pytest.approx(1 - back, abs=1e-3)


def test_the_final_totals_table_puts_each_share_under_its_header(
        planted_run: Path, report_dir: Path) -> None:
    """The mean, under 100 and over 200 cells are the statistics of those names (very good
    and very bad games are not swapped)."""
    md = (report_dir / "report.md").read_text(encoding="utf-8")
    section = md.split("\n## Final totals")[1].split("\n## ")[0]
    header, *rows = [line.strip("| ").split(" | ") for line in section.splitlines()
                     if line.startswith("| ") and "---" not in line]
    shown = {row[0]: dict(zip(header, row, strict=True)) for row in rows}
    summary = stats.score_summary(load_results(planted_run))
    for row in summary.iter_rows(named=True):
        cells = shown[row["strategy"]]
        for name, column in (("under_100", "under 100 [95% CI]"),
                             ("over_200", "over 200 [95% CI]")):
            assert cells[column] == (f"{row[name]:.4f} [{row[f'{name}_lo']:.4f}, "
                                     f"{row[f'{name}_hi']:.4f}]")
        assert cells["mean [95% CI]"].startswith(f"{row['mean_total']:,.2f} [")
    assert (summary["under_100"] != summary["over_200"]).all()  # a swap would show


def test_cli_report(planted_run: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["report", str(planted_run), "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "report.html").exists() and (tmp_path / "report.md").exists()


@pytest.mark.parametrize("make, message", [
    (lambda tmp: tmp / "missing", "no such run folder"),
    (lambda tmp: tmp, "no part-NNNNNN.parquet files"),
])
def test_cli_bad_input_is_one_line(tmp_path: Path, make, message: str) -> None:
    result = CliRunner().invoke(cli, ["report", str(make(tmp_path)), "--out",
                                      str(tmp_path / "out")])
    assert result.exit_code != 0
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and message in lines[0]
    assert isinstance(result.exception, SystemExit)  # handled, no traceback


def test_a_reference_is_labelled_wherever_the_report_lists_it(tmp_path: Path) -> None:
    run = write_synthetic_run(tmp_path / "run", ["search_oracle", "greedy"], [0.3, 0],
                              games=200, seed=5, decisions=True)
    build_report(run, tmp_path / "report")
    md = (tmp_path / "report" / "report.md").read_text(encoding="utf-8")
    assert "**Strategies:** greedy, search_oracle (analysis only)" in md
    listed = [line for line in md.splitlines() if "search_oracle" in line]
    assert len(listed) > 15  # every table, the Decisions part's included
    assert all("search_oracle (analysis only)" in line for line in listed), listed
    assert "greedy (analysis only)" not in md


def test_the_header_names_the_files_and_code_the_runs_played(tmp_path: Path) -> None:
    """A model's (or a plug-in's) record, digest whole, each content once (the same model
    read from another path by the second run is the same): two reports of `learned` on
    other models say so; a run of built-ins alone has no such line."""
    model = "file /models/a.npz sha256 " + "ab" * 32
    plugin = "package mine 1.0 sha256 " + "cd" * 32
    one = write_synthetic_run(tmp_path / "one", ["learned:model=a.npz", "mine"], [0.3, 0],
                              games=20, seed=5, sources={"learned:model=a.npz model": model,
                                                         "mine": plugin})
    two = write_synthetic_run(tmp_path / "two", ["learned:model=a.npz", "mine"], [0.3, 0],
                              games=20, seed=6,
                              sources={"mine": plugin, "learned:model=a.npz model":
                                       model.replace("/models/", "/moved/")})
    build_report([one, two], tmp_path / "report")
    md = (tmp_path / "report" / "report.md").read_text(encoding="utf-8")
    assert f"- **Sources:** learned:model=a.npz model: {model}; mine: {plugin}\n" in md
    plain = write_synthetic_run(tmp_path / "plain", ["a", "b"], [0.3, 0], games=20, seed=5)
    build_report(plain, tmp_path / "plain-report")
    assert "**Sources:**" not in (tmp_path / "plain-report" / "report.md").read_text()


def test_the_paired_table_reads_no_p_value_as_the_verdict_does(tmp_path: Path) -> None:
    """One deal has no p-value: the table's cell reads –, not nan."""
    one = write_synthetic_run(tmp_path / "one", ["a", "b"], [0.3, 0.0], games=2, seed=3,
                              duplicate=True, games_per_file=2)
    build_report(one, tmp_path / "report")
    md = (tmp_path / "report" / "report.md").read_text(encoding="utf-8")
    paired = md.split("\n## Paired comparison")[1].split("\n## ")[0]
    row = next(line for line in paired.splitlines() if line.startswith("| a | b | 1 |"))
    assert row.split(" | ")[4] == "–" and "nan" not in paired


def test_the_paired_note_names_the_rotations_a_deal_is_played_in(tmp_path: Path) -> None:
    """A, B, A, B plays a deal in 2 rotations, not P = 4: the note says distinct ones."""
    run = write_synthetic_run(tmp_path / "abab", ["a", "b"] * 2, [0.3, 0.0] * 2, games=8,
                              seed=3, duplicate=True, games_per_file=8)
    build_report(run, tmp_path / "report")
    md = (tmp_path / "report" / "report.md").read_text(encoding="utf-8")
    assert "paired by deal (its distinct seat rotations, each game once)" in md
    assert "P rotations" not in md


def test_the_penalty_note_holds_under_a_go_out_bonus(report_dir: Path) -> None:
    """With --go-out-bonus -10 the seat that went out scores -10, not 0 as the note said."""
    md = (report_dir / "report.md").read_text(encoding="utf-8")
    note = md.split("\n## Mean penalty by round\n\n")[1].splitlines()[0]
    assert note == ("Mean points scored per round and seat (the seat that went out scores the "
                    "go-out bonus: 0 unless that variant is on).")


def test_pooled_runs_of_other_turn_caps_say_each(tmp_path: Path) -> None:
    """The turn cap is no rule (runs of other caps pool), so the header lists each run's,
    where it showed the first run's alone: a header that depended on the order."""
    from fcsim.core.rules import RuleSet
    from fcsim.runner import simulate

    for name, cap, seed in (("capped", 30, 7), ("plain", 2000, 8)):
        simulate("random,random", 4, tmp_path / name, seed=seed,
                 rules=RuleSet(players=2, rounds=6, turn_cap=cap), workers=1)
    build_report([tmp_path / "capped", tmp_path / "plain"], tmp_path / "report")
    md = (tmp_path / "report" / "report.md").read_text(encoding="utf-8")
    assert "turn_cap 30 / 2000" in md
