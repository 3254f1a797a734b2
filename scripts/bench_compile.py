"""Cold compile time of the solver's entry points: each in a fresh process, empty caches.

Prints one stable ``key=value`` line per case and tree::

    case=min_penalty ref=working-tree passes=… wall_s=… cpu_s=…

Each case runs in a new process whose ``FCSIM_CACHE_DIR`` holds the solver's tables and no
compiled kernel, and times one first call (the compile, then one solve), CPU and wall:

* ``table``: building the solver's tables (the ``tables`` kernel, then about a second);
  this one starts from an empty folder;
* ``min_penalty``, ``best_discard``: the Python API (``penalty_kernel``, then the one-pass
  discard search with everything it calls);
* ``penalty_memo``, ``discard_memo``: the memoised kernels the engine and the strategies
  call, from Python with plain arrays;
* ``solver``: all four above one after the other in one process (the solver's share of a
  game's cold start);
* ``game`` (not run unless asked): the engine warmed up for the README's table (its
  strategies compile when first used), everything a simulation compiles.

``--against REF`` measures the same cases for git ref ``REF`` (see ``checkout.py``),
interleaved with this tree's, and adds a line of ratios (this tree / REF) per case::

    case=min_penalty ratio_cpu=… ratio_wall=…

``--passes N`` repeats every case (the figure is the median).
"""

from __future__ import annotations

import argparse
import contextlib
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from arguments import at_least, names_of, summary
from bench_page import recording
from checkout import Tree, in_turn, ref_tree, working_tree

_SETUP = """
import time, numpy as np
from fcsim.core.cards import parse_hand
from fcsim.core.tables import solver_table
table = solver_table()
hand = parse_hand("9H JS 7D JK 3H 4H 7S KD")
scratch = np.zeros(1, np.int64)
"""
_START = "wall, cpu = time.perf_counter(), time.process_time()\n"
_MIN_PENALTY = "import fcsim; fcsim.min_penalty('9H JS 7D JK 3H 4H 7S', 5)\n"
_BEST_DISCARD = "import fcsim; fcsim.best_discard('9H JS 7D JK 3H 4H 7S KD', 5)\n"
_PENALTY_MEMO = ("from fcsim.core.solver import SCRATCH_SIZE, penalty_memo\n"
                 "scratch = np.zeros(SCRATCH_SIZE, np.int64)\n"
                 "penalty_memo(hand, 5, 20, True, table, scratch)\n")
_DISCARD_MEMO = ("from fcsim.core.solver import SCRATCH_SIZE, discard_memo\n"
                 "scratch = np.zeros(SCRATCH_SIZE, np.int64)\n"
                 "discard_memo(hand, 5, 20, True, table, scratch, -1, 1 << 30, np.uint64(1))\n")
_GAME = ("from fcsim.core.engine import warm_up\n"
         "from fcsim.core.rules import RuleSet\n"
         "import fcsim.strategies\n"
         "warm_up(fcsim.strategies.parse_strategies('greedy,expected,random,random'),"
         " RuleSet())\n")
_TABLE_ONLY = "from fcsim.core.tables import solver_table\nsolver_table()\n"
CASES = {
    "table": _TABLE_ONLY,
    "min_penalty": _MIN_PENALTY,
    "best_discard": _BEST_DISCARD,
    "penalty_memo": _PENALTY_MEMO,
    "discard_memo": _DISCARD_MEMO,
    "solver": _MIN_PENALTY + _BEST_DISCARD + _PENALTY_MEMO + _DISCARD_MEMO,
    "game": _GAME,
}
DEFAULT_CASES = [c for c in CASES if c != "game"]
_REPORT = ("print(f'wall_s={time.perf_counter() - wall:.2f} "
           "cpu_s={time.process_time() - cpu:.2f}')\n")


def measure(tree: Tree, case: str, tables: Path, scratch: Path) -> dict[str, float]:
    """One cold run of ``case`` on ``tree``: its ``wall_s`` and ``cpu_s``."""
    cache = Path(tempfile.mkdtemp(prefix="cache_", dir=scratch))
    if case == "table":
        code = "import time\n" + _START + CASES[case]
    else:
        for table in tables.glob("*.npy"):  # the tables, but no compiled kernel
            shutil.copy(table, cache)
        code = _SETUP + _START + CASES[case]
    try:
        out = subprocess.run([sys.executable, "-c", code + _REPORT], env=tree.env(cache),
                             cwd=scratch, check=True, capture_output=True, text=True).stdout
    except subprocess.CalledProcessError as err:
        sys.exit(f"case {case} failed on {tree.label}:\n{err.stderr}")
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    return {k: float(v) for k, v in (pair.split("=") for pair in out.split()[-2:])}


def build_tables(tree: Tree, folder: Path) -> None:
    """Build ``tree``'s solver tables once into ``folder`` (copied into every case's cache)."""
    subprocess.run([sys.executable, "-c", _TABLE_ONLY], env=tree.env(folder), check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=summary(__doc__))
    parser.add_argument("--against", metavar="REF", help="also measure git ref REF")
    parser.add_argument("--passes", type=at_least(1), default=1)
    parser.add_argument("--cases", type=names_of(CASES), default=list(DEFAULT_CASES),
                        help=f"comma-separated, of: {', '.join(CASES)}")
    args = parser.parse_args()
    with contextlib.ExitStack() as stack:
        trees = [working_tree()]
        if args.against:
            trees.append(stack.enter_context(ref_tree(args.against)))
        scratch = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="bench_cc_")))
        for tree in trees:
            print(f"ref={tree.label} commit={tree.commit}", flush=True)
            build_tables(tree, scratch / f"tables-{trees.index(tree)}")
        runs: dict[tuple[str, str], list[dict[str, float]]] = {}
        for case in args.cases:
            for p in range(args.passes):
                for tree in in_turn(trees, p):
                    tables = scratch / f"tables-{trees.index(tree)}"
                    runs.setdefault((case, tree.label), []).append(
                        measure(tree, case, tables, scratch))
            medians = {}
            for tree in trees:
                got = runs[case, tree.label]
                medians[tree.label] = {k: statistics.median(r[k] for r in got) for k in got[0]}
                print(f"case={case} ref={tree.label} passes={len(got)} "
                      f"wall_s={medians[tree.label]['wall_s']:.2f} "
                      f"cpu_s={medians[tree.label]['cpu_s']:.2f}", flush=True)
            if len(trees) == 2:
                mine, theirs = medians[trees[0].label], medians[trees[1].label]
                print(f"case={case} ratio_cpu={mine['cpu_s'] / theirs['cpu_s']:.2f} "
                      f"ratio_wall={mine['wall_s'] / theirs['wall_s']:.2f}", flush=True)


if __name__ == "__main__":
    with recording(__file__):
        main()
