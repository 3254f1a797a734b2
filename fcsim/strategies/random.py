"""``random``: a uniformly random draw source and discard — a floor, not a player."""

from __future__ import annotations

import numpy as np

from fcsim.core.rng import randbelow
from fcsim.strategies.base import decision
from fcsim.strategies.registry import Family, register

DRAW_SOURCES = 2  # stock or pile


@decision
def draw(hand, pile, known, info, hidden, params, table, scratch, rng):
    """Stock or discard pile with equal probability: ``randbelow(2)``."""
    return randbelow(rng, DRAW_SOURCES)


@decision
def discard(hand, pile, known, info, hidden, params, table, scratch, rng):
    """The ``randbelow(size)``-th card of the hand listed in kind order with repeats."""
    pick = randbelow(rng, np.int64(hand.sum()))
    for kind in range(hand.shape[0]):
        pick -= hand[kind]
        if pick < 0:
            return kind
    return -1


FAMILY = register(Family("random", "Uniformly random draw source and discard (a floor).",
                         draw, discard))
