"""The kernels' bit tricks."""

from __future__ import annotations

import numpy as np

from fcsim.core.solver.bits import BYTE_LSB, byte_bits, lowest_bit


def test_lowest_bit() -> None:
    for k in range(32):
        assert lowest_bit((1 << k) | (1 << 31)) == k


def test_byte_bits_gathers_bit_zero_of_each_byte() -> None:
    rng = np.random.default_rng(8)
    for _ in range(200):
        word = int(rng.integers(0, 2**63)) & BYTE_LSB
        assert byte_bits(word) == sum(1 << i for i in range(8) if word >> (8 * i) & 1)
