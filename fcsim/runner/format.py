"""The run folder's format: file names, columns and their types, the run metadata, and the
check of one chunk file. The runner writes it and the analysis layer reads it; this module
imports no numba, so reading a run never loads the engine.

Layout of a run folder ``OUT/``::

    _run.parquet                the manifest: no rows, the run's schema and metadata
    part-000000.parquet         chunk 0 (games 0 … chunk_size-1), and so on
    .part-000003.parquet.tmp    a chunk being written (renamed into place when complete)
    .fcsim.lock                 held by the one process writing the folder
    _aside/                     files ``--resume`` found damaged, foreign or stray
    decisions/part-000000.parquet   with ``--decisions``: chunk 0's turns, one row each

Every Parquet file carries the run in its schema metadata (key ``fcsim``, JSON), and a
chunk carries, in its footer, the SHA-256 of its bytes before the footer (key
``fcsim_sha256``). ``part-*.parquet`` (:data:`PART_GLOB`) selects exactly the chunks.
A run with decision rows (metadata ``decisions``) has a chunk done only when both its
files are; the decision file of chunk ``i`` holds the turns of chunk ``i``'s games, in
play order, joinable to the game rows on (game, round, seat).
"""

from __future__ import annotations

import hashlib
import io
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from numbers import Integral
from pathlib import Path
from typing import Any, TypeVar

import pyarrow as pa
import pyarrow.parquet as pq

from fcsim.core.records import RoundInfo, Score
from fcsim.errors import Fault, FcsimError, differences

FORMAT_VERSION = 2
METADATA_KEY = b"fcsim"
CHECKSUM_KEY = b"fcsim_sha256"
MANIFEST = "_run.parquet"
PART_GLOB = "part-*.parquet"
ASIDE = "_aside"
LOCK = ".fcsim.lock"
COMPRESSION = "zstd"
COMPRESSION_LEVEL = 9

_PART = re.compile(r"part-(\d{6,})\.parquet")
_TEMP = re.compile(r"\..+\.tmp")
_FOOTER_TAIL = 8  # a Parquet file ends with its footer's length (4 bytes) and b"PAR1"
SHOWN_PROBLEMS = 3  # problems named in a one-line message; the rest are counted

# Largest game count: row counts (games x 7 seats) stay exact in float64 and int64.
MAX_GAMES = 10**15
# Largest chunk: a chunk and its Parquet encoding are held in memory (~3 KB per game).
MAX_CHUNK_SIZE = 100_000

# Fields that make two runs the same run (the chunk size only splits the work, and the
# code that played it, code_of(), is checked on its own).
# (``decisions`` is recorded only when a run writes decision rows.)
# (``rotations`` is recorded only by a duplicate run that plays fewer rotations of a deal
# than it has seats: its distinct ones, see distinct_rotations.)
ROTATIONS = "rotations"
IDENTITY = ("rules", "strategies", "seed", "games", "duplicate", "seat_rotation", "decisions",
            ROTATIONS)
# Fields that make two runs play the same games (game g of one is game g of the other);
# the turn cap is a safety valve, not a rule of the game.
GAMES = ("seed", "strategies", "duplicate", "seat_rotation", ROTATIONS)
NOT_A_RULE = ("turn_cap",)

# The code from outside fcsim and the model files a run played (metadata key ``SOURCES``),
# per strategy name (a model: per ``SPEC PARAMETER``), as fcsim.runner.sources records
# them: ``file PATH sha256 DIGEST``, ``package NAME VERSION[ sha256 DIGEST]`` or ``module
# NAME[ sha256 DIGEST]``.
SOURCES = "strategy_sources"
FILE_RECORD = "file "  # how the record of a file starts
DIGEST = " sha256 "  # between what a record names and the digest of its content
SHORT_DIGEST = 12  # hex digits of a digest that messages show (short_digest)

GAME_COLUMNS = (("game", pa.int64()), ("deal", pa.int64()), ("rotation", pa.int8()),
                ("seat", pa.int8()), ("strategy", pa.dictionary(pa.int8(), pa.string())))
SEAT_COLUMNS = (("total", pa.int16()), ("place", pa.int8()), ("win", pa.bool_()))
# Per round r, a column <name>_<r> for each field of the records a game keeps per round
# (fcsim.core.records), with its name and type: per seat, then per game.
ROUND_SEAT_COLUMNS = tuple((f.column, pa.from_numpy_dtype(f.dtype)) for f in Score)
ROUND_COLUMNS = tuple((f.column, pa.from_numpy_dtype(f.dtype)) for f in RoundInfo)
# The decision rows (one per turn). Kinds are card kinds (fcsim.core.cards); source is 0
# for the stock, 1 for the discard pile; stock is its size after the draw; the penalties
# are the least penalty of the hand before the draw and of the cards kept after the
# discard; wilds (wild-rank cards) and jokers are those kept after the discard.
DECISIONS = "decisions"  # the sub-folder of the decision rows
DECISION_COLUMNS = (("game", pa.int64()), ("deal", pa.int64()), ("rotation", pa.int8()),
                    ("round", pa.int8()), ("turn", pa.int16()), ("seat", pa.int8()),
                    ("strategy", pa.dictionary(pa.int8(), pa.string())),
                    ("source", pa.int8()), ("drawn", pa.int8()), ("discard", pa.int8()),
                    ("penalty_before", pa.int16()), ("penalty_after", pa.int16()),
                    ("wilds", pa.int8()), ("jokers", pa.int8()), ("went_out", pa.bool_()),
                    ("last_turn", pa.bool_()), ("stock", pa.int16()))
BASE_COLUMNS = tuple(name for name, _ in (*GAME_COLUMNS, *SEAT_COLUMNS))
ROUND_FAMILIES = tuple(name for name, _ in (*ROUND_SEAT_COLUMNS, *ROUND_COLUMNS))


class RunFolderError(FcsimError, ValueError):
    """A folder that is not a usable run folder, or runs that cannot be combined; the
    message says why and what to do."""


class WriteError(RunFolderError, Fault):
    """A file or folder of a run that could not be written (a full disk, a folder made
    read-only): what was written before it is kept."""


class FormatVersionError(RunFolderError):
    """A run folder written in another run format (by an older or newer fcsim)."""


def refuse_a_file(out: Path, error: type[FcsimError] = RunFolderError) -> None:
    """Refuse, as ``error``, an ``--out`` that is a file: every folder fcsim writes (a run,
    a training, a search, a tournament) needs a folder there."""
    if out.exists() and not out.is_dir():
        raise error(f"{out} is a file, not a folder; choose another --out")


def result_schema(rounds: int, metadata: bytes | None = None) -> pa.Schema:
    """The Arrow schema of a run's files for games of ``rounds`` rounds (one row per game
    and seat; per round ``r`` the columns ``<family>_<r>``), with the run's JSON metadata."""
    fields = [*GAME_COLUMNS, *SEAT_COLUMNS]
    for r in range(1, rounds + 1):
        fields += [(f"{name}_{r}", kind) for name, kind in (*ROUND_SEAT_COLUMNS, *ROUND_COLUMNS)]
    return pa.schema(fields, metadata=None if metadata is None else {METADATA_KEY: metadata})


def decision_schema(metadata: bytes | None = None) -> pa.Schema:
    """The Arrow schema of a run's decision files, with the run's JSON metadata."""
    return pa.schema(DECISION_COLUMNS,
                     metadata=None if metadata is None else {METADATA_KEY: metadata})


def column_limits(column: str) -> tuple[int, int]:
    """The smallest and largest value the integer column family ``column`` holds."""
    for name, kind in (*GAME_COLUMNS, *SEAT_COLUMNS, *ROUND_SEAT_COLUMNS, *ROUND_COLUMNS):
        if name == column:
            bits = kind.bit_width
            return -(2 ** (bits - 1)), 2 ** (bits - 1) - 1
    raise KeyError(column)


def deal_rotations(meta: Mapping[str, Any]) -> int:
    """The rotations a duplicate run plays each deal in, by its metadata (every seat's,
    for a run that records none: before distinct rotations, or one with no repeats)."""
    return int(meta.get(ROTATIONS) or len(meta["strategies"]))


Seat = TypeVar("Seat")  # what sits in a seat: a spec, a Strategy, None for a candidate


def alternating(a: Seat, b: Seat, players: int) -> list[Seat]:
    """``a``, ``b``, ``a``, ``b``, … around a table of ``players`` seats: how two
    strategies meet (compare, a search's field, a training's strength check)."""
    return [a if seat % 2 == 0 else b for seat in range(players)]


def distinct_rotations(seating: Sequence[object]) -> int:
    """How many seat rotations of ``seating`` (a strategy per listed seat) differ: the
    least d > 0 that maps it onto itself. A duplicate deal played in rotation k + d is
    the very game of rotation k (the same cards, the same strategy in every seat): A, B,
    A, B has 2 distinct rotations of 4, one strategy alone 1."""
    listed = list(seating)
    return next(d for d in range(1, len(listed) + 1)
                if listed[d:] + listed[:d] == listed)


def part_name(index: int) -> str:
    """File name of chunk ``index``."""
    return f"part-{index:06d}.parquet"


def temp_name(name: str) -> str:
    """The name a file is written under before it is renamed into place."""
    return f".{name}.tmp"


def is_temp(name: str) -> bool:
    """Whether ``name`` is a file being written (or left by a writer that was stopped)."""
    return _TEMP.fullmatch(name) is not None


def chunk_games(games: int, chunk_size: int, index: int) -> range:
    """The game indices of chunk ``index`` of a run of ``games`` games."""
    start = index * chunk_size
    return range(start, min(start + chunk_size, games))


def chunk_count(games: int, chunk_size: int) -> int:
    """Number of chunks of a run (the last one may be short)."""
    return -(-games // chunk_size)


def _chunk_index(name: str) -> int | None:
    """The index of the chunk a file of this name is (:func:`part_name`'s, and no other
    spelling of it: ``part-0000001.parquet`` would be chunk 1 twice), or None."""
    match = _PART.fullmatch(name)
    return int(match.group(1)) if match and name == part_name(int(match.group(1))) else None


def part_files(folder: Path) -> dict[int, Path]:
    """The chunk files of ``folder`` by chunk index (in index order)."""
    found = {}
    for entry in folder.glob(PART_GLOB):
        index = _chunk_index(entry.name)
        if index is not None:
            found[index] = entry
    return dict(sorted(found.items()))


def odd_part_files(folder: Path) -> list[Path]:
    """Files that :data:`PART_GLOB` selects but that are no chunk's name (``part-7.parquet``,
    ``part-0000001.parquet``): what reading the folder would count besides the chunks."""
    return sorted(p for p in folder.glob(PART_GLOB) if _chunk_index(p.name) is None)


def encode(table: pa.Table) -> bytes:
    """``table`` as one Parquet file (zstd, one row group) with the SHA-256 of its data in
    its footer (:data:`CHECKSUM_KEY`)."""
    sink = io.BytesIO()
    writer = pq.ParquetWriter(sink, table.schema, compression=COMPRESSION,
                              compression_level=COMPRESSION_LEVEL)
    writer.write_table(table, row_group_size=max(table.num_rows, 1))
    with sink.getbuffer() as written:  # everything but the footer
        data_bytes, digest = len(written), hashlib.sha256(written).hexdigest()
    writer.add_key_value_metadata({CHECKSUM_KEY: digest.encode()})
    writer.close()
    data = sink.getvalue()
    if _data_end(data) != data_bytes:  # the footer is what close() wrote, nothing else
        raise AssertionError("Parquet writer wrote data after the footer's checksum")
    return data


def checksum_matches(data: bytes, stored: bytes | None) -> bool:
    """Whether ``stored`` (a footer's :data:`CHECKSUM_KEY`) is the SHA-256 of the data of
    the Parquet file ``data``."""
    return stored == hashlib.sha256(memoryview(data)[: _data_end(data)]).hexdigest().encode()


def _data_end(data: bytes) -> int:
    """Where the footer of the Parquet file ``data`` starts."""
    footer = int.from_bytes(data[-_FOOTER_TAIL:-4], "little")
    return len(data) - _FOOTER_TAIL - footer


def count_problem(what: str, value: object, most: int, unit: str = "") -> str | None:
    """Why ``value`` is not a whole number from 1 to ``most`` (``what`` names it, ``unit``
    follows the bound), or None if it is."""
    whole = isinstance(value, Integral) and not isinstance(value, bool)
    if whole and 1 <= value <= most:
        return None
    shown = f"{value:,}" if whole else repr(value)
    return f"{what} must be 1 to {most:,}{unit}, not {shown}"


def size_problems(games: object, chunk_size: object) -> list[str]:
    """What is wrong with a run's game count and chunk size (the numbers its chunks are
    cut by): each a whole number within what fcsim holds."""
    found = (count_problem("games", games, MAX_GAMES),
             count_problem("chunk size", chunk_size, MAX_CHUNK_SIZE, " games"))
    return [problem for problem in found if problem]


def parse_metadata(schema_metadata: Mapping[bytes, bytes] | None, where: Path) -> dict[str, Any]:
    """The run stored under :data:`METADATA_KEY`; :class:`RunFolderError` if there is none,
    it is not JSON, lacks the rules or a usable game count and chunk size, or is of another
    run format."""
    if not schema_metadata or METADATA_KEY not in schema_metadata:
        raise RunFolderError(f"{where} has no fcsim metadata: not written by fcsim simulate")
    try:
        meta = json.loads(schema_metadata[METADATA_KEY])
    except ValueError as err:
        raise RunFolderError(f"{where} has unreadable fcsim metadata: {err}") from None
    rules = meta.get("rules") if isinstance(meta, dict) else None
    if not isinstance(rules, dict) or not {"players", "rounds"} <= rules.keys():
        raise RunFolderError(f"{where} has fcsim metadata without its rules (players, rounds)")
    if meta.get("format") != FORMAT_VERSION:
        raise FormatVersionError(f"{where} is in run format {meta.get('format', 1)}, this fcsim "
                             f"reads format {FORMAT_VERSION}: run it again with this fcsim")
    sizes = size_problems(meta.get("games"), meta.get("chunk_size"))
    if sizes:
        raise RunFolderError(f"{where} has fcsim metadata no run can have: {sizes[0]}")
    return meta


def read_metadata(path: Path | str) -> dict[str, Any]:
    """The run metadata of a run folder (its manifest, else its first chunk) or of one of
    its files; :class:`RunFolderError` with the reason if there is none."""
    target = Path(path)
    if not target.exists():
        raise RunFolderError(f"no such run folder: {target}")
    if target.is_dir():
        candidates = [target / MANIFEST, *part_files(target).values()]
        present = [c for c in candidates if c.is_file()]
        if not present:
            raise RunFolderError(f"no part-NNNNNN.parquet files in {target}: "
                                 f"not an fcsim run folder")
        errors = []
        for file in present:
            try:
                return read_metadata(file)
            except RunFolderError as err:
                errors.append(err)
        raise errors[0]
    try:
        schema = pq.read_schema(target)
    except (pa.ArrowException, OSError) as err:
        raise RunFolderError(f"cannot read {target} as Parquet: {_first_line(err)}") from None
    return parse_metadata(schema.metadata, target)


def _first_line(err: BaseException) -> str:
    """The first sentence of an error's message."""
    text = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
    return text.split(". ")[0].rstrip(".")


def run_differences(mine: Mapping[str, Any], theirs: Mapping[str, Any],
                    fields: tuple[str, ...] = IDENTITY) -> list[str]:
    """How run ``theirs`` differs from run ``mine`` in ``fields`` (``key X there, Y here``)."""
    return differences(mine, theirs, fields, _show)


def _show(value: object) -> str:
    if isinstance(value, list | tuple):
        return ",".join(map(str, value))
    if isinstance(value, dict):
        return " ".join(f"{k}={v}" for k, v in value.items())
    return str(value)


def source_identity(record: str) -> str:
    """What makes two source records (:data:`SOURCES`) the same code or data: a file's
    digest, since the same bytes read from another path (a moved model, another checkout
    of fcsim) play the same games; else the whole record (a package's version counts)."""
    named, digest, value = record.partition(DIGEST)
    return value if digest and named.startswith(FILE_RECORD) else record


def short_digest(digest: str) -> str:
    """A digest cut as messages show it."""
    return digest[:SHORT_DIGEST]


def short_record(record: str) -> str:
    """A source record (:data:`SOURCES`) with its digest cut as messages show it."""
    named, digest, value = record.partition(DIGEST)
    return f"{named}{digest}{short_digest(value)}" if digest else record


def code_of(meta: Mapping[str, Any]) -> str:
    """The code that wrote a file, as ``fcsim VERSION (code DIGEST)``."""
    return f"fcsim {meta.get('fcsim_version')} (code {meta.get('code_digest')})"


@dataclass(frozen=True)
class Chunk:
    """A chunk file that passed :func:`check_chunk`."""

    index: int
    path: Path
    games: range
    code: str  # code_of() its metadata: the code that played it
    stamp: tuple[int, int, int]  # inode, size and modification time when it was checked


@dataclass(frozen=True)
class Problem:
    """A file in the chunks' place that must not be read: ``kind`` is ``damaged``,
    ``foreign`` (of another run) or ``stray`` (no chunk of this run's plan)."""

    path: Path
    kind: str
    reason: str

    @property
    def replayed(self) -> bool:
        """Whether the file stands for one of the run's chunks, which is then played again
        (damaged, foreign); a stray one stands for none."""
        return self.kind != "stray"

    def __str__(self) -> str:
        name = self.path.name
        if self.path.parent.name == DECISIONS:
            name = f"{DECISIONS}/{name}"
        return f"{name} is {self.kind} ({self.reason})"


def decision_file(folder: Path, index: int) -> Path:
    """The decision file of chunk ``index`` of run folder ``folder``."""
    return folder / DECISIONS / part_name(index)


def check_chunk(path: Path, index: int, run: Mapping[str, Any]) -> Chunk | Problem:
    """Check chunk file ``path`` (chunk ``index``) against the run metadata ``run``: it is
    complete Parquet whose data matches its checksum, its metadata is this run's, its rows
    and game range are the plan's, its columns are the run's. Reads the file once, decodes
    only its footer."""
    return _check_file(path, index, run, decisions=False)


def check_decisions(path: Path, index: int, run: Mapping[str, Any]) -> Chunk | Problem:
    """Check the decision file ``path`` of chunk ``index`` as :func:`check_chunk` checks a
    chunk (its row count is the turns played, so it is not checked against the plan; its
    games are within the chunk's)."""
    return _check_file(path, index, run, decisions=True)


def _check_file(path: Path, index: int, run: Mapping[str, Any], decisions: bool
                ) -> Chunk | Problem:
    players, rounds = run["rules"]["players"], run["rules"]["rounds"]
    count = chunk_count(run["games"], run["chunk_size"])
    if index >= count:
        return Problem(path, "stray", f"the run has {count:,} chunks, 0 to {count - 1:,}")
    try:
        stamp = _stamp(path)
        data = path.read_bytes()
        footer = pq.ParquetFile(pa.BufferReader(data)).metadata
    except (pa.ArrowException, OSError, ValueError) as err:
        return Problem(path, "damaged", f"not a complete Parquet file: {_first_line(err)}")
    try:
        meta = parse_metadata(footer.schema.to_arrow_schema().metadata, path)
    except RunFolderError as err:
        return Problem(path, "foreign", str(err).removeprefix(f"{path} "))
    changed = run_differences(run, meta, (*IDENTITY, "chunk_size"))
    if changed:
        return Problem(path, "foreign", "another run: " + "; ".join(changed))
    stored = (footer.metadata or {}).get(CHECKSUM_KEY)
    if not checksum_matches(data, stored):
        return Problem(path, "damaged", "its data does not match its checksum" if stored
                       else "it has no checksum")
    games = chunk_games(run["games"], run["chunk_size"], index)
    if decisions:
        return _check_decision_rows(path, index, footer, games, meta, stamp)
    if footer.num_rows != len(games) * players:
        return Problem(path, "damaged", f"{footer.num_rows:,} rows, not "
                                        f"{len(games) * players:,}")
    if _game_range(footer) != (games.start, games.stop - 1):
        low, high = _game_range(footer)
        return Problem(path, "foreign", f"games {low} to {high}, not {games.start} to "
                                        f"{games.stop - 1}")
    schema = footer.schema.to_arrow_schema().remove_metadata()
    if not schema.equals(result_schema(rounds)):
        return Problem(path, "foreign", "other columns than a run's")
    return Chunk(index=index, path=path, games=games, code=code_of(meta), stamp=stamp)


def _check_decision_rows(path: Path, index: int, footer: pq.FileMetaData, games: range,
                         meta: Mapping[str, Any], stamp: tuple[int, int, int]
                         ) -> Chunk | Problem:
    low, high = _game_range(footer)
    if footer.num_rows and (low is None or low < games.start or high >= games.stop):
        return Problem(path, "foreign", f"games {low} to {high}, not within {games.start} "
                                        f"to {games.stop - 1}")
    if not footer.schema.to_arrow_schema().remove_metadata().equals(decision_schema()):
        return Problem(path, "foreign", "other columns than a run's decision rows")
    return Chunk(index=index, path=path, games=games, code=code_of(meta), stamp=stamp)


def _game_range(footer: pq.FileMetaData) -> tuple[int | None, int | None]:
    """The smallest and largest ``game`` of a file, from its footer's statistics."""
    column = footer.schema.names.index("game") if "game" in footer.schema.names else None
    lows, highs = [], []
    for g in range(footer.num_row_groups):
        stats = None if column is None else footer.row_group(g).column(column).statistics
        if stats is None or not stats.has_min_max:
            return None, None
        lows.append(stats.min)
        highs.append(stats.max)
    return (min(lows), max(highs)) if lows else (None, None)


def describe_problems(problems: list[Problem]) -> str:
    """The first problems by name, and how many more there are."""
    shown = "; ".join(str(p) for p in problems[:SHOWN_PROBLEMS])
    more = len(problems) - SHOWN_PROBLEMS
    return shown + (f"; and {more:,} more" if more > 0 else "")


@dataclass(frozen=True)
class FolderCheck:
    """The chunk files of a run folder: those that passed, and the problems."""

    chunks: dict[int, Chunk]
    problems: list[Problem]


def check_folder(folder: Path, run: Mapping[str, Any],
                 known: Mapping[int, Chunk] | None = None) -> FolderCheck:
    """Check every chunk file of ``folder`` against ``run`` (:func:`check_chunk`), and name
    the files that look like chunks but are none. ``known`` chunks whose file has the same
    size and modification time are not read again."""
    chunks, problems = _check_files(folder, run, known, check_chunk)
    if run.get(DECISIONS):
        decided, more = _check_files(folder / DECISIONS, run, None, check_decisions)
        problems += more
        chunks = {i: c for i, c in chunks.items() if i in decided}  # done: both files
    return FolderCheck(chunks=chunks, problems=sorted(problems, key=lambda p: str(p.path)))


def _check_files(folder: Path, run: Mapping[str, Any], known: Mapping[int, Chunk] | None,
                 check: Callable[[Path, int, Mapping[str, Any]], Chunk | Problem]
                 ) -> tuple[dict[int, Chunk], list[Problem]]:
    """The chunk-named files of ``folder`` that pass ``check``, and the problems."""
    chunks: dict[int, Chunk] = {}
    problems: list[Problem] = [Problem(p, "stray", "not a chunk name")
                               for p in odd_part_files(folder)]
    for index, path in part_files(folder).items():
        before = (known or {}).get(index)
        if before is not None and _unchanged(before, path):
            chunks[index] = before
            continue
        outcome = check(path, index, run)
        if isinstance(outcome, Chunk):
            chunks[index] = outcome
        else:
            problems.append(outcome)
    return chunks, problems


def _stamp(path: Path) -> tuple[int, int, int]:
    info = path.stat()
    return info.st_ino, info.st_size, info.st_mtime_ns


def _unchanged(chunk: Chunk, path: Path) -> bool:
    try:
        return _stamp(path) == chunk.stamp
    except OSError:
        return False
