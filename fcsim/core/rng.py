"""Counter-based randomness: every game draws from its own generator, seeded from
(root seed, game index), so any chunking on any number of workers replays the same games.

The generator is xoshiro256** (Blackman & Vigna), seeded by splitmix64. Its state is a
``uint64[STATE_WORDS]`` array passed explicitly to every kernel that needs randomness; nothing in
fcsim uses global random state.

Splitmix64 and xoshiro256** can be run backwards, so the streams the engine keeps (the deals,
the reshuffles) are worked out of any one of them. The streams a seat's strategy draws from
are therefore seeded through ChaCha20 (RFC 8439) keyed by the game seed: one-way, so what a
strategy can read of its own stream tells it nothing of the deals or of another seat's stream.
"""

from __future__ import annotations

import numpy as np
from numba import njit

STATE_WORDS = 4  # a generator's state: xoshiro256**'s four 64-bit words
CHACHA_WORDS = 16  # a ChaCha20 block: sixteen 32-bit words
CHACHA_KEY_WORDS = 8  # a ChaCha20 key: eight 32-bit words (256 bits)
CHACHA_NONCE_WORDS = 3  # a ChaCha20 nonce: three 32-bit words (96 bits)
_CHACHA_SIGMA = (0x61707865, 0x3320646E, 0x79622D32, 0x6B206574)  # "expand 32-byte k"
_CHACHA_KEY_AT, _CHACHA_COUNTER_AT, _CHACHA_NONCE_AT = 4, 12, 13  # a block's words: after sigma
_CHACHA_DOUBLE_ROUNDS = 10  # ChaCha20: 20 rounds
_WORD32 = np.uint64(0xFFFFFFFF)
SEAT_STREAM_DOMAIN = 0x74616573  # "seat": a seat stream's nonce word 1, apart from any other use
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


@njit(cache=True)
def _rotl32(x: np.uint64, k: int) -> np.uint64:
    return ((x << np.uint64(k)) | (x >> np.uint64(32 - k))) & _WORD32


@njit(cache=True)
def _quarter_round(x: np.ndarray, a: int, b: int, c: int, d: int) -> None:
    x[a] = (x[a] + x[b]) & _WORD32
    x[d] = _rotl32(x[d] ^ x[a], 16)
    x[c] = (x[c] + x[d]) & _WORD32
    x[b] = _rotl32(x[b] ^ x[c], 12)
    x[a] = (x[a] + x[b]) & _WORD32
    x[d] = _rotl32(x[d] ^ x[a], 8)
    x[c] = (x[c] + x[d]) & _WORD32
    x[b] = _rotl32(x[b] ^ x[c], 7)


@njit(cache=True)
def chacha20_block(key: np.ndarray, counter: int, nonce: np.ndarray, out: np.ndarray) -> None:
    """The ChaCha20 block function of RFC 8439 (section 2.3), into ``out``.

    ``key`` uint64[8] and ``nonce`` uint64[3] hold 32-bit words (the little-endian words of
    the RFC's byte strings); ``out`` uint64[16] gets the block's sixteen 32-bit words.
    """
    for i in range(_CHACHA_KEY_AT):
        out[i] = np.uint64(_CHACHA_SIGMA[i])
    for i in range(CHACHA_KEY_WORDS):
        out[_CHACHA_KEY_AT + i] = np.uint64(key[i]) & _WORD32
    out[_CHACHA_COUNTER_AT] = np.uint64(counter) & _WORD32
    for i in range(CHACHA_NONCE_WORDS):
        out[_CHACHA_NONCE_AT + i] = np.uint64(nonce[i]) & _WORD32
    initial = out.copy()
    for _ in range(_CHACHA_DOUBLE_ROUNDS):
        _quarter_round(out, 0, 4, 8, 12)
        _quarter_round(out, 1, 5, 9, 13)
        _quarter_round(out, 2, 6, 10, 14)
        _quarter_round(out, 3, 7, 11, 15)
        _quarter_round(out, 0, 5, 10, 15)
        _quarter_round(out, 1, 6, 11, 12)
        _quarter_round(out, 2, 7, 8, 13)
        _quarter_round(out, 3, 4, 9, 14)
    for i in range(CHACHA_WORDS):
        out[i] = (out[i] + initial[i]) & _WORD32


@njit(cache=True)
def seed_seat_stream(state: np.ndarray, seed: np.uint64, seat: int) -> None:
    """Fill ``state`` (``uint64[STATE_WORDS]``) with seat ``seat``'s stream of the game
    seeded ``seed``: the first eight words of the ChaCha20 block keyed by the seed (its low
    and high 32 bits, then zeros), block counter 0, nonce ``(seat, SEAT_STREAM_DOMAIN, 0)``,
    read in pairs (low word first)."""
    key = np.zeros(CHACHA_KEY_WORDS, dtype=np.uint64)
    key[0] = np.uint64(seed) & _WORD32
    key[1] = np.uint64(seed) >> np.uint64(32)
    nonce = np.zeros(CHACHA_NONCE_WORDS, dtype=np.uint64)
    nonce[0] = np.uint64(seat)
    nonce[1] = np.uint64(SEAT_STREAM_DOMAIN)
    block = np.empty(CHACHA_WORDS, dtype=np.uint64)
    chacha20_block(key, 0, nonce, block)
    for i in range(STATE_WORDS):
        state[i] = block[2 * i] | (block[2 * i + 1] << np.uint64(32))
