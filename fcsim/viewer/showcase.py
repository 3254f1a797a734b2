"""A few games of a run, picked for a person to watch, replayed as viewer pages.

:func:`pick_games` chooses, lazily over any number of rows, a typical game (mean total
nearest the median game's), the closest game (least margin between first and second) and
a high-total game (the highest total of any seat). :func:`write_game_pages` replays each
with the run's own seed, seating and rules and writes its page, but only when the replay
reproduces the totals the run stored (a run made by other fcsim code, or a synthetic run,
gets the reason instead of a page).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

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
    keys = ["run", "game"] if "run" in lf.collect_schema().names() else ["game"]
    games = lf.group_by(keys).agg(
        pl.col("total").mean().alias("mean"),
        (pl.col("total").sort().get(1) - pl.col("total").min()).alias("margin"),
        pl.col("total").max().alias("highest"),
    ).collect()
    if games.is_empty():
        return []
    median = games["mean"].median()
    orders = {"typical": (pl.col("mean") - median).abs(), "closest": pl.col("margin"),
              "high total": -pl.col("highest")}
    chosen = [games.sort([orders[name], *keys]).row(0, named=True) for name, _ in PICKS]
    wanted = pl.concat([pl.DataFrame({k: [row[k]] for k in keys}) for row in chosen])
    seats = (lf.join(wanted.lazy(), on=keys, how="semi").sort([*keys, "seat"])
             .group_by(keys, maintain_order=True).agg(pl.col("total")).collect())
    totals = {tuple(row[:-1]): tuple(int(t) for t in row[-1]) for row in seats.iter_rows()}
    return [Pick(name, reason, row.get("run"), int(row["game"]),
                 totals[tuple(row[k] for k in keys)])
            for (name, reason), row in zip(PICKS, chosen, strict=True)]


class ReplayError(ValueError):
    """A game of a run that cannot be replayed from the run's metadata."""


def game_of_run(meta: dict[str, Any], game: int) -> tuple[list[dict], list[str]]:
    """The events of game ``game`` of the run described by ``meta`` (its stored metadata)
    and the strategy spec of each seat, seated as ``fcsim simulate`` seated them."""
    # imported here: the engine and the strategies' kernels load only when a game is played
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


def page_name(pick: Pick) -> str:
    """The file name of a pick's page: ``game-G.html``, or ``game-RUN-G.html``."""
    run = "" if pick.run is None else "".join(c if c.isalnum() else "-" for c in pick.run) + "-"
    return f"game-{run}{pick.game}.html"


def write_game_pages(lf: pl.LazyFrame, metas: dict[str | None, dict[str, Any]],
                     out: Path) -> list[GamePage]:
    """Pick games of ``lf`` and write a viewer page for each into ``out``.

    ``metas`` maps a run label (None for a single run) to the run's metadata."""
    pages: list[GamePage] = []
    written: dict[str, Path] = {}
    for pick in pick_games(lf):
        name = page_name(pick)
        if name in written:
            pages.append(GamePage(pick, written[name]))
            continue
        try:
            events, specs = game_of_run(metas[pick.run], pick.game)
        except ReplayError as err:
            pages.append(GamePage(pick, None, f"cannot be replayed: {err}"))
            continue
        replayed = tuple(events[-1]["totals"])
        if replayed != pick.totals:
            pages.append(GamePage(pick, None, f"replays to totals {list(replayed)}, not the "
                                  f"run's {list(pick.totals)} (other fcsim code?)"))
            continue
        meta = metas[pick.run]
        written[name] = write_page(out / name, events, specs, _title(pick),
                                   describe_game(f"run seed {meta['seed']}, game {pick.game}",
                                                 specs, meta["rules"]))
        pages.append(GamePage(pick, written[name]))
    return pages


def _title(pick: Pick) -> str:
    run = f" of {pick.run}" if pick.run is not None else ""
    return f"fcsim game {pick.game}{run}: {pick.name}"

