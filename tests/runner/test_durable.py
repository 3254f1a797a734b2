"""Durable writes: a chunk and the manifest are on disk (file, then folder) before they
count as done; a failed write leaves neither the file nor its temporary."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from fcsim.runner import simulate
from fcsim.runner.durable import replace_folder, write_durably


def _record(monkeypatch) -> list[tuple[str, str]]:
    """Every fsync (of the path behind the descriptor) and rename, in order."""
    events: list[tuple[str, str]] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd):
        events.append(("fsync", os.readlink(f"/proc/self/fd/{fd}")))
        real_fsync(fd)

    def replace(src, dst):
        events.append(("rename", f"{Path(src).name} -> {Path(dst).name}"))
        real_replace(src, dst)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    return events


def test_each_file_is_on_disk_before_it_counts(small, tmp_path, monkeypatch):
    out = tmp_path / "run"
    events = _record(monkeypatch)
    simulate(out=out, workers=1, **{**small, "games": 30})
    names = ["_run.parquet", "part-000000.parquet", "part-000001.parquet",
             "part-000002.parquet"]
    for name in names:
        temp = f".{name}.tmp"
        step = events.index(("rename", f"{temp} -> {name}"))
        assert events[step - 1] == ("fsync", str(out / temp)), name  # its bytes first
        assert events[step + 1] == ("fsync", str(out)), name  # then the rename


def test_a_chunk_s_decision_file_is_in_place_before_the_chunk(small, tmp_path, monkeypatch):
    """A chunk file on disk means its decision file is too: a run stopped between the two
    writes leaves a chunk to play again, never game rows without their turns."""
    out = tmp_path / "run"
    events = _record(monkeypatch)
    simulate(out=out, workers=1, decisions=True, **{**small, "games": 20})
    for name in ("part-000000.parquet", "part-000001.parquet"):
        temp = f".{name}.tmp"
        decided = events.index(("fsync", str(out / "decisions" / temp)))
        # renamed into place and its folder flushed ...
        assert events[decided + 1 : decided + 3] == [
            ("rename", f"{temp} -> {name}"), ("fsync", str(out / "decisions"))], name
        # ... before the chunk's own bytes are written
        assert decided < events.index(("fsync", str(out / temp))), name


def test_a_new_folder_is_on_disk_in_its_parent(small, tmp_path, monkeypatch):
    events = _record(monkeypatch)
    simulate(out=tmp_path / "run", workers=1, **{**small, "games": 10})
    assert ("fsync", str(tmp_path)) in events


def test_a_failed_write_leaves_no_file(tmp_path, monkeypatch):
    def failing(fd):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "fsync", failing)
    with pytest.raises(OSError, match="Input/output error"):
        write_durably(tmp_path / "part-000000.parquet", b"data", tmp_path / ".part.tmp")
    assert list(tmp_path.iterdir()) == []


def test_a_folder_is_replaced_whole(tmp_path):
    (tmp_path / "report").mkdir()
    (tmp_path / "report" / "old.md").write_text("old")
    (tmp_path / "new").mkdir()
    (tmp_path / "new" / "new.md").write_text("new")
    replace_folder(tmp_path / "new", tmp_path / "report")
    assert [p.name for p in tmp_path.iterdir()] == ["report"]
    assert [p.name for p in (tmp_path / "report").iterdir()] == ["new.md"]
