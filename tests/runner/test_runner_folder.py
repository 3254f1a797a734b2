"""The run folder: refusals, resume after lost chunks or an interruption, no duplicates."""

from __future__ import annotations

import shutil

import pytest

from fcsim.core.rules import RuleSet
from fcsim.runner import RunFolder, RunFolderError, execute, make_plan, simulate
from fcsim.runner.pool import InProcess
from fcsim.runner.store import part_files


def plan_of(small, **changes):
    args = {**small, **changes}
    return make_plan(args["strategies"], args["rules"], args["seed"], args["games"],
                     chunk_size=args["chunk_size"], duplicate=args.get("duplicate", False),
                     seat_rotation=args.get("seat_rotation", True))


def assert_complete_and_equal(path, reference, rows):
    got = rows(path)
    assert got.select("game", "seat").is_duplicated().sum() == 0
    assert got.equals(rows(reference))


def test_resume_plays_exactly_the_deleted_chunks(reference, small, rows, tmp_path):
    out = tmp_path / "run"
    shutil.copytree(reference, out)
    (out / "part-000003.parquet").unlink()
    (out / "part-000011.parquet").unlink()
    (out / ".part-000003.parquet.tmp").write_bytes(b"half a file")
    with pytest.raises(RunFolderError, match=r"10 of 12 chunks done.*use --resume"):
        RunFolder.open(out, plan_of(small), resume=False)
    folder = RunFolder.open(out, plan_of(small), resume=True)
    assert folder.missing == [3, 11]
    before = {i: p.stat().st_mtime_ns for i, p in part_files(out).items()}
    simulate(out=out, resume=True, workers=1, **small)
    after = {i: p.stat().st_mtime_ns for i, p in part_files(out).items()}
    assert {i for i in after if before.get(i) != after[i]} == {3, 11}
    assert not (out / ".part-000003.parquet.tmp").exists()
    assert_complete_and_equal(out, reference, rows)


def test_resume_after_an_interruption(reference, small, rows, tmp_path):
    out = tmp_path / "run"
    folder = RunFolder.open(out, plan_of(small), resume=False)
    folder.create()
    written = []

    def crash_after_four(output):
        written.append(output.index)
        if len(written) == 4:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        execute(folder, InProcess(), crash_after_four)
    assert sorted(part_files(out)) == [0, 1, 2, 3]
    folder = RunFolder.open(out, plan_of(small), resume=True)
    assert folder.missing == list(range(4, 12))
    folder.create()
    execute(folder, InProcess())
    assert_complete_and_equal(out, reference, rows)


@pytest.mark.parametrize("change, shown", [
    ({"seed": 12}, "seed 11 there, 12 here"),
    ({"games": 130}, "games 120 there, 130 here"),
    ({"strategies": "random,greedy"}, "strategies greedy,random there, random,greedy here"),
    ({"rules": RuleSet(players=2, rounds=6, go_out_bonus=-10)},
     "rules .*go_out_bonus=0.* there, .*go_out_bonus=-10"),
    ({"seat_rotation": False}, "seat_rotation True there, False here"),
    ({"duplicate": True}, "duplicate False there, True here"),
])
def test_a_different_run_is_refused(reference, small, change, shown):
    for resume in (False, True):
        with pytest.raises(RunFolderError, match=f"holds a different run.*{shown}"):
            RunFolder.open(reference, plan_of(small, **change), resume=resume)


def test_a_complete_run_is_refused_without_resume(reference, small):
    with pytest.raises(RunFolderError, match=r"complete.*use --resume"):
        RunFolder.open(reference, plan_of(small), resume=False)
    assert RunFolder.open(reference, plan_of(small), resume=True).missing == []


def test_another_chunk_size_is_refused_on_resume(reference, small):
    with pytest.raises(RunFolderError, match="chunks of 10 games"):
        RunFolder.open(reference, plan_of(small, chunk_size=20), resume=True)


def test_files_and_foreign_folders_are_refused(small, tmp_path):
    (tmp_path / "file").write_text("x")
    with pytest.raises(RunFolderError, match="is a file"):
        RunFolder.open(tmp_path / "file", plan_of(small), resume=False)
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("x")
    with pytest.raises(RunFolderError, match="holds no fcsim run"):
        RunFolder.open(tmp_path / "other", plan_of(small), resume=True)
    (tmp_path / "damaged").mkdir()
    (tmp_path / "damaged" / "part-000000.parquet").write_bytes(b"not parquet")
    with pytest.raises(RunFolderError, match="holds no fcsim run"):
        RunFolder.open(tmp_path / "damaged", plan_of(small), resume=True)


def test_opening_a_folder_creates_nothing(small, tmp_path):
    RunFolder.open(tmp_path / "new", plan_of(small), resume=False)
    assert not (tmp_path / "new").exists()
