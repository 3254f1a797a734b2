"""Time to the first game after an edit: of a strategy plug-in, and of ``greedy.py``.

A strategy author edits a file and plays a game again; this is how long that takes. Each
tree (this working tree and, with ``--against REF``, the fcsim of a git ref) is copied to
a temporary folder and warmed once (not timed): this tree with a copy of the usual kernel
cache (kernels there are keyed on their sources, so a copy of the tree finds its own; the
edits compile into the copy, never into the usual cache), a ref with a cache folder of its
own (a cold compile). Then, for each case, one file is edited (a comment line appended,
marked with a token of this run: content no run had before, so a new digest and a new
modification time, never kernels a past run left cached) and a fresh process is timed
from its start to the end of its first game (a plug-in strategy against ``greedy``, two
players); the edit is undone before the next case. Prints one stable line per tree, case
and repeat::

    tree=working-tree commit=… case=plugin wall_s=… cpu_s=…

``case=none`` is the same process with nothing edited (everything loaded from the
cache). ``cpu_s`` is the process's user + system time: on a shared, loaded machine it is
the steadier figure. Trees are measured in turn within each repeat (side by side)::

    python scripts/bench_edit.py --against 902eb15 --repeat 3
"""

from __future__ import annotations

import argparse
import itertools
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from arguments import at_least, summary
from bench_page import recording
from checkout import commit_of

from fcsim._numba_cache import cache_root

REPO = Path(__file__).resolve().parents[1]
WORKING_TREE = "working-tree"
PLUGIN = "fcsim_bench_plugin"
OTHER_TREES_KERNELS = "against"  # in the usual cache: the kernels of refs (checkout.py)
# A numba plug-in in the style of the scaffold's starter (it calls a solver helper); it
# also runs on fcsim before lazy compilation, when decisions were compiled at import.
PLUGIN_SOURCE = '''
from fcsim.strategies.base import (DECISION_SIGNATURE, I_ALL_WILD, I_BEST_DISCARD,
                                   I_ROUND, I_WILD_POINTS)
from fcsim.strategies.candidates import pile_outlook
from fcsim.strategies.registry import Family, Param, register

try:
    from fcsim.strategies.base import decision
except ImportError:  # fcsim before lazy compilation
    from numba import njit

    decision = njit(DECISION_SIGNATURE, cache=True)


@decision
def draw(hand, pile, known, info, hidden, params, table, scratch, rng):
    now, after = pile_outlook(hand, pile, info[I_ROUND], info[I_WILD_POINTS],
                              info[I_ALL_WILD] == 1, table, scratch)
    return 1 if after < now - params[0] - 1 else 0


@decision
def discard(hand, pile, known, info, hidden, params, table, scratch, rng):
    return info[I_BEST_DISCARD]


FAMILY = register(Family("benchplugin", "greedy that asks one point more", draw, discard,
                         (Param("take_margin", 0, "points", low=0, high=100),)))
'''
FIRST_GAME = f'''
import numpy as np
import {PLUGIN}  # registers the plug-in
from fcsim.core.engine import play_games
from fcsim.core.rules import RuleSet
from fcsim.strategies import parse_strategy

strategies = [parse_strategy("benchplugin"), parse_strategy("greedy")]
play_games(np.array([7], np.uint64), np.array([[0, 1]], np.int8), strategies,
           RuleSet(players=2))
'''


@dataclass(frozen=True)
class Tree:
    """A private copy of one fcsim: its label, folder, commit, and its own cache."""

    label: str
    commit: str
    root: Path

    @property
    def cache(self) -> Path:
        return self.root / "cache"

    @property
    def plugin(self) -> Path:
        return self.root / "plugin" / f"{PLUGIN}.py"

    @property
    def greedy(self) -> Path:
        return self.root / "src" / "fcsim" / "strategies" / "greedy.py"

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
        env["PYTHONPATH"] = f"{self.root / 'src'}:{self.plugin.parent}"
        env["FCSIM_CACHE_DIR"] = str(self.cache)
        return env


def _git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=REPO, check=True, capture_output=True,
                          text=True).stdout.strip()


def make_tree(label: str, ref: str | None, parent: Path) -> Tree:
    """A copy of this working tree's ``fcsim/`` (``ref`` None) or of ``ref``'s."""
    root = parent / label.replace("/", "_")
    src = root / "src"
    src.mkdir(parents=True)
    if ref is None:
        shutil.copytree(REPO / "fcsim", src / "fcsim",
                        ignore=shutil.ignore_patterns("__pycache__"))
        if cache_root().is_dir():  # the kernels and tables this tree has compiled
            shutil.copytree(cache_root(), root / "cache",
                            ignore=shutil.ignore_patterns(OTHER_TREES_KERNELS))
        dirty = "-dirty" if _git("status", "--porcelain", "--untracked-files=no") else ""
        commit = _git("rev-parse", "--short", "HEAD") + dirty
    else:
        commit = commit_of(ref)
        archive = subprocess.run(["git", "archive", commit, "fcsim"], cwd=REPO, check=True,
                                 capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(src)], input=archive, check=True)
    tree = Tree(label, commit, root)
    tree.plugin.parent.mkdir()
    tree.plugin.write_text(textwrap.dedent(PLUGIN_SOURCE))
    return tree


def first_game(tree: Tree) -> tuple[float, float]:
    """Wall and CPU seconds of a fresh process playing its first game."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", FIRST_GAME], env=tree.env(), cwd=tree.root,
                   check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def edit_marks() -> Iterator[str]:
    """The marks of one run's edits: a token of the run and a count. The kernel cache is
    keyed on content, so an edit an earlier run had made would be served from it."""
    token = uuid.uuid4().hex
    return (f"{token}-{n}" for n in itertools.count(1))


def timed_edit(tree: Tree, case: str, mark: str) -> tuple[float, float]:
    """Edit the file of ``case`` (``none``: nothing), time the first game, undo the edit."""
    if case == "none":
        return first_game(tree)
    path = tree.plugin if case == "plugin" else tree.greedy
    original = path.read_text()
    path.write_text(f"{original}\n# edit {mark}\n")
    try:
        return first_game(tree)
    finally:
        path.write_text(original)


def main() -> None:
    parser = argparse.ArgumentParser(description=summary(__doc__))
    parser.add_argument("--against", metavar="REF",
                        help="also measure the fcsim of this git ref (e.g. 902eb15)")
    parser.add_argument("--repeat", type=at_least(1), default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="fcsim_bench_edit_") as temp:
        trees = [make_tree(WORKING_TREE, None, Path(temp))]
        if args.against:
            trees.append(make_tree(args.against, args.against, Path(temp)))
        for tree in trees:
            first_game(tree)  # warm the tree's cache (not timed)
        marks = edit_marks()
        for _ in range(args.repeat):
            for case in ("none", "plugin", "greedy"):
                for tree in trees:
                    wall, cpu = timed_edit(tree, case, next(marks))
                    print(f"tree={tree.label} commit={tree.commit} case={case} "
                          f"wall_s={wall:.2f} cpu_s={cpu:.2f}", flush=True)


if __name__ == "__main__":
    with recording(__file__):
        main()
