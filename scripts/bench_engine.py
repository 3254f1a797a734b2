"""Benchmark the game engine: full 11-round games per second on one core.

Prints one stable line per table:

    table=4xgreedy games=20000 games_per_s=… turns_per_round=…

``turns_per_round`` is the mean number of player turns in a round (all seats together).
Times are CPU time of this process (``time.process_time``) after a warm-up game.
``--scale`` multiplies every table's game count (e.g. 0.1 for a quick look).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from fcsim.core.engine import play_games
from fcsim.core.rng import game_seed
from fcsim.core.rules import RuleSet
from fcsim.strategies import parse_strategy

TABLES = [("random", 2_000), ("greedy", 20_000), ("expected", 300), ("aware", 300)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    rules = RuleSet(players=4)
    for name, games in TABLES:
        games = max(1, int(games * args.scale))
        strategies = [parse_strategy(name)]
        seeds = np.array([game_seed(np.uint64(args.seed), np.uint64(g)) for g in range(games)],
                         dtype=np.uint64)
        seating = np.zeros((games, rules.players), dtype=np.int8)
        play_games(seeds[:1], seating[:1], strategies, rules)  # warm-up
        start = time.process_time()
        res = play_games(seeds, seating, strategies, rules)
        secs = time.process_time() - start
        print(f"table=4x{name} games={games} games_per_s={games / secs:.1f} "
              f"turns_per_round={res.turns.mean():.1f}", flush=True)


if __name__ == "__main__":
    main()
