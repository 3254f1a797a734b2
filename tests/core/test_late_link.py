"""Kernels linked late: the same answers as the kernel, callers without its code, and
cached callers that load in a fresh process."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
from numba import njit

from fcsim.core.cards import N_KINDS, full_deck, parse_hand
from fcsim.core.solver import (
    discard_kernel,
    discard_kernel_late,
    new_scratch,
    penalty_kernel,
    penalty_kernel_late,
)
from fcsim.core.tables import solver_table

HUGE = 1 << 30


def random_hand(rng: np.random.Generator, size: int) -> np.ndarray:
    """The counts of ``size`` cards dealt from a shuffled deck."""
    return np.bincount(rng.permutation(full_deck())[:size], minlength=N_KINDS).astype(np.int8)


@njit
def _through_stubs(counts, round_number, table, scratch):
    pen = penalty_kernel_late(counts, round_number, 20, True, table, scratch)
    best = discard_kernel_late(counts, round_number, 20, True, table, scratch, -1, HUGE)
    return pen, best


@njit
def _twice(counts, table, scratch):
    first = penalty_kernel_late(counts, 5, 20, True, table, scratch)[0]
    counts[0] += 1
    second = penalty_kernel_late(counts, 5, 20, True, table, scratch)[0]
    counts[0] -= 1
    return first, second


def test_one_stub_called_twice_in_a_function() -> None:
    counts = parse_hand("3H 4H 5H 7S 9D 9C KD QS")
    table, scratch = solver_table(), new_scratch()
    first, second = _twice(counts, table, scratch)
    assert first == penalty_kernel(counts, 5, 20, True, table, scratch)[0]
    counts[0] += 1
    assert second == penalty_kernel(counts, 5, 20, True, table, scratch)[0]


def test_stubs_answer_as_the_kernels() -> None:
    rng = np.random.default_rng(3)
    table, scratch = solver_table(), new_scratch()
    for round_number in (1, 5, 11):
        for _ in range(20):
            counts = random_hand(rng, round_number + 3)
            pen, best = _through_stubs(counts, round_number, table, scratch)
            assert pen == penalty_kernel(counts, round_number, 20, True, table, scratch)
            assert best == discard_kernel(counts, round_number, 20, True, table, scratch, -1,
                                          HUGE)


def test_a_caller_carries_none_of_the_kernels_code() -> None:
    counts = parse_hand("3H 4H 5H 7S 9D 9C KD QS")
    _through_stubs(counts, 5, solver_table(), new_scratch())
    caller = _through_stubs.overloads[_through_stubs.signatures[0]].library
    # Linked the usual way, the searches' code makes a caller's module about 500,000
    # characters of LLVM IR (and 20-35 s to compile).
    assert len(caller.get_llvm_str()) < 100_000


WARM = """
from fcsim.core.cards import parse_hand
from fcsim.core.solver import new_scratch, penalty_memo
from fcsim.core.tables import solver_table

penalty_memo(parse_hand("3H 4H"), 5, 20, True, solver_table(), new_scratch())
"""

CALLER = """
import numpy as np
from numba import njit
from fcsim.core.cards import parse_hand
from fcsim.core.solver import new_scratch, penalty_memo
from fcsim.core.tables import solver_table

@njit(cache=True)
def caller(counts, table, scratch):
    return penalty_memo(counts, 5, 20, True, table, scratch)[0]

print(caller(parse_hand("3H 4H 5H 7S 9D 9C KD QS"), solver_table(), new_scratch()))
"""


def test_a_cached_caller_loads_in_a_fresh_process(tmp_path) -> None:
    """A caller compiled on top of a library loaded from the cache, then loaded from the
    cache itself, finds its slot filled (numba aborts on an unresolved symbol)."""
    (tmp_path / "warm.py").write_text(WARM)
    # A new caller each run (its cache is keyed on its source).
    (tmp_path / "late_caller.py").write_text(f"# {tmp_path}{CALLER}")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path])}

    def run(module: str) -> str:
        done = subprocess.run([sys.executable, "-c", f"import {module}"], env=env,
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr[-2000:]
        return done.stdout.strip()

    run("warm")  # penalty_memo in the cache
    answers = [run("late_caller") for _ in range(2)]  # compiled and cached, then loaded
    expected = penalty_kernel(parse_hand("3H 4H 5H 7S 9D 9C KD QS"), 5, 20, True,
                              solver_table(), new_scratch())[0]
    assert answers == [str(expected)] * 2
