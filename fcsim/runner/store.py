"""The run folder: a manifest, one Parquet file per finished chunk, atomic writes.

Layout of ``OUT/``::

    _run.parquet           the manifest: no rows, the run's schema and metadata
    part-000000.parquet    chunk 0 (games 0 … chunk_size-1), and so on
    .part-000003.parquet.tmp   a chunk being written (renamed into place when complete)

The manifest is a Parquet file with no rows so that ``polars.scan_parquet(OUT)`` (which
wants one file extension in a folder) reads the folder as it is; ``pyarrow.dataset`` and
``pandas.read_parquet`` skip ``_`` and ``.`` names anyway.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

import pyarrow.parquet as pq

from fcsim.runner.plan import RunPlan
from fcsim.runner.table import parquet_bytes, read_run_metadata, result_schema

MANIFEST = "_run.parquet"
_PART = re.compile(r"part-(\d{6,})\.parquet")
_TEMP = re.compile(r"\..+\.tmp")


class RunFolderError(ValueError):
    """An output folder the run must not write into (the message says why and what to do)."""


def part_name(index: int) -> str:
    """File name of chunk ``index``."""
    return f"part-{index:06d}.parquet"


def part_files(path: Path) -> dict[int, Path]:
    """The chunk files in ``path`` by chunk index."""
    found = {}
    for entry in path.iterdir():
        match = _PART.fullmatch(entry.name)
        if match:
            found[int(match.group(1))] = entry
    return found


def stored_plan(path: Path) -> RunPlan | None:
    """The run recorded in folder ``path`` (manifest, else any chunk file), or None."""
    candidates = [path / MANIFEST, *sorted(part_files(path).values())]
    for candidate in candidates:
        try:
            return RunPlan.from_metadata(read_run_metadata(pq.read_schema(candidate)))
        except (OSError, ValueError, KeyError, TypeError):  # missing, damaged or foreign
            continue
    return None


@dataclass(frozen=True)
class RunFolder:
    """A checked output folder for ``plan``; :meth:`open` creates nothing."""

    path: Path
    plan: RunPlan
    present: frozenset[int]

    @classmethod
    def open(cls, path: Path, plan: RunPlan, resume: bool) -> RunFolder:
        """Check that ``plan`` may write to ``path``; raise :class:`RunFolderError` if not."""
        if path.exists() and not path.is_dir():
            raise RunFolderError(f"{path} is a file, not a folder; choose another --out")
        if not path.exists():
            return cls(path, plan, frozenset())
        old = stored_plan(path)
        if old is None:
            if any(not _TEMP.fullmatch(p.name) for p in path.iterdir()):
                raise RunFolderError(f"{path} is not empty and holds no fcsim run; "
                                     f"choose another --out")
            return cls(path, plan, frozenset())
        changes = plan.differences(old)
        if changes:
            raise RunFolderError(f"{path} holds a different run ({'; '.join(changes)}); "
                                 f"choose another --out")
        present = frozenset(i for i in part_files(path) if i < old.chunk_count)
        if not resume:
            done = len(present)
            state = ("complete" if done == old.chunk_count
                     else f"{done} of {old.chunk_count} chunks done")
            raise RunFolderError(f"{path} already holds this run ({state}); "
                                 f"use --resume to complete it")
        if old.chunk_size != plan.chunk_size:
            raise RunFolderError(f"{path} was written in chunks of {old.chunk_size:,} games, "
                                 f"not {plan.chunk_size:,}; leave out --chunk-size")
        return cls(path, plan, present)

    @property
    def missing(self) -> list[int]:
        """Indices of the chunks still to play, in order."""
        return [i for i in range(self.plan.chunk_count) if i not in self.present]

    def create(self) -> None:
        """Make the folder and its manifest; drop temporary files of an interrupted run."""
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            for entry in self.path.iterdir():
                if _TEMP.fullmatch(entry.name):
                    entry.unlink()
        except OSError as err:
            raise RunFolderError(f"cannot write to {self.path}: {err.strerror}") from None
        if not (self.path / MANIFEST).exists():
            self._write(MANIFEST, parquet_bytes(result_schema(self.plan).empty_table()))

    def write_chunk(self, index: int, data: bytes) -> None:
        """Store chunk ``index`` atomically: a temporary file renamed when complete."""
        self._write(part_name(index), data)

    def _write(self, name: str, data: bytes) -> None:
        temp = self.path / f".{name}.tmp"
        try:
            temp.write_bytes(data)
            os.replace(temp, self.path / name)
        except OSError as err:
            raise RunFolderError(f"cannot write {temp}: {err.strerror}") from None

