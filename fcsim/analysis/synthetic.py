"""Synthetic run folders in the exact schema of ``fcsim simulate``, with planted strategy
effects: what the analysis tests and the report benchmark run on, without the engine.

The model is deliberately simple but shaped like real play. Each seat's hand in each round
has a quality shared by every rotation of a deal (so duplicate-format pairing helps), plus
play noise, minus its strategy's ``edge``; the best hand goes out, the others score
natural points growing with the round, and at most one left-over wild (a wild-rank card or a
joker, as exact melding implies). A small share of rounds hits the turn cap.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import pyarrow as pa

from fcsim.analysis.synthetic_decisions import decision_table
from fcsim.runner import format as fmt

CAP_PROBABILITY = 0.0002
TURN_CAP = 2000
WILD_PENALTY = 20
JOKER_PENALTY = 50


def _chunk_arrays(
    first_game: int, games: int, edges: np.ndarray, duplicate: bool, rounds: int,
    rng: np.random.Generator,
) -> dict[str, np.ndarray]:
    players = edges.size
    g = np.arange(first_game, first_game + games)
    rotation = g % players
    deal = g // players if duplicate else g
    # strategy position sitting at each seat: the table rotates one seat per game
    position = (np.arange(players)[None, :] + rotation[:, None]) % players
    n_deals = games // players if duplicate else games
    quality = rng.standard_normal((n_deals, rounds, players))
    if duplicate:
        quality = np.repeat(quality, players, axis=0)
    latent = quality + 0.7 * rng.standard_normal((games, rounds, players))
    latent -= edges[position][:, None, :]
    out = np.argmin(latent, axis=2)
    capped = rng.random((games, rounds)) < CAP_PROBABILITY
    out_seat = np.where(capped, -1, out)
    went_out = out_seat[:, :, None] == np.arange(players)[None, None, :]
    scale = 3.0 + 1.5 * np.arange(1, rounds + 1)[None, :, None]
    natural = np.clip(np.rint(scale * (1.0 + 0.5 * latent)), 0, None)
    wild_left = rng.random(latent.shape) < np.clip(0.08 + 0.05 * latent, 0.0, 1.0)
    is_joker = rng.random(latent.shape) < 6 / 16
    wild_pts = np.where(wild_left & ~is_joker, WILD_PENALTY, 0)
    joker_pts = np.where(wild_left & is_joker, JOKER_PENALTY, 0)
    penalty = np.where(went_out, 0, natural + wild_pts + joker_pts)
    wild_pts = np.where(went_out, 0, wild_pts)
    joker_pts = np.where(went_out, 0, joker_pts)
    out_turn = np.where(capped, 0, 1 + rng.poisson(players * (2.0 + 0.4 * np.arange(1, rounds + 1)),
                                                   (games, rounds)))
    turns = np.where(capped, TURN_CAP, out_turn + players - 1)
    total = penalty.sum(axis=1)
    place = 1 + (total[:, None, :] < total[:, :, None]).sum(axis=2)
    win = total == total.min(axis=1, keepdims=True)

    cols: dict[str, np.ndarray] = {
        "game": np.repeat(g, players), "deal": np.repeat(deal, players),
        "rotation": np.repeat(rotation if duplicate else np.zeros_like(g), players),
        "seat": np.tile(np.arange(players), games), "position": position.ravel(),
        "total": total.ravel(), "place": place.ravel(), "win": win.ravel(),
    }
    for r in range(rounds):
        cols[f"penalty_{r + 1}"] = penalty[:, r, :].ravel()
        cols[f"wild_pts_{r + 1}"] = wild_pts[:, r, :].ravel()
        cols[f"joker_pts_{r + 1}"] = joker_pts[:, r, :].ravel()
        cols[f"out_seat_{r + 1}"] = np.repeat(out_seat[:, r], players)
        cols[f"out_turn_{r + 1}"] = np.repeat(out_turn[:, r], players)
        cols[f"turns_{r + 1}"] = np.repeat(turns[:, r], players)
        cols[f"capped_{r + 1}"] = np.repeat(capped[:, r], players)
    return cols


def write_synthetic_run(
    folder: str | Path,
    strategies: Sequence[str],
    edges: Sequence[float],
    games: int,
    seed: int = 0,
    duplicate: bool = False,
    rounds: int = 11,
    games_per_file: int = 10_000,
    decisions: bool = False,
    sources: Mapping[str, str] | None = None,
) -> Path:
    """Write ``games`` synthetic games (one row per seat) to ``folder`` and return it.

    ``strategies`` are the specs at the table (one per seat, so ``players = len(strategies)``)
    and ``edges[i]`` is how much better strategy i plays (in hand-quality standard
    deviations; 0.3 is a clear edge). With ``duplicate`` every deal is replayed with the
    table rotated through all seats (``games`` must then be a multiple of the players, and
    each file holds whole deals). With ``decisions``, also synthetic decision rows
    (:mod:`fcsim.analysis.synthetic_decisions`) in the run's ``decisions/`` folder.
    ``sources`` is what the metadata records of where strategies' code and files come
    from, as a run of plug-ins or models records it (``strategy_sources``).
    """
    players = len(strategies)
    if len(edges) != players:
        raise ValueError("give one edge per strategy")
    if duplicate and games % players:
        raise ValueError(f"the duplicate format needs a multiple of {players} games")
    if duplicate:  # a file holds whole deals
        games_per_file = max(players, games_per_file - games_per_file % players)
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    meta = {
        "format": fmt.FORMAT_VERSION, "fcsim_version": "synthetic", "code_digest": "synthetic",
        "rules": {"players": players, "rounds": rounds, "wild_penalty": WILD_PENALTY,
                  "go_out_bonus": 0, "all_wild_melds": True, "turn_cap": TURN_CAP},
        "strategies": list(strategies), "seed": seed, "games": games,
        "duplicate": duplicate, "seat_rotation": True, "chunk_size": games_per_file,
        **({fmt.DECISIONS: True} if decisions else {}),
        **({fmt.SOURCES: dict(sources)} if sources else {}),
    }
    schema = fmt.result_schema(rounds, json.dumps(meta).encode())
    (out / fmt.MANIFEST).write_bytes(fmt.encode(schema.empty_table()))
    specs = list(dict.fromkeys(strategies))  # a spec may sit at several seats
    dictionary = pa.array(specs, pa.string())
    spec_index = np.array([specs.index(s) for s in strategies], dtype=np.int8)
    edge_array = np.asarray(edges, dtype=float)
    for part, first in enumerate(range(0, games, games_per_file)):
        rng = np.random.default_rng([seed, part])
        cols = _chunk_arrays(first, min(games_per_file, games - first), edge_array, duplicate,
                             rounds, rng)
        indices = pa.array(spec_index[cols.pop("position")])
        arrays = {name: pa.array(values).cast(schema.field(name).type)
                  for name, values in cols.items()}
        arrays["strategy"] = pa.DictionaryArray.from_arrays(indices, dictionary)
        table = pa.table([arrays[name] for name in schema.names], schema=schema)
        (out / fmt.part_name(part)).write_bytes(fmt.encode(table))  # as the runner writes
        if decisions:
            rows = decision_table(cols, arrays["strategy"], players, rounds, rng,
                                  json.dumps(meta).encode())
            fmt.decision_file(out, part).parent.mkdir(exist_ok=True)
            fmt.decision_file(out, part).write_bytes(fmt.encode(rows))
    return out
