"""Bit tricks of the kernels: the low bits of a word's bytes gathered, the lowest set bit."""

from __future__ import annotations

import numpy as np
from numba import njit

from fcsim.core.solver.layout import ix

BYTE_BITS = 8
BYTE_LSB = 0x0101010101010101  # bit 0 of each byte of a word

# The 32-bit de Bruijn sequence 0x077CB531: the top 5 bits of 2**k times it (k < 32) are
# distinct, so they tell k.
_DE_BRUIJN = 0x077CB531
_DE_BRUIJN_POS = np.array(sorted(range(32), key=lambda k: ((_DE_BRUIJN << k) & 0xFFFFFFFF) >> 27),
                          dtype=np.int64)


@njit(cache=True, inline="always")
def byte_bits(bits: int) -> int:
    """Bit 0 of each byte of a word, gathered into 8 bits (shifts only: numba's integer
    products may not overflow, so the usual multiply trick is out)."""
    bits = (bits | (bits >> 7)) & 0x0003000300030003
    bits = (bits | (bits >> 14)) & 0x0000000F0000000F
    return (bits | (bits >> 28)) & 0xFF


@njit(cache=True, inline="always")
def lowest_bit(bits: int) -> int:
    """The position of the lowest set bit of ``bits`` (non-zero, below bit 32)."""
    return _DE_BRUIJN_POS[ix((((bits & -bits) * _DE_BRUIJN) & 0xFFFFFFFF) >> 27)]
