"""Model files for tests, made without training: random weights of a given shape."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from fcsim.strategies.learned.draw_features import N_DRAW_FEATURES
from fcsim.strategies.learned.features import N_FEATURES
from fcsim.strategies.learned.model import (
    DRAW,
    FEATURES_ONLY,
    INPUTS,
    RELATIVE,
    Model,
    load_model,
    new_metadata,
    with_table,
)


def random_arrays(hidden: int, seed: int, width: int = N_FEATURES) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    return {"mean": rng.normal(0, 1, width), "scale": rng.uniform(0.5, 2, width),
            "w1": rng.normal(0, 1, (width, hidden)), "b1": rng.normal(0, 1, hidden),
            "w2": rng.normal(0, 1, hidden), "b2": rng.normal(0, 1, 1)}


def random_draw_arrays(hidden: int, seed: int) -> dict[str, np.ndarray]:
    """A draw network of random weights (its arrays named with the ``draw_`` prefix)."""
    return {DRAW + name: value
            for name, value in random_arrays(hidden, seed, N_DRAW_FEATURES).items()}


def random_model(path: Path, hidden: int = 5, seed: int = 0, inputs: str = FEATURES_ONLY,
                 draw_hidden: int = 0, **metadata: object) -> Path:
    """A model file of random weights reading ``inputs`` at ``path``, with a draw network
    of ``draw_hidden`` units if not 0; ``metadata`` overrides fields."""
    arrays = random_arrays(hidden, seed, INPUTS[inputs])
    if draw_hidden:
        arrays.update(random_draw_arrays(draw_hidden, seed + 1))
    meta = new_metadata(draws=draw_hidden > 0, players=[4], inputs=inputs)
    path.write_bytes(Model(arrays, {**meta, **metadata}).to_bytes())
    return path


def tabled_model(folder: Path, tables: dict[int, int], seed: int = 0) -> Path:
    """``folder/tabled.npz``: a random 4-player model (a draw network of 2 units) with
    networks of its own for each table size in ``tables`` (relative inputs, a draw network
    of ``tables[size]`` units if not 0), each from its own model file ``folder/pN.npz``."""
    model = load_model(random_model(folder / "p4.npz", hidden=3, seed=seed, draw_hidden=2))
    for players, draw_hidden in tables.items():
        table = random_model(folder / f"p{players}.npz", hidden=4, seed=seed + players,
                             inputs=RELATIVE, draw_hidden=draw_hidden, players=[players])
        model = with_table(model, load_model(table), table.name)
    path = folder / "tabled.npz"
    path.write_bytes(model.to_bytes())
    return path
