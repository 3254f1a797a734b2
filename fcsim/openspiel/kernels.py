"""The compiled pieces of the OpenSpiel game: chance outcomes laid onto fcsim's deal and
draw, a world dealt from a seat's view, and the one-round rollout of the ISMCTS evaluator.

None of them plays a rule: the deal, the draws, the reshuffle, going out and the scores
stay fcsim's steps (:mod:`fcsim.core.state`). A chance outcome only decides *which card*
sits where fcsim's step will take it from (docs/OPENSPIEL.md, "Chance"):

* the deal: fcsim's ``begin_round`` has shuffled and dealt; :func:`arrange_deal` swaps the
  chance outcomes into the positions the deal took its cards from (the stock's top down:
  pass by pass from the dealer's left, then the upcard) and recounts the hands from them
  by core's own ``deal_hands``;
* a stock draw: :func:`arrange_draw` swaps the chosen card to the stock's top before
  ``apply_draw`` pops it; when the stock is empty, to the pile position whose card the
  reshuffle puts on top of the new stock (core's ``reshuffle_top``, which peeks on a copy
  of the play stream).

When the outcomes are the cards fcsim's own shuffle put there, every swap is a no-op.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from fcsim.core.cards import DECK_SIZE, wild_rank
from fcsim.core.events import TRACE_WIDTH
from fcsim.core.rng import STATE_WORDS, seed_state
from fcsim.core.rules import R_PLAYERS
from fcsim.core.state import (
    PHASE_DISCARD,
    S_DEALER,
    S_PHASE,
    S_PILE,
    S_ROUND,
    S_SEAT,
    S_STOCK,
    GameState,
    StateData,
    deal_hands,
    dealt_seat,
    finish_round,
    lend,
    reshuffle_top,
    solve_drawn,
)
from fcsim.core.view import (
    I_BEST_DISCARD,
    I_BEST_PENALTY,
    I_SEAT,
    INFO_SIZE,
    fill_history,
    fill_info,
)
from fcsim.strategies.search.kernels import play_out
from fcsim.strategies.search.worlds import (
    cards_missing,
    deal_unseen,
    seed_seat_streams,
    seen_part,
    unseen_cards,
)


@njit(cache=True)
def deal_seat(data: StateData, t: int) -> int:
    """The seat the ``t``-th card of the deal goes to (0-based, pass by pass from the
    dealer's left); -1 for the upcard."""
    state = lend(data)
    players = state.rules[R_PLAYERS]
    if t >= wild_rank(state.scalars[S_ROUND]) * players:
        return -1
    return dealt_seat(t, players, state.scalars[S_DEALER])


@njit(cache=True)
def arrange_deal(data: StateData, dealt: np.ndarray) -> bool:
    """Lay the deal's chance outcomes (``int64[n * P + 1]``, in dealing order, the upcard
    last) onto the round fcsim's ``begin_round`` just dealt. False if they are not cards
    of the deck."""
    state = lend(data)
    stock = state.stock
    top = DECK_SIZE - 1
    for i in range(dealt.shape[0]):
        pos = top - i
        if stock[pos] != dealt[i]:
            found = False
            for p in range(pos - 1, -1, -1):
                if stock[p] == dealt[i]:
                    stock[p], stock[pos] = stock[pos], stock[p]
                    found = True
                    break
            if not found:
                return False
    deal_hands(stock, state.hands, wild_rank(state.scalars[S_ROUND]), state.scalars[S_DEALER])
    state.pile[0] = stock[state.scalars[S_STOCK]]
    return True


@njit(cache=True)
def draw_counts(data: StateData, out: np.ndarray) -> int:
    """The cards a stock draw can bring, per kind (``int64[56]``): the stock's, or when it
    is empty the pile's but its top (the stock the reshuffle makes); their number."""
    state = lend(data)
    sc = state.scalars
    out[:] = 0
    if sc[S_STOCK] > 0:
        for j in range(sc[S_STOCK]):
            out[state.stock[j]] += 1
        return sc[S_STOCK]
    for j in range(sc[S_PILE] - 1):
        out[state.pile[j]] += 1
    return sc[S_PILE] - 1


@njit(cache=True)
def arrange_draw(data: StateData, kind: int) -> bool:
    """Put ``kind`` where the next stock draw takes its card from; False if no such card
    can be drawn."""
    state = lend(data)
    sc = state.scalars
    if sc[S_STOCK] > 0:
        last = sc[S_STOCK] - 1
        for j in range(last, -1, -1):
            if state.stock[j] == kind:
                state.stock[j], state.stock[last] = state.stock[last], state.stock[j]
                return True
        return False
    target = reshuffle_top(state)
    for q in range(sc[S_PILE] - 1):  # the cards the reshuffle takes
        if state.pile[q] == kind:
            state.pile[q], state.pile[target] = state.pile[target], state.pile[q]
            return True
    return False


@njit(cache=True)
def solve_world(data: StateData, table: np.ndarray, scratch: np.ndarray) -> None:
    """In a world dealt afresh at a discard decision, the solver's best discard of the
    discarding seat's hand as dealt there (the real hand's would decide whether its
    discard goes out)."""
    state = lend(data)
    if state.scalars[S_PHASE] == PHASE_DISCARD:
        solve_drawn(state, table, scratch)


@njit(cache=True)
def seat_info(data: StateData, seat: int) -> np.ndarray:
    """The public scalars and history as ``seat`` sees them (``int64[INFO_SIZE]``): the
    pending decision's, with the solver's hints only for the seat that is discarding."""
    state = lend(data)
    info = np.zeros(INFO_SIZE, dtype=np.int64)
    fill_info(state, info)
    fill_history(state, info)
    info[I_SEAT] = seat
    if not (state.scalars[S_PHASE] == PHASE_DISCARD and state.scalars[S_SEAT] == seat):
        info[I_BEST_DISCARD] = -1
        info[I_BEST_PENALTY] = -1
    return info


@njit(cache=True)
def _deal(state: GameState, unseen: np.ndarray, known: np.ndarray, info: np.ndarray,
          seed: np.uint64, table: np.ndarray, scratch: np.ndarray) -> None:
    """Deal ``state`` the ``unseen`` cards uniformly by ``seed`` (the search's
    :func:`~fcsim.strategies.search.worlds.deal_unseen`) and re-seed its play stream and
    its seats' streams."""
    rng = np.empty(STATE_WORDS, dtype=np.uint64)
    seed_state(rng, seed)
    deal_unseen(state, unseen, known, info, rng, 0.0, 0.0, table, scratch)
    seed_state(state.rng, seed + np.uint64(1))
    seed_seat_streams(state, rng)


@njit(cache=True)
def world_from_view(world: StateData, hand: np.ndarray, pile: np.ndarray, known: np.ndarray,
                    info: np.ndarray, seed: np.uint64, table: np.ndarray,
                    scratch: np.ndarray) -> bool:
    """Fill ``world`` (a full game's layout) with one world consistent with a view: what it
    shows, the rest dealt from the unseen cards. False if the view does not add up."""
    unseen = unseen_cards(hand, pile, known, info)
    if cards_missing(known, info) != unseen.shape[0]:
        return False
    state = seen_part(world, hand, pile, known, info)
    _deal(state, unseen, known, info, seed, table, scratch)
    return True


@njit(cache=True)
def rollout_round(data: StateData, params: np.ndarray, table: np.ndarray,
                  scratch: np.ndarray) -> bool:
    """Play the round out in ``data`` (in place) with the search's rollout policy (every
    seat; ``params`` its parameter vector) and score it: the totals then hold it. False
    if the policy made an illegal move."""
    state = lend(data)
    info = np.zeros(INFO_SIZE, dtype=np.int64)
    trace = np.zeros((0, TRACE_WIDTH), dtype=np.int16)
    if not play_out(state, params, info, table, scratch, trace):
        return False
    finish_round(state, table, scratch, trace, 0)
    return True


__all__ = ["arrange_deal", "arrange_draw", "deal_seat", "draw_counts",
           "rollout_round", "seat_info", "world_from_view"]
