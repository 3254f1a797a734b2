"""Kernels linked late: the same answers as the kernel, callers without its code, and
cached callers that load in a fresh process."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
from numba import njit, types

from fcsim.core.cards import N_KINDS, full_deck, parse_hand
from fcsim.core.late_link import late_linked, passes_as
from fcsim.core.solver import (
    discard_kernel,
    discard_kernel_late,
    link_searches,
    new_scratch,
    penalty_kernel,
    penalty_kernel_late,
)
from fcsim.core.tables import solver_table
from tests.compiled import requires_jit

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


@njit
def _as_any_layout(counts, round_number, table, scratch, step):
    """The stub called with layout-'A' arrays (a strided view when ``step`` > 1) and an
    int8 round, as a strategy's decision sees them."""
    hands = np.zeros((1, counts.size * step), np.int8)
    hands[0, ::step] = counts
    return penalty_kernel_late(hands[0, ::step], np.int8(round_number), 20, True,
                               table[:, :], scratch[:])


def test_a_stub_takes_any_layout_and_integer_width_as_its_one_signature() -> None:
    """Arrays of any layout, readonly or not, and integers of any width pass as the
    declared C-contiguous arrays and int64; another dtype or dimension does not."""
    c_hand, a_table = types.Array(types.int8, 1, "C"), types.Array(types.uint8, 2, "A")
    assert passes_as(types.Array(types.int8, 1, "A", readonly=True), c_hand)
    assert passes_as(a_table, types.Array(types.uint8, 2, "C"))
    assert not passes_as(types.Array(types.int16, 1, "C"), c_hand)
    assert not passes_as(types.Array(types.int8, 2, "C"), c_hand)
    assert passes_as(types.int8, types.int64) and passes_as(types.literal(5), types.int64)
    assert passes_as(types.literal(True), types.boolean)
    assert not passes_as(types.float64, types.int64)


def test_contiguous_views_of_any_layout_answer_as_the_kernel() -> None:
    counts = parse_hand("3H 4H 5H 7S 9D 9C KD QS")
    table, scratch = solver_table(), new_scratch()
    assert (_as_any_layout(counts, 5, table, scratch, 1)
            == penalty_kernel(counts, 5, 20, True, table, scratch))


@requires_jit
def test_a_strided_array_is_refused_not_misread() -> None:
    counts = parse_hand("3H 4H 5H 7S 9D 9C KD QS")
    with pytest.raises(ValueError, match="C-contiguous"):
        _as_any_layout(counts, 5, solver_table(), new_scratch(), 2)


@njit
def _double(values):
    return values[0] * 2, values.size


_double_late = late_linked(_double, types.UniTuple(types.int64, 2)(types.int64[::1]))


@njit
def _halve(values):
    return values[0] // 2, values.size


_wrongly_declared = late_linked(_halve, types.float64(types.int64[::1]))


@njit
def _call_double(values):
    return _double_late(values)


@njit
def _call_wrongly_declared(values):
    return _wrongly_declared(values)


@requires_jit
def test_a_kernel_is_compiled_at_its_first_call_not_with_its_callers() -> None:
    """Typing and compiling a caller leaves the kernel alone (so a run can compile the
    kernels elsewhere meanwhile); the first call compiles it, once, for its signature."""
    _call_double.compile((types.Array(types.int64, 1, "A"),))
    assert not _double.overloads
    assert _call_double(np.arange(3, 9)[::1]) == (6, 6)
    assert _call_double(np.arange(4)) == (0, 4)
    assert list(_double.overloads) == [(types.Array(types.int64, 1, "C"),)]


@requires_jit
def test_a_kernel_that_does_not_return_what_was_declared_is_an_error(capfd) -> None:
    with pytest.raises(RuntimeError, match="_halve could not be compiled"):
        _call_wrongly_declared(np.arange(3))
    assert "returns UniTuple(int64 x 2), declared float64" in capfd.readouterr().err


@njit
def _triple(values):
    return values[0] * 3, values.size


_triple_late = late_linked(_triple, types.UniTuple(types.int64, 2)(types.int64[::1]))


@njit
def _call_triple(values):
    return _triple_late(values)


@requires_jit
def test_ctrl_c_while_a_kernel_compiles_at_its_first_call_stays_a_ctrl_c(monkeypatch) -> None:
    """A KeyboardInterrupt cannot cross compiled code from the callback that fills a slot:
    the stub raises it again; the next call compiles the kernel."""
    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setattr(_triple, "compile", interrupted)
    with pytest.raises(KeyboardInterrupt):
        _call_triple(np.arange(1, 4))
    monkeypatch.undo()
    assert _call_triple(np.arange(1, 4)) == (3, 3)


@njit
def _left_alone(values):
    return values[0], values.size


_left_alone_late = late_linked(_left_alone, types.UniTuple(types.int64, 2)(types.int64[::1]))


@requires_jit
def test_a_kernel_is_linked_late_once() -> None:
    """Two stubs of one kernel and signature would share a slot's name: refused."""
    with pytest.raises(ValueError, match="_left_alone is linked late already"):
        late_linked(_left_alone, types.UniTuple(types.int64, 2)(types.int64[::1]))


@requires_jit
def test_linking_the_searches_compiles_them_and_nothing_else() -> None:
    """What a run's first compile asks of its helper process: the solver's two searches,
    not every late kernel of the process (a test's wrongly declared one, say)."""
    link_searches()
    assert penalty_kernel.overloads and discard_kernel.overloads
    assert not _left_alone.overloads


@requires_jit
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
import pytest
from numba import njit, types
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
