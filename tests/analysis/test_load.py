"""Loading run folders: the lazy scan, metadata, combining runs, the long view, clear errors."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from fcsim.analysis.load import (
    RunFolderError,
    load_results,
    long_rounds,
    mixed_sources,
    read_metadata,
    result_schema,
)
from fcsim.analysis.synthetic import write_synthetic_run
from fcsim.core.rules import RuleSet
from fcsim.runner.format import encode
from fcsim.runner.run import simulate

from .helpers import EDGES, MIDDLE, STRONG, WEAK


def test_scan_is_lazy_and_has_every_row(planted_run: Path) -> None:
    lf = load_results(planted_run)
    assert isinstance(lf, pl.LazyFrame)
    df = lf.collect()
    assert df.height == 1200 * 4
    assert df["game"].n_unique() == 1200 and df["deal"].n_unique() == 300
    assert set(df["strategy"].cast(pl.String)) == {"strong", "middle:margin=2", "weak"}
    assert "run" not in df.columns


def test_files_follow_the_runner_schema(planted_run: Path) -> None:
    for file in sorted(planted_run.glob("part-*.parquet")):
        assert pq.read_schema(file).remove_metadata() == result_schema(11)


def test_place_and_win_follow_totals(planted_run: Path) -> None:
    df = load_results(planted_run).collect()
    check = df.with_columns(
        low=pl.col("total").min().over("game"),
        below=pl.col("total").rank("min").over("game").cast(pl.Int8),
    )
    assert (check["win"] == (check["total"] == check["low"])).all()
    assert (check["place"] == check["below"]).all()


def test_pandas_frame(planted_run: Path) -> None:
    df = load_results(planted_run, pandas=True)
    assert isinstance(df, pd.DataFrame)
    assert len(df) == 4800 and df["total"].sum() == load_results(planted_run).collect()[
        "total"].sum()


def test_metadata(planted_run: Path) -> None:
    meta = read_metadata(planted_run)
    assert meta["rules"]["players"] == 4 and meta["rules"]["rounds"] == 11
    assert meta["strategies"] == ["strong", "middle:margin=2", "weak", "strong"]
    assert meta["duplicate"] is True
    assert read_metadata(planted_run / "part-000000.parquet") == meta


def test_several_runs_get_a_run_column(planted_run: Path, tmp_path: Path) -> None:
    other = write_synthetic_run(tmp_path / "second", ["x", "y", "z", "w"], [0, 0, 0, 0], 80)
    df = load_results([planted_run, other]).collect()
    assert df.height == 4800 + 320
    counts = dict(df.group_by("run").len().iter_rows())
    assert counts == {"planted": 4800, "second": 320}


def test_long_rounds_unpivots_every_round(planted_run: Path) -> None:
    wide = load_results(planted_run).collect()
    long = long_rounds(wide).collect()
    assert long.height == wide.height * 11
    assert long.columns == ["game", "seat", "strategy", "round", "penalty", "natural_pts",
                            "wild_pts", "joker_pts", "went_out", "turns", "capped"]
    row = wide.row(7, named=True)
    got = long.filter(pl.col("game") == row["game"], pl.col("seat") == row["seat"],
                      pl.col("round") == 5).row(0, named=True)
    went_out = row["out_seat_5"] == row["seat"]
    assert got["penalty"] == row["penalty_5"] and got["went_out"] == went_out
    assert got["natural_pts"] == (0 if went_out else
                                  row["penalty_5"] - row["wild_pts_5"] - row["joker_pts_5"])
    # penalties of the long view add up to the totals
    totals = long.group_by("game", "seat").agg(pl.col("penalty").sum()).sort("game", "seat")
    assert np.array_equal(totals["penalty"], wide.sort("game", "seat")["total"])
    out = long.filter(pl.col("went_out"))
    assert (out["natural_pts"] == 0).all() and (out["wild_pts"] == 0).all()


def test_missing_folder() -> None:
    with pytest.raises(RunFolderError, match="no such run folder"):
        load_results("/nonexistent/run")


def test_folder_without_part_files(tmp_path: Path) -> None:
    with pytest.raises(RunFolderError, match=r"no part-NNNNNN\.parquet files"):
        load_results(tmp_path)


def test_a_file_is_not_a_run_folder(planted_run: Path) -> None:
    with pytest.raises(RunFolderError, match="not a run folder"):
        load_results(planted_run / "part-000000.parquet")


def test_corrupt_part_file(planted_run: Path, tmp_path: Path) -> None:
    broken = tmp_path / "broken"
    shutil.copytree(planted_run, broken)
    (broken / "part-000002.parquet").write_bytes(b"not parquet at all")
    with pytest.raises(RunFolderError, match=r"part-000002.parquet is damaged \(not a complete "
                                             r"Parquet file.*--resume"):
        load_results(broken)


def test_file_without_fcsim_metadata(tmp_path: Path) -> None:
    folder = tmp_path / "plain"
    folder.mkdir()
    pq.write_table(pa.table({"game": [0]}), folder / "part-000000.parquet")
    with pytest.raises(RunFolderError, match="no fcsim metadata"):
        read_metadata(folder)


def test_missing_columns(planted_run: Path, tmp_path: Path) -> None:
    folder = tmp_path / "thin"
    shutil.copytree(planted_run, folder)
    part = folder / "part-000001.parquet"
    table = pq.read_table(part).drop_columns(["penalty_3"])
    part.write_bytes(encode(table))
    with pytest.raises(RunFolderError, match=r"part-000001.parquet is foreign \(other columns "
                                             r"than a run's\)"):
        load_results(folder)


def test_a_stray_chunk_is_never_read(planted_run: Path, tmp_path: Path) -> None:
    folder = tmp_path / "stray"
    shutil.copytree(planted_run, folder)
    shutil.copy(folder / "part-000000.parquet", folder / "part-000042.parquet")
    with pytest.raises(RunFolderError, match=r"part-000042.parquet is stray \(the run has 3 "
                                             r"chunks, 0 to 2\)"):
        load_results(folder)


def test_a_copy_of_a_run_is_not_counted_twice(planted_run: Path, tmp_path: Path) -> None:
    copy = shutil.copytree(planted_run, tmp_path / "copy")
    with pytest.raises(RunFolderError, match=r"hold the same games \(seed 11, games 0 to 1,199 "
                                             r"in both\): they would count twice"):
        load_results([planted_run, copy])


def test_overlapping_games_of_one_seed_are_not_counted_twice(planted_run: Path,
                                                             tmp_path: Path) -> None:
    table = [STRONG, MIDDLE, WEAK, STRONG]
    shorter = write_synthetic_run(tmp_path / "shorter", table, [EDGES[s] for s in table],
                                  games=400, seed=11, duplicate=True, games_per_file=400)
    with pytest.raises(RunFolderError, match=r"games 0 to 399 in both"):
        load_results([planted_run, shorter])


def test_the_parts_of_one_run_combine(planted_run: Path, tmp_path: Path) -> None:
    """A run split over two folders (disjoint chunks) holds no game twice."""
    first, second = tmp_path / "first", tmp_path / "second"
    shutil.copytree(planted_run, first)
    shutil.copytree(planted_run, second)
    (first / "part-000002.parquet").unlink()
    (second / "part-000000.parquet").unlink()
    (second / "part-000001.parquet").unlink()
    assert load_results([first, second]).collect().height == 1200 * 4


def test_a_run_with_no_finished_chunk_yet(planted_run: Path, tmp_path: Path) -> None:
    folder = tmp_path / "started"
    folder.mkdir()
    shutil.copy(planted_run / "_run.parquet", folder / "_run.parquet")
    with pytest.raises(RunFolderError, match=r"no finished chunks in .* yet"):
        load_results(folder)


def test_the_guide_polars_snippet_reads_a_folder_being_written(planted_run: Path,
                                                              tmp_path: Path) -> None:
    """A chunk in progress, a leftover temporary file, the lock and the files set aside do
    not disturb the polars snippet of docs/SIMULATE.md (a plain folder scan would trip on
    them)."""
    guide = (Path(__file__).parents[2] / "docs" / "SIMULATE.md").read_text(encoding="utf-8")
    snippet = next(line for line in guide.splitlines()
                   if line.startswith('pl.scan_parquet("results/my-run'))
    folder = tmp_path / "busy"
    shutil.copytree(planted_run, folder)
    (folder / ".part-000003.parquet.tmp").write_bytes(b"half a chunk")
    (folder / ".part-000001.parquet.tmp").write_bytes((folder / "part-000001.parquet")
                                                      .read_bytes())
    (folder / ".fcsim.lock").write_text('{"pid": 1}')
    (folder / "_aside").mkdir()
    (folder / "_aside" / "part-000002.parquet.damaged").write_bytes(b"PAR1")
    wins = eval(snippet.replace("results/my-run", str(folder)), {"pl": pl}).collect()
    assert wins.height == 3
    expected = load_results(planted_run).group_by("strategy").agg(pl.col("win").mean())
    assert wins.sort("strategy").equals(expected.collect().sort("strategy"))
    assert pd.read_parquet(folder).shape[0] == 1200 * 4  # pandas and pyarrow skip . and _


@pytest.fixture(scope="module")
def seed_one_runs(tmp_path_factory) -> dict[str, Path]:
    """Runs of greedy and random on root seed 1 (2 seats, short game), laid out each way."""
    rules = RuleSet(players=2, rounds=6)
    root = tmp_path_factory.mktemp("seed-one")
    layouts = {"dup": (["greedy", "random"], {"duplicate": True}),
               "dup swapped": (["random", "greedy"], {"duplicate": True}),
               "plain": (["greedy", "random"], {}),
               "plain swapped": (["random", "greedy"], {}),
               "unrotated": (["greedy", "random"], {"seat_rotation": False})}
    for name, (seats, options) in layouts.items():
        simulate(seats, 40, root / name, seed=1, rules=rules, workers=1, **options)
    return {name: root / name for name in layouts}


@pytest.mark.parametrize(("first", "second", "games"), [
    ("dup", "dup swapped", "game 0 of the first is game 1 of the second"),
    ("plain", "dup", "game 0 of the first is game 0 of the second"),
    ("plain", "unrotated", "game 0 of the first is game 0 of the second"),
])
def test_the_same_games_in_another_layout_are_not_counted_twice(seed_one_runs, first,
                                                                 second, games) -> None:
    """A game is its deal and its seats: listed in another order, in the duplicate format
    or without seat rotation, a run of the same seed may hold the very same games."""
    with pytest.raises(RunFolderError, match=f"hold the same games \\(seed 1: {games}, the "
                                             f"same deal with the same seats\\)"):
        load_results([seed_one_runs[first], seed_one_runs[second]])


def test_the_same_deals_with_other_seats_combine(seed_one_runs) -> None:
    """Swapped, the plain runs play every deal with the other strategy in each seat: other
    games, which may be pooled."""
    runs = [seed_one_runs["plain"], seed_one_runs["plain swapped"]]
    assert load_results(runs).collect().height == 2 * 40 * 2


def test_a_duplicate_run_s_repeated_rotations_count_once(tmp_path: Path) -> None:
    """A, B, A, B at 4 seats: a run plays each deal in its 2 distinct rotations; one
    written before, in all 4, holds each game twice (rotations 2 and 3 are 0 and 1 again),
    and the rows count each game once."""
    from fcsim.runner import RunFolder, RunPlan, execute
    from fcsim.runner.pool import InProcess

    seating = ("greedy", "random", "greedy", "random")
    new = tmp_path / "new"
    simulate(list(seating), 8, new, rules=RuleSet(players=4), duplicate=True, seed=3,
             workers=1)
    played = load_results(new).collect()
    assert played.height == 8 * 4 and set(played["rotation"]) == {0, 1}
    before = RunPlan(strategies=seating, rules=RuleSet(players=4), seed=3, games=16,
                     duplicate=True, chunk_size=16)  # every rotation, as runs were
    folder = RunFolder.open(tmp_path / "old", before, resume=False)
    folder.create()
    execute(folder, InProcess())
    every = pl.read_parquet(list((tmp_path / "old").glob("part-*.parquet"))).sort("game", "seat")
    again = every.filter(pl.col("rotation") >= 2).select("deal", "rotation", "seat", "total")
    first = every.filter(pl.col("rotation") < 2).select("deal", "rotation", "seat", "total")
    assert again.with_columns(pl.col("rotation") - 2).equals(first)  # the very same games
    loaded = load_results(tmp_path / "old").collect()
    assert loaded.height == every.height // 2 and set(loaded["rotation"]) == {0, 1}
    columns = ["deal", "rotation", "seat", "total"]
    assert loaded.sort("deal", "rotation", "seat").select(columns).equals(
        played.sort("deal", "rotation", "seat").select(columns))  # the same games, once


def _run_of(tmp_path: Path, name: str, seed: int, sources: dict[str, str]) -> Path:
    """A duplicate run of strategies a and b (other seeds: other deals) recording
    ``sources``."""
    return write_synthetic_run(tmp_path / name, ["a", "b"], [0.3, 0.0], games=20, seed=seed,
                               duplicate=True, games_per_file=20, sources=sources)


def test_runs_that_played_another_version_of_a_strategy_are_named(tmp_path: Path) -> None:
    """One spec, two model files (or plug-in versions): pooled, two players count as one.
    The same version everywhere, or a record only one run has, is no mix."""
    old, new = (f"file /m/a.npz sha256 {digit * 64}" for digit in "12")
    one, two, three = (_run_of(tmp_path, name, seed, {"a model": record})
                       for name, seed, record in (("one", 1, old), ("two", 2, new),
                                                  ("three", 3, old)))
    plain = _run_of(tmp_path, "plain", 4, {})
    assert mixed_sources([one, two, three, plain]) == [
        "a model differs across the runs: file /m/a.npz sha256 111111111111 in one, three; "
        "file /m/a.npz sha256 222222222222 in two: pooled as one strategy"]
    assert mixed_sources([one, three, plain]) == []
    moved = _run_of(tmp_path, "moved", 5, {"a model": old.replace("/m/", "/elsewhere/")})
    assert mixed_sources([one, moved]) == []  # the same bytes, read from another path
