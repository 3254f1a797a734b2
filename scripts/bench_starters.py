"""The speed of the two starters ``fcsim new-strategy`` writes: full games per second.

Prints one stable line per table::

    table=numba-vs-greedy players=2 games=… games_per_s=…

Each starter is written into a temporary folder (``fcsim.scaffold.write_package``) and
played as a loose file: the numba one (``--numba``, the default kind) and the Python agent
(``--python``), each against ``greedy`` (one seat each, alternating) and against itself.
Games are full 11-round games at 2 seats, played by ``fcsim.core.engine.play_games``; times
are CPU time of this process after a warm-up game, so a Python seat's cost is what it
adds to the engine. ``--games`` sets the numba tables' games, ``--python-games`` the
Python ones' (a Python seat plays about 200 times more slowly, as docs/BENCHMARKS.md records).

    python scripts/bench_starters.py
    python scripts/bench_starters.py --games 200 --python-games 4
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np
from arguments import at_least, summary
from bench_page import recording

from fcsim.core.engine import play_games
from fcsim.core.rng import game_seed
from fcsim.core.rules import RuleSet
from fcsim.scaffold import write_package
from fcsim.strategies import parse_strategy

PLAYERS = 2


def games_per_second(strategies: list, games: int, seed: int) -> float:
    """CPU-time games per second of ``games`` games, seats alternating between the
    strategies listed (one strategy: every seat)."""
    rules = RuleSet(players=PLAYERS)
    seeds = np.array([game_seed(np.uint64(seed), np.uint64(g)) for g in range(games)],
                     dtype=np.uint64)
    seating = np.array([[(g + s) % len(strategies) for s in range(PLAYERS)]
                        for g in range(games)], dtype=np.int8)
    play_games(seeds[:1], seating[:1], strategies, rules)  # warm-up (and compile)
    start = time.process_time()
    play_games(seeds, seating, strategies, rules)
    return games / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=summary(__doc__))
    parser.add_argument("--games", type=at_least(1), default=2000, help="games per numba table")
    parser.add_argument("--python-games", type=at_least(1), default=40,
                        help="games per Python table")
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    greedy = parse_strategy("greedy")
    with tempfile.TemporaryDirectory() as scratch:
        for kind, games in (("numba", args.games), ("python", args.python_games)):
            name = f"bench_{kind}_starter"
            write_package(name, kind, Path(scratch) / kind)
            starter = parse_strategy(str(Path(scratch) / kind / f"fcsim_{name}" / "strategy.py"))
            for against, strategies in (("greedy", [starter, greedy]), ("itself", [starter])):
                rate = games_per_second(strategies, games, args.seed)
                print(f"table={kind}-vs-{against} players={PLAYERS} games={games} "
                      f"games_per_s={rate:.1f}", flush=True)


if __name__ == "__main__":
    with recording(__file__):
        main()
