"""The strategy contract: two jitted decision functions with one fixed signature.

A strategy decides only what is a real choice (docs/ENGINE.md): where to draw from, and
which card to discard when it cannot go out (going out is automatic). Both decisions are
``@njit(DECISION_SIGNATURE, cache=True)`` functions; the engine receives them as numba
first-class functions, so strategies plug in — and share a table — without the engine
changing.

Arguments of every decision function (the player's *view*; nothing hidden):

``hand``     int8[56]  own cards, copies per kind (n cards; n+1 when discarding)
``pile``     int8[:]   the discard pile, bottom first (its last item is the visible card)
``known``    int8[P, 56]  cards known to be in each seat's hand: taken from the pile and
                       not discarded since (own row included)
``info``     int64[INFO_SIZE]  the scalars below (``I_*`` positions)
``hidden``   int8[:, :]  empty (0 × 0) unless the strategy is registered as an oracle; then
                       rows 0…P-1 hold every hand (counts) and row P the stock, top first,
                       padded with -1
``params``   float64[:]  the strategy's parameters, in the order of its declaration
``table``    uint8[4 * 3**11, 16]  the solver's table (``fcsim.core.tables.solver_table``)
``scratch``  int64[:]  solver work space (``fcsim.core.solver.SCRATCH_SIZE``)
``rng``      uint64[4]  the game's play stream (``fcsim.core.rng``), for random choices

``draw`` returns 0 (stock) or 1 (discard pile); ``discard`` returns the kind to discard.
"""

from __future__ import annotations

from numba import types

DECISION_SIGNATURE = types.int64(
    types.int8[:],
    types.int8[:],
    types.int8[:, :],
    types.int64[:],
    types.int8[:, :],
    types.float64[:],
    types.uint8[:, :],
    types.int64[:],
    types.uint64[:],
)

DRAW_STOCK = 0
DRAW_DISCARD = 1

# Positions in the info vector.
I_ROUND = 0  # 1…11
I_WILD_RANK = 1  # round + 2
I_SEAT = 2  # the deciding seat
I_PLAYERS = 3
I_DEALER = 4
I_STOCK_SIZE = 5
I_TURN = 6  # turns already played this round
I_LAST_TURN = 7  # 1 on a last turn (someone went out)
I_OUT_SEAT = 8  # the seat that went out, -1 if nobody yet
I_WILD_POINTS = 9  # points of an unmelded wild-rank card this round
I_ALL_WILD = 10  # 1 if three wilds alone are a meld
I_GO_OUT_BONUS = 11
I_BEST_DISCARD = 12  # discard decisions: the solver's best discard of the hand (kind)
I_BEST_PENALTY = 13  # … and the penalty it leaves
I_TOTALS = 16  # P totals before this round
I_HAND_SIZES = 23  # P hand sizes
INFO_SIZE = 30
