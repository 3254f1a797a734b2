"""Writes that survive a crash or a power cut: a file is complete on disk, under its final
name, or absent — never half written, never renamed before its bytes are on disk.

A file is written under a temporary name, flushed to disk (``fsync``), renamed into place,
and then its folder is flushed too, so that the rename itself is on disk before the write
counts as done. A folder (a report) is replaced whole, by two renames.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from pathlib import Path

from fcsim.runner.stops import stops_deferred


def sync_folder(folder: Path) -> None:
    """Flush ``folder``'s entries (names created, renamed or removed) to disk."""
    fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_durably(path: Path, data: bytes, temp: Path) -> None:
    """Write ``data`` to ``path`` through the temporary file ``temp`` (same folder); on an
    error the temporary file is removed and ``path`` is untouched."""
    try:
        with open(temp, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            temp.unlink()
        raise
    sync_folder(path.parent)


def move_durably(source: Path, target: Path) -> None:
    """Rename ``source`` to ``target`` (same file system) and flush both folders."""
    os.replace(source, target)
    sync_folder(target.parent)
    if source.parent != target.parent:
        sync_folder(source.parent)


def make_folder(folder: Path) -> None:
    """Create ``folder`` (and its parents) and flush the parent's entry of it."""
    if folder.is_dir():
        return
    folder.mkdir(parents=True, exist_ok=True)
    sync_folder(folder.parent)


def replace_folder(new: Path, target: Path) -> None:
    """Put folder ``new`` in the place of folder ``target`` (same file system): at every
    moment ``target`` is the old folder, the new one or absent, never a mix of the two.
    Ctrl-C and SIGTERM wait until the old folder is gone."""
    old = target.with_name(f".{target.name}.old-{os.getpid()}")
    with stops_deferred():
        if target.exists():
            os.replace(target, old)
        os.replace(new, target)
        sync_folder(target.parent)
        shutil.rmtree(old, ignore_errors=True)
