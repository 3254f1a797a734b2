"""A training folder: self-play games, the positions derived from them, the model, the report.

``DIR/games/`` is a run folder (the runner's guarantees: durable chunks, checksums, one
writer, resume); ``DIR/positions/`` one positions chunk per games chunk
(:mod:`fcsim.learn.positions`); ``DIR/model.npz`` the fitted model with its provenance;
``DIR/report.md`` and ``DIR/report.html`` what the fit and the strength check measured.
Every step after the games is a pure function of them, so ``--resume`` redoes only what
is missing or damaged.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import replace
from itertools import islice
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from fcsim._version import __version__
from fcsim.errors import differences
from fcsim.learn.fit import FitResult
from fcsim.learn.positions import (
    PositionsError,
    check_chunk,
    chunk_checksum,
    derive_chunk,
    identity,
    recorded_sampling,
    warm_positions,
    write_chunk,
)
from fcsim.learn.sampling import Sampling
from fcsim.runner import format as fmt
from fcsim.runner.plan import RunPlan
from fcsim.runner.pool import (
    IN_FLIGHT_PER_WORKER,
    on_first_compile,
    terminate_pool,
    wait_alive,
    watch_parent,
    worker_loss_named,
)
from fcsim.runner.stops import stops_left_to_parent
from fcsim.runner.store import new_folder, stored_plan, write_file
from fcsim.strategies.learned.model import DRAW, Model, load_model, new_metadata, with_table

# What a training folder holds: nothing else, so that no other folder is taken for one.
GAMES = "games"
POSITIONS = "positions"
MODEL = "model.npz"
CHECK = "check"  # the strength check's games
REPORT_MD = "report.md"
REPORT_HTML = "report.html"
ENTRIES = (GAMES, POSITIONS, MODEL, CHECK, REPORT_MD, REPORT_HTML)


def check_training_folder(out: Path) -> None:
    """Refuse (:class:`RunFolderError`) an ``out`` that is a file, or a folder holding
    anything a training does not write: another run's, or the user's own files."""
    fmt.refuse_a_file(out)
    foreign = sorted(p.name for p in out.iterdir() if p.name not in (*ENTRIES, fmt.LOCK)
                     and not fmt.is_temp(p.name)) if out.is_dir() else []
    if foreign:
        shown = ", ".join(foreign[:3]) + (", …" if len(foreign) > 3 else "")
        raise fmt.RunFolderError(f"{out} is not a training folder (it holds {shown}); choose "
                                 f"another --out")


def positions_folder(out: Path) -> Path:
    return out / POSITIONS


def derived_chunks(out: Path, plan: RunPlan) -> int:
    """How many of the training folder ``out``'s games chunks (of ``plan``) have their
    positions chunk whole and derived from them, with the sampling the chunks record."""
    paths = [positions_folder(out) / fmt.part_name(index) for index in range(plan.chunk_count)]
    sampling = next(filter(None, map(recorded_sampling, paths)), None)
    if sampling is None:
        return 0
    expected = identity(plan, sampling)
    return sum(not isinstance(check_chunk(path, index, expected,
                                          out / GAMES / fmt.part_name(index)), str)
               for index, path in enumerate(paths))


def derive_positions(plan: RunPlan, out: Path, sampling: Sampling, workers: int = 1,
                     on_chunk: Callable[[int], None] = lambda games: None,
                     on_compile: Callable[[], None] = lambda: None) -> list[Path]:
    """The positions chunk of every games chunk of ``out``: kept if whole and of this run,
    else derived again, on ``workers`` processes (this one if 1) and written here, one
    writer. ``on_chunk(games)`` hears each chunk done. The kernels are loaded (or compiled)
    here first, so the workers only load them; ``on_compile()`` is called first if anything
    has to be compiled. Returns their paths."""
    games_dir, folder = out / GAMES, positions_folder(out)
    new_folder(folder)
    expected = identity(plan, sampling)
    paths = [folder / fmt.part_name(index) for index in range(plan.chunk_count)]
    missing = []
    for index, path in enumerate(paths):
        games_file = games_dir / fmt.part_name(index)
        if path.exists() and not isinstance(check_chunk(path, index, expected, games_file),
                                            str):
            on_chunk(_chunk_games(plan, index))
        else:
            missing.append(index)
    if missing:
        with on_first_compile(on_compile):
            warm_positions(plan, sampling)
    for index, data in _derived(plan, games_dir, missing, sampling, workers):
        write_chunk(folder, index, data)
        on_chunk(_chunk_games(plan, index))
    return paths


def pooled_positions(folder: Path, plan: RunPlan, sampling: Sampling
                     ) -> tuple[list[Path], RunPlan]:
    """The positions chunks of the training folder ``folder``, to fit on beside those of
    ``plan``, and the run of its games: every chunk whole and derived from the folder's
    own games, under ``plan``'s rules (at any table size), labelled as ``sampling`` labels
    (its share may differ). Else a :class:`PositionsError` naming the folder and what is
    wrong with it."""
    pooled = stored_plan(folder / GAMES)
    if pooled is None:
        raise PositionsError(f"pooled folder {folder}: no training games in it (fcsim train "
                             f"writes them to {GAMES}/)")
    theirs, ours = replace(pooled.rules, players=plan.players).to_dict(), plan.rules.to_dict()
    differ = differences(ours, theirs, sorted(ours), repr)
    if differ:
        raise PositionsError(f"pooled folder {folder}: its games were played under other "
                             f"rules ({'; '.join(differ)})")
    paths = [positions_folder(folder) / fmt.part_name(index)
             for index in range(pooled.chunk_count)]
    recorded = recorded_sampling(paths[0]) or sampling  # None: refused below, unreadable
    if (recorded.labels, recorded.rows_per_position) != (sampling.labels,
                                                         sampling.rows_per_position):
        raise PositionsError(f"pooled folder {folder}: its positions are not labelled as this "
                             f"run's (labels and candidates: {recorded.labels}, "
                             f"{recorded.candidates} there, {sampling.labels}, "
                             f"{sampling.candidates} here)")
    expected = identity(pooled, recorded)
    for index, path in enumerate(paths):
        problem = check_chunk(path, index, expected, folder / GAMES / fmt.part_name(index))
        if isinstance(problem, str):
            raise PositionsError(f"pooled folder {folder}: {problem} (complete it with its own "
                                 f"fcsim train command and --resume)")
    return paths, pooled


def _chunk_games(plan: RunPlan, index: int) -> int:
    return len(fmt.chunk_games(plan.games, plan.chunk_size, index))


def _derived(plan: RunPlan, games_dir: Path, indices: list[int], sampling: Sampling,
             workers: int) -> Iterator[tuple[int, bytes]]:
    """``(index, chunk bytes)`` for each of ``indices``, as they are derived; at most
    IN_FLIGHT_PER_WORKER chunks per worker in flight, so memory stays flat."""
    def job(index: int) -> tuple:
        return plan, index, games_dir / fmt.part_name(index), sampling

    if workers <= 1 or len(indices) <= 1:
        for index in indices:
            yield index, derive_chunk(*job(index))
        return
    pending = iter(indices)
    pool = ProcessPoolExecutor(min(workers, len(indices)), mp_context=get_context("spawn"),
                               initializer=watch_parent, initargs=(os.getpid(),))
    running: dict[Future, int] = {}

    def submit(count: int) -> None:
        for index in islice(pending, count):
            running[pool.submit(derive_chunk, *job(index))] = index

    finished = False
    try:
        with worker_loss_named():
            with stops_left_to_parent():  # the workers start now, inheriting SIG_IGN
                submit(workers * IN_FLIGHT_PER_WORKER)
            while running:
                done, _ = wait_alive(pool, running)
                for future in done:
                    submit(1)
                    yield running.pop(future), future.result()
        finished = True
    finally:
        if finished:
            pool.shutdown()
        else:  # an error or Ctrl-C: the chunks in flight are dropped, the written kept
            terminate_pool(pool)


def data_digest(paths: list[Path]) -> str:
    """The SHA-256 of the positions the model was fitted on (their chunks' checksums)."""
    digest = hashlib.sha256()
    for path in paths:
        digest.update(chunk_checksum(path.read_bytes()).encode())
    return digest.hexdigest()


def save_model(out: Path, result: FitResult, plan: RunPlan, sampling: Sampling,
               hidden: int, paths: list[Path], command: str,
               draw: FitResult | None = None, pooled_players: Sequence[int] = (),
               tables: Sequence[Path] = ()) -> Model:
    """Write ``out/model.npz`` durably: the discard network's arrays (and the ``draw``
    network's, if fitted) and their provenance; ``paths`` are all the positions fitted on,
    ``pooled_players`` the table sizes of pooled folders' games, ``tables`` model files
    whose networks it plays at their own table size (:func:`with_table`)."""
    arrays = dict(result.arrays)
    drawn: dict[str, Any] = {}
    if draw is not None:
        arrays.update({DRAW + name: value for name, value in draw.arrays.items()})
        drawn = {"draw_fit": draw.metrics()}
    metadata = new_metadata(
        draws=draw is not None,
        fcsim_version=__version__, trained_by=command, seed=plan.seed,
        strategies=list(plan.strategies), games=plan.games, **sampling.as_dict(),
        inputs=result.inputs, hidden=hidden,
        rules=plan.metadata()["rules"], players=sorted({plan.players, *pooled_players}),
        data_sha256=data_digest(paths), fit=result.metrics(), **drawn)
    model = Model(arrays, metadata)
    for table in tables:
        model = with_table(model, load_model(table), str(table))
    write_file(out / MODEL, model.to_bytes())
    return load_model(out / MODEL)


def provenance(model: Model) -> dict[str, Any]:
    """The metadata fields a report shows."""
    keys = ("trained_by", "seed", "strategies", "games", "share", "labels", "candidates",
            "inputs", "hidden", "players", "data_sha256", "fit", "draw_fit")
    tables = {seats: {key: table.get(key) for key in ("trained_by", "data_sha256")}
              for seats, table in model.metadata.get("tables", {}).items()}
    return {**{key: model.metadata.get(key) for key in keys}, "tables": tables or None}
