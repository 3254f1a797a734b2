"""Why strategies win: statistics of the turn-level decision rows (``simulate --decisions``).

Each function takes the decision rows (a polars LazyFrame or DataFrame, as from
:func:`load_decisions`), some also the game × seat rows, aggregates lazily in polars and
returns a small DataFrame with 95% intervals over deals (Wilson for shares, Student t for
means, as in :mod:`fcsim.analysis.stats`: the decisions of one deal share its cards, so a
deal, not a decision, is the independent unit). Card kinds are those of
:mod:`fcsim.core.cards` (naturals ``suit * 11 + rank - 3``, joker 55); the wild rank of
round ``r`` is ``r + 2``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import polars as pl
import polars.selectors as cs

from fcsim.analysis.load import PathLike, check_run, distinct_games, long_rounds, run_names
from fcsim.analysis.stats import (
    DEV2,
    HIGH_SCORE,
    Frame,
    deal_variance,
    with_deal_t,
    with_deal_wilson,
)
from fcsim.runner import format as fmt

N_RANKS = 11  # natural ranks 3 … K (fcsim.core.cards; the analysis layer loads no numba)
MIN_RANK = 3
JOKER = 55
SAVING_BIN = 5  # points per bin of the penalty a turn saved
LARGEST_SAVING = 40  # savings from this many points up share the last bin
WILD_POINT_BINS = (0, 1, 21, 51, 101)  # wild points scored in a game: 0, 1-20, 21-50, …
TURNS_SHOWN = 12  # a seat's own turns of a round shown in "wilds held by turn"
RANK_LABELS = {r: {11: "J", 12: "Q", 13: "K"}.get(r, str(r)) for r in range(MIN_RANK, 14)}


def load_decisions(paths: PathLike | Sequence[PathLike]) -> pl.LazyFrame:
    """The decision rows of one or several run folders, as a lazy scan of their checked
    chunks' decision files (a ``run`` column names the folder when there are several, and
    a game a duplicate run holds twice counts once, as in
    :func:`fcsim.analysis.load.load_results`). :class:`RunFolderError` if a run has none."""
    folders = [Path(paths)] if isinstance(paths, str | Path) else [Path(p) for p in paths]
    scans = []
    for folder in folders:
        run = check_run(folder)
        if not run.meta.get(fmt.DECISIONS):
            raise fmt.RunFolderError(f"{folder} holds no decision rows: play it with "
                                     f"fcsim simulate --decisions")
        files = [fmt.decision_file(folder, i) for i in run.chunks]
        scans.append(distinct_games(pl.scan_parquet(files), run.meta))
    if len(scans) == 1:
        return scans[0]
    return pl.concat([s.with_columns(run=pl.lit(name))
                      for s, name in zip(scans, run_names(folders), strict=True)])


def _strategy() -> pl.Expr:
    return pl.col("strategy").cast(pl.String)


def _players(lf: pl.LazyFrame) -> int:
    return int(lf.select(pl.col("seat").max()).collect().item()) + 1


def _share(lf: pl.LazyFrame, by: list[str | pl.Expr], hit: pl.Expr, name: str) -> pl.DataFrame:
    """Share of rows where ``hit`` holds, per ``by``, with Wilson intervals over deals."""
    df = (deal_variance(lf, {"hits": hit.cast(pl.Int64)}, by=by).rename({"seat_games": "n"})
          .with_columns((pl.col("hits") / pl.col("n")).alias(name)))
    return with_deal_wilson(df, name, "hits", "n").drop(cs.ends_with(DEV2))


def _mean(lf: pl.LazyFrame, by: list[str | pl.Expr], value: pl.Expr, name: str) -> pl.DataFrame:
    """Mean of ``value`` per ``by``, with t intervals over deals."""
    df = deal_variance(lf, {"sum": value}, by=by)
    return (with_deal_t(df, name, "sum").drop("sum", cs.ends_with(DEV2))
            .rename({"seat_games": "n"}))


def take_rate_by_round(decisions: Frame) -> pl.DataFrame:
    """Share of turns that took the discard instead of the stock, per strategy and round."""
    return _share(decisions.lazy(), [_strategy(), pl.col("round").cast(pl.Int32)],
                  pl.col("source") == 1, "take_rate")


def take_rate_by_saving(decisions: Frame) -> pl.DataFrame:
    """Share of turns that took the discard, per strategy and the penalty the turn saved
    (least penalty before the draw minus after the discard, in bins of
    :data:`SAVING_BIN` points; ``saving`` is the bin's lower end, negative savings in the
    first bin, :data:`LARGEST_SAVING` and more in the last)."""
    saved = (pl.col("penalty_before").cast(pl.Int32) - pl.col("penalty_after"))
    binned = (saved.clip(0, LARGEST_SAVING) // SAVING_BIN * SAVING_BIN).alias("saving")
    return _share(decisions.lazy(), [_strategy(), binned], pl.col("source") == 1, "take_rate")


def _discard_kind() -> pl.Expr:
    """What a discard was: a joker, a wild-rank card, or a natural by its rank."""
    rank = pl.col("discard").cast(pl.Int32) % N_RANKS + MIN_RANK
    return (pl.when(pl.col("discard") == JOKER).then(pl.lit("joker"))
            .when(rank == pl.col("round").cast(pl.Int32) + 2).then(pl.lit("wild rank"))
            .otherwise(rank.replace_strict(RANK_LABELS, return_dtype=pl.String)))


DISCARD_KINDS = (*RANK_LABELS.values(), "wild rank", "joker")


def discards(decisions: Frame) -> pl.DataFrame:
    """Share of each strategy's discards by kind: naturals by rank (the round's wild rank
    excluded), wild-rank cards, jokers; columns ``strategy, kind, share`` and its interval."""
    kind = _discard_kind()
    wide = deal_variance(decisions.lazy(),
                         {k: (kind == k).cast(pl.Int64) for k in DISCARD_KINDS})
    df = pl.concat([wide.select("strategy", "deals", pl.lit(k).alias("kind"),
                                pl.col("seat_games").alias("n"), pl.col(k).alias("hits"),
                                pl.col(f"{k}{DEV2}").alias(f"hits{DEV2}"))
                    for k in DISCARD_KINDS])
    df = (df.filter(pl.col("hits") > 0)
          .with_columns(share=pl.col("hits") / pl.col("n")))
    order = {k: i for i, k in enumerate(DISCARD_KINDS)}
    df = with_deal_wilson(df, "share", "hits", "n").drop(cs.ends_with(DEV2))
    return df.sort("strategy", pl.col("kind").replace_strict(order, return_dtype=pl.Int32))


def wilds_by_turn(decisions: Frame) -> pl.DataFrame:
    """Mean wilds (wild-rank cards and jokers) kept after the discard, per strategy and the
    seat's own turn of the round (1 = its first turn; the first :data:`TURNS_SHOWN`)."""
    lf = decisions.lazy()
    own = ((pl.col("turn").cast(pl.Int32) - 1) // _players(lf) + 1).alias("own_turn")
    held = pl.col("wilds").cast(pl.Float64) + pl.col("jokers")
    return _mean(lf.filter(own <= TURNS_SHOWN), [_strategy(), own], held, "wilds_held")


def turns_to_go_out(decisions: Frame) -> pl.DataFrame:
    """Mean of the seat's own turns it took to go out first, per strategy and round."""
    lf = decisions.lazy()
    own = ((pl.col("turn").cast(pl.Float64) - 1) // _players(lf) + 1)
    first_out = pl.col("went_out") & ~pl.col("last_turn")
    return _mean(lf.filter(first_out), [_strategy(), pl.col("round").cast(pl.Int32)], own,
                 "own_turns")


def caught_points(decisions: Frame, games: Frame) -> pl.DataFrame:
    """Points caught holding on the last turn, after another seat went out: per strategy,
    the mean natural, wild-rank and joker points of those hands (from the game rows, joined
    on game, round and seat) and their total with a t interval over deals."""
    keys = [k for k in ("run", "game") if k in decisions.lazy().collect_schema().names()]
    last = (decisions.lazy().filter(pl.col("last_turn"))
            .select(*keys, "deal", pl.col("round").cast(pl.Int8), "seat", _strategy()))
    parts = ("natural_pts", "wild_pts", "joker_pts")
    scores = long_rounds(games).select(*keys, "round", "seat", *parts, "penalty")
    joined = last.join(scores, on=[*keys, "round", "seat"])
    df = (deal_variance(joined, {"penalty": pl.col("penalty"), **{p: pl.col(p) for p in parts}})
          .with_columns(pl.col(p) / pl.col("seat_games") for p in parts))
    return (with_deal_t(df, "caught", "penalty").drop("penalty", cs.ends_with(DEV2))
            .rename({"seat_games": "n"}))


def rule_of_thumb(decisions: Frame, games: Frame) -> pl.DataFrame:
    """The rule of thumb "a total over 200 means wilds were held too long", tested: per
    strategy and whether the seat's final total was over :data:`HIGH_SCORE`, the mean
    wild points (wild-rank and joker) the seat scored in the game and the mean wilds it
    held after each discard, with t intervals over deals; ``share_wild`` is the share of
    the total that wild points make."""
    lf = games.lazy()
    keys = [k for k in ("run", "game") if k in lf.collect_schema().names()]
    names = lf.collect_schema().names()
    wild_cols = [c for c in names if c.startswith(("wild_pts_", "joker_pts_"))]
    held = (decisions.lazy().group_by(*keys, "seat")
            .agg(held=(pl.col("wilds").cast(pl.Float64) + pl.col("jokers")).mean()))
    seats = (lf.select(*keys, "deal", "seat", _strategy(),
                       over_200=pl.col("total") > HIGH_SCORE,
                       total=pl.col("total").cast(pl.Float64),
                       wild_points=pl.sum_horizontal(wild_cols).cast(pl.Float64))
             .join(held, on=[*keys, "seat"]))
    df = (deal_variance(seats, {"wild": pl.col("wild_points"), "held": pl.col("held"),
                                "total": pl.col("total")}, by=["strategy", "over_200"])
          .with_columns(share_wild=pl.col("wild") / pl.col("total")))
    df = with_deal_t(with_deal_t(df, "wild_points", "wild"), "wilds_held", "held")
    return (df.drop("wild", "held", "total", cs.ends_with(DEV2))
            .rename({"seat_games": "n"}).sort("strategy", "over_200"))


def over_200_by_wild_points(games: Frame) -> pl.DataFrame:
    """Share of seat-games over :data:`HIGH_SCORE` per strategy and the wild points scored
    in the game (bins from :data:`WILD_POINT_BINS`; ``wild_points`` is the bin's lower end),
    with Wilson intervals: if the rule of thumb holds, the share climbs with wild points."""
    lf = games.lazy()
    wild_cols = [c for c in lf.collect_schema().names()
                 if c.startswith(("wild_pts_", "joker_pts_"))]
    points = pl.sum_horizontal(wild_cols).cast(pl.Int32)
    lows = pl.lit(0, pl.Int32)
    for low in WILD_POINT_BINS[1:]:
        lows = pl.when(points >= low).then(pl.lit(low, pl.Int32)).otherwise(lows)
    return _share(lf, [_strategy(), lows.alias("wild_points")],
                  pl.col("total") > HIGH_SCORE, "over_200")
