"""Benchmark the game engine: full 11-round games per second on one core.

Prints one stable line per table:

    table=4xgreedy games=20000 games_per_s=… turns_per_round=…

``turns_per_round`` is the mean number of player turns in a round (all seats together).
Each table's strategy has its parameters pinned (``SPECS``), whatever the defaults.
Times are CPU time of the measuring process (``time.process_time``) after a warm-up game.
``--scale`` multiplies every table's game count (e.g. 0.1 for a quick look); ``--tables
greedy,random`` measures only those; ``--spec SPEC`` (repeatable) adds a table of 4 x
``SPEC`` as written, e.g. ``learned:take_margin=0,candidates=3`` (``SPEC_GAMES`` games).

``--against REF`` measures this checkout side by side with git ref ``REF`` in one run:
``REF`` is checked out in a temporary ``git worktree`` (``checkout.py``), each side is
measured by its own worker process (its own imports; ``REF``'s numba kernels in their own
cache folder, ``<fcsim cache>/against/<commit>``, kept for the next run), and ``--passes`` passes
of every table alternate between the sides (ABBA order), so load on a shared machine
falls on both alike. Per table and side, the median of the passes::

    table=4xgreedy ref=326028b games=20000 passes=5 games_per_s=… spread_pct=… turns_per_round=…
    table=4xgreedy ref=current games=20000 passes=5 games_per_s=… spread_pct=… turns_per_round=…
    table=4xgreedy current_over_ref=… ref=326028b

``current_over_ref`` is the median of the per-pass ratios (above 1: this checkout is
faster); ``spread_pct`` the range of a side's passes around its median. Both sides play
the same seeds, so equal ``turns_per_round`` shows they played the same games.

    python scripts/bench_engine.py
    python scripts/bench_engine.py --against 326028b --tables greedy
"""

from __future__ import annotations

import argparse
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

from arguments import at_least, names_of, positive, strategy, summary
from bench_page import recording
from checkout import Tree, in_turn, ref_tree, working_tree

TABLES = {"random": 2_000, "greedy": 20_000, "expected": 300, "aware": 300, "learned": 300}
# Each table's strategy with every parameter named, so that two versions of fcsim whose
# defaults differ still play the same games (the greedy table plays take_margin=0, not 8).
SPECS = {"random": "random", "greedy": "greedy:take_margin=0",
         "expected": "expected:take_margin=0,candidates=3",
         "aware": "aware:take_margin=0,candidates=4,feed_weight=3,danger_turns=3,urgency=0.5",
         "learned": "learned:take_margin=0,candidates=5"}  # the shipped model
SPEC_GAMES = 300  # games of a --spec table (times --scale)
PLAYERS = 4
CURRENT = "current"  # this checkout's label in the output


def measure(name: str, games: int, seed: int) -> tuple[float, float]:
    """Games per second (CPU time) and turns per round of ``games`` games of 4 x ``name``
    (a table of ``TABLES``, played as ``SPECS`` pins it, or a strategy spec as written).

    Uses only what every version of fcsim has (``play_games``, ``parse_strategy``), so a
    worker runs it on an older checkout too.
    """
    import numpy as np

    from fcsim.core.engine import play_games
    from fcsim.core.rng import game_seed
    from fcsim.core.rules import RuleSet
    from fcsim.strategies import parse_strategy

    rules = RuleSet(players=PLAYERS)
    strategies = [parse_strategy(SPECS.get(name, name))]
    seeds = np.array([game_seed(np.uint64(seed), np.uint64(g)) for g in range(games)],
                     dtype=np.uint64)
    seating = np.zeros((games, rules.players), dtype=np.int8)
    play_games(seeds[:1], seating[:1], strategies, rules)  # warm-up
    start = time.process_time()
    res = play_games(seeds, seating, strategies, rules)
    secs = time.process_time() - start
    return games / secs, float(res.turns.mean())


def worker() -> None:
    """Serve measurements: each stdin line ``name games seed`` gets one stdout line
    ``games_per_s turns_per_round``. The first line out says where fcsim came from."""
    import fcsim

    print(Path(fcsim.__file__).resolve().parent.parent, flush=True)
    for line in sys.stdin:
        name, games, seed = line.split()
        rate, turns = measure(name, int(games), int(seed))
        print(f"{rate} {turns}", flush=True)


class Side:
    """A worker process measuring one checkout."""

    def __init__(self, label: str, tree: Tree) -> None:
        self.label = label
        self.proc = subprocess.Popen([sys.executable, str(Path(__file__).resolve()),
                                      "--worker"], cwd=tree.path,
                                     env=tree.env(tree.kept_cache()), text=True,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        source = Path(self.proc.stdout.readline().strip())
        if source != tree.path.resolve():
            self.close()
            sys.exit(f"the {label} worker imported fcsim from {source}, not {tree.path}")

    def measure(self, name: str, games: int, seed: int) -> tuple[float, float]:
        self.proc.stdin.write(f"{name} {games} {seed}\n")
        self.proc.stdin.flush()
        reply = self.proc.stdout.readline().split()
        if len(reply) != 2:
            self.close()
            sys.exit(f"the {self.label} worker stopped (see its error above)")
        return float(reply[0]), float(reply[1])

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait()


def _spread(rates: list[float]) -> float:
    return 100 * (max(rates) - min(rates)) / statistics.median(rates)


def against(ref: str, tables: dict[str, int], passes: int, seed: int) -> None:
    """Measure this checkout and ``ref`` side by side, interleaved (see the module doc)."""
    with ref_tree(ref) as tree:
        sides = [Side(ref, tree), Side(CURRENT, working_tree())]
        try:
            for name, games in tables.items():
                for side in sides:  # warm-up: compile or load the kernels, untimed
                    side.measure(name, 1, seed)
                results: dict[str, list[tuple[float, float]]] = {s.label: [] for s in sides}
                for p in range(passes):
                    for side in in_turn(sides, p):
                        results[side.label].append(side.measure(name, games, seed))
                for side in sides:
                    rates = [r for r, _ in results[side.label]]
                    turns = results[side.label][0][1]
                    print(f"table={PLAYERS}x{name} ref={side.label} games={games} "
                          f"passes={passes} games_per_s={statistics.median(rates):.1f} "
                          f"spread_pct={_spread(rates):.1f} turns_per_round={turns:.1f}",
                          flush=True)
                ratios = [c / r for (c, _), (r, _) in zip(results[CURRENT], results[ref],
                                                        strict=True)]
                print(f"table={PLAYERS}x{name} current_over_ref="
                      f"{statistics.median(ratios):.3f} ref={ref}", flush=True)
        finally:
            for side in sides:
                side.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=summary(__doc__))
    parser.add_argument("--scale", type=positive, default=1.0)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--tables", type=names_of(TABLES), default=list(TABLES),
                        help="comma-separated strategies, one table of 4 each")
    parser.add_argument("--spec", type=strategy, action="append", default=[], metavar="SPEC",
                        help="also a table of 4 x SPEC as written (repeatable)")
    parser.add_argument("--against", metavar="REF", help="git ref to compare with")
    parser.add_argument("--passes", type=at_least(1), default=5, help="passes per side (--against)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker()
        return
    if not (args.tables or args.spec):
        parser.error(f"--tables: no table given; known: {', '.join(TABLES)}")
    tables = {t: max(1, int(TABLES[t] * args.scale)) for t in args.tables}
    tables.update((spec, max(1, int(SPEC_GAMES * args.scale))) for spec in args.spec)
    if args.against:
        # a terminated run still removes its worktree and stops its workers
        signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
        against(args.against, tables, args.passes, args.seed)
        return
    for name, games in tables.items():
        rate, turns = measure(name, games, args.seed)
        print(f"table={PLAYERS}x{name} games={games} games_per_s={rate:.1f} "
              f"turns_per_round={turns:.1f}", flush=True)


if __name__ == "__main__":
    with recording(__file__):
        main()
