"""Open run folders written by ``fcsim simulate``: a lazy polars scan, the run metadata, and a
long (one row per round) view of the per-round columns."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

METADATA_KEY = b"fcsim"
PART_GLOB = "part-*.parquet"
BASE_COLUMNS = ("game", "deal", "rotation", "seat", "strategy", "total", "place", "win")
ROUND_FAMILIES = ("penalty", "wild_pts", "joker_pts", "out_seat", "out_turn", "turns", "capped")
# The turn cap is a safety valve, not a rule of the game: runs that differ only there combine.
_NOT_COMPARED = ("turn_cap",)

if TYPE_CHECKING:
    import pandas as pd

PathLike = str | Path


class RunFolderError(ValueError):
    """A path that is not a readable fcsim run folder, or runs that cannot be combined."""


def result_schema(rounds: int) -> pa.Schema:
    """The Arrow schema of a run's Parquet files for a game of ``rounds`` rounds."""
    fields = [
        ("game", pa.int64()), ("deal", pa.int64()), ("rotation", pa.int8()), ("seat", pa.int8()),
        ("strategy", pa.dictionary(pa.int8(), pa.string())),
        ("total", pa.int16()), ("place", pa.int8()), ("win", pa.bool_()),
    ]
    per_round = {"penalty": pa.int16(), "wild_pts": pa.int16(), "joker_pts": pa.int16(),
                 "out_seat": pa.int8(), "out_turn": pa.int16(), "turns": pa.int16(),
                 "capped": pa.bool_()}
    for r in range(1, rounds + 1):
        fields += [(f"{name}_{r}", dtype) for name, dtype in per_round.items()]
    return pa.schema(fields)


def part_files(path: PathLike) -> list[Path]:
    """The sorted Parquet part files of a run folder; a clear error if there are none."""
    folder = Path(path)
    if not folder.exists():
        raise RunFolderError(f"no such run folder: {folder}")
    if not folder.is_dir():
        raise RunFolderError(f"not a run folder (expected a folder of part files): {folder}")
    files = sorted(folder.glob(PART_GLOB))
    if not files:
        raise RunFolderError(f"no part-NNNNNN.parquet files in {folder}: not an fcsim run folder")
    return files


def read_metadata(path: PathLike) -> dict[str, Any]:
    """The run metadata (rules, strategies, seed, …) stored in a run folder's Parquet files.

    ``path`` is a run folder or one of its part files."""
    target = Path(path)
    file = target if target.is_file() else part_files(target)[0]
    try:
        metadata = pq.read_schema(file).metadata or {}
    except (pa.ArrowException, OSError) as err:
        raise RunFolderError(f"cannot read {file} as Parquet: {err}") from None
    if METADATA_KEY not in metadata:
        raise RunFolderError(f"{file} has no fcsim metadata: not written by fcsim simulate")
    try:
        meta = json.loads(metadata[METADATA_KEY])
    except ValueError as err:
        raise RunFolderError(f"{file} has unreadable fcsim metadata: {err}") from None
    rules = meta.get("rules") if isinstance(meta, dict) else None
    if not isinstance(rules, dict) or not {"players", "rounds"} <= rules.keys():
        raise RunFolderError(f"{file} has fcsim metadata without its rules (players, rounds)")
    return meta


def _check_columns(folder: Path, rounds: int) -> None:
    """Every part file must be readable Parquet with the result columns of ``rounds`` rounds."""
    wanted = list(BASE_COLUMNS) + [f"{f}_{r}" for f in ROUND_FAMILIES for r in range(1, rounds + 1)]
    for file in part_files(folder):
        try:
            names = set(pq.read_schema(file).names)
        except (pa.ArrowException, OSError) as err:
            raise RunFolderError(f"cannot read {file} as Parquet: {err}") from None
        missing = [name for name in wanted if name not in names]
        if missing:
            raise RunFolderError(f"{file} lacks the result column(s) {', '.join(missing[:5])}")


def _check_same_rules(folders: Sequence[Path], metas: Sequence[dict[str, Any]]) -> None:
    first = {k: v for k, v in metas[0]["rules"].items() if k not in _NOT_COMPARED}
    for folder, meta in zip(folders[1:], metas[1:], strict=True):
        rules = {k: v for k, v in meta["rules"].items() if k not in _NOT_COMPARED}
        diff = [k for k in sorted(first.keys() | rules.keys()) if first.get(k) != rules.get(k)]
        if diff:
            k = diff[0]
            raise RunFolderError(
                f"runs have different rules and cannot be combined: {folders[0].name} has "
                f"{k}={first.get(k)!r}, {folder.name} has {k}={rules.get(k)!r}"
            )


def run_names(paths: Sequence[PathLike]) -> list[str]:
    """The ``run`` label of each folder: its name, or its full path when names collide."""
    folders = [Path(p) for p in paths]
    names = [f.name for f in folders]
    return names if len(set(names)) == len(names) else [str(f) for f in folders]


def _as_list(paths: PathLike | Sequence[PathLike]) -> list[Path]:
    if isinstance(paths, str | Path):
        return [Path(paths)]
    folders = [Path(p) for p in paths]
    if not folders:
        raise RunFolderError("no run folder given")
    seen = [f.resolve() for f in folders]
    if len(set(seen)) < len(seen):
        raise RunFolderError("the same run folder is given twice")
    return folders


def load_results(
    paths: PathLike | Sequence[PathLike], pandas: bool = False
) -> pl.LazyFrame | pd.DataFrame:
    """All game × seat rows of one or several run folders, as a lazy polars scan.

    Several folders must share their rules; a ``run`` column (the folder name) then tells
    them apart, and ``(run, game)`` identifies a game. ``pandas=True`` collects the rows
    into a pandas DataFrame instead (fine for small runs; large ones want the lazy frame).
    """
    folders = _as_list(paths)
    metas = [read_metadata(f) for f in folders]
    _check_same_rules(folders, metas)
    for folder, meta in zip(folders, metas, strict=True):
        _check_columns(folder, int(meta["rules"]["rounds"]))
    scans = [pl.scan_parquet(part_files(f)) for f in folders]
    if len(scans) == 1:
        lf = scans[0]
    else:
        lf = pl.concat(
            [s.with_columns(run=pl.lit(name)) for s, name in zip(scans, run_names(folders),
                                                                 strict=True)],
            how="vertical",
        )
    return lf.collect().to_pandas() if pandas else lf


def rounds_of(lf: pl.LazyFrame) -> int:
    """Number of rounds R in a results frame (from its ``penalty_r`` columns)."""
    names = lf.collect_schema().names()
    return sum(1 for name in names if name.startswith("penalty_"))


def game_keys(lf: pl.LazyFrame) -> list[str]:
    """The columns that identify one game: ``game``, plus ``run`` when runs are combined."""
    return ["run", "game"] if "run" in lf.collect_schema().names() else ["game"]


def long_rounds(lf: pl.LazyFrame | pl.DataFrame) -> pl.LazyFrame:
    """One row per game × seat × round: penalty, its natural / wild-rank / joker points,
    whether the seat went out, the round's turns and whether it hit the turn cap.

    The seat that went out has natural, wild and joker points of 0 (its penalty is the
    go-out bonus). The unpivot is one select per round stacked vertically, which keeps each
    column family's dtype (a generic ``unpivot`` would merge them into one value column)."""
    lf = lf.lazy()
    keys = [*game_keys(lf)[:-1], "game", "seat", "strategy"]
    frames = []
    for r in range(1, rounds_of(lf) + 1):
        went_out = pl.col(f"out_seat_{r}") == pl.col("seat")
        natural = pl.col(f"penalty_{r}") - pl.col(f"wild_pts_{r}") - pl.col(f"joker_pts_{r}")
        frames.append(lf.select(
            *keys,
            pl.lit(r, dtype=pl.Int8).alias("round"),
            pl.col(f"penalty_{r}").alias("penalty"),
            pl.when(went_out).then(0).otherwise(natural).cast(pl.Int16).alias("natural_pts"),
            pl.col(f"wild_pts_{r}").alias("wild_pts"),
            pl.col(f"joker_pts_{r}").alias("joker_pts"),
            went_out.alias("went_out"),
            pl.col(f"turns_{r}").alias("turns"),
            pl.col(f"capped_{r}").alias("capped"),
        ))
    return pl.concat(frames, how="vertical")
