"""Benchmark the exact solver on hands dealt from a real shuffled deck.

Prints one stable ``key=value`` line per case and tree (compare figures across commits):

    case=solve14 cards=14 round=11 hands=1000000 ref=working-tree ns=… min_ns=…
    case=discard14 cards=14 round=11 hands=1000000 ref=working-tree ns=… min_ns=…
    case=startup ref=working-tree s=…

``solveN`` is an exact solve of an N-card hand (ns per hand), ``discard14`` a best discard
of 14 cards (ns per decision), ``startup`` the wall time of a fresh process that imports
fcsim and solves one hand (warm caches). Times are CPU time of a worker process on one
core (``time.process_time``), after a warm-up, so other work on the machine disturbs them
less; each figure is the median of ``--passes`` (5) timed passes over the same hands
(``min_ns`` the fastest), as this machine's speed drifts by up to a quarter between runs.
``--hands N`` changes the sample size, ``--cases solve14,discard14`` the cases run.

``--against REF`` runs the same cases, on the same hands, on git ref ``REF`` too (see
``checkout.py``; its kernels are cached under ``<fcsim cache>/against/<commit>``): one
worker process per tree, their passes interleaved (who goes first alternates), then a
``ratio`` line per case (this tree / REF, below 1 is faster): ``ratio`` the median of the
ratios of the passes run side by side (the machine's drift cancels out of each),
``ratio_min`` that of the fastest passes.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from arguments import at_least, names_of, summary
from bench_page import recording
from checkout import Tree, in_turn, ref_tree, working_tree

CASES = [("solve4", 4, 2), ("solve8", 8, 6), ("solve11", 11, 9), ("solve13", 13, 11),
         ("solve14", 14, 11), ("discard14", 14, 11)]  # (name, cards, round)
STARTUP = "startup"  # the case timing a fresh process's first solve
_STARTUP = "import fcsim; fcsim.min_penalty('9H JS 7D JK 3H 4H 7S', 5)"


def deal(seed: int, n_hands: int, sizes: list[int], folder: Path) -> None:
    """``hands-<size>.npy`` in ``folder``: ``n_hands`` hands of each size, every hand from a
    freshly shuffled 116-card deck (this tree's generator; every tree reads the files)."""
    from numba import njit

    from fcsim.core.cards import DECK_SIZE, N_KINDS, full_deck
    from fcsim.core.rng import new_state, shuffle

    @njit
    def deal_hands(state: np.ndarray, deck: np.ndarray, n_hands: int, size: int) -> np.ndarray:
        hands = np.zeros((n_hands, N_KINDS), dtype=np.int8)
        for h in range(n_hands):
            shuffle(state, deck, DECK_SIZE)
            for j in range(size):
                hands[h, deck[j]] += 1
        return hands

    state, deck = new_state(seed), full_deck()
    for size in sizes:
        np.save(folder / f"hands-{size}.npy", deal_hands(state, deck, n_hands, size))


def serve() -> None:
    """The worker: for each line ``<case> <hands file>`` on stdin, time one pass and
    print its CPU seconds (the first request of a case also warms its kernel up)."""
    import fcsim
    from fcsim.core.solver import best_discard_batch_kernel, penalty_batch_kernel
    from fcsim.core.tables import solver_table

    table = solver_table()
    kernels = {name: (best_discard_batch_kernel if name.startswith("discard")
                      else penalty_batch_kernel, rnd) for name, _, rnd in CASES}
    print(f"fcsim={Path(fcsim.__file__).parent}", flush=True)
    path, hands, warm = "", np.zeros(0), set()
    for line in sys.stdin:
        name, asked = line.split()
        kernel, rnd = kernels[name]
        if asked != path:
            path, hands = asked, np.load(asked)
        if name not in warm:
            kernel(hands[:16], rnd, 20, True, table)  # compile, or load from the cache
            warm.add(name)
        start = time.process_time()
        kernel(hands, rnd, 20, True, table)
        print(time.process_time() - start, flush=True)


class Worker:
    """A ``serve`` process running one tree's fcsim."""

    def __init__(self, tree: Tree, cache: Path) -> None:
        self.tree, self.cache = tree, cache
        self.proc = subprocess.Popen([sys.executable, __file__, "--serve"],
                                     env=tree.env(cache), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)
        self.fcsim = self._reply()

    def _reply(self) -> str:
        line = self.proc.stdout.readline()
        if not line:
            sys.exit(f"the worker for {self.tree.label} stopped (see its error above)")
        return line.strip()

    def time_pass(self, case: str, hands: Path) -> float:
        self.proc.stdin.write(f"{case} {hands}\n")
        self.proc.stdin.flush()
        return float(self._reply())

    def startup_seconds(self) -> float:
        """Wall time of a fresh process importing fcsim and solving one hand (warm)."""
        run = [sys.executable, "-c", _STARTUP]
        subprocess.run(run, env=self.tree.env(self.cache), check=True)  # warm the caches
        start = time.perf_counter()
        subprocess.run(run, env=self.tree.env(self.cache), check=True)
        return time.perf_counter() - start

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=summary(__doc__))
    parser.add_argument("--hands", type=at_least(1), default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--passes", type=at_least(1), default=5)
    parser.add_argument("--against", metavar="REF", help="also measure git ref REF")
    known = [*(name for name, _, _ in CASES), STARTUP]
    parser.add_argument("--cases", type=names_of(known), default=known,
                        help=f"comma-separated, of: {','.join(known)}")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve()
        return
    chosen = args.cases
    with contextlib.ExitStack() as stack:
        scratch = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="bench_solver_")))
        trees = [working_tree()]
        if args.against:
            trees.append(stack.enter_context(ref_tree(args.against)))
        deal(args.seed, args.hands, sorted({cards for _, cards, _ in CASES}), scratch)
        workers = []
        for tree in trees:
            workers.append(Worker(tree, tree.kept_cache()))
            stack.callback(workers[-1].close)
            print(f"ref={tree.label} commit={tree.commit} {workers[-1].fcsim}", flush=True)
        for name, cards, rnd in [case for case in CASES if case[0] in chosen]:
            hands = scratch / f"hands-{cards}.npy"
            times: dict[str, list[float]] = {w.tree.label: [] for w in workers}
            for p in range(args.passes):
                for w in in_turn(workers, p):
                    times[w.tree.label].append(w.time_pass(name, hands))
            for label, got in times.items():
                print(f"case={name} cards={cards} round={rnd} hands={args.hands} ref={label} "
                      f"ns={statistics.median(got) / args.hands * 1e9:.1f} "
                      f"min_ns={min(got) / args.hands * 1e9:.1f}", flush=True)
            if len(workers) == 2:
                mine, theirs = (times[t.label] for t in trees)
                pairs = [a / b for a, b in zip(mine, theirs, strict=True)]
                print(f"case={name} ratio={statistics.median(pairs):.3f} "
                      f"ratio_min={min(mine) / min(theirs):.3f}", flush=True)
        if STARTUP not in chosen:
            return
        startup = {w.tree.label: [] for w in workers}
        for p in range(3):
            for w in in_turn(workers, p):
                startup[w.tree.label].append(w.startup_seconds())
        for label, got in startup.items():
            print(f"case=startup ref={label} s={statistics.median(got):.2f}", flush=True)


if __name__ == "__main__":
    with recording(__file__):
        main()
