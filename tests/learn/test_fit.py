"""The fit on hand-made positions chunks: what the network is standardised by, what its
held-out error and calibration are measured on, and the relative inputs it reads."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from fcsim.learn.fit import HELD_OUT_EVERY, MIN_POSITIONS, FitResult, fit, read_inputs
from fcsim.learn.positions import FEATURE_COLUMNS, LABEL, MOVE_DISCARD
from fcsim.strategies.learned.features import N_FEATURES
from fcsim.strategies.learned.model import FEATURES_ONLY, RELATIVE

pytest.importorskip("sklearn")

GAMES = 300  # one position each: 270 training rows (at least MIN_POSITIONS), 30 held out
HELD_OUT_VALUE = 100.0  # every held-out feature: a fit that read them would move its mean
HELD_OUT_LABEL = 3.0  # every held-out label; the training labels are -1 and +1 (mean 0)


def write_chunk(path: Path, game: list[int], decision: list[int], features: np.ndarray,
                label: list[float]) -> Path:
    """A positions chunk of discard rows, holding only the columns the fit reads."""
    columns = {"game": np.array(game, np.int64), "move": np.full(len(game), MOVE_DISCARD),
               "decision": np.array(decision, np.int64),
               **{name: features[:, i] for i, name in enumerate(FEATURE_COLUMNS)},
               LABEL: np.array(label, np.float64)}
    pq.write_table(pa.table(columns), path)
    return path


@pytest.fixture
def chunk(tmp_path: Path) -> Path:
    """One position per game: every tenth game held out (features HELD_OUT_VALUE, labels
    HELD_OUT_LABEL); the training rows alternate features 0 and 4 (mean 2, spread 2) and
    labels -1 and +1, but for the first feature, 5 throughout."""
    games = np.arange(GAMES)
    held = games % HELD_OUT_EVERY == 0
    features = np.full((len(games), N_FEATURES), HELD_OUT_VALUE)
    labels = np.full(len(games), HELD_OUT_LABEL)
    features[~held] = np.where(np.arange((~held).sum()) % 2 == 0, 0.0, 4.0)[:, None]
    labels[~held] = np.where(np.arange((~held).sum()) % 2 == 0, -1.0, 1.0)
    features[~held, 0] = 5.0
    assert (~held).sum() >= MIN_POSITIONS
    return write_chunk(tmp_path / "part-000000.parquet", list(games), [1] * len(games),
                       features, list(labels))


def test_the_inputs_are_standardised_by_the_training_positions_alone(chunk: Path) -> None:
    """The model's ``mean`` and ``scale`` are the training rows' mean and standard deviation
    (not their variance), a constant feature's scale 1; the held-out rows count in neither."""
    result = fit([chunk], seed=0, hidden=2, epochs=1)
    assert result.arrays["mean"][0] == 5.0 and result.arrays["scale"][0] == 1.0
    assert np.array_equal(result.arrays["mean"][1:], np.full(N_FEATURES - 1, 2.0))
    assert np.array_equal(result.arrays["scale"][1:], np.full(N_FEATURES - 1, 2.0))


def test_the_baseline_predicts_the_training_labels_mean_on_the_held_out_ones(
        chunk: Path) -> None:
    """What a model that learned nothing scores: the training labels' mean (0) against the
    held-out labels (3), a squared error of 9; a mean that took in the held-out labels
    would score less, flattering no model."""
    result = fit([chunk], seed=0, hidden=2, epochs=1)
    assert result.baseline_loss == (0.0 - HELD_OUT_LABEL) ** 2


def test_predictions_against_outcomes_are_of_the_held_out_positions(chunk: Path) -> None:
    """The report's calibration bins hold the held-out positions, every one of them once
    (the training positions would show how well the network remembers, not predicts)."""
    result = fit([chunk], seed=0, hidden=2, epochs=1)
    assert result.held_out_positions == GAMES // HELD_OUT_EVERY
    assert sum(count for _, _, count in result.calibration) == result.held_out_positions
    assert all(actual == HELD_OUT_LABEL for _, actual, _ in result.calibration)


def test_a_chunk_of_held_out_positions_only_and_a_seed_beyond_32_bits_fit(
        chunk: Path, tmp_path: Path) -> None:
    """The last chunk of a run may hold one game, held out (``--games 331``), and a seed
    may be any ``--seed`` (scikit-learn's take 32 bits): neither stops the fit."""
    held_only = write_chunk(tmp_path / "part-000001.parquet", [GAMES], [1],
                            np.full((1, N_FEATURES), HELD_OUT_VALUE), [HELD_OUT_LABEL])
    result = fit([chunk, held_only], seed=2**64 - 1, hidden=2, epochs=2)
    assert result.train_positions == GAMES - GAMES // HELD_OUT_EVERY
    assert result.held_out_positions == GAMES // HELD_OUT_EVERY + 1


def test_the_metrics_a_model_keeps_are_the_last_epoch_s() -> None:
    result = FitResult({}, FEATURES_ONLY, train_loss=[3.0, 2.0], held_out_loss=[4.0, 3.5],
                       baseline_loss=5.0, train_positions=270, held_out_positions=30)
    assert result.metrics() == {"epochs": 2, "train_mse": 2.0, "held_out_mse": 3.5,
                                "baseline_mse": 5.0, "train_positions": 270,
                                "held_out_positions": 30}


def test_relative_inputs_are_taken_within_each_game_s_position(tmp_path: Path) -> None:
    """Two games one after the other, each with a position of the same decision number:
    each candidate's difference is from its own position's mean (features 1 and 3: -1 and
    +1; 11 and 13: -1 and +1), not the four rows' (7)."""
    features = np.repeat(np.array([[1.0], [3.0], [11.0], [13.0]]), N_FEATURES, axis=1)
    path = write_chunk(tmp_path / "part-000000.parquet", [1, 1, 2, 2], [1, 1, 1, 1],
                       features, [0.0] * 4)
    x, _, _ = read_inputs(path, RELATIVE)
    differences = np.repeat(np.array([[-1.0], [1.0], [-1.0], [1.0]]), N_FEATURES, axis=1)
    assert np.array_equal(x, np.hstack([features, differences]))
