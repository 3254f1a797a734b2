"""``kernel``: one compile per canonical signature, whatever the callers pass."""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.core import config

from fcsim.core import jit
from fcsim.core.jit import canonical, kernel


def scaled_sum(values, factor, offset):
    total = 0
    for i in range(values.shape[0]):
        total += values[i] * factor
    return total + offset


def test_canonical_types() -> None:
    assert canonical(types.literal(3)) == types.int64
    assert canonical(types.int8) == canonical(types.uint32) == types.int64
    assert canonical(types.uint64) == types.uint64
    assert canonical(types.boolean) == types.boolean
    assert canonical(types.int8[::1]) == types.int8[:]
    assert canonical(types.float64) == types.float64


def test_one_compile_for_every_kind_of_call() -> None:
    """From Python and from numba, with contiguous arrays, strided views, narrow integers
    and constants: one signature, the right answers."""
    fn = kernel(scaled_sum)

    @njit
    def caller(values):
        return fn(values, 3, np.int8(2)) + fn(values[::2], np.int8(1), 5)

    values = np.arange(10, dtype=np.int8)
    assert caller(values) == 3 * 45 + 2 + 20 + 5
    assert fn(values, 2, 1) == fn(values, np.int8(2), 1) == 91
    assert fn(values[::2], np.int64(2), np.uint16(1)) == 41
    assert len(fn.signatures) == 1
    assert fn.signatures[0] == (types.int8[:], types.int64, types.int64)


def test_python_calls_take_the_fast_path_after_the_first() -> None:
    """A repeated Python call with the same types does not go back to the compiler."""
    fn = kernel(scaled_sum)
    values = np.arange(4, dtype=np.int8)
    fn(values, np.int8(1), 0)
    asked = []
    original = fn._compile_for_args
    fn._compile_for_args = lambda *args: asked.append(args) or original(*args)
    for _ in range(3):
        assert fn(values, np.int8(1), 0) == 6
    assert asked == []


def test_disabled_jit_gives_the_python_function(monkeypatch) -> None:
    monkeypatch.setattr(config, "DISABLE_JIT", True)
    assert jit.kernel(scaled_sum) is scaled_sum
