"""The discard key: one integer that ranks (arrangement, discard) pairs, least first.

``key = KEY_SCALE × the penalty left + a tie-break below KEY_SCALE``, so the least key is
the best discard: the least penalty, then a natural card before a wild, then the card
worth more points, then the lower suit (so the lowest kind). A natural's tie-break is
``_TIE_NATURAL - order``, its *order* ``8 × points + 7 - suit`` (ties 16…103); a wild's
is ``_TIE_WILD`` for the wild that goes first, one more for the other.

The one-pass search adds keys up in parts: each suit's runs scaled (:func:`scaled`), and,
for the suit leaving a natural out for free, that card's points and order
(:func:`free_part`); :func:`natural_key` turns such a sum into a key.
"""

from __future__ import annotations

from numba import njit

from fcsim.core.cards import kind_of

KEY_SCALE = 256
_ORDER_SUITS = 8  # an order's suit part, 7 - suit, fits below 8
_TIE_NATURAL = 127  # above every order (8 × 13 + 7)
_TIE_WILD = 200  # above every natural's tie-break


@njit(cache=True, inline="always")
def scaled(total: int) -> int:
    """A run total as a part of a key."""
    return KEY_SCALE * total


@njit(cache=True, inline="always")
def natural_order(points: int, suit: int) -> int:
    """The order of a natural card: greater for more points, then for a lower suit."""
    return _ORDER_SUITS * points + _ORDER_SUITS - 1 - suit


@njit(cache=True, inline="always")
def free_part(total: int, points: int, suit: int) -> int:
    """A key part: runs and one natural card left out of them totalling ``total``, that
    card worth ``points``, of ``suit``."""
    return scaled(total) + natural_order(points, suit)


@njit(cache=True, inline="always")
def natural_key(cost: int, free: int) -> int:
    """The key of discarding the natural card a sum of parts ``free`` leaves out, from an
    arrangement of the whole hand of penalty ``cost`` (that card counted)."""
    return scaled(cost) + _TIE_NATURAL - free


@njit(cache=True, inline="always")
def wild_key(cost: int, runs: int, second: bool) -> int:
    """The key of discarding a wild from an arrangement of penalty ``cost`` (the wilds it
    leaves out counted without the discard) and scaled runs ``runs``; ``second`` for the
    wild that goes second among equals."""
    return scaled(cost) - runs + _TIE_WILD + second


@njit(cache=True, inline="always")
def penalty_key(penalty: int) -> int:
    """The least key of a penalty: a known discard's, which only a lower penalty beats."""
    return scaled(penalty)


@njit(cache=True, inline="always")
def key_floor(bound: int, top: int) -> int:
    """The least key of an arrangement whose penalty is at least ``bound``, when no card
    is worth more than ``top`` points."""
    return natural_key(bound, free_part(top, top, 0))


@njit(cache=True, inline="always")
def key_penalty(key: int) -> int:
    """The penalty a key stands for."""
    return key // KEY_SCALE


@njit(cache=True, inline="always")
def key_kind(key: int, first_wild: int, second_wild: int) -> int:
    """The discard a key stands for: a natural card's kind, or one of the two wilds."""
    tie = key % KEY_SCALE
    if tie >= _TIE_WILD:
        return first_wild if tie == _TIE_WILD else second_wild
    order = _TIE_NATURAL - tie
    return kind_of(order // _ORDER_SUITS, _ORDER_SUITS - 1 - order % _ORDER_SUITS)
