"""Charts of a sweep or a tune, one PNG each, in the look of :mod:`fcsim.analysis.plots`.

Every chart shows the difference against the reference (the strategy as given) in points
per game, lower is better, with its 95% interval; the zero line is the reference.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import polars as pl
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from fcsim.analysis.plots import NEUTRAL, error_bars, save_figure
from fcsim.tune.confirm import Confirmation

BEST = "#d62728"
DIFF_LABEL = "difference vs reference (points per game; lower is better)"


def _zero(ax: Axes, horizontal: bool = True) -> None:
    line = ax.axhline if horizontal else ax.axvline
    line(0, color="black", linestyle="--", linewidth=1, label="reference")


def _whole_ticks(ax: Axes, values: np.ndarray) -> None:
    """Whole-number ticks on the x axis when every value is whole (integer parameters)."""
    if np.all(np.mod(values, 1) == 0):
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))


def plot_sweep_line(points: pl.DataFrame, name: str, path: str | Path) -> Path:
    """One swept parameter: the difference with its 95% band against the value."""
    frame = points.sort(name)
    x = frame[name].to_numpy().astype(float)
    fig = Figure(figsize=(8, 4.5))
    ax = fig.add_subplot()
    ax.fill_between(x, frame["diff_lo"].to_numpy(), frame["diff_hi"].to_numpy(),
                    color=NEUTRAL, alpha=0.2, linewidth=0, label="95% interval")
    ax.plot(x, frame["diff"].to_numpy(), marker="o", color=NEUTRAL, label="difference")
    best = frame.sort("diff", maintain_order=True).row(0, named=True)
    ax.plot([best[name]], [best["diff"]], marker="*", markersize=16, color=BEST,
            linestyle="none", label=f"best: {name} = {best[name]:g}")
    _zero(ax)
    _whole_ticks(ax, x)
    ax.set_xlabel(name)
    ax.set_ylabel(DIFF_LABEL)
    ax.set_title(f"Sweep of {name} ({best['deals']:,} deals per point, same deals)")
    ax.legend()
    return save_figure(fig, path)


def plot_sweep_heatmap(points: pl.DataFrame, rows: str, columns: str,
                       path: str | Path) -> Path:
    """Two swept parameters: the difference as a heat map (blue is better)."""
    ys = sorted(set(points[rows].to_list()))
    xs = sorted(set(points[columns].to_list()))
    grid = np.full((len(ys), len(xs)), np.nan)
    for y, x, diff in points.select(rows, columns, "diff").iter_rows():
        grid[ys.index(y), xs.index(x)] = diff
    span = float(np.nanmax(np.abs(grid))) or 1.0
    fig = Figure(figsize=(0.9 * len(xs) + 3.5, 0.6 * len(ys) + 2.5))
    ax = fig.add_subplot()
    image = ax.imshow(grid, cmap="RdBu_r", vmin=-span, vmax=span, aspect="auto")
    for i in range(len(ys)):
        for j in range(len(xs)):
            if np.isfinite(grid[i, j]):
                ax.text(j, i, f"{grid[i, j]:+.1f}", ha="center", va="center",
                        color="white" if abs(grid[i, j]) > 0.6 * span else "black")
    ax.set_xticks(range(len(xs)), [f"{x:g}" for x in xs])
    ax.set_yticks(range(len(ys)), [f"{y:g}" for y in ys])
    ax.set_xlabel(columns)
    ax.set_ylabel(rows)
    ax.set_title("Sweep: difference vs reference (points per game)")
    fig.colorbar(image, ax=ax, label="points per game (lower is better)")
    return save_figure(fig, path)


def plot_objective_by_param(trials: pl.DataFrame, names: Sequence[str],
                            path: str | Path) -> Path:
    """The difference of every trial against each tuned parameter (hollow: pruned)."""
    fig = Figure(figsize=(4.2 * len(names) + 1, 4.2))
    axes = fig.subplots(1, len(names), squeeze=False)[0]
    done = trials.filter(~pl.col("pruned"))
    pruned = trials.filter(pl.col("pruned"))
    for ax, name in zip(axes, names, strict=True):
        ax.errorbar(done[name].to_numpy(), done["diff"].to_numpy(),
                    yerr=error_bars(done, "diff"), fmt="o", color=NEUTRAL, capsize=3,
                    markersize=5, alpha=0.8, label="trial (95% interval)")
        if pruned.height:
            ax.plot(pruned[name].to_numpy(), pruned["diff"].to_numpy(), "o", color=NEUTRAL,
                    markerfacecolor="none", label="pruned trial (deals so far)")
        _zero(ax)
        _whole_ticks(ax, trials[name].to_numpy())
        ax.set_xlabel(name)
        ax.set_ylabel(DIFF_LABEL if ax is axes[0] else "")
    axes[0].legend()
    fig.suptitle("Objective against each parameter")
    return save_figure(fig, path)


def plot_progress(trials: pl.DataFrame, path: str | Path) -> Path:
    """Each trial's difference in the order tried, and the best so far."""
    frame = trials.sort("trial")
    number = frame["trial"].to_numpy()
    diff = frame["diff"].to_numpy()
    complete = ~frame["pruned"].to_numpy()
    best = np.minimum.accumulate(np.where(complete, diff, np.inf))
    fig = Figure(figsize=(8, 4.5))
    ax = fig.add_subplot()
    ax.plot(number[complete], diff[complete], "o", color=NEUTRAL, label="trial")
    if (~complete).any():
        ax.plot(number[~complete], diff[~complete], "o", color=NEUTRAL,
                markerfacecolor="none", label="pruned trial (deals so far)")
    finite = np.isfinite(best)
    ax.step(number[finite], best[finite], where="post", color=BEST, label="best so far")
    _zero(ax)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("trial")
    ax.set_ylabel(DIFF_LABEL)
    ax.set_title("Search progress")
    ax.legend()
    return save_figure(fig, path)


def plot_confirmation(best_trial: dict, confirmation: Confirmation, path: str | Path) -> Path:
    """The best trial's difference on the search's deals and on the fresh deals."""
    d = confirmation.diff
    labels = [f"search deals ({best_trial['deals']:,})", f"fresh deals ({confirmation.deals:,})"]
    values = np.array([best_trial["diff"], d.mean])
    errors = np.abs(np.array([[best_trial["diff_lo"], d.lo], [best_trial["diff_hi"], d.hi]])
                    - values)
    fig = Figure(figsize=(7, 3.2))
    ax = fig.add_subplot()
    y = np.arange(2)
    ax.errorbar(values, y, xerr=np.nan_to_num(errors), fmt="o", color=BEST, capsize=5,
                markersize=8)
    _zero(ax, horizontal=False)
    ax.set_yticks(y, labels)
    ax.invert_yaxis()
    ax.set_xlabel(f"{confirmation.best} − {confirmation.start} (points per game)")
    ax.set_title("Confirmation of the best trial (95% intervals)")
    ax.legend(loc="lower right")
    return save_figure(fig, path)
