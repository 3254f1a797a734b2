"""Counter-based randomness: every game draws from its own generator, seeded from
(root seed, game index), so any chunking on any number of workers replays the same games.

The generator is xoshiro256** (Blackman & Vigna), seeded by splitmix64. Its state is a
``uint64[STATE_WORDS]`` array passed explicitly to every kernel that needs randomness; nothing in
fcsim uses global random state.
"""

from __future__ import annotations

import numpy as np
from numba import njit

STATE_WORDS = 4  # a generator's state: xoshiro256**'s four 64-bit words
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_U32 = np.uint64(32)
_FLOAT_SHIFT = np.uint64(11)  # uniform(): the top 53 bits of an output …
_FLOAT_UNIT = 2.0 ** -53  # … times 2**-53, a double in [0, 1)


@njit(cache=True)
def splitmix64(x: np.uint64) -> np.uint64:
    """One splitmix64 output for input ``x`` (a bijective 64-bit mix)."""
    z = np.uint64(x) + _GOLDEN
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def game_seed(root_seed: np.uint64, game_index: np.uint64) -> np.uint64:
    """The seed of game ``game_index`` of a run: ``splitmix64(splitmix64(root) ^ index)``."""
    return splitmix64(splitmix64(np.uint64(root_seed)) ^ np.uint64(game_index))


@njit(cache=True)
def seed_state(state: np.ndarray, seed: np.uint64) -> None:
    """Fill ``state`` (``uint64[STATE_WORDS]``) from ``seed`` with successive splitmix64
    outputs."""
    x = np.uint64(seed)
    for i in range(STATE_WORDS):
        state[i] = splitmix64(x)
        x = x + _GOLDEN


@njit(cache=True)
def _rotl(x: np.uint64, k: int) -> np.uint64:
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit(cache=True)
def next_u64(state: np.ndarray) -> np.uint64:
    """The next xoshiro256** output; advances ``state`` (``uint64[4]``) in place."""
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    result = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    state[0], state[1], state[2], state[3] = s0, s1, s2, s3
    return result


@njit(cache=True)
def randbelow(state: np.ndarray, n: int) -> int:
    """A uniform integer in ``[0, n)`` for ``1 <= n < 2**32``: ``((x >> 32) * n) >> 32``."""
    return int(((next_u64(state) >> _U32) * np.uint64(n)) >> _U32)


@njit(cache=True)
def unit_double(x: np.uint64) -> float:
    """The double in ``[0, 1)`` of a 64-bit output ``x``: ``(x >> 11) * 2**-53`` (exact)."""
    return float(x >> _FLOAT_SHIFT) * _FLOAT_UNIT


@njit(cache=True)
def uniform(state: np.ndarray) -> float:
    """A uniform double in ``[0, 1)`` from the next output (:func:`unit_double`)."""
    return unit_double(next_u64(state))


@njit(cache=True)
def shuffle(state: np.ndarray, items: np.ndarray, n: int) -> None:
    """Fisher–Yates shuffle of ``items[:n]`` in place.

    For i = n-1 … 1: swap ``items[i]`` with ``items[randbelow(i + 1)]``.
    """
    for i in range(n - 1, 0, -1):
        j = randbelow(state, i + 1)
        items[i], items[j] = items[j], items[i]


def new_state(seed: int) -> np.ndarray:
    """A fresh generator state seeded from ``seed`` (Python convenience)."""
    state = np.zeros(STATE_WORDS, dtype=np.uint64)
    seed_state(state, np.uint64(seed % 2**64))
    return state


@njit(cache=True)
def stream_seed(seed: np.uint64, stream: int) -> np.uint64:
    """The seed of sub-stream ``stream`` of a game: ``splitmix64(seed ^ splitmix64(stream))``.

    Stream 0 drives play (reshuffles, strategies' own choices); stream r (1–11) shuffles
    the deck of round r, so a deal does not depend on how the earlier rounds were played.
    """
    return splitmix64(np.uint64(seed) ^ splitmix64(np.uint64(stream)))
