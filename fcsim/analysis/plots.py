"""Charts of the summary tables, one PNG each.

Each function takes the small DataFrame made by the matching function of
:mod:`fcsim.analysis.stats` or :mod:`fcsim.analysis.ratings`, saves a PNG at ``path`` and
returns the path. Figures are built without pyplot on the Agg canvas (no global state), and
each strategy keeps one colour across all charts: pass the mapping from
:func:`strategy_colors` built on the run's full strategy list.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

import numpy as np
import polars as pl
from matplotlib import colormaps
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from fcsim.analysis.decisions import DISCARD_KINDS
from fcsim.analysis.stats import composition_per_game

DPI = 120
COMPONENT_COLORS = {"natural_pts": "#7f7f7f", "wild_pts": "#e6a400", "joker_pts": "#b2182b",
                    "bonus_pts": "#4daf4a"}
COMPONENT_LABELS = {"natural_pts": "natural cards", "wild_pts": "wild-rank cards",
                    "joker_pts": "jokers", "bonus_pts": "go-out bonus"}
NEUTRAL = "#4c72b0"

Colors = Mapping[str, tuple[float, float, float, float]]


def strategy_colors(strategies: Iterable[str]) -> dict[str, tuple[float, float, float, float]]:
    """A fixed colour per strategy: the sorted names take tab10 (then tab20) in order."""
    names = sorted(set(strategies))
    palette = colormaps["tab10" if len(names) <= 10 else "tab20"]
    return {name: palette(i % palette.N) for i, name in enumerate(names)}


def _colors(colors: Colors | None, names: Iterable[str]) -> Colors:
    return colors if colors is not None else strategy_colors(names)


def save_figure(fig: Figure, path: str | Path) -> Path:
    """Lay out ``fig`` and write it as a PNG at ``path`` (folders made); returns the path."""
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    FigureCanvasAgg(fig)
    fig.tight_layout()
    fig.savefig(out, dpi=DPI)
    return out


def error_bars(df: pl.DataFrame, name: str) -> np.ndarray:
    """Asymmetric error-bar lengths from the ``name_lo`` / ``name_hi`` columns."""
    value = df[name].to_numpy()
    spread = np.vstack([value - df[f"{name}_lo"].to_numpy(), df[f"{name}_hi"].to_numpy() - value])
    return np.clip(np.nan_to_num(spread), 0.0, None)  # no bar for an undefined interval


def _strategy_bars(ax: Axes, df: pl.DataFrame, value: str, colors: Colors) -> None:
    names = df["strategy"].to_list()
    y = np.arange(len(names))
    ax.barh(y, df[value].to_numpy(), xerr=error_bars(df, value), capsize=4,
            color=[colors[n] for n in names], edgecolor="black", linewidth=0.5)
    ax.set_yticks(y, names)
    ax.invert_yaxis()


def plot_win_share(table: pl.DataFrame, path: str | Path, colors: Colors | None = None) -> Path:
    """Win share per strategy with 95% Wilson intervals and the fair share 1/P."""
    colors = _colors(colors, table["strategy"])
    fig = Figure(figsize=(7, 0.6 * table.height + 1.8))
    ax = fig.add_subplot()
    _strategy_bars(ax, table, "win_share", colors)
    ax.axvline(table["fair_share"][0], color="black", linestyle="--", linewidth=1,
               label=f"fair share 1/P = {table['fair_share'][0]:.3f}")
    ax.set_xlabel("win share (share of seat-games won; a tie for first counts 1/k)")
    ax.set_title("Win share per strategy (95% Wilson intervals)")
    ax.legend(loc="lower right")
    return save_figure(fig, path)


def plot_score_distribution(histogram: pl.DataFrame, path: str | Path,
                            colors: Colors | None = None) -> Path:
    """Distribution of final totals per strategy (step histograms of the binned counts)."""
    colors = _colors(colors, histogram["strategy"])
    fig = Figure(figsize=(8, 4.5))
    ax = fig.add_subplot()
    width = int(histogram["bin_width"][0])
    first, last = histogram["bin_start"].min(), histogram["bin_start"].max()
    edges = np.arange(first, last + 2 * width, width)
    for (name,), part in histogram.group_by("strategy", maintain_order=True):
        density = np.zeros(edges.size - 1)
        density[(part["bin_start"].to_numpy() - first) // width] = part["density"].to_numpy()
        ax.stairs(density, edges, color=colors[name], linewidth=1.6, label=name)
    ax.set_xlabel("final total (points; lower is better)")
    ax.set_ylabel("share of seat-games per point")
    ax.set_title("Distribution of final totals")
    ax.legend(title="strategy")
    return save_figure(fig, path)


def _round_lines(table: pl.DataFrame, value: str, path: str | Path, colors: Colors | None,
                 ylabel: str, title: str, x: str = "round",
                 xlabel: str = "round (round r deals r + 2 cards)",
                 ticks: list[str] | None = None) -> Path:
    """One line per strategy of ``value`` over ``x`` (numbers, or positions of ``ticks``),
    with its 95% band."""
    colors = _colors(colors, table["strategy"])
    fig = Figure(figsize=(8, 4.5))
    ax = fig.add_subplot()
    for (name,), part in table.sort(x).group_by("strategy", maintain_order=True):
        at = part[x].to_numpy()
        ax.plot(at, part[value].to_numpy(), marker="o", markersize=3, color=colors[name],
                label=name)
        ax.fill_between(at, part[f"{value}_lo"].to_numpy(), part[f"{value}_hi"].to_numpy(),
                        color=colors[name], alpha=0.2, linewidth=0)
    at = sorted(set(table[x].to_list()))
    if ticks is None:
        ax.set_xticks(at)
    else:
        ax.set_xticks(at, [ticks[i] for i in at])
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(title="strategy")
    return save_figure(fig, path)


def plot_penalty_by_round(rounds: pl.DataFrame, path: str | Path,
                          colors: Colors | None = None) -> Path:
    """Mean penalty per round and strategy, with 95% t-interval bands."""
    return _round_lines(rounds, "penalty", path, colors, "mean penalty (points per round)",
                        "Mean penalty by round (95% bands)")


def plot_go_out_rate(rounds: pl.DataFrame, path: str | Path,
                     colors: Colors | None = None) -> Path:
    """Share of rounds a strategy's seat went out, per round, with 95% Wilson bands."""
    return _round_lines(rounds, "go_out_rate", path, colors, "go-out rate (share of rounds)",
                        "Go-out rate by round (95% bands)")


def plot_penalty_composition(rounds: pl.DataFrame, path: str | Path,
                             colors: Colors | None = None) -> Path:
    """Stacked bars per strategy: mean points per game from natural cards, wild-rank cards
    and jokers (and the go-out bonus, below zero, when that variant is on)."""
    return _composition_bars(composition_per_game(rounds), path, colors,
                             "mean penalty points per game", "Where the penalty points come from")


def _composition_bars(per_strategy: pl.DataFrame, path: str | Path, colors: Colors | None,
                      ylabel: str, title: str) -> Path:
    """Stacked bars per strategy of the :data:`COMPONENT_COLORS` columns it has."""
    colors = _colors(colors, per_strategy["strategy"])
    names = per_strategy["strategy"].to_list()
    fig = Figure(figsize=(max(6, 1.3 * len(names) + 2), 4.8))
    ax = fig.add_subplot()
    x = np.arange(len(names))
    bottom = np.zeros(len(names))
    for column, colour in COMPONENT_COLORS.items():
        if column not in per_strategy.columns or not np.any(per_strategy[column].to_numpy()):
            continue
        values = per_strategy[column].to_numpy()
        base = np.where(values < 0, 0, bottom)
        ax.bar(x, values, 0.6, bottom=base, color=colour, label=COMPONENT_LABELS[column],
               edgecolor=[colors[n] for n in names], linewidth=1.5)
        bottom = bottom + np.clip(values, 0, None)
    tilt = max(map(len, names)) > 10
    ax.set_xticks(x, names, rotation=20 if tilt else 0, ha="right" if tilt else "center")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(title="left-over cards")
    return save_figure(fig, path)


def plot_take_rate(table: pl.DataFrame, path: str | Path, colors: Colors | None = None) -> Path:
    """Share of turns that took the discard, per round (:func:`decisions.take_rate_by_round`)."""
    return _round_lines(table, "take_rate", path, colors, "take-the-discard rate (per turn)",
                        "Taking the discard by round (95% bands)")


def plot_take_by_saving(table: pl.DataFrame, path: str | Path,
                        colors: Colors | None = None) -> Path:
    """Take-the-discard rate by the penalty the turn saved
    (:func:`decisions.take_rate_by_saving`)."""
    return _round_lines(table, "take_rate", path, colors, "take-the-discard rate",
                        "Taking the discard by the penalty it saves (95% bands)", x="saving",
                        xlabel="penalty saved by the turn (points, bins of 5; lower end)")


def plot_discards(table: pl.DataFrame, path: str | Path, colors: Colors | None = None) -> Path:
    """What each strategy discards: share by rank, wild rank and joker
    (:func:`decisions.discards`)."""
    order = {k: i for i, k in enumerate(DISCARD_KINDS)}
    table = table.with_columns(position=pl.col("kind").replace_strict(order,
                                                                       return_dtype=pl.Int32))
    return _round_lines(table, "share", path, colors, "share of discards",
                        "What is discarded (95% bands)", x="position",
                        xlabel="card discarded (naturals by rank; the round's wild rank apart)",
                        ticks=list(DISCARD_KINDS))


def plot_wilds_by_turn(table: pl.DataFrame, path: str | Path,
                       colors: Colors | None = None) -> Path:
    """Mean wilds kept after each of a seat's turns (:func:`decisions.wilds_by_turn`)."""
    return _round_lines(table, "wilds_held", path, colors, "wilds held (wild-rank + jokers)",
                        "Wilds held by turn (95% bands)", x="own_turn",
                        xlabel="the seat's own turn of the round")


def plot_caught_points(table: pl.DataFrame, path: str | Path,
                       colors: Colors | None = None) -> Path:
    """Mean points caught on a last turn, by kind (:func:`decisions.caught_points`)."""
    return _composition_bars(table, path, colors, "mean points of a hand caught",
                             "Points caught holding when another seat goes out")


def plot_turns_to_go_out(table: pl.DataFrame, path: str | Path,
                         colors: Colors | None = None) -> Path:
    """Mean own turns to go out first, per round (:func:`decisions.turns_to_go_out`)."""
    return _round_lines(table, "own_turns", path, colors, "the seat's own turns",
                        "Turns to go out (95% bands)")


def plot_over_200(table: pl.DataFrame, path: str | Path, colors: Colors | None = None) -> Path:
    """Share of totals over 200 by wild points scored
    (:func:`decisions.over_200_by_wild_points`)."""
    return _round_lines(table, "over_200", path, colors, "share of totals over 200",
                        "Totals over 200 by wild points scored (95% bands)", x="wild_points",
                        xlabel="wild points (wild-rank + joker) scored in the game, bin start")


def plot_seat_advantage(seats: pl.DataFrame, path: str | Path) -> Path:
    """Win share and mean total by seat (seat 0 deals round 1), with 95% intervals."""
    fig = Figure(figsize=(10, 4.2))
    left, right = fig.subplots(1, 2)
    seat = seats["seat"].to_numpy()
    left.bar(seat, seats["win_share"].to_numpy(), yerr=error_bars(seats, "win_share"), capsize=4,
             color=NEUTRAL, edgecolor="black", linewidth=0.5)
    left.axhline(1 / len(seat), color="black", linestyle="--", linewidth=1,
                 label=f"fair share 1/P = {1 / len(seat):.3f}")
    left.set_xlabel("seat (0 deals round 1; the dealer rotates each round)")
    left.set_ylabel("win share (ties shared)")
    left.set_title("Win share by seat")
    left.set_ylim(0, 1.3 * seats["win_share_hi"].max())
    left.legend(loc="upper right")
    right.errorbar(seat, seats["mean_total"].to_numpy(), yerr=error_bars(seats, "mean_total"),
                   fmt="o", color=NEUTRAL, capsize=4)
    right.set_xlabel("seat")
    right.set_ylabel("mean final total (points)")
    right.set_title("Mean total by seat")
    for ax in (left, right):
        ax.set_xticks(seat)
    fig.suptitle("Seat advantage (95% intervals)")
    return save_figure(fig, path)


def plot_head_to_head(table: pl.DataFrame, path: str | Path) -> Path:
    """Heatmap: share of seat pairs where the row strategy finished ahead of the column one."""
    names = sorted(set(table["a"].to_list()) | set(table["b"].to_list()))
    index = {n: i for i, n in enumerate(names)}
    matrix = np.full((len(names), len(names)), np.nan)
    for a, b, share in table.select("a", "b", "ahead_share").iter_rows():
        matrix[index[a], index[b]] = share
    fig = Figure(figsize=(1.2 * len(names) + 3.5, 1.0 * len(names) + 2.5))
    ax = fig.add_subplot()
    if not names:
        ax.text(0.5, 0.5, "no two different strategies met at a table", ha="center")
        ax.set_axis_off()
        return save_figure(fig, path)
    image = ax.imshow(matrix, cmap="RdBu", vmin=0, vmax=1)
    for i in range(len(names)):
        for j in range(len(names)):
            if np.isfinite(matrix[i, j]):
                ax.text(j, i, f"{matrix[i, j]:.3f}", ha="center", va="center",
                        color="white" if abs(matrix[i, j] - 0.5) > 0.3 else "black")
    ax.set_xticks(range(len(names)), names, rotation=30, ha="right")
    ax.set_yticks(range(len(names)), names)
    ax.set_xlabel("opponent (column)")
    ax.set_ylabel("strategy (row)")
    ax.set_title("Head to head: row finished ahead of column")
    fig.colorbar(image, ax=ax, label="share of seat pairs (ties count 1/2)")
    return save_figure(fig, path)


def plot_ratings(ratings: pl.DataFrame, path: str | Path, colors: Colors | None = None) -> Path:
    """Forest plot of the ratings with their 95% bootstrap intervals."""
    colors = _colors(colors, ratings["strategy"])
    names = ratings["strategy"].to_list()
    fig = Figure(figsize=(7, 0.6 * len(names) + 1.8))
    ax = fig.add_subplot()
    y = np.arange(len(names))
    error = error_bars(ratings, "rating")
    for i, name in enumerate(names):
        ax.errorbar(ratings["rating"][i], y[i], xerr=error[:, i : i + 1], fmt="o",
                    color=colors[name], capsize=4, markersize=7)
    ax.axvline(1500, color="black", linestyle="--", linewidth=1, label="mean rating 1500")
    ax.set_yticks(y, names)
    ax.invert_yaxis()
    ax.set_xlabel("rating (Elo scale: +400 = 10:1 odds of finishing ahead)")
    ax.set_title("Strategy ratings (Bradley–Terry, 95% bootstrap intervals)")
    ax.legend(loc="lower right")
    return save_figure(fig, path)
