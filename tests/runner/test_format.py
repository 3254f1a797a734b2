"""The run format: one schema, chunk names, the checksum in a chunk's footer, and the check
of a chunk against its run — each fault it must catch is injected here."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

from fcsim.runner import format as fmt
from fcsim.runner.format import CHECKSUM_KEY, Chunk, Problem, RunFolderError
from tests.sources import modules_saying


def run_of(folder) -> dict:
    return fmt.read_metadata(folder)


def test_reading_the_format_loads_no_engine():
    """The analysis layer reads run folders without the engine, strategies or runner."""
    code = ("import sys, fcsim.runner.format, fcsim.analysis.load, fcsim.analysis.synthetic;"
            "loaded = [m for m in ('fcsim.core.engine', 'fcsim.strategies', 'fcsim.runner.plan',"
            " 'fcsim.runner.run') if m in sys.modules]; print(loaded)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


def test_schema_has_every_round_and_the_run():
    schema = fmt.result_schema(6, b'{"x": 1}')
    assert schema.names[:8] == list(fmt.BASE_COLUMNS)
    assert len(schema.names) == 8 + 6 * len(fmt.ROUND_FAMILIES)
    assert schema.field("turns_6").type == pa.int16()
    assert schema.metadata == {fmt.METADATA_KEY: b'{"x": 1}'}
    assert fmt.column_limits("turns") == (-32768, 32767)
    assert fmt.column_limits("place") == (-128, 127)


# Decision columns and the game-row column family whose values bound theirs: a round's
# last turn number is its turns_r, a hand's penalty at most the round's penalty_r.
BOUNDED_BY_GAME_ROWS = {"game": "game", "deal": "deal", "rotation": "rotation",
                        "seat": "seat", "turn": "turns", "penalty_before": "penalty",
                        "penalty_after": "penalty"}


def test_decision_columns_hold_what_the_game_rows_hold():
    """The plan checks that the rules' largest values fit the game rows' columns only, and
    decision rows are cast to their types unchecked: a narrower type (an int8 turn) would
    silently wrap the turns of a long round."""
    decision = dict(fmt.DECISION_COLUMNS)
    game_rows = dict((*fmt.GAME_COLUMNS, *fmt.ROUND_SEAT_COLUMNS, *fmt.ROUND_COLUMNS))
    for column, family in BOUNDED_BY_GAME_ROWS.items():
        assert decision[column] == game_rows[family], column


def test_names_and_chunk_ranges():
    assert fmt.part_name(3) == "part-000003.parquet"
    assert fmt.part_name(1234567) == "part-1234567.parquet"
    assert fmt.is_temp(fmt.temp_name("part-000003.parquet"))
    assert fmt.chunk_games(25, 10, 2) == range(20, 25)
    assert fmt.chunk_count(25, 10) == 3


def test_a_chunk_carries_the_checksum_of_its_data():
    table = pa.table({"game": list(range(100))})
    data = fmt.encode(table)
    footer = pq.ParquetFile(pa.BufferReader(data)).metadata
    end = len(data) - 8 - int.from_bytes(data[-8:-4], "little")
    assert footer.metadata[CHECKSUM_KEY] == hashlib.sha256(data[:end]).hexdigest().encode()
    assert pq.read_table(pa.BufferReader(data)).equals(table)


def test_every_chunk_of_a_good_run_passes(reference):
    check = fmt.check_folder(reference, run_of(reference))
    assert check.problems == []
    assert sorted(check.chunks) == list(range(12))
    assert check.chunks[3].games == range(30, 40)


@pytest.fixture
def damaged(reference, tmp_path):
    """A copy of the reference run to damage."""
    out = tmp_path / "run"
    shutil.copytree(reference, out)
    return out


def only_problem(folder) -> Problem:
    check = fmt.check_folder(folder, run_of(folder))
    assert len(check.problems) == 1, check.problems
    return check.problems[0]


def test_a_truncated_chunk_is_damaged(damaged):
    path = damaged / "part-000001.parquet"
    path.write_bytes(path.read_bytes()[:100])
    problem = only_problem(damaged)
    assert (problem.path, problem.kind) == (path, "damaged")
    assert "not a complete Parquet file" in problem.reason


def test_a_flipped_byte_in_the_data_is_damaged(damaged):
    path = damaged / "part-000004.parquet"
    data = bytearray(path.read_bytes())
    footer_length = int.from_bytes(data[-8:-4], "little")
    data[(len(data) - 8 - footer_length) // 2] ^= 0xFF  # in the data pages: the footer opens
    path.write_bytes(bytes(data))
    problem = only_problem(damaged)
    assert problem.kind == "damaged" and "checksum" in problem.reason


def test_a_chunk_without_checksum_is_damaged(damaged):
    path = damaged / "part-000002.parquet"
    pq.write_table(pq.read_table(path), path)  # same rows and metadata, plain writer
    problem = only_problem(damaged)
    assert problem.kind == "damaged" and "no checksum" in problem.reason


def test_a_chunk_of_another_run_is_foreign(damaged, small):
    from fcsim.runner import simulate

    other = damaged.parent / "other"
    simulate(out=other, workers=1, **{**small, "seed": 12})
    shutil.copy(other / "part-000005.parquet", damaged / "part-000005.parquet")
    problem = only_problem(damaged)
    assert problem.kind == "foreign" and "seed 12 there, 11 here" in problem.reason


def test_a_chunk_under_another_index_is_foreign(damaged):
    shutil.copy(damaged / "part-000003.parquet", damaged / "part-000004.parquet")
    problem = only_problem(damaged)
    assert problem.kind == "foreign" and "games 30 to 39, not 40 to 49" in problem.reason


def test_a_chunk_missing_a_game_inside_its_range_is_damaged(damaged):
    """Its first and last games are the plan's and its checksum matches (written by
    fcsim's own encoder): only the row count tells that a game is missing."""
    path = damaged / "part-000001.parquet"  # games 10 to 19, two seats each
    table = pq.read_table(path)
    path.write_bytes(fmt.encode(table.filter(pc.not_equal(table["game"], 15))))
    problem = only_problem(damaged)
    assert (problem.path, problem.kind) == (path, "damaged")
    assert problem.reason == "18 rows, not 20"


def test_chunks_beyond_the_plan_and_odd_names_are_stray(damaged):
    """Another spelling of a chunk's name too: it was taken for that chunk, one of the two
    files went unchecked, and reading the folder counted its games twice."""
    shutil.copy(damaged / "part-000003.parquet", damaged / "part-000042.parquet")
    shutil.copy(damaged / "part-000003.parquet", damaged / "part-3 (copy).parquet")
    shutil.copy(damaged / "part-000003.parquet", damaged / "part-0000003.parquet")
    check = fmt.check_folder(damaged, run_of(damaged))
    assert [(p.path.name, p.kind) for p in check.problems] == [
        ("part-0000003.parquet", "stray"), ("part-000042.parquet", "stray"),
        ("part-3 (copy).parquet", "stray")]
    assert "the run has 12 chunks" in check.problems[1].reason
    assert sorted(check.chunks) == list(range(12))


def test_a_known_chunk_is_not_read_again(reference, monkeypatch):
    first = fmt.check_folder(reference, run_of(reference))
    monkeypatch.setattr(fmt.Path, "read_bytes", lambda self: pytest.fail("read again"))
    again = fmt.check_folder(reference, run_of(reference), first.chunks)
    assert again.chunks == first.chunks


def test_metadata_of_another_format_is_one_clear_error(tmp_path):
    meta = {"rules": {"players": 4, "rounds": 11}, "seed": 1}  # what fcsim 0.1 wrote
    pq.write_table(pa.table({"game": [0]}).replace_schema_metadata(
        {"fcsim": json.dumps(meta)}), tmp_path / "part-000000.parquet")
    with pytest.raises(fmt.FormatVersionError, match="run format 1, this fcsim reads format 2"):
        fmt.read_metadata(tmp_path)


def _edit_manifest(folder, edit) -> None:
    manifest = folder / fmt.MANIFEST
    table = pq.read_table(manifest)
    meta = json.loads(table.schema.metadata[fmt.METADATA_KEY])
    edit(meta)
    pq.write_table(table.replace_schema_metadata({fmt.METADATA_KEY: json.dumps(meta)}),
                   manifest)


@pytest.mark.parametrize("edit, message", [
    (lambda meta: meta.update(chunk_size=0), "chunk size must be 1 to 100,000 games, not 0"),
    (lambda meta: meta.update(games=120.0), "games must be 1 to .*, not 120.0"),
    (lambda meta: meta.update(games="many"), "games must be 1 to .*, not 'many'"),
    (lambda meta: meta.pop("chunk_size"), "chunk size must be 1 to .*, not None"),
])
def test_a_manifest_with_sizes_no_run_has_is_unreadable(damaged, edit, message):
    """An edited manifest is one clear error, and a folder is read by its chunks' record as
    with any unreadable manifest (it was met by a division by zero, or a TypeError)."""
    from fcsim.analysis import load_results

    _edit_manifest(damaged, edit)
    with pytest.raises(RunFolderError, match=f"_run.parquet has fcsim metadata no run can "
                                             f"have: {message}"):
        fmt.read_metadata(damaged / fmt.MANIFEST)
    assert fmt.read_metadata(damaged)["chunk_size"] == 10
    assert load_results(damaged).collect().height == 240


def test_metadata_errors_name_the_file(tmp_path):
    with pytest.raises(RunFolderError, match="no such run folder"):
        fmt.read_metadata(tmp_path / "nothing")
    with pytest.raises(RunFolderError, match=r"no part-NNNNNN\.parquet files"):
        fmt.read_metadata(tmp_path)
    (tmp_path / "part-000000.parquet").write_bytes(b"PAR1 and then nothing")
    with pytest.raises(RunFolderError, match=r"cannot read .*part-000000\.parquet as Parquet"):
        fmt.read_metadata(tmp_path)


def test_describe_problems_names_three_and_counts_the_rest(tmp_path):
    problems = [Problem(tmp_path / fmt.part_name(i), "damaged", "x") for i in range(5)]
    assert fmt.describe_problems(problems) == (
        "part-000000.parquet is damaged (x); part-000001.parquet is damaged (x); "
        "part-000002.parquet is damaged (x); and 2 more")


def test_chunk_knows_the_code_that_played_it(reference):
    chunk = fmt.check_chunk(reference / "part-000000.parquet", 0, run_of(reference))
    assert isinstance(chunk, Chunk)
    assert chunk.code.startswith("fcsim 0.1.0 (code ")


@pytest.mark.parametrize(("seating", "distinct"), [
    (["a", "b", "a", "b"], 2), (["a"] * 4, 1), (["a", "b", "c"], 3), (["a", "b"] * 3, 2),
    (["a", "b", "b"] * 2, 3), ([None, "b", None, "b"], 2), (["a", "a", "b", "b"], 4),
])
def test_distinct_rotations_is_the_seating_s_period(seating, distinct) -> None:
    from fcsim.runner.format import distinct_rotations

    assert distinct_rotations(seating) == distinct


def test_an_out_that_is_a_file_is_refused_in_one_place(tmp_path) -> None:
    """A run, a training, a search and a tournament refuse a file as --out with one
    function, each as its own kind of error."""
    (tmp_path / "taken").write_text("")
    with pytest.raises(RunFolderError, match="taken is a file, not a folder; choose another"):
        fmt.refuse_a_file(tmp_path / "taken")
    fmt.refuse_a_file(tmp_path)
    fmt.refuse_a_file(tmp_path / "new")
    assert modules_saying("is a file, not a folder") == ["fcsim/runner/format.py"]


def test_two_strategies_alternate_by_one_rule() -> None:
    """compare, a search's field, a training's check and fcsim.testing seat A, B, A, B, …
    through :func:`alternating`."""
    assert fmt.alternating("a", "b", 5) == ["a", "b", "a", "b", "a"]
    assert modules_saying("% 2 == 0 else") == ["fcsim/runner/format.py"]
