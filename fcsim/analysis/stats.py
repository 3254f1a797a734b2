"""Summary statistics of a run, each with its uncertainty.

Every function takes the game × seat rows (a polars LazyFrame or DataFrame, as from
:func:`fcsim.analysis.load.load_results`), aggregates lazily in polars and returns a small
DataFrame. Intervals are 95%: Wilson score intervals for shares, Student t intervals for
means, both over deals. The rows of one deal are not independent (seats share its cards,
and in the duplicate format so do its rotations): where a deal's luck goes to A and B in
turn, rows taken as independent gave win-share intervals 1.3 to 6 times too wide (about 2
at A, B, A, B), and where A holds 2 of 3 seats a mean-total interval up to 1.3 times too
narrow, a factor more games do not shrink. So a strategy's share or mean is its sum over
its seat-games divided by their number, and its variance comes from how each deal's sum
strays from what that mean predicts for the deal's seat-games (the ratio estimator's
sandwich variance, deals as clusters): :func:`deal_variance`. Where each deal holds one
seat-game of the strategy, the intervals are the classic ones over seat-games. The paired
comparison works over deals too, and so do the tables by seat and by round, the head to
head (its seat pairs' shares), the ratings' bootstrap and the decisions' tables.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import combinations
from typing import NamedTuple

import numpy as np
import polars as pl
import polars.selectors as cs
from scipy.special import ndtri, stdtr, stdtrit  # t and normal tables: lighter than scipy.stats

from fcsim.analysis.load import game_keys, rounds_of

Z95 = float(ndtri(0.975))
QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)
LOW_SCORE = 100
HIGH_SCORE = 200
NO_VALUE = "–"  # a table's cell, or a sentence's value, where there is none
P_DIGITS = 3  # decimals of a p-value
P_SHOWN = 0.001  # smaller p-values read "< 0.001" (a t tail underflows to 0 far beyond)

Frame = pl.LazyFrame | pl.DataFrame


def wilson_interval(successes: np.ndarray, n: np.ndarray, z: float = Z95
                    ) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval of a share ``successes / n`` (successes may be fractional)."""
    successes, n = np.asarray(successes, dtype=float), np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = successes / n
        denom = 1 + z**2 / n
        centre = (p + z**2 / (2 * n)) / denom
        half = z / denom * np.sqrt(p * (1 - p) / n + z**2 / (4 * n**2))
    # the exact bounds at p = 0 and 1 are 0 and 1: rounding would leave 1e-19 or 1 - 1e-16
    low = np.where(p == 0, 0.0, np.clip(centre - half, 0.0, 1.0))
    high = np.where(p == 1, 1.0, np.clip(centre + half, 0.0, 1.0))
    return low, high


def t_interval(mean: np.ndarray, sd: np.ndarray, n: np.ndarray, level: float = 0.95
               ) -> tuple[np.ndarray, np.ndarray]:
    """Student t interval of a mean from its sample standard deviation and size."""
    mean, sd, n = (np.asarray(v, dtype=float) for v in (mean, sd, n))
    with np.errstate(invalid="ignore", divide="ignore"):
        half = stdtrit(n - 1, 0.5 + level / 2) * sd / np.sqrt(n)
    return mean - half, mean + half


DEV2 = "_dev2"  # a value's squared deviations over deals (:func:`deal_variance`)
CODE = "_code"  # a strategy's category code, while rows are grouped


def deal_keys(lf: pl.LazyFrame) -> list[str]:
    """The columns that identify one deal: all its rotations in the duplicate format, its
    one game otherwise (``run`` too when runs are combined)."""
    return [*game_keys(lf)[:-1], "deal"]


def deal_variance(lf: pl.LazyFrame, values: dict[str, pl.Expr],
                  by: str | Sequence[str | pl.Expr] | None = "strategy") -> pl.DataFrame:
    """Per group of rows (``by``: a column, columns or expressions, or None for all rows):
    ``seat_games`` (the rows), ``deals``, and for each value (an expression over the rows)
    its sum and ``{name}_dev2``: the sum over deals of (the deal's sum − mean × the deal's
    rows)², mean being the group's sum / rows. ``dev2 / seat_games²`` is the mean's
    variance with the deals as the independent units (no small-sample factor)."""
    n = pl.col("n")
    sums = [n.sum().alias("seat_games"), pl.len().alias("deals"),
            *[pl.col(name).sum() for name in values],
            *[((pl.col(name) - pl.col(name).sum() / n.sum() * n) ** 2).sum()
              .alias(f"{name}{DEV2}") for name in values]]
    per_value = {name: expr.sum() for name, expr in values.items()}
    if by == "strategy":  # grouped by its category's code: 1.5 times as fast as by its name
        return (lf.group_by(pl.col("strategy").to_physical().alias(CODE), *deal_keys(lf))
                .agg(pl.col("strategy").first(), n=pl.len(), **per_value)
                .group_by(CODE).agg(pl.col("strategy").first().cast(pl.String), *sums)
                .drop(CODE).sort("strategy").collect())
    keys = [pl.col(k) if isinstance(k, str) else k
            for k in ([] if by is None else [by] if isinstance(by, str) else by)]
    per_deal = lf.group_by(*keys, *deal_keys(lf)).agg(n=pl.len(), **per_value)
    if not keys:
        return per_deal.select(sums).collect()
    names = [k.meta.output_name() for k in keys]
    return per_deal.group_by(names).agg(sums).sort(names).collect()


def with_deal_wilson(df: pl.DataFrame, name: str, successes: str, n: str) -> pl.DataFrame:
    """Add ``{name}_lo`` and ``_hi``: the Wilson interval of ``successes / n`` over deals.

    The deals' variance (``{successes}_dev2``, :func:`deal_variance`) sets an effective
    number of seat-games, p(1 − p) / variance, in Wilson's formula (a design effect): the
    classic interval where each deal holds one seat-game of a strategy that never ties.
    A share that never varies from deal to deal has no width; a share of 0 or 1, or one
    measured on a single deal, which say nothing of the variance, take the deals as their
    seat-games.
    """
    seat_games = df[n].to_numpy().astype(float)
    lo, hi = deal_wilson_interval(df[successes].to_numpy() / seat_games,
                                  df[f"{successes}{DEV2}"].to_numpy() / seat_games ** 2,
                                  df["deals"].to_numpy())
    return df.with_columns(pl.Series(f"{name}_lo", lo), pl.Series(f"{name}_hi", hi))


def share_variance(successes: np.ndarray, seat_games: np.ndarray,
                   deals: np.ndarray | None = None) -> np.ndarray:
    """The variance of the share ``Σ successes / Σ seat_games`` with the deals as the units,
    from per-deal arrays along the first axis (``float64[D, ...]``, the share taken for each
    trailing index): what :func:`deal_variance` gives as ``dev2 / seat_games²`` from the
    rows. ``deals[d]`` counts the deals row d stands for (default: one each)."""
    weight = np.ones(len(successes)) if deals is None else np.asarray(deals, dtype=float)
    weight = weight.reshape(-1, *[1] * (np.ndim(successes) - 1))
    total = (weight * seat_games).sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        share = (weight * successes).sum(axis=0) / total
        return (weight * (successes - share * seat_games) ** 2).sum(axis=0) / total ** 2


def deal_wilson_interval(share: np.ndarray, variance: np.ndarray, deals: np.ndarray
                         ) -> tuple[np.ndarray, np.ndarray]:
    """Wilson interval of ``share`` whose ``variance`` was taken over ``deals`` (see
    :func:`with_deal_wilson`)."""
    share, variance = np.asarray(share, dtype=float), np.asarray(variance, dtype=float)
    spread = share * (1 - share)
    measured = (spread > 0) & (np.asarray(deals) > 1)  # one deal says nothing of the spread
    fixed = (variance <= 0) & measured
    with np.errstate(invalid="ignore", divide="ignore"):
        n_eff = np.where(measured, spread / variance, deals)
    n_eff = np.where(fixed, 1.0, n_eff)  # any n: the share is set to ``share`` below
    lo, hi = wilson_interval(share * n_eff, n_eff)
    return np.where(fixed, share, lo), np.where(fixed, share, hi)


def with_deal_t(df: pl.DataFrame, name: str, total: str) -> pl.DataFrame:
    """Add ``{name}`` (``total / seat_games``) and its Student t interval over deals, from
    ``{total}_dev2`` (:func:`deal_variance`) with D − 1 degrees of freedom for D deals: the
    classic interval where each deal holds one seat-game of the strategy."""
    deals = df["deals"].to_numpy().astype(float)
    n = df["seat_games"].to_numpy().astype(float)
    mean = df[total].to_numpy() / n
    with np.errstate(invalid="ignore", divide="ignore"):
        standard_error = np.sqrt(df[f"{total}{DEV2}"].to_numpy() * deals / (deals - 1)) / n
    lo, hi = t_interval(mean, standard_error * np.sqrt(deals), deals)  # t_interval takes sd
    return df.with_columns(pl.Series(name, mean), pl.Series(f"{name}_lo", lo),
                           pl.Series(f"{name}_hi", hi))


def players_of(frame: Frame) -> int:
    """Seats per game P (largest seat number + 1)."""
    return int(frame.lazy().select(pl.col("seat").max()).collect().item()) + 1


def strategies_of(frame: Frame) -> list[str]:
    """The sorted strategy specs present in the rows."""
    lf = frame.lazy().select(pl.col("strategy").unique().cast(pl.String))
    return sorted(lf.collect().to_series().to_list())


def _with_shared_win(lf: pl.LazyFrame) -> pl.LazyFrame:
    """Add ``shared_win``: 1/k for each of the k seats tied for a game's lowest total, else 0."""
    winners = pl.col("win").cast(pl.Int32).sum().over(game_keys(lf))
    return lf.with_columns(shared_win=pl.col("win").cast(pl.Float64) / winners)


def win_share(frame: Frame) -> pl.DataFrame:
    """Share of seat-games won per strategy (a win shared by k seats counts 1/k), with Wilson
    intervals over deals (:func:`with_deal_wilson`); ``fair_share`` = 1/P is what equal
    strategies would get."""
    lf = frame.lazy()
    df = (deal_variance(_with_shared_win(lf), {"wins": pl.col("shared_win")})
          .with_columns(win_share=pl.col("wins") / pl.col("seat_games"),
                        fair_share=pl.lit(1 / players_of(lf))))
    return with_deal_wilson(df, "win_share", "wins", "seat_games").drop(cs.ends_with(DEV2))


def score_summary(frame: Frame) -> pl.DataFrame:
    """Final totals per strategy: mean with t interval over deals (:func:`with_deal_t`),
    quantiles, and the shares of games finished under 100 and over 200 points with Wilson
    intervals over deals."""
    lf = frame.lazy()
    total = pl.col("total")
    df = deal_variance(lf, {"total": total, "n_under": (total < LOW_SCORE).cast(pl.Int64),
                            "n_over": (total > HIGH_SCORE).cast(pl.Int64)})
    spread = (lf.group_by(pl.col("strategy").cast(pl.String))
              .agg(sd_total=total.std(),
                   **{f"q{round(q * 100):02d}": total.quantile(q, interpolation="linear")
                      for q in QUANTILES})
              .collect())
    df = (df.join(spread, on="strategy").sort("strategy")
          .with_columns(under_100=pl.col("n_under") / pl.col("seat_games"),
                        over_200=pl.col("n_over") / pl.col("seat_games")))
    df = with_deal_t(df, "mean_total", "total")
    df = with_deal_wilson(df, "under_100", "n_under", "seat_games")
    df = with_deal_wilson(df, "over_200", "n_over", "seat_games")
    return df.drop("total", cs.ends_with(DEV2))


def _went_out(r: int) -> pl.Expr:
    return pl.col(f"out_seat_{r}") == pl.col("seat")


def round_stats(frame: Frame) -> pl.DataFrame:
    """Per strategy and round: mean penalty (t interval), go-out rate (Wilson interval),
    both over deals, and the penalty's composition: mean points per seat-round from natural
    cards, wild-rank cards and jokers, plus the go-out bonus (0 unless that variant is on).
    The four components add up to the mean penalty. Two passes over the rows compute all
    of it (the intervals' per deal, the components' per strategy); the wide results are
    then reshaped to one row per strategy × round."""
    lf = frame.lazy()
    rounds = range(1, rounds_of(lf) + 1)
    spread = deal_variance(lf, {**{f"penalty@{r}": pl.col(f"penalty_{r}") for r in rounds},
                                **{f"went_out@{r}": _went_out(r).cast(pl.Int64)
                                   for r in rounds}})
    components = (lf.group_by(pl.col("strategy").cast(pl.String)).agg(
        *[pl.col(f"{kind}_pts_{r}").mean().alias(f"{kind}_pts@{r}")
          for r in rounds for kind in ("wild", "joker")],
        # the seat that went out scores the bonus and has no wild or joker points
        *[(pl.col(f"penalty_{r}") * _went_out(r).cast(pl.Int16)).mean().alias(f"bonus_pts@{r}")
          for r in rounds]).collect())
    wide = spread.join(components, on="strategy")
    parts = [wide.select("strategy", "seat_games", "deals", pl.lit(r, pl.Int32).alias("round"),
                         *[pl.col(f"{name}@{r}{suffix}").alias(f"{name}{suffix}")
                           for name in ("penalty", "went_out") for suffix in ("", DEV2)],
                         *[pl.col(f"{name}@{r}").alias(name)
                           for name in ("wild_pts", "joker_pts", "bonus_pts")])
             for r in rounds]
    df = (pl.concat(parts).sort("strategy", "round")
          .with_columns(go_out_rate=pl.col("went_out") / pl.col("seat_games")))
    df = with_deal_t(df, "penalty", "penalty")
    df = with_deal_wilson(df, "go_out_rate", "went_out", "seat_games")
    return (df.with_columns(natural_pts=pl.col("penalty") - pl.col("wild_pts")
                            - pl.col("joker_pts") - pl.col("bonus_pts"))
            .drop(cs.ends_with(DEV2)))


COMPONENTS = ("natural_pts", "wild_pts", "joker_pts", "bonus_pts")


def composition_per_game(rounds: pl.DataFrame) -> pl.DataFrame:
    """The penalty composition of :func:`round_stats` summed over rounds: mean points per
    game from each kind of left-over card (and the go-out bonus), and their total."""
    return (rounds.group_by("strategy").agg(pl.col(c).sum() for c in COMPONENTS)
            .sort("strategy").with_columns(total=pl.sum_horizontal(*COMPONENTS)))


def seat_advantage(frame: Frame) -> pl.DataFrame:
    """Per seat (seat 0 deals round 1): win share (Wilson) and mean total (t interval),
    both over deals."""
    lf = frame.lazy()
    df = (deal_variance(_with_shared_win(lf), {"wins": pl.col("shared_win"),
                                               "total": pl.col("total")}, by="seat")
          .with_columns(win_share=pl.col("wins") / pl.col("seat_games")))
    df = with_deal_wilson(df, "win_share", "wins", "seat_games")
    return with_deal_t(df, "mean_total", "total").drop("total", cs.ends_with(DEV2))


def round_length(frame: Frame) -> pl.DataFrame:
    """Per round: mean player turns (t interval) and share of rounds stopped at the turn
    cap (Wilson), both over deals."""
    lf = frame.lazy().filter(pl.col("seat") == 0)  # round columns repeat on every seat's row
    rounds = range(1, rounds_of(lf) + 1)
    wide = deal_variance(lf, {**{f"turns@{r}": pl.col(f"turns_{r}") for r in rounds},
                              **{f"capped@{r}": pl.col(f"capped_{r}").cast(pl.Int64)
                                 for r in rounds}}, by=None)
    parts = [wide.select(pl.lit(r, pl.Int32).alias("round"), "deals",
                         pl.col("seat_games").alias("games"),
                         *[pl.col(f"{name}@{r}{suffix}").alias(f"{name}{suffix}")
                           for name in ("turns", "capped") for suffix in ("", DEV2)])
             for r in rounds]
    df = (pl.concat(parts).rename({"games": "seat_games"})
          .with_columns(capped_share=pl.col("capped") / pl.col("seat_games")))
    df = with_deal_t(df, "mean_turns", "turns")
    df = with_deal_wilson(df, "capped_share", "capped", "seat_games")
    return df.drop("turns", cs.ends_with(DEV2)).rename({"seat_games": "games"})


def score_histogram(frame: Frame, bin_width: int = 10) -> pl.DataFrame:
    """Counts of final totals per strategy in bins ``[bin_start, bin_start + bin_width)``,
    with the density (share of the strategy's seat-games per point) for plotting."""
    start = (pl.col("total").cast(pl.Int32) // bin_width) * bin_width
    return (frame.lazy()
            .group_by(pl.col("strategy").cast(pl.String), start.alias("bin_start"))
            .agg(count=pl.len())
            .with_columns(bin_width=pl.lit(bin_width, pl.Int32),
                          density=pl.col("count")
                          / pl.col("count").sum().over("strategy") / bin_width)
            .sort("strategy", "bin_start").collect())


@dataclass(frozen=True)
class FinishingPatterns:
    """Every distinct (strategy, place) layout of a table, how many games had it, and how
    the deals group them.

    ``strategy[i, s]`` indexes ``strategies`` for seat s of pattern i, ``place[i, s]`` is
    that seat's place (1 = lowest total; ties share a place); ``games[i]`` counts games.
    A deal's games (its rotations in the duplicate format, its one game otherwise) make
    its deal pattern: ``deal_patterns[d]`` lists the pattern of each of its games (sorted,
    ``NO_GAME`` where a deal has fewer games than the most), ``deals[d]`` counts the deals
    that had it. Deals are the independent units of the intervals (see the module's
    docstring). A run of millions of games has only hundreds to thousands of patterns and
    deals repeat their patterns, so pair counts and bootstraps work on these small arrays."""

    strategies: list[str]
    strategy: np.ndarray
    place: np.ndarray
    games: np.ndarray
    deal_patterns: np.ndarray
    deals: np.ndarray

    @cached_property
    def pattern_pairs(self) -> tuple[np.ndarray, np.ndarray]:
        """``(ahead, met)``, float64[N, K, K] for N patterns and K strategies: ``met[i, a, b]``
        counts the ordered seat pairs (a's seat, b's seat) of pattern i, ``ahead[i, a, b]``
        those where a finished strictly ahead of b, ties counting one half."""
        n, players = self.strategy.shape
        k = len(self.strategies)
        ahead = np.zeros((n, k, k))
        met = np.zeros((n, k, k))
        rows = np.arange(n)
        for i in range(players):
            for j in range(players):
                if i != j:
                    a, b = self.strategy[:, i], self.strategy[:, j]
                    pi, pj = self.place[:, i], self.place[:, j]
                    ahead[rows, a, b] += (pi < pj) + 0.5 * (pi == pj)
                    met[rows, a, b] += 1.0
        return ahead, met

    def pair_counts(self, weights: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """``(ahead, met)`` K × K matrices of :attr:`pattern_pairs` summed over the games.
        Patterns are weighted by ``weights`` (default: their game counts); a stack of
        weight vectors (bootstrap replicates) gives stacked matrices."""
        ahead, met = self.pattern_pairs
        w = self.games if weights is None else weights
        return np.einsum("...n,nab->...ab", w, ahead), np.einsum("...n,nab->...ab", w, met)

    @cached_property
    def deal_pair_counts(self) -> tuple[np.ndarray, np.ndarray]:
        """``(ahead, met)`` of one deal of each deal pattern, float64[D, K, K]: the sums of
        :attr:`pattern_pairs` over its games (computed once: the head to head and the
        ratings both read them)."""
        ahead, met = self.pattern_pairs
        none = np.zeros((1, *ahead.shape[1:]))  # the last row: what NO_GAME (-1) indexes
        return (np.concatenate([ahead, none])[self.deal_patterns].sum(axis=1),
                np.concatenate([met, none])[self.deal_patterns].sum(axis=1))


NO_GAME = -1  # a deal pattern's place for a game its deal did not have


def finishing_patterns(frame: Frame) -> FinishingPatterns:
    """Group games by their (strategy, place) layout, and deals by their games' layouts, in
    one lazy pass (see FinishingPatterns)."""
    lf = frame.lazy()
    names = strategies_of(lf)
    players = players_of(lf)
    base = len(names) * players
    if base ** players >= 2**63:
        raise ValueError(f"too many strategies ({len(names)}) to encode {players}-seat tables")
    code = (pl.col("strategy").cast(pl.String).cast(pl.Enum(names)).to_physical().cast(pl.Int64)
            * players + pl.col("place").cast(pl.Int64) - 1)
    weight = pl.lit(base, pl.Int64) ** pl.col("seat").cast(pl.Int64)
    per_deal = (lf.group_by(game_keys(lf))
                .agg((code * weight).sum().alias("key"), pl.col("deal").first())
                .group_by(deal_keys(lf)).agg(pl.col("key").sort())
                .group_by("key").agg(deals=pl.len()).collect())
    width = int(per_deal["key"].list.len().max())
    keys = per_deal.select(pl.col("key").list.get(r, null_on_oob=True).fill_null(NO_GAME)
                           .alias(str(r)) for r in range(width)).to_numpy()
    played = keys != NO_GAME
    pattern_keys = np.unique(keys[played])
    deal_patterns = np.where(played, np.searchsorted(pattern_keys, keys), NO_GAME)
    order = np.lexsort(deal_patterns.T[::-1])  # one order, whatever order polars grouped in
    deal_patterns = deal_patterns[order]
    deals = per_deal["deals"].to_numpy().astype(np.int64)[order]
    played = deal_patterns != NO_GAME
    games = np.bincount(deal_patterns[played], minlength=pattern_keys.size,
                        weights=np.broadcast_to(deals[:, None], played.shape)[played])
    digits = (pattern_keys[:, None] // base ** np.arange(players)[None, :]) % base
    return FinishingPatterns(strategies=names, strategy=digits // players,
                             place=digits % players + 1, games=games.astype(np.int64),
                             deal_patterns=deal_patterns, deals=deals)


def as_patterns(data: Frame | FinishingPatterns) -> FinishingPatterns:
    """``data`` itself if already grouped into finishing patterns, else its patterns."""
    return data if isinstance(data, FinishingPatterns) else finishing_patterns(data)


def head_to_head(data: Frame | FinishingPatterns) -> pl.DataFrame:
    """For each ordered pair (a, b) of different strategies met at a table: share of seat
    pairs where a finished strictly ahead of b (ties count one half), with a Wilson interval
    over deals (:func:`deal_wilson_interval`: the seat pairs of one deal are not
    independent) and the number of ``deals`` where they met.

    A strategy at several seats is compared seat by seat, so ``pairs`` can exceed games.
    ``data`` is the rows or their :func:`finishing_patterns` (to share that pass)."""
    patterns = as_patterns(data)
    deal_ahead, deal_met = patterns.deal_pair_counts
    ahead, met = patterns.pair_counts()
    with np.errstate(invalid="ignore", divide="ignore"):
        share = ahead / met
    variance = share_variance(deal_ahead, deal_met, patterns.deals)
    deals = np.einsum("d,dab->ab", patterns.deals, deal_met > 0)
    lo, hi = deal_wilson_interval(share, variance, deals)
    a, b = np.nonzero((met > 0) & ~np.eye(len(patterns.strategies), dtype=bool))
    names = pl.Series(patterns.strategies, dtype=pl.String)
    return pl.DataFrame({"a": names.gather(a), "b": names.gather(b),
                         "pairs": met[a, b].astype(np.int64), "deals": deals[a, b],
                         "ahead": ahead[a, b], "ahead_share": share[a, b],
                         "ahead_share_lo": lo[a, b], "ahead_share_hi": hi[a, b]})


def number_cell(value: float | None, digits: int, style: str = "") -> str:
    """``value`` with ``digits`` decimals (``style``: the sign or grouping of a format,
    ``+`` or ``,``), or ``–`` where there is none (None, NaN), as every table shows it."""
    return NO_VALUE if value is None or value != value else f"{value:{style}.{digits}f}"


def bounds_cell(low: float | None, high: float | None, digits: int = 2,
                style: str = "+") -> str:
    """An interval's bounds, ``[low, high]``, each as :func:`number_cell` writes it (``–``
    where there is none: an interval from one deal)."""
    return f"[{number_cell(low, digits, style)}, {number_cell(high, digits, style)}]"


def p_cell(p: float) -> str:
    """A p-value as a table shows it: three decimals, ``< 0.001``, or ``–`` where there is
    none (one deal, or no spread). Never ``0`` (an underflow) or ``nan``."""
    if not np.isfinite(p):
        return NO_VALUE
    return f"< {P_SHOWN}" if p < P_SHOWN else number_cell(p, P_DIGITS)


def p_text(p: float) -> str:
    """A p-value in a sentence, as :func:`p_cell` writes it: ``p < 0.001``, ``p = 0.012``,
    ``p = –``."""
    cell = p_cell(p)
    return f"p {cell}" if cell.startswith("<") else f"p = {cell}"


def verdict(a: str, b: str, diff: float, lo: float, hi: float, deals: int, p: float) -> str:
    """A plain-English reading of a paired difference ``a − b`` in points per game."""
    half = (hi - lo) / 2
    if not np.isfinite(half):
        return f"too few deals to compare {a} and {b} ({deals})"
    digits = 1 if half >= 0.1 else 2
    if lo <= 0 <= hi:
        return (f"no significant difference between {a} and {b} over {deals:,} deals "
                f"({a} − {b} = {diff:+.{digits}f} ± {half:.{digits}f} points per game, "
                f"{p_text(p)})")
    direction = "less" if diff < 0 else "more"
    return (f"{a} scores {abs(diff):.{digits}f} ± {half:.{digits}f} points per game {direction} "
            f"than {b} over {deals:,} deals ({p_text(p)})")


PAIRED_SCHEMA = {"a": pl.String, "b": pl.String, "deals": pl.Int64, "mean_diff": pl.Float64,
                 "mean_diff_lo": pl.Float64, "mean_diff_hi": pl.Float64, "p_value": pl.Float64,
                 "verdict": pl.String}


def paired_comparison(frame: Frame, pairs: list[tuple[str, str]] | None = None) -> pl.DataFrame:
    """Paired difference of final totals between strategies, deal by deal.

    Per deal (in the duplicate format, its distinct seat rotations), the mean total of a
    minus the mean total of b over their seats; then the mean difference over deals where
    both played, its 95% t interval and a two-sided one-sample t test p-value. Without the
    duplicate format a deal is one game, so the pairing is by table. ``pairs`` defaults to
    every pair of strategies that shared a table (in sorted order): runs of different
    tables read together hold pairs that never met, and no deal can compare them.
    Columns: ``a, b, deals, mean_diff, mean_diff_lo, mean_diff_hi, p_value, verdict`` (a
    sentence that reads the difference, as ``fcsim compare`` prints it)."""
    lf = frame.lazy()
    met = pairs is None
    pairs = pairs if pairs is not None else list(combinations(strategies_of(lf), 2))
    if not pairs:
        return pl.DataFrame(schema=PAIRED_SCHEMA)
    wanted = sorted({name for pair in pairs for name in pair})
    per_deal = _per_deal_means(lf, wanted, {"total": pl.col("total")})
    rows = []
    for a, b in pairs:
        deals, mean, lo, hi, p = _paired(per_deal, wanted.index(a), wanted.index(b), "total")
        if met and not deals:
            continue
        rows.append((a, b, deals, mean, lo, hi, p, verdict(a, b, mean, lo, hi, deals, p)))
    return pl.DataFrame(rows, orient="row", schema=PAIRED_SCHEMA)


def _per_deal_means(lf: pl.LazyFrame, names: list[str], values: dict[str, pl.Expr]
                    ) -> pl.DataFrame:
    """One row per deal: for each strategy of ``names`` (by its index: names are free text)
    and each value, the mean over that strategy's rows of the deal, as ``{index}:{value}``
    (null where it did not play the deal)."""
    strategy = pl.col("strategy").cast(pl.String)
    return (lf.group_by(*deal_keys(lf))
            .agg(*[expr.filter(strategy == name).mean().alias(f"{i}:{value}")
                   for i, name in enumerate(names) for value, expr in values.items()])
            .collect())


def _paired(per_deal: pl.DataFrame, a: int, b: int, value: str) -> MeanDifference:
    """:func:`mean_difference` of ``value`` between the strategies of indices ``a`` and
    ``b`` of :func:`_per_deal_means`, over the deals both played."""
    diff = per_deal.select(d=pl.col(f"{a}:{value}") - pl.col(f"{b}:{value}")).drop_nulls()
    return mean_difference(diff["d"].to_numpy())


BY_ROUND_SCHEMA = {"round": pl.Int64, "deals": pl.Int64, "mean_diff": pl.Float64,
                   "mean_diff_lo": pl.Float64, "mean_diff_hi": pl.Float64,
                   "p_value": pl.Float64, "went_out_a": pl.Float64, "went_out_b": pl.Float64}


def paired_by_round(frame: Frame, a: str, b: str) -> pl.DataFrame:
    """Where ``a``'s paired difference from ``b`` falls, round by round.

    Per round: ``a``'s mean penalty less ``b``'s, deal by deal as :func:`paired_comparison`
    pairs the totals (a total is its rounds' penalties, so the rounds' ``mean_diff`` add up
    to the total's), with its 95% t interval and p-value; and the share of their rounds in
    which ``a`` and ``b`` went out (``went_out_a``, ``went_out_b``: each deal weighs alike).
    Columns: ``round, deals, mean_diff, mean_diff_lo, mean_diff_hi, p_value, went_out_a,
    went_out_b``, one row per round.
    """
    lf = frame.lazy()
    rounds = range(1, rounds_of(lf) + 1)
    per_deal = _per_deal_means(lf, [a, b], {  # a is index 0, b index 1
        **{f"penalty@{r}": pl.col(f"penalty_{r}") for r in rounds},
        **{f"went_out@{r}": _went_out(r).cast(pl.Float64) for r in rounds}})
    both = per_deal.drop_nulls(["0:penalty@1", "1:penalty@1"])
    rows = [(r, *_paired(per_deal, 0, 1, f"penalty@{r}"),
             both[f"0:went_out@{r}"].mean(), both[f"1:went_out@{r}"].mean())
            for r in rounds]
    return pl.DataFrame(rows, orient="row", schema=BY_ROUND_SCHEMA)


class MeanDifference(NamedTuple):
    """The mean of paired differences (``mean``, over ``deals``), its 95% t interval
    (``lo``, ``hi``) and two-sided t-test ``p_value``."""

    deals: int
    mean: float
    lo: float
    hi: float
    p_value: float


def mean_difference(differences: np.ndarray) -> MeanDifference:
    """Summarise per-deal differences ``float64[D]`` (one-sample t test against 0).

    The statistics of :func:`paired_comparison`, for callers that pair deals themselves
    (``fcsim sweep`` and ``fcsim tune`` pair runs played on the same deals). Fewer than two
    deals give NaN; differences that never vary give p = 1 if they are all 0, else 0.
    """
    d = np.asarray(differences, dtype=np.float64)
    deals = int(d.size)
    mean = float(d.mean()) if deals else float("nan")
    sd = float(d.std(ddof=1)) if deals > 1 else float("nan")
    lo, hi = (float(x) for x in t_interval(mean, sd, deals))
    with np.errstate(invalid="ignore", divide="ignore"):
        p = float(2 * stdtr(deals - 1, -abs(mean) / (sd / np.sqrt(deals))))
    if sd == 0 and deals > 1:
        p = 1.0 if mean == 0 else 0.0
    return MeanDifference(deals, mean, lo, hi, p)
