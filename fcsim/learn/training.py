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
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fcsim import __version__
from fcsim.learn.fit import FitResult
from fcsim.learn.positions import (
    check_chunk,
    chunk_checksum,
    derive_chunk,
    identity,
    write_chunk,
)
from fcsim.runner import format as fmt
from fcsim.runner.durable import make_folder, write_durably
from fcsim.runner.plan import RunPlan
from fcsim.strategies.learned.model import Model, load_model, new_metadata

GAMES = "games"
POSITIONS = "positions"
MODEL = "model.npz"


def positions_folder(out: Path) -> Path:
    return out / POSITIONS


def derive_positions(plan: RunPlan, out: Path, share: float,
                     on_chunk: Callable[[int], None] = lambda games: None) -> list[Path]:
    """The positions chunk of every games chunk of ``out``: kept if whole and of this run,
    else derived again. ``on_chunk(games)`` hears each chunk done. Returns their paths."""
    games_dir, folder = out / GAMES, positions_folder(out)
    make_folder(folder)
    expected = identity(plan, share)
    paths = []
    for index in range(plan.chunk_count):
        games_file = games_dir / fmt.part_name(index)
        path = folder / fmt.part_name(index)
        if not (path.exists() and not isinstance(
                check_chunk(path, index, expected, games_file), str)):
            path = write_chunk(folder, index, derive_chunk(plan, index, games_file, share))
        paths.append(path)
        on_chunk(len(fmt.chunk_games(plan.games, plan.chunk_size, index)))
    return paths


def data_digest(paths: list[Path]) -> str:
    """The SHA-256 of the positions the model was fitted on (their chunks' checksums)."""
    digest = hashlib.sha256()
    for path in paths:
        digest.update(chunk_checksum(path.read_bytes()).encode())
    return digest.hexdigest()


def save_model(out: Path, result: FitResult, plan: RunPlan, share: float, hidden: int,
               paths: list[Path], command: str) -> Model:
    """Write ``out/model.npz`` durably: the arrays and their provenance."""
    metadata = new_metadata(
        fcsim_version=__version__, trained_by=command, seed=plan.seed,
        strategies=list(plan.strategies), games=plan.games, share=share, hidden=hidden,
        rules=plan.metadata()["rules"], players=[plan.players],
        data_sha256=data_digest(paths), fit=result.metrics())
    write_durably(out / MODEL, Model(result.arrays, metadata).to_bytes(),
                  out / fmt.temp_name(MODEL))
    return load_model(out / MODEL)


def provenance(model: Model) -> dict[str, Any]:
    """The metadata fields a report shows."""
    keys = ("trained_by", "seed", "strategies", "games", "share", "hidden", "players",
            "data_sha256", "fit")
    return {key: model.metadata.get(key) for key in keys}
