"""Fitting the evaluator: a small network regressed on the positions, streamed from disk.

The positions of every tenth game (``game % HELD_OUT_EVERY == 0``) are held out: the
network never trains on them, and its loss on them is reported after every epoch. The
features are standardised with the training positions' mean and spread (two streaming
passes: one for the moments, then the epochs), so no more than one chunk is in memory at
a time. The network is scikit-learn's ``MLPRegressor`` (one hidden layer of rectified
units, Adam, squared error), fed chunk by chunk with ``partial_fit``; its weights become
a :class:`~fcsim.strategies.learned.model.Model` that numba plays without scikit-learn.
The same fit, on the draw rows (``inputs`` :data:`DRAWS`), makes the model's draw network.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq

from fcsim.errors import FcsimError
from fcsim.learn.positions import (
    DRAW_FEATURE_COLUMNS,
    FEATURE_COLUMNS,
    LABEL,
    MOVE_DISCARD,
    MOVE_DRAW,
)
from fcsim.runner.stops import heed_stop
from fcsim.strategies.learned.model import FEATURES_ONLY, RELATIVE

HELD_OUT_EVERY = 10  # one game in ten is held out
BATCH = 2048  # positions per gradient step
BINS = 10  # predicted-vs-actual bins
MIN_POSITIONS = 200  # fewer training positions than this fit nothing worth playing
DRAWS = "draws"  # inputs that fit the draw network: the draw rows' features
SKLEARN_SEEDS = 2**32  # scikit-learn's random_state is below this; --seed may be up to 2**64 - 1


class FitError(FcsimError, ValueError):
    """Too few positions to fit, or no scikit-learn to fit with."""


@dataclass
class FitResult:
    """The fitted arrays and what the fit measured."""

    arrays: dict[str, np.ndarray]
    inputs: str = FEATURES_ONLY  # what the network reads (the model's metadata "inputs")
    train_loss: list[float] = field(default_factory=list)  # mean squared error per epoch
    held_out_loss: list[float] = field(default_factory=list)
    baseline_loss: float = 0.0  # held-out error of predicting the training mean
    calibration: list[tuple[float, float, int]] = field(default_factory=list)
    train_positions: int = 0
    held_out_positions: int = 0

    def metrics(self) -> dict[str, object]:
        """The numbers a model's metadata keeps."""
        return {"epochs": len(self.train_loss), "train_mse": self.train_loss[-1],
                "held_out_mse": self.held_out_loss[-1], "baseline_mse": self.baseline_loss,
                "train_positions": self.train_positions,
                "held_out_positions": self.held_out_positions}


def read_inputs(path: Path, inputs: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(inputs float64[n, I], labels float64[n], held-out mask bool[n]) of a chunk: the
    discard rows' features, and for ``relative`` inputs also their differences from the
    mean of their position's candidates (as
    :func:`~fcsim.strategies.learned.features.network_inputs` computes them at the table;
    a position's rows are consecutive); for :data:`DRAWS`, the draw rows' features."""
    move, columns = ((MOVE_DRAW, DRAW_FEATURE_COLUMNS) if inputs == DRAWS
                     else (MOVE_DISCARD, FEATURE_COLUMNS))
    table = pq.read_table(path, columns=["game", "move", "decision", *columns, LABEL])
    rows = table["move"].to_numpy() == move
    x = np.column_stack([table[name].to_numpy()[rows].astype(np.float64)
                         for name in columns]).reshape(-1, len(columns))
    y = table[LABEL].to_numpy()[rows].astype(np.float64)
    games = table["game"].to_numpy()[rows]
    held = games % HELD_OUT_EVERY == 0
    if inputs == RELATIVE:
        decisions = table["decision"].to_numpy()[rows]
        new = np.ones(len(y), bool)
        new[1:] = (games[1:] != games[:-1]) | (decisions[1:] != decisions[:-1])
        position = np.cumsum(new) - 1
        sums = np.zeros((position[-1] + 1 if len(y) else 0, len(columns)))
        np.add.at(sums, position, x)
        counts = np.bincount(position).astype(np.float64)
        x = np.hstack([x, x - (sums / counts[:, None])[position]])
    return x, y, held


def fit(files: Sequence[Path], *, seed: int, hidden: int, epochs: int,
        inputs: str = FEATURES_ONLY,
        on_epoch: Callable[[int, float, float], None] | None = None) -> FitResult:
    """Fit the network on the positions ``files`` (chunks), ``epochs`` passes, on
    ``inputs`` (``features`` or ``relative``, :data:`~fcsim.strategies.learned.model.INPUTS`;
    :data:`DRAWS` for the draw network).

    ``on_epoch(epoch, train_mse, held_out_mse)`` hears each finished epoch.
    """
    try:
        from sklearn.neural_network import MLPRegressor
    except ImportError:
        raise FitError("fitting needs scikit-learn: pip install 'fcsim[learn]'") from None
    n, total, squares, label_sum = 0, 0.0, 0.0, 0.0
    held_count = 0
    for path in files:
        x, y, held = read_inputs(path, inputs)
        train = x[~held]
        n += train.shape[0]
        held_count += int(held.sum())
        total += train.sum(axis=0)
        squares += (train ** 2).sum(axis=0)
        label_sum += y[~held].sum()
    if n < MIN_POSITIONS or held_count == 0:
        what = "draw positions" if inputs == DRAWS else "positions"
        raise FitError(f"{n:,} training and {held_count:,} held-out {what} are too few to "
                       f"fit (at least {MIN_POSITIONS:,} and 1): play more games")
    mean = total / n
    scale = np.sqrt(np.maximum(squares / n - mean ** 2, 0.0))
    scale[scale < 1e-6] = 1.0  # a constant feature: left as it is
    label_mean = label_sum / n
    net = MLPRegressor(hidden_layer_sizes=(hidden,), activation="relu", solver="adam",
                       alpha=1e-4, learning_rate_init=1e-3,
                       random_state=seed % SKLEARN_SEEDS)
    rng = np.random.default_rng(seed)
    result = FitResult({}, inputs, train_positions=n, held_out_positions=held_count)
    for epoch in range(epochs):
        sq, count = 0.0, 0
        for i in rng.permutation(len(files)):
            heed_stop()
            x, y, held = read_inputs(files[i], inputs)
            x, y = (x[~held] - mean) / scale, y[~held]
            order = rng.permutation(x.shape[0])
            for start in range(0, len(order), BATCH):
                batch = order[start : start + BATCH]
                net.partial_fit(x[batch], y[batch])
            if x.shape[0]:  # a chunk may hold held-out positions only
                sq += float(((net.predict(x) - y) ** 2).sum())
            count += x.shape[0]
        held_mse, baseline = _held_out(net, files, inputs, mean, scale, label_mean)
        result.train_loss.append(sq / count)
        result.held_out_loss.append(held_mse)
        result.baseline_loss = baseline
        if on_epoch is not None:
            on_epoch(epoch + 1, sq / count, held_mse)
    result.calibration = _calibration(net, files, inputs, mean, scale)
    result.arrays = {"mean": mean, "scale": scale, "w1": net.coefs_[0],
                     "b1": net.intercepts_[0], "w2": net.coefs_[1][:, 0],
                     "b2": net.intercepts_[1]}
    return result


def _held_out(net, files: Sequence[Path], inputs: str, mean: np.ndarray, scale: np.ndarray,
              label_mean: float) -> tuple[float, float]:
    """Mean squared error on the held-out positions: the network's, and the training
    mean's (what a model that learned nothing scores)."""
    sq, base, count = 0.0, 0.0, 0
    for path in files:
        x, y, held = read_inputs(path, inputs)
        if held.any():
            sq += float(((net.predict((x[held] - mean) / scale) - y[held]) ** 2).sum())
            base += float(((label_mean - y[held]) ** 2).sum())
            count += int(held.sum())
    return sq / count, base / count


def _calibration(net, files: Sequence[Path], inputs: str, mean: np.ndarray,
                 scale: np.ndarray) -> list[tuple[float, float, int]]:
    """Held-out positions in BINS bins of equal count by prediction: (mean predicted,
    mean actual, positions) per bin."""
    predicted, actual = [], []
    for path in files:
        x, y, held = read_inputs(path, inputs)
        if held.any():
            predicted.append(net.predict((x[held] - mean) / scale))
            actual.append(y[held])
    p, a = np.concatenate(predicted), np.concatenate(actual)
    order = np.argsort(p, kind="stable")
    return [(float(p[b].mean()), float(a[b].mean()), len(b))
            for b in np.array_split(order, BINS) if len(b)]
