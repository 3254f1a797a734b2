"""The model file ``fcsim train`` writes and ``learned`` plays: arrays plus provenance.

A model is an ``.npz`` of plain arrays — ``mean`` and ``scale`` (float64[I]: how each
input is standardised), ``w1`` (float64[I, H]), ``b1`` (float64[H]), ``w2``
(float64[H]), ``b2`` (float64[1]): a network with one hidden layer of H rectified units —
and ``metadata``, a JSON text: the format, the feature set and its names, the inputs, the
rules and table sizes it was trained on, the training data's digest, seed and fit
metrics. The inputs (:func:`~fcsim.strategies.learned.features.network_inputs`) are the
F features (``inputs`` ``features``), or those and their differences from the mean of the
position's candidates (``relative``, I = 2F).
A model may also hold a second network, for the draw: the same six arrays prefixed
``draw_`` (``draw_mean`` …), over the draw features of
:mod:`fcsim.strategies.learned.draw_features` (metadata ``draw_feature_set``); it
predicts what taking the pile's card gains over drawing from the stock. Without one,
``learned`` draws as ``expected``.
A model may also hold networks of its own for other table sizes: for a table of P seats,
the arrays above prefixed ``p{P}_`` (``p2_mean`` … ``p2_draw_b2``), with their provenance
in the metadata's ``tables`` (``{"2": {...}}``: the metadata of the model they came from).
``learned`` plays them at that table and the main networks at any other
(:func:`table_net`; :func:`with_table` adds them).
Playing it needs numpy and numba only. A file is read once per process and checked
whole; any problem is one :class:`ModelError` line naming the file.
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from fcsim.core.rules import MAX_HAND_AT_DISCARD, MAX_PLAYERS, MIN_PLAYERS
from fcsim.errors import differences
from fcsim.strategies.learned.draw_features import (
    DRAW_FEATURE_SET,
    DRAW_FEATURES,
    N_DRAW_FEATURES,
)
from fcsim.strategies.learned.features import FEATURE_SET, FEATURES, N_FEATURES
from fcsim.strategies.registry import StrategyError

MODEL_FORMAT = "fcsim-model"
MODEL_VERSION = 1
ARRAYS = ("mean", "scale", "w1", "b1", "w2", "b2")
DRAW = "draw_"  # the draw network's arrays: ARRAYS with this prefix (optional)
DRAW_ARRAYS = tuple(DRAW + name for name in ARRAYS)
MAX_HIDDEN = 1024  # a bound that keeps a corrupt header from asking for gigabytes
SMALLEST_NORMAL = np.finfo(np.float64).tiny  # below it a weight is subnormal: played as 0
FEATURES_ONLY, RELATIVE = "features", "relative"  # a model's inputs (metadata "inputs")
INPUTS = {FEATURES_ONLY: N_FEATURES, RELATIVE: 2 * N_FEATURES}
DEFAULT_MODEL = Path(__file__).with_name("default_model.npz")  # the shipped one
UNSAID_CANDIDATES = 5  # a model's candidates when its metadata does not say: the shipped one's

# A network as a flat float64 vector (how a numba decision function receives it, after
# the strategy's own parameters): I, H, relative (0 or 1), K (the candidates a position it
# was fitted on; 0 for a draw network), mean[I], scale[I], w1[I * H],
# b1[H], w2[H], b2. A table's networks are its discard network followed by its draw
# network, or by a header of zeros (H = 0) when it has none. A model's vector starts with
# a header, K then K pairs (seats, where that table's networks start), followed by the main
# networks and each table's.
TABLES = 0  # K: the tables with networks of their own
TABLE_ENTRY = 2  # a pair (seats, start) in the header
NET_INPUTS = 0
NET_HIDDEN = 1
NET_RELATIVE = 2
NET_CANDIDATES = 3
NET_ARRAYS = 4
NO_NET = np.zeros(NET_ARRAYS)


class ModelError(StrategyError):
    """A model file that cannot be played: missing, not a model, or of another shape or
    feature set (the message names the file and the problem)."""


@dataclass(frozen=True)
class Model:
    """A loaded model: its arrays, its metadata and the SHA-256 of the file's bytes."""

    arrays: dict[str, np.ndarray]
    metadata: dict[str, Any] = field(default_factory=dict)
    sha256: str = ""

    @property
    def inputs(self) -> str:
        """``features`` or ``relative`` (:data:`INPUTS`); models before it was recorded
        read the features only."""
        return self.metadata.get("inputs", FEATURES_ONLY)

    @property
    def plays_draws(self) -> bool:
        """Whether the model holds a draw network."""
        return DRAW_ARRAYS[0] in self.arrays

    @property
    def tables(self) -> tuple[int, ...]:
        """The table sizes with networks of their own (:func:`with_table`)."""
        return tuple(sorted(int(seats) for seats in self.metadata.get("tables", {})))

    def networks(self, players: int | None = None) -> tuple[dict[str, np.ndarray], str]:
        """The arrays (named as :data:`ARRAYS` and :data:`DRAW_ARRAYS`) and the inputs of
        the networks played at a table of ``players`` seats (None: the main ones)."""
        if players not in self.tables:
            return ({name: self.arrays[name] for name in (*ARRAYS, *DRAW_ARRAYS)
                     if name in self.arrays}, self.inputs)
        prefix = table_prefix(players)
        return ({name[len(prefix):]: value for name, value in self.arrays.items()
                 if name.startswith(prefix)},
                self.metadata["tables"][str(players)].get("inputs", FEATURES_ONLY))

    def candidates(self, players: int | None = None) -> int:
        """The candidates a position the discard network played at a table of ``players``
        seats (None: the main one) was fitted on."""
        metadata = (self.metadata["tables"][str(players)] if players in self.tables
                    else self.metadata)
        return int(metadata.get("candidates") or UNSAID_CANDIDATES)

    def vector(self) -> np.ndarray:
        """The networks as the decisions read them (float64): the header of the tables
        (:func:`table_net`), then for the main networks and each table's, the discard
        network and the draw network (:func:`draw_net_at`) or an empty header."""
        parts = [_table_vector(*self.networks(seats), self.candidates(seats))
                 for seats in (None, *self.tables)]
        header = [len(self.tables)]
        start = 1 + TABLE_ENTRY * len(self.tables) + len(parts[0])
        for seats, part in zip(self.tables, parts[1:], strict=True):
            header += [seats, start]
            start += len(part)
        return np.concatenate([np.array(header, np.float64), *parts])

    def to_bytes(self) -> bytes:
        """The model as an ``.npz`` file's bytes, metadata as JSON text."""
        sink = io.BytesIO()
        np.savez(sink, metadata=np.array(json.dumps(self.metadata, sort_keys=True)),
                 **self.arrays)
        return sink.getvalue()


def _table_vector(arrays: dict[str, np.ndarray], inputs: str, candidates: int) -> np.ndarray:
    """A table's discard network, then its draw network or an empty header."""
    discard = _net_vector([arrays[name] for name in ARRAYS], inputs == RELATIVE, candidates)
    draw = (_net_vector([arrays[name] for name in DRAW_ARRAYS], False, 0)
            if DRAW_ARRAYS[0] in arrays else NO_NET)
    return np.concatenate([discard, draw])


def _net_vector(arrays: list[np.ndarray], relative: bool, candidates: int) -> np.ndarray:
    """One network's arrays (in :data:`ARRAYS` order) as a flat vector with its header.

    Subnormal numbers (below the smallest normal float64, about 2.2e-308) are played as
    0: the fit's weight decay leaves them in the weights of units it let die, where they
    move no value a float64 sum can hold, yet x86 processors multiply them some hundred
    times slower than other numbers (the shipped model's forward pass took ten times
    longer with them)."""
    mean, scale, w1, b1, w2, b2 = arrays
    head = np.array([mean.shape[0], b1.shape[0], relative, candidates], np.float64)
    vector = np.concatenate([head, mean, scale, w1.ravel(), b1, w2, b2]).astype(np.float64)
    vector[np.abs(vector) < SMALLEST_NORMAL] = 0.0
    return vector


def model_path(model: str | Path) -> Path:
    """The file a ``model`` parameter names: the shipped model when it is empty."""
    return Path(model).expanduser() if str(model) else DEFAULT_MODEL


def file_sha256(path: Path) -> str:
    """The SHA-256 of a file's bytes, in hex."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def load_model(path: str | Path) -> Model:
    """The model in ``path`` (empty: the shipped one), checked whole; :class:`ModelError`
    names what is wrong.
    The file is read at every call, and checked once per process for each content (its
    SHA-256): what is played is always what a run records."""
    path = model_path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise ModelError(f"model {path}: no such file") from None
    except OSError as err:  # a folder, a file it may not read
        raise ModelError(f"model {path}: not a model file ({err.strerror})") from None
    sha256 = hashlib.sha256(data).hexdigest()
    key = (path.resolve(), sha256)
    if key not in _LOADED:
        _LOADED[key] = _load(key[0], data, sha256)
    return _LOADED[key]


_LOADED: dict[tuple[Path, str], Model] = {}  # (resolved path, SHA-256) -> the model


def _load(path: Path, data: bytes, sha256: str) -> Model:
    """The model ``data`` holds (read from ``path``, digest ``sha256``), checked whole."""
    if not zipfile.is_zipfile(io.BytesIO(data)):  # np.load would read a .npy, or unpickle
        raise ModelError(f"model {path}: not a model file (not an .npz archive)")
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as npz:
            contents = {name: npz[name] for name in npz.files}
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as err:
        raise ModelError(f"model {path}: not a model file ({str(err).splitlines()[0]})"
                         ) from None
    missing = [name for name in (*ARRAYS, "metadata") if name not in contents]
    if missing:
        raise ModelError(f"model {path}: not a model file (no {', '.join(missing)})")
    try:
        metadata = json.loads(str(contents.pop("metadata")))
    except ValueError:
        raise ModelError(f"model {path}: its metadata is not JSON") from None
    if not isinstance(metadata, dict) or metadata.get("format") != MODEL_FORMAT:
        raise ModelError(f"model {path}: not an fcsim model (format "
                         f"{metadata.get('format') if isinstance(metadata, dict) else None!r})")
    _check_provenance(path, metadata)
    arrays = _networks(path, contents, metadata, "")
    tables = metadata.get("tables", {})
    if not isinstance(tables, dict):
        raise ModelError(f"model {path}: its metadata's tables are not a mapping")
    for seats, table in tables.items():
        if seats not in {str(n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)}:
            raise ModelError(f"model {path}: a network for a table of {seats!r} seats, not "
                             f"{MIN_PLAYERS} to {MAX_PLAYERS}")
        if not isinstance(table, dict):
            raise ModelError(f"model {path}: the {seats}-player networks' metadata is not "
                             "a mapping")
        arrays.update(_networks(path, contents, table, table_prefix(int(seats))))
    stray = sorted(set(contents) - set(arrays))
    if stray:
        raise ModelError(f"model {path}: array {stray[0]} belongs to no network its "
                         "metadata declares")
    return Model(arrays, metadata, sha256)


def _check_provenance(path: Path, metadata: dict[str, Any]) -> None:
    """The metadata a run reads to warn of a model trained for another table: ``rules`` a
    mapping of rule fields, ``players`` a list of table sizes (both optional)."""
    rules = metadata.get("rules") or {}
    if not isinstance(rules, dict) or not all(isinstance(key, str) for key in rules):
        raise ModelError(f"model {path}: its metadata's rules are not a mapping of rules")
    players = metadata.get("players", [])
    if not (isinstance(players, list) and all(
            type(n) is int and MIN_PLAYERS <= n <= MAX_PLAYERS for n in players)):
        raise ModelError(f"model {path}: its metadata's players are not a list of table "
                         f"sizes ({MIN_PLAYERS} to {MAX_PLAYERS}), but {players!r}")


def table_prefix(players: int) -> str:
    """The prefix of the arrays of a table's own networks (``p2_`` for 2 seats)."""
    return f"p{players}_"


def _networks(path: Path, contents: dict[str, np.ndarray], metadata: dict[str, Any],
              prefix: str) -> dict[str, np.ndarray]:
    """The discard network named ``prefix`` + :data:`ARRAYS` and its draw network, if
    any, checked whole against ``metadata`` (their feature sets and inputs)."""
    whose = f"the {prefix[1:-1]}-player networks' " if prefix else ""
    if metadata.get("feature_set") != FEATURE_SET:
        raise ModelError(f"model {path}: {whose}feature set {metadata.get('feature_set')!r}, "
                         f"but this fcsim plays feature set {FEATURE_SET}; train it again")
    inputs = metadata.get("inputs", FEATURES_ONLY)
    if not isinstance(inputs, str) or inputs not in INPUTS:
        raise ModelError(f"model {path}: {whose}inputs {inputs!r}, not one of "
                         f"{', '.join(INPUTS)}")
    candidates = metadata.get("candidates")
    if candidates is not None and not (type(candidates) is int
                                       and 1 <= candidates <= MAX_HAND_AT_DISCARD):
        raise ModelError(f"model {path}: {whose}candidates {candidates!r}, not a count "
                         f"from 1 to {MAX_HAND_AT_DISCARD}")
    names = [prefix + name for name in ARRAYS]
    missing = [name for name in names if name not in contents]
    if missing:
        raise ModelError(f"model {path}: its networks lack {', '.join(missing)}")
    arrays = _numbers(path, contents, names)
    _check_shapes(path, arrays, prefix, INPUTS[inputs])
    draw = [prefix + name for name in DRAW_ARRAYS]
    if not any(name in contents for name in draw):
        return arrays
    missing = [name for name in draw if name not in contents]
    if missing:
        raise ModelError(f"model {path}: its draw network lacks {', '.join(missing)}")
    if metadata.get("draw_feature_set") != DRAW_FEATURE_SET:
        raise ModelError(f"model {path}: {whose}draw feature set "
                         f"{metadata.get('draw_feature_set')!r}, but this fcsim plays draw "
                         f"feature set {DRAW_FEATURE_SET}; train it again")
    drawn = _numbers(path, contents, draw)
    _check_shapes(path, drawn, prefix + DRAW, N_DRAW_FEATURES)
    return {**arrays, **drawn}


def _numbers(path: Path, contents: dict[str, np.ndarray], names: list[str]
             ) -> dict[str, np.ndarray]:
    """The arrays ``names`` of ``contents`` as float64, each checked to hold numbers."""
    arrays = {}
    for name in names:
        array = np.asarray(contents[name])
        if not (np.issubdtype(array.dtype, np.integer) or np.issubdtype(array.dtype, np.floating)):
            raise ModelError(f"model {path}: {name} holds {array.dtype} values, not numbers")
        arrays[name] = array.astype(np.float64)
    return arrays


def _check_shapes(path: Path, arrays: dict[str, np.ndarray], prefix: str, width: int
                  ) -> None:
    """Each of the network ``prefix`` + :data:`ARRAYS` of the shape ``width`` inputs
    ask for, finite, its scales positive."""
    b1 = arrays[prefix + "b1"]
    hidden = b1.shape[0] if b1.ndim == 1 else -1
    want = {"mean": (width,), "scale": (width,), "w1": (width, hidden),
            "b1": (hidden,), "w2": (hidden,), "b2": (1,)}
    for short, shape in want.items():
        name = prefix + short
        if arrays[name].shape != shape or not 1 <= hidden <= MAX_HIDDEN:
            raise ModelError(f"model {path}: {name} has shape {arrays[name].shape}, not "
                             f"{shape} ({width} inputs, 1 to {MAX_HIDDEN} hidden units)")
        if not np.isfinite(arrays[name]).all():
            raise ModelError(f"model {path}: {name} holds values that are not finite")
    if (arrays[prefix + "scale"] < SMALLEST_NORMAL).any():  # a smaller one is played as 0
        raise ModelError(f"model {path}: {prefix}scale must be positive (and a normal "
                         f"number: at least {SMALLEST_NORMAL:.1e})")


def with_table(model: Model, other: Model, name: str) -> Model:
    """``model`` with ``other``'s networks (file ``name``) as its own at the table size
    ``other`` was fitted on (:func:`table_seats`), ``other``'s metadata their provenance."""
    seats = table_seats(other, name, model.metadata.get("players", []),
                        model.metadata.get("rules") or {})
    arrays, _ = other.networks()
    prefix = table_prefix(seats)
    tables = {**model.metadata.get("tables", {}), str(seats): {
        key: value for key, value in other.metadata.items() if key not in ("format", "version")}}
    players = sorted({*model.metadata.get("players", []), seats})
    return Model({**model.arrays, **{prefix + key: value for key, value in arrays.items()}},
                 {**model.metadata, "tables": tables, "players": players})


def table_seats(other: Model, name: str, players: Sequence[int], rules: dict[str, Any]
                ) -> int:
    """The table size whose networks model ``other`` (file ``name``) gives a model fitted
    at ``players`` under ``rules``; :class:`ModelError` when ``other`` was fitted at
    several sizes or holds tables itself, at one of ``players``, or under other rules
    beyond the seats."""
    sizes = other.metadata.get("players") or []
    if len(sizes) != 1 or other.tables:
        raise ModelError(f"model {name}: fitted at table sizes {sizes}, not one: a table's "
                         "networks come from a model trained at that table alone")
    seats = sizes[0]
    if seats in players:
        raise ModelError(f"model {name}: fitted at {seats} players, where this model's own "
                         "networks were fitted too")
    theirs = {key: value for key, value in (other.metadata.get("rules") or {}).items()
              if key != "players"}
    ours = {key: value for key, value in rules.items() if key != "players"}
    if theirs != ours:
        differ = differences(ours, theirs, show=repr)
        raise ModelError(f"model {name}: trained under other rules ({'; '.join(differ)})")
    return int(seats)


def new_metadata(draws: bool = False, **provenance: Any) -> dict[str, Any]:
    """A model's metadata: the format, the feature sets (the draw's if it ``draws``), and
    ``provenance``."""
    drawn = ({"draw_feature_set": DRAW_FEATURE_SET,
              "draw_features": [name for name, _ in DRAW_FEATURES]} if draws else {})
    return {"format": MODEL_FORMAT, "version": MODEL_VERSION, "feature_set": FEATURE_SET,
            "features": [name for name, _ in FEATURES], **drawn, **provenance}


@njit(cache=True)
def table_net(net: np.ndarray, players: float) -> int:
    """Where, in a model's vector ``net`` (float64, laid out as :meth:`Model.vector`
    does), the networks played at a table of ``players`` seats start: that table's own,
    or else the main ones."""
    tables = int(net[TABLES])
    for k in range(tables):
        entry = TABLES + 1 + TABLE_ENTRY * k
        if net[entry] == players:
            return int(net[entry + 1])
    return TABLES + 1 + TABLE_ENTRY * tables


@njit(cache=True)
def draw_net_at(net: np.ndarray, at: int) -> int:
    """Where the draw network starts in ``net`` when its table's discard network starts
    at ``at`` (it follows the discard network)."""
    f = int(net[at + NET_INPUTS])
    h = int(net[at + NET_HIDDEN])
    return at + NET_ARRAYS + 2 * f + f * h + 2 * h + 1


@njit(cache=True)
def predict(x: np.ndarray, net: np.ndarray, at: int = 0) -> float:
    """The value of inputs ``x`` (float64[I]) of the network that starts at ``at`` of
    ``net`` (laid out as :meth:`Model.vector` does). Each input is standardised once and
    added row by row of ``w1`` (its weights to the H units lie side by side), so the inner
    loop runs over contiguous memory: a slice of it, which numba vectorises (three times
    faster than indexing ``net`` itself, the same sums in the same order)."""
    f = int(net[at + NET_INPUTS])
    h = int(net[at + NET_HIDDEN])
    mean = at + NET_ARRAYS
    scale = mean + f
    w1 = scale + f
    b1 = w1 + f * h
    w2 = b1 + h
    b2 = w2 + h
    z = net[b1 : b1 + h].copy()
    for i in range(f):
        xi = (x[i] - net[mean + i]) / net[scale + i]
        if xi != 0.0:
            row = net[w1 + i * h : w1 + (i + 1) * h]  # a slice: the loop is vectorised
            for j in range(h):
                z[j] += xi * row[j]
    out = net[w2 : w2 + h]
    value = net[b2]
    for j in range(h):
        if z[j] > 0.0:
            value += z[j] * out[j]
    return value
