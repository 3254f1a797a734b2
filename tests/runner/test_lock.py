"""One writer per run folder: a second writer is refused with one line naming the first,
and a lock left by a killed process does not block the next run."""

from __future__ import annotations

import fcntl
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from fcsim.runner import RunFolderError, simulate
from fcsim.runner.format import LOCK
from fcsim.runner.lock import FolderLock, lock_holder

HOLD = """
import sys, time
from pathlib import Path
from fcsim.runner.lock import FolderLock
FolderLock(Path(sys.argv[1])).acquire()
print("held", flush=True)
time.sleep(600)
"""


def hold_lock(folder) -> subprocess.Popen:
    """Another process holding the folder's lock, once it holds it."""
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(folder)], stdout=subprocess.PIPE,
                            text=True)
    assert proc.stdout.readline() == "held\n"
    return proc


def test_a_second_writer_is_refused_naming_the_first(small, tmp_path):
    folder = tmp_path / "run"
    folder.mkdir()
    proc = hold_lock(folder)
    try:
        with pytest.raises(RunFolderError) as caught:
            simulate(out=folder, workers=1, **small)
        message = str(caught.value)
        assert message.startswith(f"{folder} is being written by another fcsim (pid {proc.pid} ")
        assert message.endswith("; wait for it to end, or stop it")
        assert "\n" not in message
        assert lock_holder(folder).startswith(f"pid {proc.pid} on ")
        assert list(folder.iterdir()) == [folder / LOCK]  # nothing written beside it
    finally:
        proc.kill()
        proc.wait()


def test_a_killed_writer_does_not_block_the_next(small, reference, rows, tmp_path):
    folder = tmp_path / "run"
    folder.mkdir()
    proc = hold_lock(folder)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert (folder / LOCK).exists() and lock_holder(folder) is None
    simulate(out=folder, workers=1, **small)
    assert rows(folder).equals(rows(reference))
    assert not (folder / LOCK).exists()


def test_a_stale_lock_file_does_not_block(small, tmp_path):
    folder = tmp_path / "run"
    folder.mkdir()
    (folder / LOCK).write_text(json.dumps({"pid": 999999, "host": "gone", "started": "then",
                                           "command": "fcsim simulate"}))
    simulate(out=folder, workers=1, **small)
    assert not (folder / LOCK).exists()


def test_the_lock_names_its_holder_and_goes_with_it(tmp_path):
    lock = FolderLock(tmp_path)
    lock.acquire()
    try:
        who = json.loads((tmp_path / LOCK).read_text())
        assert who["pid"] == os.getpid() and who["command"].startswith("fcsim")
        other = FolderLock(tmp_path)
        start = time.monotonic()
        with pytest.raises(RunFolderError, match=f"pid {os.getpid()} on "):
            other.acquire()
        assert time.monotonic() - start < 2  # it does not wait long
    finally:
        lock.release()
    assert not (tmp_path / LOCK).exists() and lock_holder(tmp_path) is None


def test_a_lock_file_removed_as_it_is_taken_is_taken_anew(tmp_path, monkeypatch):
    """The holder lets go (removing the file) between our open and our flock: a lock on
    that removed file would keep no one out, and a third writer would get in too. The
    lock is taken on the file that is there."""
    real_flock = fcntl.flock
    released = []

    def flock_after_the_holder_lets_go(fd: int, operation: int) -> None:
        if not released:
            released.append(True)
            (tmp_path / LOCK).unlink()  # as the holder's release does
        real_flock(fd, operation)

    (tmp_path / LOCK).write_text("{}")  # the holder's file, opened before it goes
    monkeypatch.setattr(fcntl, "flock", flock_after_the_holder_lets_go)
    mine = FolderLock(tmp_path)
    mine.acquire()
    try:
        assert released
        assert lock_holder(tmp_path).startswith(f"pid {os.getpid()} on ")
        with pytest.raises(RunFolderError, match=f"pid {os.getpid()} on "):
            FolderLock(tmp_path).acquire()
    finally:
        mine.release()
