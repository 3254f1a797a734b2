"""The pages of a sweep or a tune (``report.md`` and ``report.html``, like ``fcsim report``'s):
tables of points or trials with their intervals, the charts, and for a tune the
confirmation's verdict."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import polars as pl

from fcsim.analysis.report import Section, write_pages
from fcsim.analysis.stats import bounds_cell, number_cell, p_cell, p_text
from fcsim.strategies import display_name
from fcsim.tune import charts
from fcsim.tune.confirm import Confirmation
from fcsim.tune.space import Axis, Range

TOP_TRIALS = 10
DIFF_NOTE = ("diff: the candidate's advantage over the field minus the reference's, paired "
             "deal by deal (points per game; negative is better); advantage: its mean total "
             "minus the field's; intervals are 95%.")
STAT_HEADER = ["diff [95% CI]", "p-value", "advantage [95% CI]", "win share [95% CI]",
               "mean total [95% CI]"]


def interval(row: dict[str, Any], name: str, digits: int = 2, sign: str = "+") -> str:
    """``value [lo, hi]`` from the columns ``name``, ``name_lo`` and ``name_hi`` of ``row``."""
    low, value, high = (number_cell(row[key], digits, sign)
                        for key in (f"{name}_lo", name, f"{name}_hi"))
    return f"{value} [{low}, {high}]"


def stat_cells(row: dict[str, Any]) -> list[str]:
    """The cells of :data:`STAT_HEADER` for one point or trial."""
    return [interval(row, "diff"), p_cell(row["p_value"]),
            interval(row, "advantage"), interval(row, "win_share", 3, sign=""),
            interval(row, "mean_total", 1, sign="")]


def _value(value: float) -> str:
    return f"{value:g}"


SWEEP_CHART = "sweep.png"


def sweep_page(out: Path, header: list[str], points: pl.DataFrame,
               axes: Sequence[Axis]) -> Path:
    """The sweep's page and chart (``SWEEP_CHART``: a line for one parameter, a heat map
    for two)."""
    names = [axis.param.name for axis in axes]
    if len(names) == 1:
        chart = charts.plot_sweep_line(points, names[0], out / SWEEP_CHART)
    elif len(names) == 2:
        chart = charts.plot_sweep_heatmap(points, names[0], names[1], out / SWEEP_CHART)
    else:
        chart = charts.plot_objective_by_param(points.with_columns(pruned=False), names,
                                               out / SWEEP_CHART)
    rows = [[*(_value(row[n]) for n in names), display_name(row["spec"])
             + (" (reference)" if row["reference"] else ""), *stat_cells(row)]
            for row in points.iter_rows(named=True)]
    section = Section("Points", DIFF_NOTE, [*names, "spec", *STAT_HEADER], rows, chart)
    return write_pages(out, "fcsim sweep", header, [section])


def tune_page(out: Path, header: list[str], trials: pl.DataFrame, ranges: Sequence[Range],
              confirmation: Confirmation) -> Path:
    """The tune's page: the confirmation, the best trials, the search's progress."""
    names = [r.param.name for r in ranges]
    best = trials.filter(pl.col("spec") == confirmation.best).row(0, named=True)
    sections = []
    if confirmation.diff is not None:
        d = confirmation.diff
        best_name, start_name = display_name(confirmation.best), display_name(confirmation.start)
        rows = [[spec, interval(stats, "advantage"), interval(stats, "win_share", 3, sign=""),
                 interval(stats, "mean_total", 1, sign="")]
                for spec, stats in ((best_name, confirmation.best_stats),
                                    (start_name, confirmation.start_stats))]
        rows.append([f"{best_name} − {start_name}",
                     f"{d.mean:+.2f} {bounds_cell(d.lo, d.hi)}, {p_text(d.p_value)}", "", ""])
        sections.append(Section(
            "Confirmation on fresh deals",
            f"{confirmation.verdict}. {confirmation.deals:,} deals of root seed "
            f"{confirmation.seed}, none of them seen by the search.",
            ["strategy", "advantage [95% CI]", "win share [95% CI]", "mean total [95% CI]"],
            rows, charts.plot_confirmation(best, confirmation, out / "confirmation.png")))
    else:
        sections.append(Section("Confirmation", "Nothing was played.", ["verdict"],
                                [[confirmation.verdict]]))
    top = trials.sort("objective", "trial").head(TOP_TRIALS)
    sections.append(Section(
        f"Best {min(TOP_TRIALS, trials.height)} of {trials.height} trials",
        DIFF_NOTE + " Pruned trials show the deals they played.",
        ["trial", *names, "spec", "deals", *STAT_HEADER],
        [[str(row["trial"]), *(_value(row[n]) for n in names),
          display_name(row["spec"]) + (" (pruned)" if row["pruned"] else ""),
          f"{row['deals']:,}",
          *stat_cells(row)] for row in top.iter_rows(named=True)],
        charts.plot_objective_by_param(trials, names, out / "objective_by_param.png")))
    sections.append(Section(
        "Search progress", "Each trial's difference in the order tried, and the best so far.",
        ["trials", "pruned", "distinct strategies", "seconds in trials"],
        [[str(trials.height), str(int(trials["pruned"].sum())),
          str(trials["spec"].n_unique()), f"{trials['seconds'].sum():.1f}"]],
        charts.plot_progress(trials, out / "progress.png")))
    return write_pages(out, "fcsim tune", header, sections)
