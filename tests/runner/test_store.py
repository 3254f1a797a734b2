"""The run folder: refusals, resume after lost chunks or an interruption, no duplicates;
resume after damaged, foreign and stray chunks, or with other code."""

from __future__ import annotations

import errno
import shutil
import tracemalloc
from dataclasses import replace
from itertools import islice

import pytest

from fcsim.core.rules import RuleSet
from fcsim.runner import RunFolder, RunFolderError, durable, execute, make_plan, simulate, store
from fcsim.runner.format import ASIDE, LOCK, MANIFEST, check_folder, part_files, read_metadata
from fcsim.runner.pool import InProcess


def plan_of(small, **changes):
    args = {**small, **changes}
    return make_plan(args["strategies"], args["rules"], args["seed"], args["games"],
                     chunk_size=args["chunk_size"], duplicate=args.get("duplicate", False),
                     seat_rotation=args.get("seat_rotation", True),
                     decisions=args.get("decisions", False))


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
    assert list(folder.missing) == [3, 11]
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
    assert list(folder.missing) == list(range(4, 12))
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


def test_a_run_with_other_deal_rotations_is_refused(small, tmp_path):
    """A duplicate run of one strategy plays each deal once; a search's candidate plays
    it in every seat (``rotations``): game g is another deal, so neither takes the other's
    folder."""
    args = {**small, "strategies": "greedy", "games": 20, "duplicate": True}
    simulate(out=tmp_path / "run", workers=1, **args)
    every_seat = make_plan("greedy", args["rules"], args["seed"], args["games"],
                           duplicate=True, chunk_size=args["chunk_size"],
                           rotations=args["rules"].players)
    for resume in (False, True):
        with pytest.raises(RunFolderError, match=r"holds a different run \(rotations 1 there"):
            RunFolder.open(tmp_path / "run", every_seat, resume=resume)


def test_a_complete_run_is_refused_without_resume(reference, small):
    with pytest.raises(RunFolderError, match=r"\(complete\); use --resume to go on from it"):
        RunFolder.open(reference, plan_of(small), resume=False)
    assert not RunFolder.open(reference, plan_of(small), resume=True).missing


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


def same_files(out, reference) -> None:
    """Every file of ``reference`` is in ``out`` byte for byte, and nothing else but the
    files set aside."""
    names = sorted(p.name for p in reference.iterdir())
    assert sorted(p.name for p in out.iterdir() if p.name != ASIDE) == names
    for name in names:
        assert (out / name).read_bytes() == (reference / name).read_bytes(), name


def copy_of(reference, tmp_path):
    out = tmp_path / "run"
    shutil.copytree(reference, out)
    return out


def test_resume_replays_a_truncated_chunk(reference, small, tmp_path):
    out = copy_of(reference, tmp_path)
    (out / "part-000001.parquet").write_bytes(b"PAR1" * 25)  # as truncate -s 100 leaves it
    with pytest.raises(RunFolderError, match=r"11 of 12 chunks done; part-000001.parquet is "
                                             r"damaged.*use --resume"):
        RunFolder.open(out, plan_of(small), resume=False)
    simulate(out=out, resume=True, workers=1, **small)
    same_files(out, reference)
    assert [p.name for p in (out / ASIDE).iterdir()] == ["part-000001.parquet.damaged"]


def test_resume_replays_a_chunk_damaged_inside(reference, small, tmp_path):
    out = copy_of(reference, tmp_path)
    data = bytearray((out / "part-000006.parquet").read_bytes())
    data[200] ^= 0x01
    (out / "part-000006.parquet").write_bytes(bytes(data))
    simulate(out=out, resume=True, workers=1, **small)
    same_files(out, reference)


def test_a_chunk_damaged_after_open_is_played_again(reference, small, tmp_path):
    """create() checks the folder again under its lock: a chunk changed since open()
    checked it (by another process, before the lock was taken) is not trusted."""
    out = copy_of(reference, tmp_path)
    folder = RunFolder.open(out, plan_of(small), resume=True)
    assert not folder.missing
    chunk = out / "part-000004.parquet"
    data = bytearray(chunk.read_bytes())
    data[200] ^= 0x01  # same size: only the file's stamp tells it changed
    chunk.write_bytes(bytes(data))
    assert [str(p) for p in folder.create()] == [
        "part-000004.parquet is damaged (its data does not match its checksum)"]
    folder.release()
    assert list(folder.missing) == [4]


def test_resume_replaces_a_chunk_of_another_run(reference, small, tmp_path):
    other = tmp_path / "other"
    simulate(out=other, workers=1, **{**small, "seed": 12})
    out = copy_of(reference, tmp_path)
    shutil.copy(other / "part-000002.parquet", out / "part-000002.parquet")
    simulate(out=out, resume=True, workers=1, **small)
    same_files(out, reference)
    assert [p.name for p in (out / ASIDE).iterdir()] == ["part-000002.parquet.foreign"]


def test_resume_sets_stray_chunks_aside(reference, small, tmp_path):
    out = copy_of(reference, tmp_path)
    shutil.copy(out / "part-000003.parquet", out / "part-000042.parquet")
    folder = RunFolder.open(out, plan_of(small), resume=True)
    assert not folder.missing and [p.kind for p in folder.problems] == ["stray"]
    simulate(out=out, resume=True, workers=1, **small)
    same_files(out, reference)


def test_resume_rewrites_a_damaged_manifest(reference, small, tmp_path):
    out = copy_of(reference, tmp_path)
    (out / MANIFEST).write_bytes(b"not parquet")
    (out / "part-000000.parquet").unlink()
    simulate(out=out, resume=True, workers=1, **small)
    same_files(out, reference)


def test_resume_with_other_code_is_refused_unless_allowed(reference, small, tmp_path):
    out = tmp_path / "run"
    old = replace(plan_of(small), code_digest="0123456789abcdef")
    folder = RunFolder.open(out, old, resume=False)
    folder.create()
    with pytest.raises(KeyboardInterrupt):
        execute(folder, InProcess(), on_chunk=lambda output: _stop_after(output, 3))
    with pytest.raises(RunFolderError, match=r"played by other code \(fcsim 0.1.0 \(code "
                                             r"0123456789abcdef\).*--allow-code-change"):
        RunFolder.open(out, plan_of(small), resume=True, allow_code_change=False)
    with pytest.raises(RunFolderError, match=r"two versions of the game in one run; choose "
                                             r"another --out$"):  # a command without the flag
        RunFolder.open(out, plan_of(small), resume=True)
    folder = RunFolder.open(out, plan_of(small), resume=True, allow_code_change=True)
    folder.create()
    execute(folder, InProcess())
    check = check_folder(out, read_metadata(out))
    assert {c.code for c in check.chunks.values()} == {old.code, plan_of(small).code}


def test_a_complete_run_by_other_code_has_nothing_to_mix(reference, small, tmp_path):
    out = copy_of(reference, tmp_path)
    other = replace(plan_of(small), code_digest="0123456789abcdef")
    assert not RunFolder.open(out, other, resume=True).missing


def _stop_after(output, count: int) -> None:
    if output.index + 1 == count:
        raise KeyboardInterrupt


def test_a_huge_run_is_planned_without_listing_its_chunks(tmp_path):
    """10**8 games in chunks of 1,000: the missing chunks are counted and listed lazily."""
    plan = make_plan("greedy,random", RuleSet(players=2), 1, 10**8, chunk_size=1000)
    tracemalloc.start()
    folder = RunFolder.open(tmp_path / "huge", plan, resume=False)
    count, first = len(folder.missing), list(islice(folder.missing, 3))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert (count, first) == (10**5, [0, 1, 2])
    assert peak < 100_000


def test_write_failures_are_one_error_and_leave_nothing(small, tmp_path, monkeypatch):
    folder = RunFolder.open(tmp_path / "run", plan_of(small), resume=False)
    folder.create()

    def full_disk(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(durable.os, "fsync", full_disk)
    with pytest.raises(RunFolderError, match=r"cannot write .*No space left on device"):
        execute(folder, InProcess())
    assert not list((tmp_path / "run").glob("part-*.parquet"))
    assert not list((tmp_path / "run").glob(".*.tmp"))
    assert not (tmp_path / "run" / LOCK).exists()


def test_a_chunk_without_its_decision_file_is_played_again(tmp_path):
    args = {"strategies": "greedy,random", "games": 20, "seed": 4,
            "rules": RuleSet(players=2, rounds=6), "chunk_size": 5, "decisions": True}
    out = tmp_path / "run"
    simulate(out=out, workers=1, **args)
    before = {i: p.stat().st_mtime_ns for i, p in part_files(out).items()}
    decided = out / "decisions"
    reference = {p.name: p.read_bytes() for p in decided.iterdir()}
    (decided / "part-000002.parquet").unlink()
    (decided / "part-000001.parquet").write_bytes(b"not parquet")
    check = check_folder(out, read_metadata(out))
    assert sorted(check.chunks) == [0, 3]
    assert [str(p) for p in check.problems] == [
        "decisions/part-000001.parquet is damaged (not a complete Parquet file: "
        "Parquet magic bytes not found in footer)"]
    simulate(out=out, resume=True, workers=1, **args)
    after = {i: p.stat().st_mtime_ns for i, p in part_files(out).items()}
    assert {i for i in after if before[i] != after[i]} == {1, 2}
    assert {p.name: p.read_bytes() for p in decided.iterdir()} == reference
    assert (out / ASIDE / "decisions-part-000001.parquet.damaged").is_file()


def test_resuming_with_another_decisions_flag_is_refused(tmp_path):
    args = {"strategies": "greedy,random", "games": 10, "seed": 4,
            "rules": RuleSet(players=2, rounds=6), "chunk_size": 5}
    simulate(out=tmp_path / "with", workers=1, decisions=True, **args)
    simulate(out=tmp_path / "without", workers=1, **args)
    with pytest.raises(RunFolderError, match=r"^\S+ holds this run with decision rows: resume "
                                             r"it with --decisions, or choose another --out$"):
        RunFolder.open(tmp_path / "with", plan_of({**args}), resume=True)
    with pytest.raises(RunFolderError, match="without decision rows"):
        RunFolder.open(tmp_path / "without", plan_of({**args}, decisions=True), resume=True)


def test_a_run_stopped_before_its_first_chunk_leaves_a_folder_any_run_takes(small, tmp_path):
    """A strategy that raised in the first game, or a cluster that failed to start, leaves
    the manifest alone: the same command again, or a fixed one, runs there as in a new
    folder; once a chunk is played, the folder is that run's."""
    out = tmp_path / "run"
    stopped = RunFolder.open(out, plan_of(small), resume=False)
    stopped.create()
    stopped.release()  # stopped before its first chunk
    other = plan_of(small, seed=12)
    folder = RunFolder.open(out, other, resume=False)
    assert list(folder.missing) == list(range(other.chunk_count))
    folder.create()
    assert read_metadata(out / MANIFEST)["seed"] == 12
    folder.write_chunk(0, b"not checked here")
    folder.release()
    with pytest.raises(RunFolderError, match="holds a different run"):
        RunFolder.open(out, plan_of(small), resume=False)


@pytest.mark.parametrize(("change", "says"), [
    (lambda meta: meta.pop("seat_rotation"), "no 'seat_rotation'"),
    (lambda meta: meta["rules"].update(players=9), "players must be"),
])
def test_a_run_whose_record_this_fcsim_cannot_read_says_why(reference, tmp_path, change,
                                                           says):
    """Not "holds no fcsim run": a rule or a field of a newer fcsim, or a record damaged."""
    import json

    import pyarrow.parquet as pq

    out = tmp_path / "run"
    shutil.copytree(reference, out)
    for file in out.glob("*.parquet"):
        table = pq.read_table(file)
        meta = json.loads(table.schema.metadata[b"fcsim"])
        change(meta)
        pq.write_table(table.replace_schema_metadata(
            {**table.schema.metadata, b"fcsim": json.dumps(meta).encode()}), file)
    with pytest.raises(RunFolderError, match=rf"{out} holds a run this fcsim cannot read "
                                             rf"\({says}.*; written by fcsim "):
        store.stored_plan(out)
