"""``oracle`` — ANALYSIS ONLY, NOT A FAIR PLAYER: it sees every hidden card.

It knows the stock order, so it draws whichever of the visible discard and the real next
stock card leaves the lower penalty; it discards the card that leaves the least penalty
after the card it will really draw next turn if everyone else draws from the stock (ties:
least penalty now). An upper reference for what one-step lookahead with perfect
information is worth.
"""

from __future__ import annotations

import numpy as np

from fcsim.core.cards import N_KINDS
from fcsim.core.solver import best_discard_kernel
from fcsim.core.solver.hand import HUGE_PENALTY
from fcsim.strategies.base import (
    DRAW_PILE,
    DRAW_STOCK,
    I_ALL_WILD,
    I_PLAYERS,
    I_ROUND,
    I_WILD_POINTS,
    decision,
)
from fcsim.strategies.candidates import immediate_penalties
from fcsim.strategies.registry import Family, register


@decision
def draw(hand, pile, known, info, hidden, params, table, scratch, rng):
    """The better of the visible discard and the actual top of the stock."""
    rnd, points, all_wild = info[I_ROUND], info[I_WILD_POINTS], info[I_ALL_WILD] == 1
    stock_top = hidden[info[I_PLAYERS], 0]
    if stock_top < 0:
        return DRAW_PILE
    top = pile[pile.shape[0] - 1]
    hand[top] += 1
    _, from_pile = best_discard_kernel(hand, rnd, points, all_wild, table, scratch)
    hand[top] -= 1
    hand[stock_top] += 1
    _, from_stock = best_discard_kernel(hand, rnd, points, all_wild, table, scratch)
    hand[stock_top] -= 1
    return DRAW_PILE if from_pile < from_stock else DRAW_STOCK


@decision
def discard(hand, pile, known, info, hidden, params, table, scratch, rng):
    """Least penalty after the card it will draw next turn (ties: least penalty now)."""
    rnd, points, all_wild = info[I_ROUND], info[I_WILD_POINTS], info[I_ALL_WILD] == 1
    players = info[I_PLAYERS]
    now = np.empty(N_KINDS, dtype=np.int64)
    immediate_penalties(hand, rnd, points, all_wild, table, scratch, now)
    coming = hidden[players, players - 1]
    best, best_later = -1, HUGE_PENALTY
    for k in range(N_KINDS):
        if hand[k] == 0:
            continue
        later = now[k]
        if coming >= 0:
            hand[k] -= 1
            hand[coming] += 1
            later = best_discard_kernel(hand, rnd, points, all_wild, table, scratch)[1]
            hand[coming] -= 1
            hand[k] += 1
        if best < 0 or later < best_later or (later == best_later and now[k] < now[best]):
            best, best_later = k, later
    return best


FAMILY = register(Family(
    "oracle",
    "ANALYSIS ONLY: sees the stock and all hands; one-step perfect-information lookahead.",
    draw,
    discard,
    oracle=True,
))
