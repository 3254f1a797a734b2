"""Golden digests of seeded games: any change in how a game is played is caught.

Computed at commit a1bb778 (before the engine became a state machine); the tables that seat
`random` again when each seat got its own stream for its random choices (the others, whose
strategies draw no random numbers, kept their digests: their reshuffles are the same). Every
table names its parameters in full, so a changed default does not move these digests; a
deliberate change of the game procedure updates them together with docs/ENGINE.md.
"""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pytest

from fcsim import RuleSet
from fcsim.core.engine import play_games
from fcsim.core.rng import game_seed
from fcsim.replay import game_events
from fcsim.strategies import parse_strategy

AWARE = "aware:take_margin=0,candidates=4,feed_weight=3,danger_turns=3,urgency=0.5"
EXPECTED = "expected:take_margin=0,candidates=3"
GREEDY = "greedy:take_margin=0"
RESULT_FIELDS = ("total", "place", "win", "penalty", "wild_pts", "joker_pts", "out_seat",
                 "out_turn", "turns", "capped")
ROOT_SEED = 11

# (name, rules, specs, games, digest of the results, digest of game 1's events)
TABLES = [
    ("4 x expected", RuleSet(players=4), [EXPECTED] * 4, 8,
     "f9df8b2f5cded0fb4e54bae44e30a3745aa9c23c8c1e0466503f2122761df66e",
     "e1e24549dd03e17034676a94e81cb58239fc89f44302e7e53cb95b8b30d71cc9"),
    ("aware, expected, greedy, oracle", RuleSet(players=4), [AWARE, EXPECTED, GREEDY, "oracle"],
     8,
     "353e3a5c789ef80f4269403102d4e9d231e438b712057fd467e3f5235357c27b",
     "74982406590061442853a9ba6cf9429ed01caf8f54450edf04e92ba4277b22e3"),
    ("3 players, face-value wilds", RuleSet(players=3, wild_penalty="face"),
     ["random", "greedy:take_margin=2", AWARE], 8,
     "85d03200b36c724ebf17225f386e1c8851ba4a0ad68a73c05ba37a3b79a5fa01",
     "42ce30646ffe7b37dc351cf8ca948c6b4befeafc95fd244717efc6e9eab59db9"),
    ("2 players, no all-wild melds", RuleSet(players=2, all_wild_melds=False),
     [GREEDY, EXPECTED], 8,
     "7932698169fd463877af392bc82412bb7ce91126dac445d9052e49413579f24d",
     "11336fbf21e9a5635a08f6ac97d2c57501189323ce6274a46c8308e74bf6b1fc"),
    ("7 players, turn cap 30", RuleSet(players=7, turn_cap=30),
     ["random", GREEDY] * 3 + ["random"], 6,
     "1ffc6e803cc6ae49eed50fcc1018a3bab20136a1528d5c01b1fd896b67495c57",
     "46e1428b1375f51959004ac1770c71b4d5ee3a7497a6a97f567800faadb7dba6"),
    ("5 players, short game, bonus, 60-point wilds",
     RuleSet(players=5, rounds=6, go_out_bonus=-10, wild_penalty=60),
     ["random", GREEDY, "random", "oracle", "greedy:take_margin=1"], 8,
     "2c95b2ada58010151fba0f155a2275bb94bb33b5d821131a4f1b2a0a3ffe72da",
     "2cbd02c6237b6ebd892003b872b5f299609337fa3f2ac892c877514896182a3d"),
]


@pytest.mark.parametrize(("name", "rules", "specs", "games", "results", "events"), TABLES,
                         ids=[t[0] for t in TABLES])
def test_seeded_games_are_unchanged(name: str, rules: RuleSet, specs: list[str], games: int,
                                    results: str, events: str) -> None:
    strategies = [parse_strategy(s) for s in specs]
    seeds = np.array([game_seed(np.uint64(ROOT_SEED), np.uint64(g)) for g in range(games)],
                     np.uint64)
    players = rules.players
    seating = np.array([[(s + g) % players for s in range(players)] for g in range(games)],
                       np.int8)
    res = play_games(seeds, seating, strategies, rules)
    digest = hashlib.sha256()
    for field in RESULT_FIELDS:
        digest.update(np.ascontiguousarray(getattr(res, field)).tobytes())
    assert digest.hexdigest() == results
    trace = game_events(int(seeds[1]), strategies, rules)
    assert hashlib.sha256(json.dumps(trace).encode()).hexdigest() == events
