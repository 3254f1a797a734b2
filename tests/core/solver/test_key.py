"""The discard key: it ranks discards as the tie rules say, and decodes to them."""

from __future__ import annotations

from fcsim.core.cards import JOKER, N_RANKS, N_SUITS, kind_at, rank_at
from fcsim.core.solver.key import (
    KEY_SCALE,
    free_part,
    key_floor,
    key_kind,
    key_penalty,
    natural_key,
    penalty_key,
    scaled,
    wild_key,
)

RANK_WILD = kind_at(3, 2)


def natural(pen: int, index: int, suit: int) -> int:
    """The key of discarding the natural (rank index, suit) leaving ``pen``."""
    return natural_key(pen, free_part(0, rank_at(index), suit))


def test_keys_decode_to_their_discard() -> None:
    for pen in (0, 1, 37, 500):
        for i in range(N_RANKS):
            for s in range(N_SUITS):
                key = natural(pen, i, s)
                assert key_penalty(key) == pen
                assert key_kind(key, JOKER, RANK_WILD) == kind_at(i, s)
        for second, kind in ((False, JOKER), (True, RANK_WILD)):
            key = wild_key(pen, 0, second)
            assert key_penalty(key) == pen and key_kind(key, JOKER, RANK_WILD) == kind


def test_keys_rank_as_the_tie_rules() -> None:
    """Least penalty; then a natural before a wild; more points; the lower suit."""
    naturals = sorted(((-rank_at(i), s), natural(7, i, s)) for i in range(N_RANKS)
                      for s in range(N_SUITS))
    keys = [key for _, key in naturals]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)
    wild_first, wild_second = wild_key(7, 0, False), wild_key(7, 0, True)
    assert keys[-1] < wild_first < wild_second < natural(8, N_RANKS - 1, 0)
    assert penalty_key(7) < keys[0] and penalty_key(7) == 7 * KEY_SCALE


def test_runs_parts_cancel_out() -> None:
    """A key built from scaled runs parts equals the key of the penalty they leave."""
    runs, card, suit, cost = 30, 9, 3, 50
    assert natural_key(cost, free_part(runs + card, card, suit)) == natural(
        cost - runs - card, card - 3, suit)
    assert wild_key(cost, scaled(runs), True) == wild_key(cost - runs, 0, True)


def test_key_floor_is_below_every_key_of_a_bound() -> None:
    for bound in range(0, 40, 7):
        for top in range(3, 14):
            floor = key_floor(bound, top)
            for i in range(top - 2):
                for s in range(N_SUITS):
                    assert floor <= natural(bound - rank_at(i), i, s)
