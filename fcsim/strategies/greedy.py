"""``greedy``: play for the least penalty right now.

Draw: take the visible discard when, after the best discard, it leaves a penalty more than
``take_margin`` points below the hand's penalty as it stands; otherwise draw from the
stock. Discard: the exact best discard (least penalty left; ties shed a natural before a
wild, then the higher card).
"""

from __future__ import annotations

from fcsim.strategies.base import (
    DRAW_PILE,
    DRAW_STOCK,
    I_ALL_WILD,
    I_BEST_DISCARD,
    I_ROUND,
    I_WILD_POINTS,
    decision,
    param_slots,
)
from fcsim.strategies.candidates import pile_outlook
from fcsim.strategies.registry import Family, Param, register

# take_margin 8, not 0: fcsim tune against itself and in a mixed table, confirmed on fresh
# deals (17 and 22 points a game better than 0; docs/RESULTS.md, "How the defaults are chosen").
TAKE_MARGIN = Param("take_margin", 8, "points the discard must save before it is taken",
                    low=0, high=100)
PARAMS = (TAKE_MARGIN,)
Slot = param_slots("GreedySlot", PARAMS)


@decision
def draw(hand, pile, known, info, hidden, params, table, scratch, rng):
    """The pile iff taking its top card beats the current penalty by > take_margin."""
    now, after = pile_outlook(hand, pile, info[I_ROUND], info[I_WILD_POINTS],
                              info[I_ALL_WILD] == 1, table, scratch)
    return DRAW_PILE if after < now - params[Slot.take_margin] else DRAW_STOCK


@decision
def discard(hand, pile, known, info, hidden, params, table, scratch, rng):
    """The exact best discard, as computed by the engine for this hand."""
    return info[I_BEST_DISCARD]


FAMILY = register(Family(
    "greedy",
    "Takes the discard when it lowers the best penalty; discards the exact best card.",
    draw,
    discard,
    PARAMS,
))
