"""The rows a run writes: the engine's results, in the documented schema, readable anywhere."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq

from fcsim.core.decisions import DC_GAME, empty_decisions
from fcsim.core.engine import play_games
from fcsim.core.rules import RuleSet
from fcsim.runner import make_plan, simulate
from fcsim.runner.format import MANIFEST, part_files
from fcsim.runner.plan import chunk_layout, code_digest
from fcsim.runner.store import stored_plan
from fcsim.runner.table import decisions_table
from fcsim.strategies import parse_strategy

SPECS = "greedy,random"
RULES = RuleSet(players=2, rounds=6)

ROUND_COLUMNS = [("penalty", pa.int16()), ("wild_pts", pa.int16()), ("joker_pts", pa.int16()),
                 ("out_seat", pa.int8()), ("out_turn", pa.int16()), ("turns", pa.int16()),
                 ("capped", pa.bool_())]


def test_same_rows_whatever_the_workers_and_chunk_size(reference, rows, tmp_path):
    simulate(SPECS, 120, tmp_path / "a", seed=11, rules=RULES, chunk_size=7, workers=2)
    simulate(SPECS, 120, tmp_path / "b", seed=11, rules=RULES, chunk_size=50, workers=1)
    expected = rows(reference)
    assert rows(tmp_path / "a").equals(expected)
    assert rows(tmp_path / "b").equals(expected)
    assert len(part_files(tmp_path / "a")) == 18


def test_rows_are_the_engines_results(reference, rows):
    plan = stored_plan(reference)
    lay = chunk_layout(plan, 3)
    res = play_games(lay.seeds, lay.seating, [parse_strategy(s) for s in plan.lineup],
                     plan.rules)
    got = rows(reference).filter(pl.col("game").is_between(30, 39))
    players = plan.players
    assert got["strategy"].cast(pl.String).to_list() == [
        plan.lineup[i] for i in lay.seating.reshape(-1)]
    assert got["total"].to_numpy().tolist() == res.total.reshape(-1).tolist()
    assert got["win"].to_list() == res.win.reshape(-1).tolist()
    for r in range(plan.rules.rounds):
        assert got[f"penalty_{r + 1}"].to_list() == res.penalty[:, r, :].reshape(-1).tolist()
        assert got[f"out_turn_{r + 1}"].to_list() == np.repeat(res.out_turn[:, r],
                                                               players).tolist()


def test_schema_metadata_and_compression(reference):
    schema = pq.read_schema(reference / "part-000000.parquet")
    expected = [("game", pa.int64()), ("deal", pa.int64()), ("rotation", pa.int8()),
                ("seat", pa.int8()), ("strategy", pa.dictionary(pa.int8(), pa.string())),
                ("total", pa.int16()), ("place", pa.int8()), ("win", pa.bool_())]
    expected += [(f"{name}_{r}", kind) for r in range(1, 7) for name, kind in ROUND_COLUMNS]
    assert [(f.name, f.type) for f in schema] == expected
    meta = json.loads(schema.metadata[b"fcsim"])
    assert meta == {"format": 2, "fcsim_version": meta["fcsim_version"],
                    "code_digest": code_digest(), "rules": RULES.to_dict(),
                    "strategies": ["greedy", "random"], "seed": 11, "games": 120,
                    "duplicate": False, "seat_rotation": True, "chunk_size": 10,
                    "strategy_sources": {}}
    files = [reference / MANIFEST, *part_files(reference).values()]
    assert {pq.read_schema(f).metadata[b"fcsim"] for f in files} == {schema.metadata[b"fcsim"]}
    column = pq.ParquetFile(reference / "part-000000.parquet").metadata.row_group(0).column(8)
    assert column.compression == "ZSTD"


def test_rows_sorted_by_game_then_seat(reference):
    for path in part_files(reference).values():
        table = pq.read_table(path, columns=["game", "seat"]).to_pandas()
        assert table.equals(table.sort_values(["game", "seat"], ignore_index=True))


def test_readable_by_polars_pandas_and_pyarrow(reference):
    by_polars = pl.scan_parquet(reference).collect().sort("game", "seat")
    by_pandas = pd.read_parquet(reference).sort_values(["game", "seat"], ignore_index=True)
    by_arrow = ds.dataset(reference, format="parquet").to_table().sort_by(
        [("game", "ascending"), ("seat", "ascending")])
    assert by_polars.height == len(by_pandas) == by_arrow.num_rows == 240
    assert by_polars["total"].to_list() == by_pandas["total"].tolist()
    assert by_arrow.column("total").to_pylist() == by_pandas["total"].tolist()
    assert by_pandas["strategy"].astype(str).tolist() == by_polars["strategy"].cast(
        pl.String).to_list()


def test_duplicate_deals_repeat_in_every_distinct_rotation(rows, tmp_path):
    simulate("greedy,random", 30, tmp_path / "dup", seed=4, rules=RULES, duplicate=True,
             chunk_size=7, workers=1)
    got = rows(tmp_path / "dup")
    assert got.height == 30 * 2
    per_deal = got.group_by("deal").agg(pl.col("game").n_unique(), pl.col("rotation").unique())
    assert per_deal["game"].to_list() == [2] * 15
    assert all(sorted(r) == [0, 1] for r in per_deal["rotation"].to_list())
    # Same seed, the seats swapped: both rotations of a deal deal the same hands.
    first, second = got.filter(pl.col("rotation") == 0), got.filter(pl.col("rotation") == 1)
    assert first["deal"].to_list() == second["deal"].to_list()


def test_decision_rows_name_the_deal_and_rotation_of_their_game():
    """In a duplicate run a deal is two games (greedy,random: 2 distinct rotations), so a
    decision row's deal is its game's deal, not its game: intervals over deals, and the
    rows a duplicate run holds twice, go by it."""
    plan = make_plan(SPECS, RULES, 4, 6, duplicate=True, chunk_size=6)
    decided = empty_decisions(3)
    decided[:, DC_GAME] = [1, 2, 5]  # one turn each of games 1, 2 and 5 of chunk 0
    table = decisions_table(plan, chunk_layout(plan, 0), decided)
    assert table.column("game").to_pylist() == [1, 2, 5]
    assert table.column("deal").to_pylist() == [0, 1, 2]  # game // 2
    assert table.column("rotation").to_pylist() == [1, 0, 1]  # game % 2


def test_one_strategy_plays_each_duplicate_deal_once(rows, tmp_path):
    """Its every rotation would be the very same game."""
    simulate("greedy", 30, tmp_path / "dup", seed=4, rules=RULES, duplicate=True, workers=1)
    got = rows(tmp_path / "dup")
    assert got["deal"].n_unique() == 30 and set(got["rotation"]) == {0}


def test_a_spec_listed_twice_keeps_every_seat_s_own_label(rows, tmp_path):
    """Greedy at two seats, random at the third: the files name each strategy once, and
    each seat's row names the strategy that played it, so every game has two greedy seats
    and one random seat (a label from the seat list would call random's seat greedy)."""
    games = 12
    simulate("greedy,greedy,random", games, tmp_path / "run", seed=4,
             rules=RuleSet(players=3, rounds=6), chunk_size=5, workers=1)
    seats = (rows(tmp_path / "run").group_by("game")
             .agg(pl.col("strategy").cast(pl.String).sort()))
    assert seats["strategy"].to_list() == [["greedy", "greedy", "random"]] * games


def test_full_games_stay_under_40_bytes_per_row(tmp_path):
    simulate("greedy", 600, tmp_path / "full", seed=1, rules=RuleSet(players=4),
             chunk_size=600, workers=1)
    part = tmp_path / "full" / "part-000000.parquet"
    assert part.stat().st_size / (600 * 4) <= 40
