"""The decision statistics on a tiny hand-made frame, and the Decisions part of the report
on a synthetic run with decision rows."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from fcsim.analysis import decisions
from fcsim.analysis.load import load_results
from fcsim.analysis.report import build_report
from fcsim.analysis.synthetic import write_synthetic_run
from fcsim.runner.format import RunFolderError

from .helpers import deal_t, deal_wilson

# Two seats, one game, round 1 (3s wild) then round 2 (4s wild). Kinds: 0 = 3 of spades,
# 1 = 4 of spades, 10 = K of spades, 55 = joker.
ROWS = [  # round, turn, seat, strategy, source, discard, before, after, wilds, jokers, out, last
    (1, 1, 1, "a", 1, 10, 20, 8, 1, 0, False, False),
    (1, 2, 0, "b", 0, 55, 25, 25, 0, 0, False, False),
    (1, 3, 1, "a", 0, 0, 8, 0, 1, 1, True, False),
    (1, 4, 0, "b", 1, 10, 25, 13, 2, 0, False, True),
    (2, 1, 0, "b", 0, 1, 30, 30, 1, 0, False, False),
    (2, 2, 1, "a", 0, 0, 9, 0, 0, 0, True, False),
    (2, 3, 0, "b", 0, 10, 30, 25, 0, 1, False, True),
]
COLUMNS = ("round", "turn", "seat", "strategy", "source", "discard", "penalty_before",
           "penalty_after", "wilds", "jokers", "went_out", "last_turn")


@pytest.fixture()
def frame() -> pl.DataFrame:
    df = pl.DataFrame(ROWS, schema=COLUMNS, orient="row")
    return df.with_columns(game=pl.lit(0, pl.Int64), deal=pl.lit(0, pl.Int64),
                           round=pl.col("round").cast(pl.Int8), seat=pl.col("seat").cast(pl.Int8),
                           strategy=pl.col("strategy").cast(pl.Categorical))


@pytest.fixture()
def games() -> pl.DataFrame:
    """The game rows of that game: seat 0 (b) is caught twice, seat 1 (a) goes out twice."""
    return pl.DataFrame({
        "game": [0, 0], "deal": [0, 0], "seat": pl.Series([0, 1], dtype=pl.Int8),
        "strategy": pl.Series(["b", "a"], dtype=pl.Categorical), "total": [238, 0],
        "penalty_1": [13, 0], "wild_pts_1": [0, 0], "joker_pts_1": [0, 0],
        "out_seat_1": [1, 1], "turns_1": [4, 4], "capped_1": [False, False],
        "penalty_2": [225, 0], "wild_pts_2": [0, 0], "joker_pts_2": [50, 0],
        "out_seat_2": [1, 1], "turns_2": [3, 3], "capped_2": [False, False],
    })


def _value(df: pl.DataFrame, column: str, **where: object) -> object:
    return df.filter(**where)[column].item()


def test_take_rate_by_round_and_by_saving(frame):
    by_round = decisions.take_rate_by_round(frame)
    assert _value(by_round, "take_rate", strategy="a", round=1) == 0.5
    assert _value(by_round, "take_rate", strategy="b", round=2) == 0.0
    assert (by_round["take_rate_lo"] <= by_round["take_rate"]).all()
    by_saving = decisions.take_rate_by_saving(frame)
    assert _value(by_saving, "take_rate", strategy="a", saving=10) == 1.0  # 20 -> 8
    assert _value(by_saving, "n", strategy="a", saving=5) == 2  # 8 -> 0 and 9 -> 0
    assert _value(by_saving, "take_rate", strategy="b", saving=0) == 0.0


def test_discards_tell_naturals_wild_ranks_and_jokers_apart(frame):
    shares = decisions.discards(frame)
    b = dict(shares.filter(strategy="b").select("kind", "share").iter_rows())
    assert b == {"wild rank": 0.25, "K": 0.5, "joker": 0.25}  # a 4 is wild in round 2
    a = dict(shares.filter(strategy="a").select("kind", "share").iter_rows())
    assert a == {"K": 1 / 3, "wild rank": 1 / 3, "3": 1 / 3}  # a 3 is wild in round 1 only


def test_wilds_held_and_turns_to_go_out(frame):
    held = decisions.wilds_by_turn(frame)
    assert _value(held, "wilds_held", strategy="b", own_turn=2) == 1.5  # (2 + 0), (0 + 1)
    assert _value(held, "wilds_held", strategy="a", own_turn=1) == 0.5
    going = decisions.turns_to_go_out(frame)
    assert _value(going, "own_turns", strategy="a", round=1) == 2
    assert _value(going, "own_turns", strategy="a", round=2) == 1
    assert going.filter(strategy="b").is_empty()


def test_melding_everything_on_a_last_turn_is_not_going_out_first(frame):
    """The engine marks ``went_out`` on a last turn that melds the whole hand too; that seat
    went out after another, so its turn is no turn to go out (it would lengthen them)."""
    melded = frame.with_columns(went_out=pl.col("went_out") | pl.col("last_turn"))
    going = decisions.turns_to_go_out(melded)
    assert going.filter(strategy="b").is_empty()
    assert _value(going, "own_turns", strategy="a", round=1) == 2


def test_caught_points_and_the_rule_of_thumb(frame, games):
    caught = decisions.caught_points(frame, games)
    assert caught["strategy"].to_list() == ["b"]
    row = caught.row(0, named=True)
    assert (row["n"], row["natural_pts"], row["joker_pts"], row["caught"]) == (2, 94, 25, 119)
    thumb = decisions.rule_of_thumb(frame, games)
    b = thumb.filter(strategy="b").row(0, named=True)
    assert (b["over_200"], b["wild_points"], b["share_wild"]) == (True, 50, 50 / 238)
    assert b["wilds_held"] == pytest.approx(4 / 4)
    over = decisions.over_200_by_wild_points(games)
    assert _value(over, "over_200", strategy="b", wild_points=21) == 1.0


@pytest.fixture(scope="module")
def decided_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_synthetic_run(tmp_path_factory.mktemp("runs") / "decided", ["x", "y", "z"],
                               [0.3, 0.0, -0.3], games=300, seed=3, games_per_file=100,
                               decisions=True)


def test_synthetic_decisions_match_the_game_rows(decided_run):
    rows = decisions.load_decisions(decided_run)
    counts = rows.group_by("game", "round").len().collect()
    games = load_results(decided_run).filter(pl.col("seat") == 0).collect()
    assert counts["len"].sum() == sum(games[f"turns_{r}"].sum() for r in range(1, 12))


def test_synthetic_decisions_start_each_round_left_of_the_dealer(decided_run):
    """Seat (r - 1) mod P deals round r, so seat r mod P plays its first turn; and each
    decision row holds the strategy sitting at its seat in the game rows."""
    players, rounds = 3, 11  # decided_run's table and its rounds
    rows = decisions.load_decisions(decided_run)
    first = rows.filter(pl.col("turn") == 1).select("round", "seat").unique().collect()
    assert sorted(first.iter_rows()) == [(r, r % players) for r in range(1, rounds + 1)]
    seated = load_results(decided_run).select("game", "seat", sat=pl.col("strategy"))
    pairs = rows.select("game", "seat", "strategy").unique().join(seated, on=["game", "seat"])
    assert pairs.filter(pl.col("strategy").cast(pl.String) != pl.col("sat").cast(pl.String)
                        ).collect().is_empty()


def test_the_decisions_intervals_are_over_deals(decided_run):
    """A game's decisions share its cards: each interval equals the one written out deal by
    deal (``deal_wilson``, ``deal_t``), not the one over decisions."""
    rows = decisions.load_decisions(decided_run).collect()
    x = rows.filter((pl.col("strategy") == "x") & (pl.col("round") == 5))
    take = decisions.take_rate_by_round(rows).filter(strategy="x", round=5).row(0, named=True)
    taken = (x["source"] == 1).to_numpy().astype(float)
    assert (take["take_rate_lo"], take["take_rate_hi"]) == pytest.approx(
        deal_wilson(taken, x["deal"].to_numpy()))
    assert take["n"] == x.height and take["deals"] == x["deal"].n_unique()
    going = decisions.turns_to_go_out(rows).filter(strategy="x", round=5).row(0, named=True)
    out = x.filter(pl.col("went_out") & ~pl.col("last_turn"))
    turns = ((out["turn"].to_numpy() - 1) // 3 + 1).astype(float)
    assert (going["own_turns_lo"], going["own_turns_hi"]) == pytest.approx(
        deal_t(turns, out["deal"].to_numpy()))


def test_the_report_has_the_decisions_part(decided_run, tmp_path):
    build_report(decided_run, tmp_path)
    text = (tmp_path / "report.md").read_text()
    for title in ("taking the discard by round", "what is discarded", "wilds held by turn",
                  "turns to go out", "points caught holding", "the rule of thumb"):
        assert f"## Decisions: {title}" in text
    for chart in ("take_rate", "take_by_saving", "discards", "wilds_by_turn", "caught_points",
                  "over_200"):
        assert (tmp_path / f"{chart}.png").stat().st_size > 1000
        assert f"]({chart}.png)" in text


def test_no_decisions_part_without_decision_rows(tmp_path):
    run = write_synthetic_run(tmp_path / "plain", ["x", "y"], [0.0, 0.0], games=40, seed=1)
    build_report(run, tmp_path / "report")
    assert "Decisions" not in (tmp_path / "report" / "report.md").read_text()
    with pytest.raises(RunFolderError, match="holds no decision rows"):
        decisions.load_decisions(run)


def test_a_duplicate_run_s_repeated_rotations_count_once_in_decisions(tmp_path: Path) -> None:
    """A run written before distinct rotations plays A, B, A, B in all 4 rotations, each
    game twice: its decision rows count each turn once, as its game rows do (counted twice,
    every take rate's interval was √2 too narrow)."""
    from fcsim.core.rules import RuleSet
    from fcsim.runner import RunFolder, RunPlan, execute
    from fcsim.runner.pool import InProcess

    before = RunPlan(strategies=("greedy", "random") * 2, rules=RuleSet(players=4, rounds=6),
                     seed=3, games=8, duplicate=True, chunk_size=8, decisions=True)
    folder = RunFolder.open(tmp_path / "old", before, resume=False)
    folder.create()
    execute(folder, InProcess())
    written = pl.read_parquet(list((tmp_path / "old" / "decisions").glob("part-*.parquet")))
    read = decisions.load_decisions(tmp_path / "old").collect()
    assert set(written["rotation"]) == {0, 1, 2, 3} and set(read["rotation"]) == {0, 1}
    assert read.height * 2 == written.height
    games = load_results(tmp_path / "old").collect()
    assert set(read["game"]) == set(games["game"])
