"""A few games of a run, picked for a person to watch, replayed as viewer pages.

:func:`pick_games` chooses, in one aggregation over the rows, a typical game (mean total
nearest the median game's), the closest game (least margin between first and second) and
a high-total game (the highest total of any seat). :func:`write_game_pages` replays each
with the run's own seed, seating and rules and writes its page, but only when the replay
reproduces the totals the run stored (a run made by other fcsim code, or a synthetic run,
gets the reason instead of a page).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from fcsim.analysis.load import game_keys
from fcsim.errors import FcsimError
from fcsim.runner.format import SOURCES
from fcsim.viewer.page import describe_game, write_page

PICKS = (  # name, why it is shown
    ("typical", "mean total nearest the median game's"),
    ("closest", "least margin between the winner and the runner-up"),
    ("high total", "the highest total of any seat"),
)


@dataclass(frozen=True)
class Pick:
    """One game chosen to be watched: which, why, and its totals as the run stored them."""

    name: str
    reason: str
    run: str | None  # the run folder's label when several runs are combined
    game: int
    totals: tuple[int, ...]  # by seat


@dataclass(frozen=True)
class GamePage:
    """A pick and its page (``page`` is None and ``problem`` says why when none was made)."""

    pick: Pick
    page: Path | None
    problem: str = ""


def pick_games(lf: pl.LazyFrame) -> list[Pick]:
    """The typical, closest and high-total games of a results frame (ties: the first game).

    One aggregation over the rows (a few numbers per game), then the picked games' totals;
    a pick that is the same game as an earlier one is kept (its page is written once)."""
    keys = game_keys(lf)
    lowest = pl.col("total").min()
    runner_up = pl.col("total").filter(pl.col("place") > 1).min()  # None when all tie
    games = lf.group_by(keys).agg(
        pl.col("total").mean().alias("mean"),
        pl.when((pl.col("place") == 1).sum() > 1).then(0).otherwise(runner_up - lowest)
        .alias("margin"),
        pl.col("total").max().alias("highest"),
    ).collect()
    if games.is_empty():
        return []
    median = games["mean"].median()
    orders = {"typical": (pl.col("mean") - median).abs(), "closest": pl.col("margin"),
              "high total": -pl.col("highest")}
    chosen = [games.lazy().sort([orders[name], *keys]).head(1).collect().row(0, named=True)
              for name, _ in PICKS]  # lazy: the sort becomes a top-1 pass
    # the picked games' rows: ``game`` filters reach the Parquet statistics, so few are read
    seats = (lf.filter(pl.col("game").is_in([row["game"] for row in chosen]))
             .select(*keys, "seat", "total").sort([*keys, "seat"]).collect())
    totals = {key: tuple(group["total"].to_list())
              for key, group in seats.group_by(keys, maintain_order=True)}
    return [Pick(name, reason, row.get("run"), int(row["game"]),
                 totals[tuple(row[k] for k in keys)])
            for (name, reason), row in zip(PICKS, chosen, strict=True)]


class ReplayError(FcsimError, ValueError):
    """A game of a run that cannot be replayed from the run's metadata."""


def game_of_run(meta: dict[str, Any], game: int) -> tuple[list[dict], list[str]]:
    """The events of game ``game`` of the run described by ``meta`` (its stored metadata)
    and the strategy spec of each seat, seated as ``fcsim simulate`` seated them."""
    # imported here: the engine and the strategies' kernels load only when a game is played
    from fcsim.runner.sources import read_as_recorded

    with read_as_recorded(meta.get(SOURCES, {})):  # relative paths as read
        return _play_game_of_run(meta, game)


def _play_game_of_run(meta: dict[str, Any], game: int) -> tuple[list[dict], list[str]]:
    """:func:`game_of_run`, its files' relative paths read from where they resolve."""
    from fcsim.replay import game_events
    from fcsim.runner.plan import RunPlan, chunk_layout
    from fcsim.strategies import parse_strategy

    try:
        strategies = {spec: parse_strategy(spec) for spec in meta["strategies"]}
        plan = RunPlan.from_metadata(meta)
    except KeyError as err:
        raise ReplayError(f"the run's metadata has no {err.args[0]!r}") from None
    except ValueError as err:  # StrategyError, PlanError, RulesError
        raise ReplayError(str(err)) from None
    if not 0 <= game < plan.games:
        raise ReplayError(f"game {game} is not in the run (games 0 to {plan.games - 1})")
    layout = chunk_layout(plan, game // plan.chunk_size)
    row = game - int(layout.game[0])
    specs = [plan.lineup[int(k)] for k in layout.seating[row]]
    events = game_events(int(layout.seeds[row]), [strategies[s] for s in specs], plan.rules)
    return events, specs


def page_name(pick: Pick, taken: Collection[str] = ()) -> str:
    """The file name of a pick's page: ``game-G.html``, or ``game-RUN-G.html``; followed
    by ``-2``, ``-3``… where another game's page has the name (runs ``a-2`` and ``a_2``
    are both written ``a-2``)."""
    run = "" if pick.run is None else "".join(c if c.isalnum() else "-" for c in pick.run) + "-"
    stem = f"game-{run}{pick.game}"
    name, copy = f"{stem}.html", 1
    while name in taken:
        copy += 1
        name = f"{stem}-{copy}.html"
    return name


def write_game_pages(lf: pl.LazyFrame, metas: dict[str | None, dict[str, Any]],
                     out: Path) -> list[GamePage]:
    """Pick games of ``lf`` and write a viewer page for each into ``out``.

    ``metas`` maps a run label (None for a single run) to the run's metadata. Each seat
    is named as listings name it (an oracle marked analysis only)."""
    from fcsim.strategies import display_name  # with the engine: only when games are shown

    pages: list[GamePage] = []
    written: dict[tuple[str | None, int], Path] = {}  # a game picked twice: one page
    for pick in pick_games(lf):
        if (pick.run, pick.game) in written:
            pages.append(GamePage(pick, written[pick.run, pick.game]))
            continue
        name = page_name(pick, {path.name for path in written.values()})
        try:
            events, specs = game_of_run(metas[pick.run], pick.game)
        except ReplayError as err:
            pages.append(GamePage(pick, None, f"cannot be replayed: {err}"))
            continue
        replayed = tuple(events[-1]["totals"])
        if replayed != pick.totals:
            from fcsim.runner.plan import RunPlan  # as game_of_run: only when it is needed
            from fcsim.runner.sources import read_as_recorded

            plan = RunPlan.from_metadata(metas[pick.run])
            with read_as_recorded(dict(plan.sources)):
                changes = plan.changed_code()
            pages.append(GamePage(pick, None, f"replays to totals {list(replayed)}, not the "
                                  f"run's {list(pick.totals)} ({changes})"))
            continue
        meta = metas[pick.run]
        names = [display_name(spec) for spec in specs]
        page = write_page(out / name, events, names, _title(pick),
                          describe_game(f"run seed {meta['seed']}, game {pick.game}", names,
                                        meta["rules"]))
        written[pick.run, pick.game] = page
        pages.append(GamePage(pick, page))
    return pages


def _title(pick: Pick) -> str:
    run = f" of {pick.run}" if pick.run is not None else ""
    return f"fcsim game {pick.game}{run}: {pick.name}"

