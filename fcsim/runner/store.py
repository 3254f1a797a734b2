"""The run folder as a writer sees it: which run it holds, which chunks are done, which
are damaged, and writing the rest — one writer at a time, every write durable.

The files and their checks are those of :mod:`fcsim.runner.format`. :meth:`RunFolder.open`
only reads; :meth:`RunFolder.create` takes the folder's lock, checks it again, moves every
damaged, foreign or stray chunk file aside (into ``_aside/``, to be played again) and
writes the manifest.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

from fcsim.runner import format as fmt
from fcsim.runner.durable import make_folder, move_durably, write_durably
from fcsim.runner.format import FolderCheck, Problem, RunFolderError, WriteError
from fcsim.runner.lock import FolderBusyError, FolderLock, lock_holder
from fcsim.runner.plan import PlanError, RunPlan
from fcsim.runner.stops import stops_deferred
from fcsim.runner.table import manifest_bytes


def write_file(target: Path, data: bytes) -> None:
    """Write ``target`` durably and atomically, through its temporary name; a
    :class:`WriteError` naming the file if it cannot be written (a full disk)."""
    temp = target.with_name(fmt.temp_name(target.name))
    try:
        write_durably(target, data, temp)
    except OSError as err:
        raise WriteError(f"cannot write {temp}: {err.strerror}") from None


def unwritable(path: Path, err: OSError) -> WriteError:
    """The :class:`WriteError` of folder ``path``, which the system refused (``err``)."""
    return WriteError(f"cannot write to {path}: {err.strerror}")


def new_folder(path: Path) -> None:
    """Make folder ``path`` durably if it is missing; a :class:`WriteError` naming it if it
    cannot be made."""
    try:
        make_folder(path)
    except OSError as err:
        raise unwritable(path, err) from None


def stored_plan(path: Path) -> RunPlan | None:
    """The run recorded in folder ``path`` (manifest, else a chunk), or None if it holds
    none; :class:`RunFolderError` for a run of another run format, or one whose record
    this fcsim cannot read (a rule it does not know, a field missing)."""
    try:
        metadata = fmt.read_metadata(path)
    except fmt.FormatVersionError:
        raise
    except RunFolderError:
        return None
    if not isinstance(metadata, dict):
        return None
    try:
        return RunPlan.from_metadata(metadata)
    except KeyError as err:
        problem = f"no {err.args[0]!r}"
    except (TypeError, ValueError, PlanError) as err:
        problem = str(err).splitlines()[0] if str(err) else type(err).__name__
    raise RunFolderError(f"{path} holds a run this fcsim cannot read ({problem}; written by "
                         f"{fmt.code_of(metadata)})")


def stored_totals(path: Path, plan: RunPlan, game: int) -> list[int] | None:
    """Game ``game``'s totals per seat as the run in folder ``path`` recorded them, or
    None if its chunk is not there (not played yet, or unreadable)."""
    import pyarrow.parquet as pq

    chunk = path / fmt.part_name(game // plan.chunk_size)
    try:
        rows = pq.read_table(chunk, columns=["game", "seat", "total"],
                             filters=[("game", "=", game)]).to_pylist()
    except (OSError, ValueError):  # absent, damaged: nothing to compare with
        return None
    return [row["total"] for row in sorted(rows, key=lambda row: row["seat"])] or None


class MissingChunks:
    """The indices of the chunks still to play, in order, listed lazily (a run may have
    billions of chunks)."""

    def __init__(self, count: int, present: frozenset[int]) -> None:
        self._count = count
        self._present = present

    def __len__(self) -> int:
        return self._count - len(self._present)

    def __iter__(self) -> Iterator[int]:
        return (i for i in range(self._count) if i not in self._present)


class RunFolder:
    """An output folder checked for ``plan``: the chunks it holds and the problems found.

    Use :meth:`open` (reads only), then :meth:`create` before writing;
    :func:`fcsim.runner.run.execute` writes the missing chunks and releases the folder.
    """

    def __init__(self, path: Path, plan: RunPlan, check: FolderCheck, resume: bool,
                 allow_code_change: bool | None) -> None:
        self.path = path
        self.plan = plan
        self.check = check
        self._resume = resume
        self._allow_code_change = allow_code_change
        self._present = set(check.chunks)
        self._lock = FolderLock(path)

    @classmethod
    def open(cls, path: Path, plan: RunPlan, resume: bool,
             allow_code_change: bool | None = None) -> RunFolder:
        """Check that ``plan`` may write to ``path``; raise :class:`RunFolderError` if not.

        A folder holding this run is refused without ``resume``; with it, a folder whose
        chunks were played by other code is refused unless ``allow_code_change`` (None: the
        command offers no ``--allow-code-change``, and its refusal does not name it).
        """
        holder = lock_holder(path) if path.is_dir() else None
        if holder is not None:
            raise FolderBusyError(path, holder)
        check, plan = _inspect(path, plan, resume, allow_code_change, {})
        return cls(path, plan, check, resume, allow_code_change)

    @property
    def present(self) -> frozenset[int]:
        """Indices of the chunks that are done (checked, or written here)."""
        return frozenset(self._present)

    @property
    def problems(self) -> list[Problem]:
        """Chunk files found damaged, foreign or stray (set aside by :meth:`create`)."""
        return self.check.problems

    @property
    def missing(self) -> MissingChunks:
        """The chunks still to play."""
        return MissingChunks(self.plan.chunk_count, self.present)

    def done_files(self) -> dict[int, Path]:
        """The files of the chunks that are done, by index."""
        return {i: self.path / fmt.part_name(i) for i in sorted(self._present)}

    @property
    def done_games(self) -> int:
        """Games in the chunks that are done."""
        return sum(len(self.plan.chunk_games(i)) for i in self._present)

    def create(self) -> list[Problem]:
        """Take the folder for writing: make it, lock it, check it again, move its problem
        files aside and drop temporary files of an interrupted run, write the manifest.

        Returns the problems moved aside. Raises :class:`RunFolderError` if another process
        is writing the folder or it cannot be written.
        """
        try:
            make_folder(self.path)
            self._lock.acquire()
        except OSError as err:
            raise unwritable(self.path, err) from None
        try:
            self.check, self.plan = _inspect(self.path, self.plan, self._resume,
                                             self._allow_code_change, self.check.chunks)
            self._present = set(self.check.chunks)
            for problem in self.check.problems:
                self._set_aside(problem)
            for entry in [*self.path.iterdir(), *self._decision_files()]:
                if fmt.is_temp(entry.name):
                    entry.unlink()
            if not self.check.chunks or not _readable(self.path / fmt.MANIFEST):
                self._write(fmt.MANIFEST, manifest_bytes(self.plan))  # this run's, if none played
        except OSError as err:
            self.release()
            raise unwritable(self.path, err) from None
        except BaseException:
            self.release()
            raise
        return self.check.problems

    def write_chunk(self, index: int, data: bytes, decisions: bytes | None = None) -> None:
        """Store chunk ``index`` durably, its decision file first (in a run with decision
        rows); it counts as done once both are on disk (Ctrl-C and SIGTERM wait for that)."""
        if self.plan.decisions and decisions is None:
            raise ValueError(f"chunk {index} of a run with decision rows came without them")
        with stops_deferred():
            if self.plan.decisions:
                self._make_decisions_folder()
                self._write(f"{fmt.DECISIONS}/{fmt.part_name(index)}", decisions)
            self._write(fmt.part_name(index), data)
            self._present.add(index)

    def _make_decisions_folder(self) -> None:
        new_folder(self.path / fmt.DECISIONS)

    def _decision_files(self) -> list[Path]:
        folder = self.path / fmt.DECISIONS
        return list(folder.iterdir()) if folder.is_dir() else []

    def release(self) -> None:
        """Let another process write the folder (nothing if it was not taken)."""
        self._lock.release()

    def _write(self, name: str, data: bytes) -> None:
        """Write ``name`` (a path inside the folder) durably."""
        write_file(self.path / name, data)

    def _set_aside(self, problem: Problem) -> None:
        aside = self.path / fmt.ASIDE
        aside.mkdir(exist_ok=True)
        name = problem.path.name
        if problem.path.parent != self.path:  # a decision file
            name = f"{problem.path.parent.name}-{name}"
        target = aside / f"{name}.{problem.kind}"
        number = 1
        while target.exists():
            target = aside / f"{name}.{problem.kind}.{number}"
            number += 1
        move_durably(problem.path, target)


def _nothing_played(path: Path) -> bool:
    """Whether run folder ``path`` holds its manifest and nothing played (no chunk, no
    decision file, nothing set aside): a run stopped before its first chunk (a strategy
    that raised, a cluster that failed), which any run may take over."""
    for entry in path.iterdir():
        if entry.name == fmt.DECISIONS and entry.is_dir():
            if any(not fmt.is_temp(e.name) for e in entry.iterdir()):
                return False
        elif not (entry.name in (fmt.MANIFEST, fmt.LOCK) or fmt.is_temp(entry.name)):
            return False
    return True


def _readable(manifest: Path) -> bool:
    try:
        fmt.read_metadata(manifest)
    except RunFolderError:
        return False
    return True


def _inspect(path: Path, plan: RunPlan, resume: bool, allow_code_change: bool | None,
             known: dict) -> tuple[FolderCheck, RunPlan]:
    """What ``path`` holds for ``plan``, and the plan to go on with there (a run being
    resumed keeps its files' records as first written: the same bytes may be read from
    another path now); :class:`RunFolderError` if ``plan`` must not write there (see
    :meth:`RunFolder.open`)."""
    fmt.refuse_a_file(path)
    if not path.exists():
        return FolderCheck(chunks={}, problems=[]), plan
    old = stored_plan(path)
    if old is not None and _nothing_played(path):
        return FolderCheck(chunks={}, problems=[]), plan  # stopped before its first chunk
    if old is None:
        if any(not (fmt.is_temp(p.name) or p.name == fmt.LOCK) for p in path.iterdir()):
            raise RunFolderError(f"{path} is not empty and holds no fcsim run; "
                                 f"choose another --out")
        return FolderCheck(chunks={}, problems=[]), plan
    changes = plan.differences(old)
    if plan.decisions != old.decisions and len(changes) == 1:  # this run, the other rows
        raise RunFolderError(f"{path} holds this run {'with' if old.decisions else 'without'} "
                             f"decision rows: resume it {'with' if old.decisions else 'without'}"
                             f" --decisions, or choose another --out")
    if changes:
        raise RunFolderError(f"{path} holds a different run ({'; '.join(changes)}); "
                             f"choose another --out")
    check = fmt.check_folder(path, old.metadata(), known)
    if not resume:
        done = len(check.chunks)
        state = ("complete" if done == old.chunk_count
                 else f"{done:,} of {old.chunk_count:,} chunks done")
        if check.problems:
            state += f"; {fmt.describe_problems(check.problems)}"
        whole = done == old.chunk_count and not check.problems
        raise RunFolderError(f"{path} already holds this run ({state}); " + (
            "use --resume to go on from it, or choose another --out" if whole
            else "use --resume to complete it"))
    if old.chunk_size != plan.chunk_size:
        raise RunFolderError(f"{path} was written in chunks of {old.chunk_size:,} games, "
                             f"not {plan.chunk_size:,}; leave out --chunk-size")
    codes = {old.code} | {c.code for c in check.chunks.values()}
    to_play = len(check.chunks) < plan.chunk_count
    if to_play and codes != {plan.code} and not allow_code_change:
        other = ", ".join(sorted(codes - {plan.code}))
        offer = "" if allow_code_change is None else ", or give --allow-code-change to mix them"
        raise RunFolderError(f"{path} was played by other code ({other}; this is "
                             f"{plan.code}): completing it would mix two versions of the "
                             f"game in one run; choose another --out{offer}")
    return check, replace(plan, sources=old.sources)
