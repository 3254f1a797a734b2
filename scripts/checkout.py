"""The trees a benchmark compares: this working tree, and a git ref checked out beside it.

``--against REF`` in the benchmarks runs the same cases on the fcsim of ``REF`` (a
temporary, detached ``git worktree``, removed afterwards) and on this working tree
(uncommitted changes included), each in processes of its own with its own
``FCSIM_CACHE_DIR``, so neither loads the other's compiled kernels or tables. The fcsim
these scripts import themselves is the one on ``PYTHONPATH`` (``export PYTHONPATH=$PWD``).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from fcsim._numba_cache import cache_root

REPO = Path(__file__).resolve().parents[1]
WORKING_TREE = "working-tree"  # the label of this tree in the output


@dataclass(frozen=True)
class Tree:
    """A checkout of fcsim a benchmark runs: its label in the output, its folder, its commit."""

    label: str
    path: Path
    commit: str

    def kept_cache(self) -> Path:
        """Where this tree's kernels stay cached between runs: the usual cache for this
        tree (kernels there are keyed on their sources), a folder per commit for a ref."""
        root = cache_root()
        return root if self.label == WORKING_TREE else root / "against" / self.commit

    def env(self, cache_dir: Path) -> dict[str, str]:
        """The environment of a process running this tree's fcsim with caches in
        ``cache_dir`` (``PYTHONPATH`` first, so it wins over any installed fcsim)."""
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([str(self.path), env.get("PYTHONPATH", "")])
        env["FCSIM_CACHE_DIR"] = str(cache_dir)
        env.pop("NUMBA_CACHE_DIR", None)  # it would put both trees' kernels in one place
        return env


def _git(*args: str, cwd: Path = REPO) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True,
                          text=True).stdout.strip()


def commit_of(ref: str) -> str:
    """The short commit ``ref`` names; a ref that names none stops the script in one line."""
    try:
        return _git("rev-parse", "--short", "--verify", f"{ref}^{{commit}}")
    except subprocess.CalledProcessError:
        sys.exit(f"--against {ref}: not a commit of this repository")


def working_tree() -> Tree:
    """This tree, labelled ``working-tree``; its commit is HEAD (+ ``-dirty`` if changed)."""
    dirty = "-dirty" if _git("status", "--porcelain", "--untracked-files=no") else ""
    return Tree(WORKING_TREE, REPO, _git("rev-parse", "--short", "HEAD") + dirty)


@contextmanager
def ref_tree(ref: str) -> Iterator[Tree]:
    """``ref`` checked out in a temporary detached worktree, labelled ``ref`` as given."""
    commit = commit_of(ref)
    with tempfile.TemporaryDirectory(prefix="fcsim_ref_") as parent:
        path = Path(parent) / "tree"
        _git("worktree", "add", "--detach", "--quiet", str(path), commit)
        try:
            yield Tree(ref, path, commit)
        finally:
            _git("worktree", "remove", "--force", str(path))


Side = TypeVar("Side")


def in_turn(sides: Sequence[Side], n: int) -> list[Side]:
    """The order the sides of a comparison are measured in on pass ``n`` (from 0): A B,
    B A, B A, A B, and again, so that a drift in the machine's load falls on both alike."""
    return list(sides) if n % 4 in (0, 3) else list(sides)[::-1]
