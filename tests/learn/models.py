"""Model files for tests, made without training: random weights of a given shape."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from fcsim.strategies.learned.features import N_FEATURES
from fcsim.strategies.learned.model import FEATURES_ONLY, INPUTS, Model, new_metadata


def random_arrays(hidden: int, seed: int, width: int = N_FEATURES) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    return {"mean": rng.normal(0, 1, width), "scale": rng.uniform(0.5, 2, width),
            "w1": rng.normal(0, 1, (width, hidden)), "b1": rng.normal(0, 1, hidden),
            "w2": rng.normal(0, 1, hidden), "b2": rng.normal(0, 1, 1)}


def random_model(path: Path, hidden: int = 5, seed: int = 0, inputs: str = FEATURES_ONLY,
                 **metadata: object) -> Path:
    """A model file of random weights reading ``inputs`` at ``path``; ``metadata``
    overrides fields."""
    arrays = random_arrays(hidden, seed, INPUTS[inputs])
    path.write_bytes(Model(arrays, {**new_metadata(players=[4], inputs=inputs), **metadata}
                           ).to_bytes())
    return path
