"""The search's compiled decision, with its rollout policy and anchor as globals.

numba compiles what a kernel calls into it and treats module globals as constants, so
calling the policy here is a direct call — and, unlike a decision function passed as a
value, one numba can cache. This module is bound to the ``greedy`` rollout and the
``aware`` anchor (the oracles'); :mod:`fcsim.strategies.search.bind` makes a copy of it
for any other pair — the search's own default, anchored on ``learned``, included — with
only the lines marked ``# bound:`` replaced (so keep every other line free of them, and
every import absolute).

:func:`evaluate` plays each candidate action out to the end of the round in the same
worlds (common random numbers): for each world it deals one state consistent with the
view (:mod:`fcsim.strategies.search.worlds`) and, for each action, a copy of it; the
action and then every seat's policy moves go through the game's own steps until the
round ends; the round is scored as a game scores it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from fcsim.core.borrow import borrow
from fcsim.core.events import TRACE_WIDTH
from fcsim.core.rng import STATE_WORDS, next_u64, seed_state
from fcsim.core.state import (
    OK,
    PHASE_DRAW,
    PHASE_ROUND_END,
    GameState,
    Scalar,
    StateData,
    apply_move,
    finish_round,
    lend,
)
from fcsim.core.view import INFO_SIZE, Info, decision, fill_history, fill_info, is_drawing
from fcsim.strategies.aware import discard as anchor_discard  # bound: anchor discard
from fcsim.strategies.expected import draw as anchor_draw  # bound: anchor draw
from fcsim.strategies.greedy import discard as rollout_discard  # bound: rollout discard
from fcsim.strategies.greedy import draw as rollout_draw  # bound: rollout draw
from fcsim.strategies.search.player import (
    FIRST_SHARE,
    MIN_FIRST,
    OBJECTIVE_COLUMNS,
    REVEAL_SLOT,
    SETTLED_SE,
    Slot,
    candidate_actions,
    choose,
    futile,
    settled,
)
from fcsim.strategies.search.rollout import O_SIZE, ROLLOUT_ERROR, score_outcomes
from fcsim.strategies.search.worlds import (
    FULL_REVEAL,
    cards_missing,
    copy_world,
    deal_hidden,
    deal_real_hands,
    deal_unseen,
    new_world,
    seed_seat_streams,
    seen_part,
    unseen_cards,
)

ROLLOUT_SPEC = "greedy"  # bound: rollout spec
ANCHOR_SPEC = "aware"  # bound: anchor spec
ROLLOUT_PARAMS = np.array([8.0])  # bound: rollout params
ROLLOUT_HISTORY = False  # bound: rollout history
ANCHOR_PARAMS = np.array([0.0, 6.0, 0.5, 7.0, 0.5])  # bound: anchor params


@njit(cache=True)
def play_out(state: GameState, params: np.ndarray, info: np.ndarray, table: np.ndarray,
             scratch: np.ndarray, trace: np.ndarray) -> bool:
    """Every seat plays the rollout policy (``params``: its parameter vector) until the
    round ends (``info``: work space). False if the policy made an illegal move."""
    sc = state.scalars
    no_hidden = state.hands[:0, :0]  # what a fair seat gets (a view: nothing to count)
    while sc[Scalar.PHASE] != PHASE_ROUND_END:
        seat = sc[Scalar.SEAT]
        hand = state.hands[seat]
        pile = state.pile[: sc[Scalar.PILE]]
        fill_info(state, info)
        if ROLLOUT_HISTORY:
            fill_history(state, info)
        if sc[Scalar.PHASE] == PHASE_DRAW:
            move = rollout_draw(hand, pile, state.known, info, no_hidden, params, table,
                                scratch, state.seat_rng[seat])
        else:
            move = rollout_discard(hand, pile, state.known, info, no_hidden, params, table,
                                   scratch, state.seat_rng[seat])
        status, _ = apply_move(state, move, table, scratch, trace, 0)
        if status != OK:
            return False
    return True


@njit(cache=True)
def roll_out(world: StateData, action: int, seat: int, params: np.ndarray, info: np.ndarray,
             table: np.ndarray, scratch: np.ndarray, trace: np.ndarray, row: np.ndarray
             ) -> bool:
    """Play ``action`` in ``world``, then the round out with the rollout policy, and score
    it for ``seat`` into ``row`` (``float64[O_SIZE]``). False if a move was illegal.

    The world and the work arrays are borrowed for the call (:mod:`fcsim.core.borrow`):
    a rollout is all steps, and counting references would cost it most of its time.
    """
    state = lend(world)
    params, info, table, scratch = borrow(params), borrow(info), borrow(table), borrow(scratch)
    trace, row = borrow(trace), borrow(row)
    status, _ = apply_move(state, action, table, scratch, trace, 0)
    if status != OK or not play_out(state, params, info, table, scratch, trace):
        return False
    finish_round(state, table, scratch, trace, 0)
    score_outcomes(state, seat, row)
    return True


# Where a search's worlds come from: sampled from the view (a fair player), or, for
# analysis only, from an oracle's hidden cards.
WORLDS_SAMPLED = 0  # the other hands and the stock dealt from the unseen cards
WORLDS_REAL = 1  # the real state
WORLDS_REAL_HANDS = 2  # every hand as it really is, the stock resampled


@njit(cache=True)
def evaluate(hand, pile, known, info, hidden, worlds: int, skill: float, evidence: float,
             reveal: float, actions: np.ndarray, first_world: int, n_worlds: int, table, scratch,
             seed: np.uint64, out: np.ndarray, hands_out: np.ndarray) -> bool:
    """Fill ``out[a, w - first_world]`` (``float64[A, W, O_SIZE]``, ``Outcome`` columns) for
    worlds ``first_world`` … ``first_world + n_worlds - 1`` of the search seeded ``seed``.

    ``actions`` int64[A]: draw sources when the view is drawing, kinds to discard when it
    is discarding. World ``w`` is dealt by its own generator (``seed + w``), which also
    makes its reshuffles and seeds its seats' streams, the same for every action; sampled
    worlds shuffle the unseen cards in the order the call's previous world left them, so
    a world is a function of the seed and of the worlds dealt before it in the same call
    (the search's calls are always the same: the first look, then the rest). ``worlds``
    (``WORLDS_*``): sampled from the unseen cards (``skill``, ``evidence``: see
    :func:`~fcsim.strategies.search.worlds.deal_unseen`; ``hidden`` is never read), or
    read from an oracle's ``hidden``: the real state, or the real hands with the stock
    resampled (``reveal``: see :func:`~fcsim.strategies.search.worlds.deal_real_hands`).
    ``hands_out`` (``int8[W, P, 56]``, or empty for none) gets every hand of each world
    as dealt. Returns False, with the failed rollouts' rows set to
    ``ROLLOUT_ERROR``, if the policy made an illegal move.
    """
    seat = info[Info.SEAT]
    base = new_world(info)
    work = new_world(info)
    base_state = seen_part(base, hand, pile, known, info)
    unseen = unseen_cards(hand, pile, known, info)
    world_rng = np.empty(STATE_WORDS, dtype=np.uint64)
    step_info = np.zeros(INFO_SIZE, dtype=np.int64)
    no_trace = np.zeros((0, TRACE_WIDTH), dtype=np.int16)
    params = ROLLOUT_PARAMS.copy()  # a constant is read-only; decisions take a plain array
    clean = True
    for w in range(first_world, first_world + n_worlds):
        seed_state(world_rng, seed + np.uint64(w))
        if worlds == WORLDS_REAL:
            deal_hidden(base_state, hidden, info, world_rng)
        elif worlds == WORLDS_REAL_HANDS:
            deal_real_hands(base_state, hidden, info, world_rng, reveal)
        else:
            deal_unseen(base_state, unseen, known, info, world_rng, skill, evidence, table,
                        scratch)
        base_state.rng[:] = world_rng
        seed_seat_streams(base_state, world_rng)
        if hands_out.shape[0] > 0:
            hands_out[w - first_world] = base_state.hands
        for a in range(actions.shape[0]):
            copy_world(base, work)
            row = out[a, w - first_world]
            if not roll_out(work, actions[a], seat, params, step_info, table, scratch,
                            no_trace, row):
                row[:] = ROLLOUT_ERROR
                clean = False
    return clean


@njit(cache=True)
def anchor_move(hand, pile, known, info, table, scratch, rng) -> int:
    """The anchor's own choice in this view."""
    no_hidden = np.zeros((0, 0), dtype=np.int8)
    params = ANCHOR_PARAMS.copy()
    if is_drawing(hand, info[Info.ROUND]):
        return anchor_draw(hand, pile, known, info, no_hidden, params, table, scratch, rng)
    return anchor_discard(hand, pile, known, info, no_hidden, params, table, scratch, rng)


@njit(cache=True)
def search_decision(hand, pile, known, info, hidden, params, table, scratch, rng,
                    worlds: int) -> int:
    """A draw source or a kind to discard, by search (:mod:`fcsim.strategies.search.player`).

    ``worlds`` (``WORLDS_*``): sampled from the view, or — analysis only — read from
    ``hidden``; with sampled worlds ``hidden`` is never read. One number is drawn from
    ``rng`` (the seat's own stream) per searched decision: it seeds the worlds.
    """
    anchor = anchor_move(hand, pile, known, info, table, scratch, rng)
    actions = candidate_actions(hand, pile, info, table, scratch, int(params[Slot.candidates]),
                                anchor)
    if actions.shape[0] == 1:
        return actions[0]
    if worlds == WORLDS_SAMPLED and cards_missing(known, info) != unseen_cards(
            hand, pile, known, info).shape[0]:
        return anchor  # a view that does not add up (never in a game): no worlds to deal
    n_worlds = int(params[Slot.worlds])
    out = np.empty((actions.shape[0], n_worlds, O_SIZE), dtype=np.float64)
    seed = next_u64(rng)
    skill, evidence = params[Slot.skill], params[Slot.evidence]
    # only the hands oracle's parameters go on past the search's
    reveal = params[REVEAL_SLOT] if worlds == WORLDS_REAL_HANDS else FULL_REVEAL
    column = OBJECTIVE_COLUMNS[int(params[Slot.objective])]
    first = max(MIN_FIRST, n_worlds // FIRST_SHARE)
    if first >= n_worlds:
        first = n_worlds
    no_hands = np.zeros((0, 0, 0), dtype=np.int8)  # the hands dealt are not wanted
    if not evaluate(hand, pile, known, info, hidden, worlds, skill, evidence, reveal, actions,
                    0, first, table, scratch, seed, out[:, :first], no_hands):
        return anchor
    done = first
    if (done < n_worlds and not settled(out[:, :done, column], SETTLED_SE)
            and not futile(out[:, :done, column], params[Slot.futility],
                           params[Slot.confidence])):
        if not evaluate(hand, pile, known, info, hidden, worlds, skill, evidence, reveal,
                        actions, done, n_worlds - done, table, scratch, seed, out[:, done:],
                        no_hands):
            return anchor
        done = n_worlds
    return actions[choose(out[:, :done, column], params[Slot.confidence])]


@decision
def decide(hand, pile, known, info, hidden, params, table, scratch, rng):
    """The search's draw or discard (a fair player: ``hidden`` is never read)."""
    return search_decision(hand, pile, known, info, hidden, params, table, scratch, rng,
                           WORLDS_SAMPLED)


@decision
def decide_perfect(hand, pile, known, info, hidden, params, table, scratch, rng):
    """The same on the real state (an oracle: analysis only)."""
    return search_decision(hand, pile, known, info, hidden, params, table, scratch, rng,
                           WORLDS_REAL)


@decision
def decide_real_hands(hand, pile, known, info, hidden, params, table, scratch, rng):
    """The same with the real hands and a resampled stock (an oracle: analysis only)."""
    return search_decision(hand, pile, known, info, hidden, params, table, scratch, rng,
                           WORLDS_REAL_HANDS)
