"""Benchmark the exact solver on hands dealt from a real shuffled deck.

Prints one stable ``key=value`` line per case (compare figures across commits):

    solve cards=14 round=11 hands=1000000 ns_per_hand=…
    best_discard cards=14 round=11 hands=1000000 ns_per_decision=…
    startup import_and_first_solve_s=…

Times are CPU time of this process on one core (``time.process_time``), after a warm-up,
so other work on the machine disturbs them less; each figure is the median of
``--passes`` (5) timed passes over the same hands, as this machine's speed drifts by up to
a quarter between runs. ``--hands N`` changes the sample size.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time

import numpy as np
from numba import njit

from fcsim.core.cards import DECK_SIZE, N_KINDS, full_deck
from fcsim.core.rng import new_state, shuffle
from fcsim.core.solver import best_discard_batch_kernel, penalty_batch_kernel
from fcsim.core.tables import solver_table

CASES = [(4, 2), (8, 6), (11, 9), (13, 11), (14, 11)]  # (cards, round)


@njit(cache=True)
def deal_hands(state: np.ndarray, deck: np.ndarray, n_hands: int, size: int) -> np.ndarray:
    """``n_hands`` hands of ``size`` cards, each from a freshly shuffled 116-card deck."""
    hands = np.zeros((n_hands, N_KINDS), dtype=np.int8)
    for h in range(n_hands):
        shuffle(state, deck, DECK_SIZE)
        for j in range(size):
            hands[h, deck[j]] += 1
    return hands


def _timed(func, passes: int, *args) -> float:
    """Median CPU seconds of ``passes`` calls of ``func(*args)``, after a warm-up call."""
    func(args[0][:16], *args[1:])  # warm-up (compile or load from the numba cache)
    times = []
    for _ in range(passes):
        start = time.process_time()
        func(*args)
        times.append(time.process_time() - start)
    return float(np.median(times))


def startup_seconds() -> float:
    """Wall time of a fresh process that imports fcsim and solves one hand (warm caches)."""
    code = "import fcsim; fcsim.min_penalty('9H JS 7D JK 3H 4H 7S', 5)"
    subprocess.run([sys.executable, "-c", code], check=True)  # make sure caches are warm
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--passes", type=int, default=5)
    args = parser.parse_args()
    table = solver_table()
    state = new_state(args.seed)
    deck = full_deck()
    for cards, rnd in CASES:
        hands = deal_hands(state, deck, args.hands, cards)
        secs = _timed(penalty_batch_kernel, args.passes, hands, rnd, 20, True, table)
        print(f"solve cards={cards} round={rnd} hands={args.hands} "
              f"ns_per_hand={secs / args.hands * 1e9:.1f}", flush=True)
    hands = deal_hands(state, deck, args.hands, 14)
    secs = _timed(best_discard_batch_kernel, args.passes, hands, 11, 20, True, table)
    print(f"best_discard cards=14 round=11 hands={args.hands} "
          f"ns_per_decision={secs / args.hands * 1e9:.1f}", flush=True)
    print(f"startup import_and_first_solve_s={startup_seconds():.2f}", flush=True)


if __name__ == "__main__":
    main()
