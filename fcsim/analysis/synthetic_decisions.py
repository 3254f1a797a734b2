"""Synthetic decision rows for a synthetic run (:mod:`fcsim.analysis.synthetic`): one row per
turn, as many per round as the game rows' ``turns_r``, seats in turn order from the
dealer's left, the first seat out going out on ``out_turn_r`` and the others having their
last turns after it. What the Decisions part of the report and its benchmark run on.

Draws, cards and penalties are random but shaped like play: the discard is taken more
often in later rounds, penalties fall as a round goes on, wilds are held a few at a time.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from fcsim.runner import format as fmt

DECK = 116
KINDS = 56


def decision_table(cols: dict[str, np.ndarray], strategy: pa.Array, players: int, rounds: int,
                   rng: np.random.Generator, metadata: bytes) -> pa.Table:
    """The decision rows of one synthetic chunk from its game-row columns ``cols`` (one row
    per game and seat, as :func:`fcsim.analysis.synthetic._chunk_arrays` makes them) and
    its ``strategy`` dictionary column, in the run's decision schema."""
    first = np.arange(0, cols["game"].size, players)  # each game's seat-0 row
    game, deal, rotation = (cols[k][first] for k in ("game", "deal", "rotation"))
    games = game.size
    parts: dict[str, list[np.ndarray]] = {name: [] for name, _ in fmt.DECISION_COLUMNS}
    seat_strategy = strategy.indices.to_numpy().reshape(games, players)
    for r in range(1, rounds + 1):
        turns = cols[f"turns_{r}"][first].astype(np.int64)
        out_turn = cols[f"out_turn_{r}"][first].astype(np.int64)
        owner = np.repeat(np.arange(games), turns)
        starts = np.cumsum(turns) - turns
        turn = np.arange(owner.size) - starts[owner] + 1
        seat = ((r - 1) % players + turn) % players
        n = r + 2
        out_at = out_turn[owner]
        parts["game"].append(game[owner])
        parts["deal"].append(deal[owner])
        parts["rotation"].append(rotation[owner])
        parts["round"].append(np.full(owner.size, r))
        parts["turn"].append(turn)
        parts["seat"].append(seat)
        parts["strategy"].append(seat_strategy[owner, seat])
        parts["source"].append(rng.random(owner.size) < 0.05 + 0.02 * r)
        parts["drawn"].append(rng.integers(0, KINDS, owner.size))
        parts["discard"].append(rng.integers(0, KINDS, owner.size))
        after = np.clip(rng.poisson(4 + 3 * r, owner.size) - turn // players, 0, None)
        parts["penalty_before"].append(after + rng.poisson(2, owner.size))
        parts["penalty_after"].append(np.where(turn == out_at, 0, after))
        held = rng.poisson(0.3 + 0.1 * r, owner.size)
        parts["wilds"].append(held)
        parts["jokers"].append(rng.binomial(held, 6 / 26))
        parts["went_out"].append(turn == out_at)
        parts["last_turn"].append((out_at > 0) & (turn > out_at))
        parts["stock"].append(np.clip(DECK - players * n - 1 - turn, 0, None))
    schema = fmt.decision_schema(metadata)
    arrays = []
    for field in schema:
        values = np.concatenate(parts[field.name])
        if field.name == "strategy":
            arrays.append(pa.DictionaryArray.from_arrays(pa.array(values.astype(np.int8)),
                                                         strategy.dictionary))
        else:
            arrays.append(pa.array(values).cast(field.type))
    return pa.Table.from_arrays(arrays, schema=schema)
