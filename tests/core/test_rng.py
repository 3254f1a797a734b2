"""fcsim.core.rng against the pure-Python reference (tests/reference/rng.py) and against
known answers, so that the two cannot drift together."""

from __future__ import annotations

import random

import numpy as np
import pytest

from fcsim.core import rng as fast
from fcsim.core.cards import DECK_SIZE
from tests.reference import rng as ref

SEEDS = [0, 1, 2, 42, 2**32 - 1, 2**63, 2**64 - 1] + [
    random.Random(7).getrandbits(64) for _ in range(60)
]


def test_splitmix64_known_answers() -> None:
    """The published splitmix64 sequence of seed 0 is what seeding a state with 0 gives."""
    published = [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F,
                 0xF88BB8A8724C81EC]
    assert int(fast.splitmix64(np.uint64(0))) == ref.splitmix64(0) == published[0]
    assert [int(x) for x in fast.new_state(0)] == ref.Xoshiro256(0).state == published


def test_xoshiro256_known_answers() -> None:
    """The published xoshiro256** outputs from the state (1, 2, 3, 4)."""
    published = [11520, 0, 1509978240, 1215971899390074240]
    state = np.array([1, 2, 3, 4], dtype=np.uint64)
    assert [int(fast.next_u64(state)) for _ in range(4)] == published
    gen = ref.Xoshiro256.from_state([1, 2, 3, 4])
    assert [gen.next_u64() for _ in range(4)] == published


def test_seeds_randbelow_and_shuffle_known_answers() -> None:
    """Values pinned at this commit: a change of any of them changes every game."""
    assert int(fast.game_seed(np.uint64(7), np.uint64(1))) == 0x3D41BF495CD3075F
    assert int(fast.stream_seed(np.uint64(2**64 - 1), 11)) == 0xB3058F6628BD7B27
    state = fast.new_state(2024)
    assert [fast.randbelow(state, n) for n in (2, 3, 14, 116, 2**32 - 1)] == [
        0, 2, 1, 18, 3322803121]
    items = np.arange(10, dtype=np.int64)
    fast.shuffle(fast.new_state(7), items, 10)
    assert items.tolist() == [1, 8, 3, 0, 4, 5, 9, 6, 2, 7]


def test_new_state_reads_any_int_modulo_2_64() -> None:
    assert np.array_equal(fast.new_state(-1), fast.new_state(2**64 - 1))
    assert np.array_equal(fast.new_state(2**64 + 5), fast.new_state(5))


def test_u64_and_seeds_match_the_reference() -> None:
    for seed in SEEDS:
        assert ref.splitmix64(seed) == int(fast.splitmix64(np.uint64(seed)))
        for k in (0, 1, 5, 11, 2**64 - 1):
            assert ref.stream_seed(seed, k) == int(fast.stream_seed(np.uint64(seed), np.uint64(k)))
            assert ref.game_seed(seed, k) == int(fast.game_seed(np.uint64(seed), np.uint64(k)))
        state, gen = fast.new_state(seed), ref.Xoshiro256(seed)
        assert [gen.next_u64() for _ in range(50)] == [int(fast.next_u64(state))
                                                       for _ in range(50)]


def test_randbelow_and_shuffle_match_the_reference() -> None:
    for seed in SEEDS:
        state, gen = fast.new_state(seed), ref.Xoshiro256(seed)
        for n in (1, 2, 3, 14, 116, 2**31, 2**32 - 1):
            assert gen.randbelow(n) == fast.randbelow(state, n)
        for size in (0, 1, 2, 5, 50, DECK_SIZE):
            items = np.arange(size, dtype=np.int64)
            fast.shuffle(state, items, size)
            mine = list(range(size))
            gen.shuffle(mine)
            assert mine == items.tolist()
        assert gen.state == [int(x) for x in state]


def test_uniform_matches_the_reference_and_lies_in_0_1() -> None:
    for seed in SEEDS:
        state, gen = fast.new_state(seed), ref.Xoshiro256(seed)
        draws = [fast.uniform(state) for _ in range(20)]
        assert draws == [gen.uniform() for _ in range(20)]
        assert all(0.0 <= u < 1.0 for u in draws)
    assert fast.uniform(np.array([1, 2, 3, 4], dtype=np.uint64)) == 5 * 2.0**-53  # 11520 >> 11


def test_shuffle_touches_only_the_first_n_items() -> None:
    items = np.arange(20, dtype=np.int64)
    fast.shuffle(fast.new_state(3), items, 12)
    assert items[12:].tolist() == list(range(12, 20))
    assert sorted(items[:12].tolist()) == list(range(12))


def test_reference_randbelow_refuses_what_it_cannot_draw() -> None:
    gen = ref.Xoshiro256(1)
    for n in (0, 2**32):
        with pytest.raises(ValueError, match="randbelow needs"):
            gen.randbelow(n)


def test_chacha20_block_known_answer() -> None:
    """RFC 8439, section 2.3.2: the block of key 00 01 … 1f, counter 1, nonce
    00 00 00 09 00 00 00 4a 00 00 00 00, word for word (fast and reference)."""
    key = [int.from_bytes(bytes(range(4 * i, 4 * i + 4)), "little") for i in range(8)]
    nonce = [0x09000000, 0x4A000000, 0x00000000]
    published = [0xE4E7F110, 0x15593BD1, 0x1FDD0F50, 0xC47120A3, 0xC7F4D1C7, 0x0368C033,
                 0x9AAA2204, 0x4E6CD4C3, 0x466482D2, 0x09AA9F07, 0x05D7C214, 0xA2028BD9,
                 0xD19C12B5, 0xB94E16DE, 0xE883D0CB, 0x4E3C50A2]
    out = np.zeros(fast.CHACHA_WORDS, dtype=np.uint64)
    fast.chacha20_block(np.array(key, np.uint64), 1, np.array(nonce, np.uint64), out)
    assert [int(x) for x in out] == published
    assert ref.chacha20_block(key, 1, nonce) == published


def test_seat_streams_match_the_reference_and_differ() -> None:
    """Each seat's stream is the reference's ChaCha20 seeding, and no two seats' (nor the
    play stream) are alike."""
    for seed in SEEDS[:20]:
        streams = []
        for seat in range(7):
            state = np.zeros(fast.STATE_WORDS, dtype=np.uint64)
            fast.seed_seat_stream(state, np.uint64(seed), seat)
            assert [int(x) for x in state] == ref.seat_stream(seed, seat).state
            streams.append(tuple(int(x) for x in state))
        streams.append(tuple(ref.Xoshiro256(ref.stream_seed(seed, 0)).state))
        assert len(set(streams)) == len(streams)
