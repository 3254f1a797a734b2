"""The run report: every statistic of :mod:`fcsim.analysis.stats` and the ratings, as tables
and charts, written to ``report.md`` and a self-contained ``report.html`` (charts embedded
as base64 data URIs) beside the PNGs."""

from __future__ import annotations

import base64
import html
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from fcsim.analysis import decisions, plots, ratings, stats
from fcsim.analysis.load import PathLike, as_listed, load_results, read_metadata, run_names
from fcsim.runner.format import DECISIONS, SOURCES, chunk_count, part_files, source_identity
from fcsim.viewer.showcase import write_game_pages

Cell = Callable[[dict[str, Any]], str]


@dataclass(frozen=True)
class Section:
    """One part of the report: a title, a sentence on how to read it, a table, a chart."""

    title: str
    note: str
    header: list[str]
    rows: list[list[str]]
    chart: Path | None = None


def _num(value: float | None, digits: int) -> str:
    """A number of the report, thousands grouped (:func:`stats.number_cell`)."""
    return stats.number_cell(value, digits, ",")


def _ci(name: str, digits: int, group: str = ",") -> Cell:
    """A cell 'value [lo, hi]' from the columns name, name_lo, name_hi."""
    def cell(row: dict[str, Any]) -> str:
        values = (stats.number_cell(row[key], digits, group)
                  for key in (name, f"{name}_lo", f"{name}_hi"))
        return "{} [{}, {}]".format(*values)
    return cell


def _col(name: str, digits: int | None = None) -> Cell:
    """A plain cell: numbers with ``digits`` decimals, whole numbers with separators, text."""
    def cell(row: dict[str, Any]) -> str:
        value = row[name]
        if digits is not None:
            return _num(value, digits)
        return f"{value:,}" if isinstance(value, int) else str(value)
    return cell


def _rows(df: pl.DataFrame, cells: Sequence[Cell]) -> list[list[str]]:
    return [[cell(row) for cell in cells] for row in df.iter_rows(named=True)]


def _by_round(df: pl.DataFrame, cell: Cell, key: str = "round", label: str | None = None,
              order: Sequence[Any] | None = None) -> tuple[list[str], list[list[str]]]:
    """A ``key`` (round) × strategy table of ``cell`` values, rows in ``order`` if given."""
    names = sorted(set(df["strategy"].to_list()))
    lookup = {(row[key], row["strategy"]): cell(row) for row in df.iter_rows(named=True)}
    present = set(df[key].to_list())
    keys = [k for k in order if k in present] if order is not None else sorted(present)
    return [label or key, *names], [[str(k), *[lookup.get((k, n), stats.NO_VALUE) for n in names]]
                                    for k in keys]


def unfinished_runs(folders: Sequence[Path]) -> list[str]:
    """For each run in ``folders`` that is not complete, a phrase saying how far it got
    (a report on it covers the games played so far)."""
    unfinished = []
    for folder in folders:
        meta = read_metadata(folder)
        done, planned = len(part_files(folder)), chunk_count(meta["games"], meta["chunk_size"])
        if done < planned:
            unfinished.append(f"{folder} is incomplete ({done:,} of {planned:,} chunks "
                              f"played)")
    return unfinished


def _header(folders: Sequence[Path], metas: Sequence[dict[str, Any]], rows: int,
            players: int, strategies: list[str]) -> list[str]:
    rules = {key: " / ".join(dict.fromkeys(str(meta["rules"].get(key)) for meta in metas))
             for key in metas[0]["rules"]}  # pooled runs share their rules, not their caps
    runs = [f"{name} ({meta.get('games', 0):,} games, seed {meta.get('seed')}, "
            f"{'duplicate format' if meta.get('duplicate') else 'independent deals'}, "
            f"fcsim {meta.get('fcsim_version')})"
            for name, meta in zip(run_names(folders), metas, strict=True)]
    unfinished = unfinished_runs(folders)
    sources: dict[tuple[str, str], str] = {}  # models, plug-ins: each content once
    for meta in metas:
        for name, record in meta.get(SOURCES, {}).items():
            sources.setdefault((name, source_identity(record)), f"{name}: {record}")
    return [
        f"**Runs:** {'; '.join(runs)}",
        *([f"**Incomplete:** {'; '.join(unfinished)}: this report covers the games played so "
           f"far (resume the run to complete it)"] if unfinished else []),
        f"**Games:** {rows // players:,} ({rows:,} game × seat rows)",
        "**Rules:** " + ", ".join(f"{k} {v}" for k, v in rules.items()),
        f"**Strategies:** {', '.join(strategies)}",
        *([f"**Sources:** {'; '.join(sorted(sources.values()))}"] if sources else []),
        "Lower totals win. Intervals are 95% (Wilson for shares, Student t for means, "
        "bootstrap for ratings), all taken over deals: a deal's rotations, a game's seats "
        "and its decisions vary together.",
    ]


def _sections(lf: pl.LazyFrame, out: Path, duplicate: bool) -> list[Section]:
    colors = plots.strategy_colors(stats.strategies_of(lf))
    wins = stats.win_share(lf)
    scores = stats.score_summary(lf)
    patterns = stats.finishing_patterns(lf)
    ratings_table = ratings.rate_strategies(patterns)
    h2h = stats.head_to_head(patterns)
    paired = stats.paired_comparison(lf)
    rounds = stats.round_stats(lf)
    seats = stats.seat_advantage(lf)
    length = stats.round_length(lf)

    per_game = stats.composition_per_game(rounds)
    penalty_header, penalty_rows = _by_round(rounds, _ci("penalty", 2))
    go_out_header, go_out_rows = _by_round(rounds, _ci("go_out_rate", 3))
    pairing = ("deal (its distinct seat rotations, each game once)" if duplicate
               else "game (same table)")
    return [
        Section("Win share",
                "Share of seat-games won; a win shared by k tied seats counts 1/k.",
                ["strategy", "seat-games", "win share [95% CI]", "fair share"],
                _rows(wins, [_col("strategy"), _col("seat_games"), _ci("win_share", 4),
                             _col("fair_share", 4)]),
                plots.plot_win_share(wins, out / "win_share.png", colors)),
        Section("Final totals",
                "Final score per seat-game: mean, quantiles, and shares of very good (< 100) "
                "and very bad (> 200) games.",
                ["strategy", "mean [95% CI]", "sd", "5%", "25%", "50%", "75%", "95%",
                 "under 100 [95% CI]", "over 200 [95% CI]"],
                _rows(scores, [_col("strategy"), _ci("mean_total", 2), _col("sd_total", 1),
                               *[_col(f"q{q}", 1) for q in ("05", "25", "50", "75", "95")],
                               _ci("under_100", 4), _ci("over_200", 4)]),
                plots.plot_score_distribution(stats.score_histogram(lf),
                                              out / "score_distribution.png", colors)),
        Section("Ratings",
                "Bradley–Terry fit on every pair of seats (ties half), on the Elo scale with "
                "mean 1500: 200 points apart means about 3:1 odds of finishing ahead. No "
                "interval (–) where the games do not bound the ratings: a strategy that never "
                "finished ahead (or never behind), or tables that never met.",
                ["strategy", "rating [95% CI]", "ahead share", "seat pairs"],
                _rows(ratings_table, [_col("strategy"), _ci("rating", 1, group=""),
                                      _col("ahead_share", 4), _col("pairs")]),
                plots.plot_ratings(ratings_table, out / "ratings.png", colors)),
        Section("Head to head",
                "Share of seat pairs where a finished strictly ahead of b at the same table "
                "(ties count one half; b was ahead in the rest), each pair of strategies "
                "that met once; the chart shows them both ways.",
                ["a", "b", "deals", "seat pairs", "a ahead [95% CI]"],
                _rows(h2h.filter(pl.col("a") < pl.col("b")).sort("a", "b"),
                      [_col("a"), _col("b"), _col("deals"), _col("pairs"),
                       _ci("ahead_share", 3)]),
                plots.plot_head_to_head(h2h, out / "head_to_head.png")),
        Section("Paired comparison",
                f"Mean total of a minus mean total of b, paired by {pairing}; "
                "negative means a scores less (better).",
                ["a", "b", "deals", "a − b [95% CI]", "p-value", "verdict"],
                _rows(paired, [_col("a"), _col("b"), _col("deals"), _ci("mean_diff", 2),
                               lambda row: stats.p_cell(row["p_value"]), _col("verdict")])),
        Section("Mean penalty by round",
                "Mean points scored per round and seat (the seat that went out scores the "
                "go-out bonus: 0 unless that variant is on).",
                penalty_header, penalty_rows,
                plots.plot_penalty_by_round(rounds, out / "penalty_by_round.png", colors)),
        Section("Go-out rate by round",
                "Share of rounds in which the strategy's seat went out first.",
                go_out_header, go_out_rows,
                plots.plot_go_out_rate(rounds, out / "go_out_rate.png", colors)),
        Section("Penalty composition",
                "Mean penalty points per game by the kind of left-over card.",
                ["strategy", "natural", "wild-rank", "jokers", "go-out bonus", "total"],
                _rows(per_game, [_col("strategy"), _col("natural_pts", 2),
                                 _col("wild_pts", 2), _col("joker_pts", 2),
                                 _col("bonus_pts", 2), _col("total", 2)]),
                plots.plot_penalty_composition(rounds, out / "penalty_composition.png",
                                               colors)),
        Section("Seat advantage",
                "Seat 0 deals round 1 and seat 1 plays first; the deal rotates each round.",
                ["seat", "seat-games", "win share [95% CI]", "mean total [95% CI]"],
                _rows(seats, [_col("seat"), _col("seat_games"), _ci("win_share", 4),
                              _ci("mean_total", 2)]),
                plots.plot_seat_advantage(seats, out / "seat_advantage.png")),
        Section("Round length",
                "Player turns per round, and rounds stopped by the turn cap (never in "
                "ordinary play).",
                ["round", "games", "mean turns [95% CI]", "capped", "capped share"],
                _rows(length, [_col("round"), _col("games"), _ci("mean_turns", 2),
                               _col("capped"), _col("capped_share", 5)])),
    ]


def decision_sections(dec: pl.LazyFrame, lf: pl.LazyFrame, out: Path,
                       colors: plots.Colors) -> list[Section]:
    """The Decisions part: how each strategy draws, discards and holds its wilds."""
    take = decisions.take_rate_by_round(dec)
    saving = decisions.take_rate_by_saving(dec)
    thrown = decisions.discards(dec)
    wilds = decisions.wilds_by_turn(dec)
    going = decisions.turns_to_go_out(dec)
    caught = decisions.caught_points(dec, lf)
    thumb = decisions.rule_of_thumb(dec, lf)
    over = decisions.over_200_by_wild_points(lf)
    tables = {
        "take": _by_round(take, _ci("take_rate", 3)),
        "saving": _by_round(saving, _ci("take_rate", 3), "saving", "penalty saved"),
        "thrown": _by_round(thrown, _ci("share", 3), "kind", "discard",
                            decisions.DISCARD_KINDS),
        "wilds": _by_round(wilds, _ci("wilds_held", 2), "own_turn", "own turn"),
        "going": _by_round(going, _ci("own_turns", 2)),
        "over": _by_round(over, _ci("over_200", 3), "wild_points", "wild points from"),
    }
    return [
        Section("Decisions: taking the discard by round",
                "Share of turns that drew the discard pile's top card rather than the stock.",
                *tables["take"], plots.plot_take_rate(take, out / "take_rate.png", colors)),
        Section("Decisions: taking the discard by the penalty it saves",
                f"Take rate of turns by the penalty the turn saved (least penalty before the "
                f"draw minus after the discard; bins of {decisions.SAVING_BIN} points, "
                f"{decisions.LARGEST_SAVING} and more in the last).",
                *tables["saving"],
                plots.plot_take_by_saving(saving, out / "take_by_saving.png", colors)),
        Section("Decisions: what is discarded",
                "Share of discards by card: naturals by rank (the round's wild rank apart), "
                "wild-rank cards, jokers.",
                *tables["thrown"], plots.plot_discards(thrown, out / "discards.png", colors)),
        Section("Decisions: wilds held by turn",
                "Mean wild-rank cards and jokers kept after the discard, by the seat's own "
                "turn of the round (1 = its first).",
                *tables["wilds"],
                plots.plot_wilds_by_turn(wilds, out / "wilds_by_turn.png", colors)),
        Section("Decisions: turns to go out",
                "Mean of the seat's own turns it took to go out first, by round.",
                *tables["going"],
                plots.plot_turns_to_go_out(going, out / "turns_to_go_out.png", colors)),
        Section("Decisions: points caught holding",
                "Hands scored on a last turn, after another seat went out: mean points from "
                "natural cards, wild-rank cards and jokers, and their total.",
                ["strategy", "last turns", "natural", "wild-rank", "jokers",
                 "caught [95% CI]"],
                _rows(caught, [_col("strategy"), _col("n"), _col("natural_pts", 2),
                               _col("wild_pts", 2), _col("joker_pts", 2), _ci("caught", 2)]),
                plots.plot_caught_points(caught, out / "caught_points.png", colors)),
        Section("Decisions: the rule of thumb",
                "\"A total over 200 means wilds were held too long\", tested: seat-games "
                "over 200 against the rest, by the wild points they scored and the wilds "
                "they held after each discard; below, the share of totals over 200 by the "
                "game's wild points.",
                ["strategy", "over 200", "seat-games", "wild points [95% CI]",
                 "wilds held per turn [95% CI]", "share of total from wilds"],
                _rows(thumb, [_col("strategy"), lambda row: "yes" if row["over_200"] else "no",
                              _col("n"),
                              _ci("wild_points", 2), _ci("wilds_held", 3),
                              _col("share_wild", 4)])),
        Section("Decisions: totals over 200 by wild points",
                "Share of seat-games over 200 by the wild points scored in the game.",
                *tables["over"], plots.plot_over_200(over, out / "over_200.png", colors)),
    ]


def _games_section(lf: pl.LazyFrame, folders: Sequence[Path], metas: Sequence[dict[str, Any]],
                   out: Path) -> Section:
    """A few games replayed as viewer pages beside the report, and the links to them."""
    labels = [None] if len(folders) == 1 else run_names(folders)
    pages = write_game_pages(lf, dict(zip(labels, metas, strict=True)), out)
    return Section(
        "Games to watch",
        "Each page plays one game back in a browser, offline: every hand, the pile, the melds "
        "and penalties, the running totals, and what each seat saw.",
        ["game", "chosen as", "totals by seat", "page"],
        [[("" if p.pick.run is None else f"{p.pick.run} ") + f"game {p.pick.game}",
          f"{p.pick.name}: {p.pick.reason}", ", ".join(map(str, p.pick.totals)),
          f"[{p.page.name}]({p.page.name})" if p.page else f"none: {p.problem}"]
         for p in pages])


def _markdown(title: str, header: list[str], sections: list[Section]) -> str:
    lines = [f"# {title}", "", *[f"- {line}" for line in header]]
    for section in sections:
        lines += ["", f"## {section.title}", "", section.note, ""]
        lines.append("| " + " | ".join(section.header) + " |")
        lines.append("|" + "---|" * len(section.header))
        lines += ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |"
                  for row in section.rows]
        if section.chart is not None:
            lines += ["", f"![{section.title}]({section.chart.name})"]
    return "\n".join(lines) + "\n"


CSS = """body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;
color:#222}table{border-collapse:collapse;margin:.5em 0 1em;font-size:.9em}
th,td{border:1px solid #ccc;padding:.25em .6em;text-align:right}th{background:#f2f2f2}
td:first-child,th:first-child{text-align:left}img{max-width:100%}p.note{color:#555}"""


def _bold(text: str) -> str:
    """Escape ``text`` for HTML and turn its markdown ``**bold**`` spans into <b>."""
    parts = html.escape(text).split("**")
    return "".join(f"<b>{p}</b>" if i % 2 else p for i, p in enumerate(parts))


_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")


def _cell(text: str) -> str:
    """Escape a table cell for HTML and turn its markdown ``[text](href)`` links into <a>."""
    return _LINK.sub(r"<a href='\2'>\1</a>", html.escape(text))


def _html(title: str, header: list[str], sections: list[Section]) -> str:
    name = html.escape(title)
    out = ["<!DOCTYPE html>", f"<html><head><meta charset='utf-8'><title>{name}</title>",
           f"<style>{CSS}</style></head><body>", f"<h1>{name}</h1>", "<ul>",
           *[f"<li>{_bold(line)}</li>" for line in header], "</ul>"]
    for section in sections:
        out += [f"<h2>{html.escape(section.title)}</h2>",
                f"<p class='note'>{html.escape(section.note)}</p>", "<table><thead><tr>",
                *[f"<th>{html.escape(h)}</th>" for h in section.header], "</tr></thead><tbody>"]
        out += ["<tr>" + "".join(f"<td>{_cell(c)}</td>" for c in row) + "</tr>"
                for row in section.rows]
        out.append("</tbody></table>")
        if section.chart is not None:
            data = base64.b64encode(section.chart.read_bytes()).decode("ascii")
            out.append(f"<img alt='{html.escape(section.title)}' "
                       f"src='data:image/png;base64,{data}'>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def build_report(paths: PathLike | Sequence[PathLike], out_dir: PathLike) -> Path:
    """Analyse one or several run folders (same rules) and write ``report.md``,
    ``report.html`` and the chart PNGs to ``out_dir``; returns the HTML path."""
    folders = [Path(paths)] if isinstance(paths, str | Path) else [Path(p) for p in paths]
    played = load_results(folders)
    lf = as_listed(played)
    metas = [read_metadata(f) for f in folders]
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    rows = lf.select(pl.len()).collect().item()
    header = _header(folders, metas, rows, stats.players_of(lf), stats.strategies_of(lf))
    sections = _sections(lf, out, duplicate=all(m.get("duplicate") for m in metas))
    if all(m.get(DECISIONS) for m in metas):
        colors = plots.strategy_colors(stats.strategies_of(lf))
        sections += decision_sections(as_listed(decisions.load_decisions(folders)), lf, out,
                                      colors)
    sections.append(_games_section(played, folders, metas, out))
    return write_pages(out, "fcsim report", header, sections)


def write_pages(out: Path, title: str, header: list[str], sections: list[Section]) -> Path:
    """Write ``report.md`` and the self-contained ``report.html`` (charts embedded) into
    ``out``, beside the charts the sections name; returns the HTML path.

    ``header`` lines are markdown (``**bold**`` is kept in HTML). ``fcsim sweep`` and
    ``fcsim tune`` write their pages with it too."""
    (out / "report.md").write_text(_markdown(title, header, sections), encoding="utf-8")
    page = out / "report.html"
    page.write_text(_html(title, header, sections), encoding="utf-8")
    return page
