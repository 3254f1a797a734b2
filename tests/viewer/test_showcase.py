"""Games picked from a run and replayed as pages: the right games, the run's own seating
and totals, a reason instead of a page when the run cannot be replayed, and the report's
links."""

from __future__ import annotations

import json
import re
from pathlib import Path

import polars as pl
import pytest

from fcsim.analysis.load import load_results, read_metadata
from fcsim.analysis.report import build_report
from fcsim.analysis.synthetic import write_synthetic_run
from fcsim.core.rules import RuleSet
from fcsim.runner import simulate
from fcsim.viewer.showcase import ReplayError, game_of_run, pick_games, write_game_pages

RULES = RuleSet(players=2, rounds=6)


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """40 games of greedy vs random in chunks of 15 (so picks fall in later chunks)."""
    out = tmp_path_factory.mktemp("showcase") / "run"
    simulate("greedy,random", 40, out, seed=5, rules=RULES, chunk_size=15, workers=1)
    return out


def _frame(totals: list[list[int]]) -> pl.LazyFrame:
    """Game × seat rows of hand-made games, with their places."""
    return pl.LazyFrame([{"game": g, "seat": s, "total": t, "place": 1 + sum(o < t for o in row)}
                         for g, row in enumerate(totals) for s, t in enumerate(row)],
                        schema={"game": pl.Int64, "seat": pl.Int8, "total": pl.Int16,
                                "place": pl.Int8})


def test_picks_the_typical_closest_and_highest_games() -> None:
    # game means 200, 155, 245, 205, 10, 190 (median 195: games 0 and 5 are 5 away);
    # margins 200, 10, 310, 10, 0, 20; highest totals 300, 160, 400, 210, 10, 200
    totals = [[100, 300], [150, 160], [90, 400], [200, 210], [10, 10], [180, 200]]
    picks = pick_games(_frame([[50, 20, 60], [20, 20, 90], [40, 10, 10]]))
    assert [(p.game, p.totals) for p in picks[1:]] == [(1, (20, 20, 90)), (1, (20, 20, 90))]
    picks = pick_games(_frame(totals))
    assert [(p.name, p.game, p.totals, p.run) for p in picks] == [
        ("typical", 0, (100, 300), None),  # the tie goes to the first game
        ("closest", 4, (10, 10), None),
        ("high total", 2, (90, 400), None),
    ]
    assert pick_games(_frame([])) == []


def test_pages_replay_the_run_games(run: Path, tmp_path: Path) -> None:
    lf = load_results(run)
    pages = write_game_pages(lf, {None: read_metadata(run)}, tmp_path)
    assert [p.pick.name for p in pages] == ["typical", "closest", "high total"]
    rows = lf.collect()
    for game_page in pages:
        assert game_page.problem == "" and game_page.page is not None
        assert game_page.page.name == f"game-{game_page.pick.game}.html"
        stored = rows.filter(pl.col("game") == game_page.pick.game).sort("seat")
        assert tuple(stored["total"]) == game_page.pick.totals
        text = game_page.page.read_text(encoding="utf-8")
        data = json.loads(re.search(r'application/json">(.*?)</script>', text, re.S).group(1))
        assert data["steps"][-1]["totals"] == list(game_page.pick.totals)
        assert data["seats"] == list(stored["strategy"].cast(pl.String))


def test_a_game_in_a_later_chunk_is_seated_as_the_run_seated_it(run: Path) -> None:
    meta = read_metadata(run)
    rows = load_results(run).filter(pl.col("game") == 31).sort("seat").collect()
    events, specs = game_of_run(meta, 31)
    assert specs == list(rows["strategy"].cast(pl.String))
    assert events[-1]["totals"] == list(rows["total"])
    with pytest.raises(ReplayError, match="game 40 is not in the run"):
        game_of_run(meta, 40)


def test_a_run_that_cannot_be_replayed_gets_the_reason(run: Path, tmp_path: Path) -> None:
    meta = read_metadata(run)
    lf = load_results(run)
    other_seed = write_game_pages(lf, {None: meta | {"seed": 6}}, tmp_path)
    assert all(p.page is None and "replays to totals" in p.problem
               and "no code the run recorded changed" in p.problem for p in other_seed)
    assert not list(tmp_path.iterdir())
    no_strategy = write_game_pages(lf, {None: meta | {"strategies": ["greedy", "nope"]}},
                                   tmp_path)
    assert all("unknown strategy 'nope'" in p.problem for p in no_strategy)
    no_chunks = write_game_pages(lf, {None: {k: v for k, v in meta.items()
                                            if k != "chunk_size"}}, tmp_path)
    assert all("the run's metadata has no 'chunk_size'" in p.problem for p in no_chunks)


def test_report_links_the_pages(run: Path, tmp_path: Path) -> None:
    twin = tmp_path / "twin"
    simulate("greedy,random", 8, twin / "run", seed=9, rules=RULES, workers=1)
    build_report([run, twin / "run"], tmp_path / "report")
    html = (tmp_path / "report" / "report.html").read_text(encoding="utf-8")
    md = (tmp_path / "report" / "report.md").read_text(encoding="utf-8")
    links = re.findall(r"<a href='([^']+)'>", html)
    assert len(links) == 3 and links == re.findall(r"\]\(([^)]+\.html)\)", md)
    assert all((tmp_path / "report" / link).is_file() for link in links)
    assert all(re.fullmatch(r"game-[^/]*run-\d+\.html", link) for link in links)
    assert "## Games to watch" in md


def test_runs_whose_labels_write_alike_get_pages_of_their_own(tmp_path: Path) -> None:
    """Runs ``a-2`` and ``a_2`` (both written ``a-2`` in a file name): each game its own
    page, where the second run's rows linked the first run's game."""
    for label, seed in (("a-2", 2), ("a_2", 102)):
        simulate("greedy,random", 2, tmp_path / label, seed=seed, rules=RULES, workers=1)
    build_report([tmp_path / "a-2", tmp_path / "a_2"], tmp_path / "report")
    md = (tmp_path / "report" / "report.md").read_text(encoding="utf-8")
    rows = re.findall(r"\| (a[-_]2) game (\d+) \|.*\]\(([^)]+\.html)\)", md)
    pages = {(run, game): page for run, game, page in rows}
    assert len(set(pages.values())) == len(pages) > 1
    for (run, game), page in pages.items():
        text = (tmp_path / "report" / page).read_text(encoding="utf-8")
        assert f"run seed {2 if run == 'a-2' else 102}, game {game}" in text


def test_synthetic_runs_say_why_there_is_no_page(tmp_path: Path) -> None:
    synthetic = write_synthetic_run(tmp_path / "syn", ["a", "b"], [0.0, 0.0], games=20, seed=1)
    pages = write_game_pages(load_results(synthetic), {None: read_metadata(synthetic)}, tmp_path)
    assert pages and all("unknown strategy 'a'" in p.problem for p in pages)


def test_a_reference_in_a_picked_game_is_labelled(tmp_path: Path) -> None:
    out = tmp_path / "run"
    simulate("oracle,random", 4, out, seed=5, rules=RULES, workers=1)
    pages = write_game_pages(load_results(out), {None: read_metadata(out)}, tmp_path)
    page = pages[0].page.read_text(encoding="utf-8")
    seats = json.loads(re.search(r'"seats":(\[[^]]*\])', page).group(1))
    assert sorted(seats) == ["oracle (analysis only)", "random"]
    assert re.search(r"seat \d oracle \(analysis only\)", page)
