"""Open run folders written by ``fcsim simulate``: a lazy polars scan of their checked
chunks, the run metadata, and a long (one row per round) view of the per-round columns.

Every chunk is checked first (:func:`fcsim.runner.format.check_folder`: complete, this
run's, its checksum, rows and games as planned), and runs that hold the same games are
not combined, so that nothing damaged, foreign or counted twice reaches a statistic.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl

from fcsim.runner import format as fmt
from fcsim.runner.format import (
    BASE_COLUMNS,
    ROUND_FAMILIES,
    RunFolderError,
    read_metadata,
    result_schema,
    short_record,
    source_identity,
)

if TYPE_CHECKING:
    import pandas as pd

PathLike = str | Path

__all__ = ["BASE_COLUMNS", "ROUND_FAMILIES", "CheckedRun", "RunFolderError", "as_listed",
           "check_run", "distinct_games", "game_keys", "load_results", "long_rounds",
           "mixed_sources", "read_metadata", "result_schema", "rounds_of", "run_names"]


@dataclass(frozen=True)
class CheckedRun:
    """A run folder whose chunks all passed their checks."""

    folder: Path
    meta: dict[str, Any]
    chunks: dict[int, fmt.Chunk]

    @property
    def files(self) -> list[Path]:
        """The chunk files, in chunk order."""
        return [c.path for c in self.chunks.values()]

    def game_spans(self) -> list[range]:
        """The games present, as maximal runs of consecutive games."""
        spans: list[range] = []
        for chunk in self.chunks.values():
            if spans and spans[-1].stop == chunk.games.start:
                spans[-1] = range(spans[-1].start, chunk.games.stop)
            else:
                spans.append(chunk.games)
        return spans


def check_run(path: PathLike) -> CheckedRun:
    """Check run folder ``path`` and every chunk in it; :class:`RunFolderError` naming the
    first file that fails (damaged, foreign or stray) and what to do."""
    folder = Path(path)
    if folder.exists() and not folder.is_dir():
        raise RunFolderError(f"not a run folder (expected a folder of part files): {folder}")
    meta = read_metadata(folder)
    check = fmt.check_folder(folder, meta)
    if check.problems:
        raise RunFolderError(f"{folder}: {fmt.describe_problems(check.problems)}; repair it "
                             f"with its fcsim simulate command and --resume (fcsim info "
                             f"{folder} prints it)")
    if not check.chunks:
        raise RunFolderError(f"no finished chunks in {folder} yet")
    return CheckedRun(folder=folder, meta=meta, chunks=check.chunks)


def _check_same_rules(runs: Sequence[CheckedRun]) -> None:
    def compared(run: CheckedRun) -> dict[str, Any]:
        return {k: v for k, v in run.meta["rules"].items() if k not in fmt.NOT_A_RULE}

    first = compared(runs[0])
    for run in runs[1:]:
        rules = compared(run)
        diff = [k for k in sorted(first.keys() | rules.keys()) if first.get(k) != rules.get(k)]
        if diff:
            k = diff[0]
            raise RunFolderError(
                f"runs have different rules and cannot be combined: {runs[0].folder.name} has "
                f"{k}={first.get(k)!r}, {run.folder.name} has {k}={rules.get(k)!r}"
            )


def _same_games(a: CheckedRun, b: CheckedRun) -> range | None:
    """The first games that runs of one layout (seed, strategies, format and seat
    rotation alike: game g of one is game g of the other) both hold, or None."""
    for x in a.game_spans():
        for y in b.game_spans():
            low, high = max(x.start, y.start), min(x.stop, y.stop)
            if low < high:
                return range(low, high)
    return None


def _seated(strategies: Sequence[str], rotation: int) -> list[str]:
    """The strategy at each seat of a game played at ``rotation`` (as the runner seats)."""
    return [strategies[(seat + rotation) % len(strategies)] for seat in range(len(strategies))]


def _deals_at(run: CheckedRun, rotation: int) -> list[range]:
    """The deals (the seed index of a game: its deal in the duplicate format, else the
    game) whose game at ``rotation`` the run holds."""
    players = len(run.meta["strategies"])
    spans = run.game_spans()
    if run.meta["duplicate"]:  # game = deal * rotations + rotation
        played = fmt.deal_rotations(run.meta)
        if rotation >= played:  # a rotation that repeats another's games: not played
            return []
        return [range(-(-(s.start - rotation) // played), -(-(s.stop - rotation) // played))
                for s in spans]
    if not run.meta["seat_rotation"]:  # every game at rotation 0
        return spans if rotation == 0 else []
    return [range(s.start + (rotation - s.start) % players, s.stop, players) for s in spans]


def _game_of(run: CheckedRun, deal: int, rotation: int) -> int:
    return deal * fmt.deal_rotations(run.meta) + rotation if run.meta["duplicate"] else deal


def _first_common(x: range, y: range, period: int) -> int | None:
    """The least number in both ``x`` and ``y`` (steps 1 or ``period``), or None."""
    low = max(x.start, y.start)
    for value in range(low, min(x.stop, y.stop, low + period)):
        if value in x and value in y:
            return value
    return None


def _shared_games(a: CheckedRun, b: CheckedRun) -> tuple[int, int] | None:
    """A game of ``a`` and one of ``b`` that are the same game — the same deal (root seed
    and seed index) with the same strategy at every seat — whatever the runs' formats,
    seat rotations or listed orders; None if they share none."""
    sa, sb = a.meta["strategies"], b.meta["strategies"]
    if a.meta["seed"] != b.meta["seed"] or len(sa) != len(sb):
        return None
    for ra in range(len(sa)):
        for rb in range(len(sb)):
            if _seated(sa, ra) != _seated(sb, rb):
                continue
            for x in _deals_at(a, ra):
                for y in _deals_at(b, rb):
                    deal = _first_common(x, y, len(sa))
                    if deal is not None:
                        return _game_of(a, deal, ra), _game_of(b, deal, rb)
    return None


def _check_distinct_games(runs: Sequence[CheckedRun]) -> None:
    """Refuse runs that hold the same games: each would count twice."""
    for i, a in enumerate(runs):
        for b in runs[i + 1:]:
            seed = a.meta["seed"]
            same = None if fmt.run_differences(a.meta, b.meta, fmt.GAMES) else _same_games(a, b)
            if same is not None:
                raise RunFolderError(
                    f"{a.folder} and {b.folder} hold the same games (seed {seed}, games "
                    f"{same.start:,} to {same.stop - 1:,} in both): they would count twice; "
                    f"give each game once")
            shared = _shared_games(a, b)
            if shared is not None:
                raise RunFolderError(
                    f"{a.folder} and {b.folder} hold the same games (seed {seed}: game "
                    f"{shared[0]:,} of the first is game {shared[1]:,} of the second, the "
                    f"same deal with the same seats): they would count twice; give each "
                    f"game once")


def run_names(paths: Sequence[PathLike]) -> list[str]:
    """The ``run`` label of each folder: its name, or its full path when names collide."""
    folders = [Path(p) for p in paths]
    names = [f.name for f in folders]
    return names if len(set(names)) == len(names) else [str(f) for f in folders]


def mixed_sources(paths: Sequence[PathLike]) -> list[str]:
    """For each model file or plug-in code the runs at ``paths`` recorded differently
    (:data:`~fcsim.runner.format.SOURCES`: one spec, another player; a file of the same
    content read from another path is the same), a phrase naming each version's digest and
    the runs that played it, and that their games count as one strategy's."""
    played: dict[str, dict[str, tuple[str, list[str]]]] = {}
    for name, path in zip(run_names(paths), paths, strict=True):
        for key, record in read_metadata(path).get(fmt.SOURCES, {}).items():
            version = played.setdefault(key, {}).setdefault(source_identity(record),
                                                            (record, []))
            version[1].append(name)
    return [f"{key} differs across the runs: " + "; ".join(
                f"{short_record(record)} in {', '.join(runs)}"
                for record, runs in versions.values()) + ": pooled as one strategy"
            for key, versions in sorted(played.items()) if len(versions) > 1]


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

    Every chunk is checked first (:func:`check_run`); a duplicate run's games are each
    counted once (:func:`distinct_games`). Several folders must share their
    rules and hold different games; a ``run`` column (the folder name) then tells them
    apart, and ``(run, game)`` identifies a game. ``pandas=True`` collects the rows into a
    pandas DataFrame instead (fine for small runs; large ones want the lazy frame).
    """
    runs = [check_run(f) for f in _as_list(paths)]
    _check_same_rules(runs)
    _check_distinct_games(runs)
    scans = [distinct_games(pl.scan_parquet(run.files), run.meta) for run in runs]
    if len(scans) == 1:
        lf = scans[0]
    else:
        names = run_names([run.folder for run in runs])
        lf = pl.concat([s.with_columns(run=pl.lit(name))
                        for s, name in zip(scans, names, strict=True)], how="vertical")
    return lf.collect().to_pandas() if pandas else lf


def distinct_games(scan: pl.LazyFrame, meta: dict[str, Any]) -> pl.LazyFrame:
    """A duplicate run's rows (game or decision rows) without the rotations that repeat
    another's games (A, B, A, B at 4 seats plays each of its 2 distinct games twice):
    counted twice, they would make every interval over games √2 too narrow. A deal's
    per-rotation means, and so every paired comparison, are the same with them or
    without."""
    if not meta.get("duplicate"):
        return scan
    distinct = fmt.distinct_rotations(meta["strategies"])
    if distinct == len(meta["strategies"]):
        return scan
    return scan.filter(pl.col("rotation") < distinct)


def as_listed(frame: pl.LazyFrame) -> pl.LazyFrame:
    """``frame`` with each strategy named as listings name it: a strategy that sees hidden
    cards marked ``(analysis only)`` (:func:`fcsim.strategies.display_name`), so every
    table and chart made from it labels the references."""
    from fcsim.strategies import display_name  # the registry, asked only for names

    specs = frame.select(pl.col("strategy").unique().cast(pl.String)).collect().to_series()
    names = {spec: display_name(spec) for spec in specs}
    if all(spec == name for spec, name in names.items()):
        return frame
    return frame.with_columns(pl.col("strategy").cast(pl.String).replace(names)
                              .cast(pl.Categorical))


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
