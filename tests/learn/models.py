"""Model files for tests, made without training: random weights of a given shape."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from fcsim.strategies.learned.features import N_FEATURES
from fcsim.strategies.learned.model import Model, new_metadata


def random_arrays(hidden: int, seed: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    return {"mean": rng.normal(0, 1, N_FEATURES), "scale": rng.uniform(0.5, 2, N_FEATURES),
            "w1": rng.normal(0, 1, (N_FEATURES, hidden)), "b1": rng.normal(0, 1, hidden),
            "w2": rng.normal(0, 1, hidden), "b2": rng.normal(0, 1, 1)}


def random_model(path: Path, hidden: int = 5, seed: int = 0, **metadata: object) -> Path:
    """A model file of random weights at ``path``; ``metadata`` overrides fields."""
    path.write_bytes(Model(random_arrays(hidden, seed),
                           {**new_metadata(players=[4]), **metadata}).to_bytes())
    return path
