"""Benchmark the search player: decision times, full games, and ``fcsim advise``.

Prints stable key=value lines:

    case=decisions spec=… decisions=… searched=… median_ms=… searched_median_ms=… p90_ms=… max_ms=…
    case=games table=4xsearch games=… games_per_s=…
    case=advise position=readme worlds=… cpu_s=… wall_s=…

Every time is CPU time of this process (``time.process_time``: this machine is shared,
and wall time measures the others too), kernels warm. Decisions are those of 4 x
``--spec`` games stepped from Python (``searched``: those that dealt worlds, i.e. drew
from the rng); games are played by the batch engine after a warm-up game; ``advise`` is
``fcsim.advise`` at its default effort on the README's worked position.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from arguments import at_least, strategy, summary
from bench_page import recording

import fcsim
from fcsim.advice import advise
from fcsim.core.engine import play_games
from fcsim.core.rng import game_seed
from fcsim.core.rules import RuleSet
from fcsim.position import Position, position_view
from fcsim.strategies import parse_strategy

README_POSITION = Position(round=5, hand=["3H", "4H", "5H", "7S", "9D", "9C", "KD", "QS"],
                           pile=["8C", "10S", "JD"], known={1: ["JD", "QD"]}, players=4,
                           turn=9, scores=[40, 35, 52, 28])


def decisions(spec: str, games: int, seed: int) -> None:
    strategy = parse_strategy(spec)
    times, searched = [], []
    for g in range(games):
        game = fcsim.Game(players=4, seed=seed, game=g)
        while not game.over:
            view = game.view()
            before = view.rng.copy()
            start = time.process_time()
            action = strategy(view)
            elapsed = time.process_time() - start
            times.append(elapsed)
            if not np.array_equal(before, view.rng):
                searched.append(elapsed)
            game.step(action)
    ms = np.array(times) * 1e3
    found = np.array(searched) * 1e3 if searched else np.zeros(1)
    print(f"case=decisions spec={spec} decisions={ms.size} searched={len(searched)} "
          f"median_ms={np.median(ms):.3f} searched_median_ms={np.median(found):.3f} "
          f"p90_ms={np.percentile(ms, 90):.3f} max_ms={ms.max():.1f}", flush=True)


def games_per_second(spec: str, games: int, seed: int) -> None:
    rules = RuleSet(players=4)
    strategies = [parse_strategy(spec)]
    seeds = np.array([game_seed(np.uint64(seed), np.uint64(g)) for g in range(games + 1)],
                     dtype=np.uint64)
    seating = np.zeros((games + 1, 4), dtype=np.int8)
    play_games(seeds[:1], seating[:1], strategies, rules)  # warm-up
    start = time.process_time()
    play_games(seeds[1:], seating[1:], strategies, rules)
    secs = time.process_time() - start
    print(f"case=games table=4x{spec} games={games} games_per_s={games / secs:.2f}",
          flush=True)


def advise_time(worlds: int | None) -> None:
    view = position_view(README_POSITION)
    advise(view, worlds=10)  # warm
    start, wall = time.process_time(), time.perf_counter()
    advice = advise(view) if worlds is None else advise(view, worlds=worlds)
    print(f"case=advise position=readme worlds={advice.worlds} "
          f"cpu_s={time.process_time() - start:.3f} wall_s={time.perf_counter() - wall:.3f}",
          flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=summary(__doc__))
    parser.add_argument("--spec", type=strategy, default="search",
                        help="the search strategy to time")
    parser.add_argument("--games", type=at_least(1), default=3, help="games per measurement")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--only", choices=("decisions", "games", "advise"))
    args = parser.parse_args()
    if args.only in (None, "decisions"):
        decisions(args.spec, args.games, args.seed)
    if args.only in (None, "games"):
        games_per_second(args.spec, args.games, args.seed)
    if args.only in (None, "advise"):
        advise_time(None)


if __name__ == "__main__":
    with recording(__file__):
        main()
