"""Pure-Python reference of fcsim's randomness (docs/ENGINE.md, "Randomness").

Written independently of :mod:`fcsim.core.rng`: plain Python ints masked to 64 bits, no
numpy, no numba. It is slow and meant to be obviously correct.
"""

from __future__ import annotations

from typing import Any

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
MIX1 = 0xBF58476D1CE4E5B9
MIX2 = 0x94D049BB133111EB


def splitmix64(x: int) -> int:
    """One splitmix64 output for the 64-bit input ``x``."""
    z = (x + GOLDEN) & MASK64
    z = ((z ^ (z >> 30)) * MIX1) & MASK64
    z = ((z ^ (z >> 27)) * MIX2) & MASK64
    return z ^ (z >> 31)


def game_seed(root_seed: int, game_index: int) -> int:
    """Seed of game ``game_index`` of a run: ``splitmix64(splitmix64(root) ^ index)``."""
    return splitmix64(splitmix64(root_seed & MASK64) ^ (game_index & MASK64))


def stream_seed(seed: int, stream: int) -> int:
    """Seed of sub-stream ``stream`` of a game: ``splitmix64(seed ^ splitmix64(stream))``.

    Stream 0 is the play stream, stream r (1…11) the deal stream of round r.
    """
    return splitmix64((seed & MASK64) ^ splitmix64(stream & MASK64))


def _rotl(x: int, k: int) -> int:
    """Rotate the 64-bit ``x`` left by ``k`` bits."""
    return ((x << k) | (x >> (64 - k))) & MASK64


class Xoshiro256:
    """A xoshiro256** generator whose state is four 64-bit Python ints."""

    def __init__(self, seed: int) -> None:
        """Seed the state with four successive splitmix64 outputs (x, x+φ, x+2φ, x+3φ)."""
        x = seed & MASK64
        self.state: list[int] = []
        for _ in range(4):
            self.state.append(splitmix64(x))
            x = (x + GOLDEN) & MASK64

    @classmethod
    def from_state(cls, state: Any) -> Xoshiro256:
        """A generator continuing from a given state (four 64-bit words, e.g. a ``uint64[4]``
        array of :mod:`fcsim.core.rng`)."""
        gen = cls(0)
        gen.state = [int(word) & MASK64 for word in state]
        return gen

    def next_u64(self) -> int:
        """The next 64-bit output; advances the state."""
        s0, s1, s2, s3 = self.state
        result = (_rotl((s1 * 5) & MASK64, 7) * 9) & MASK64
        t = (s1 << 17) & MASK64
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = _rotl(s3, 45)
        self.state = [s0, s1, s2, s3]
        return result

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``[0, n)``: ``((next_u64() >> 32) * n) >> 32``."""
        if not 1 <= n < 1 << 32:
            raise ValueError(f"randbelow needs 1 <= n < 2**32, not {n}")
        return ((self.next_u64() >> 32) * n) >> 32

    def uniform(self) -> float:
        """A uniform double in ``[0, 1)``: ``(next_u64() >> 11) * 2**-53``."""
        return (self.next_u64() >> 11) * 2.0 ** -53

    def shuffle(self, items: list[Any]) -> None:
        """Fisher–Yates in place: for i = n-1 … 1, swap items[i] and items[randbelow(i+1)]."""
        for i in range(len(items) - 1, 0, -1):
            j = self.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]


# ChaCha20 (RFC 8439, section 2.3), on plain 32-bit Python ints: the one-way seeding of a
# seat's own stream.
MASK32 = (1 << 32) - 1
SIGMA = (0x61707865, 0x3320646E, 0x79622D32, 0x6B206574)  # "expand 32-byte k"
SEAT_DOMAIN = int.from_bytes(b"seat", "little")


def _rotl32(x: int, k: int) -> int:
    return ((x << k) | (x >> (32 - k))) & MASK32


def _quarter(x: list[int], a: int, b: int, c: int, d: int) -> None:
    for p, q, r, k in ((a, b, d, 16), (c, d, b, 12), (a, b, d, 8), (c, d, b, 7)):
        x[p] = (x[p] + x[q]) & MASK32
        x[r] = _rotl32(x[r] ^ x[p], k)


def chacha20_block(key: list[int], counter: int, nonce: list[int]) -> list[int]:
    """The sixteen 32-bit words of the ChaCha20 block of ``key`` (8 words), ``counter`` and
    ``nonce`` (3 words)."""
    initial = [*SIGMA, *key, counter & MASK32, *nonce]
    x = list(initial)
    for _ in range(10):  # 20 rounds: a column round and a diagonal round, ten times
        _quarter(x, 0, 4, 8, 12)
        _quarter(x, 1, 5, 9, 13)
        _quarter(x, 2, 6, 10, 14)
        _quarter(x, 3, 7, 11, 15)
        _quarter(x, 0, 5, 10, 15)
        _quarter(x, 1, 6, 11, 12)
        _quarter(x, 2, 7, 8, 13)
        _quarter(x, 3, 4, 9, 14)
    return [(a + b) & MASK32 for a, b in zip(x, initial, strict=True)]


def seat_stream(seed: int, seat: int) -> Xoshiro256:
    """Seat ``seat``'s own stream of the game seeded ``seed``: a generator whose state is
    the first eight words of the ChaCha20 block keyed by the seed (low, then high 32 bits;
    zeros after), counter 0, nonce ``(seat, "seat", 0)``, taken in pairs, low word first."""
    seed &= MASK64
    block = chacha20_block([seed & MASK32, seed >> 32, 0, 0, 0, 0, 0, 0], 0,
                           [seat, SEAT_DOMAIN, 0])
    return Xoshiro256.from_state([block[2 * i] | block[2 * i + 1] << 32 for i in range(4)])
