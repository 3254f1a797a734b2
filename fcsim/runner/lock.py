"""One writer per run folder: an exclusive ``flock`` on ``OUT/.fcsim.lock``.

The operating system releases the lock when its process ends, however it ends (``kill
-9`` included), so a lock left by a dead process never blocks the next run. The lock file
says who holds it (pid, host, start, command), so that a second writer can name the first.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import socket
import sys
import time
from pathlib import Path

from fcsim.errors import Fault
from fcsim.runner.format import LOCK, RunFolderError

ATTEMPTS = 5  # a reader peeking at the lock (lock_holder) holds it for a moment
RETRY_S = 0.05


class FolderBusyError(RunFolderError, Fault):
    """A run folder that another process is writing now: no fault of the input, so the
    command line shows it with exit code 1, as every :class:`~fcsim.errors.Fault`."""

    def __init__(self, folder: Path, holder: str) -> None:
        super().__init__(f"{folder} is being written by another fcsim ({holder}); wait for "
                         f"it to end, or stop it")


def _describe(data: bytes) -> str:
    try:
        who = json.loads(data)
        return (f"pid {who['pid']} on {who['host']}, since {who['started']}: "
                f"{who['command']}")
    except (ValueError, KeyError, TypeError):
        return "a process that left no name"


class FolderLock:
    """The write lock of run folder ``folder`` (which must exist)."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / LOCK
        self._fd: int | None = None

    def acquire(self) -> None:
        """Take the lock, or raise :class:`RunFolderError` naming the process holding it."""
        blocked = 0
        while True:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = os.read(fd, 4096)
                os.close(fd)
                blocked += 1
                if blocked == ATTEMPTS:
                    raise FolderBusyError(self.path.parent, _describe(holder)) from None
                time.sleep(RETRY_S)
                continue
            if _same_file(fd, self.path):
                break
            os.close(fd)  # the holder removed the file as we opened it: take the new one
        self._fd = fd
        who = {"pid": os.getpid(), "host": socket.gethostname(),
               "started": time.strftime("%Y-%m-%d %H:%M:%S"),
               "command": " ".join(["fcsim", *sys.argv[1:]]) if sys.argv else "fcsim"}
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps(who).encode(), 0)

    def release(self) -> None:
        """Remove the lock file and let go of the lock (nothing if not held)."""
        if self._fd is None:
            return
        with contextlib.suppress(OSError):
            self.path.unlink()  # while still locked: nobody takes a file about to vanish
        os.close(self._fd)
        self._fd = None


def _same_file(fd: int, path: Path) -> bool:
    try:
        return os.fstat(fd).st_ino == os.stat(path).st_ino
    except OSError:
        return False


def lock_holder(folder: Path) -> str | None:
    """Who is writing ``folder`` now (pid, host, start, command), or None if nobody is."""
    try:
        fd = os.open(folder / LOCK, os.O_RDONLY)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return _describe(os.read(fd, 4096))
    finally:
        os.close(fd)  # closing also releases a shared lock just taken
    return None
