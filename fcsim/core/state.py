"""The game as a state machine: one value holding everything a game is, and the njit steps
that play it (docs/ENGINE.md, step by step).

A state is a :class:`StateData` — three flat arrays, by element type — holding the
scalars (round, dealer, seat to move, turn, phase…), the rules, the random streams,
stock, pile, hands, known cards, totals and the per-round results. Copying a state is
copying those three arrays (a search copies thousands); a kernel takes them as one cheap
argument and reads the parts by name as a :class:`GameState` of views (:func:`unpack`),
borrowed when it can (:func:`lend`: no reference counts for the steps to keep).
Every way fcsim plays a game goes through the steps below: the batch engine
(:mod:`fcsim.core.engine`), a Python :class:`fcsim.Game`, agents, environments and
search players. There is no second copy of a rule.

The steps, in the order a game calls them::

    reset_game(state, seed)            totals to 0, streams seeded (phase ROUND_START)
    begin_round(state, trace, row)     shuffle, deal, upcard              -> phase DRAW
    apply_draw(state, source, …)       stock (reshuffling an empty one) or pile; going out
                                       is automatic                       -> DISCARD, or the
                                                                             next seat's DRAW
    apply_discard(state, kind, …)      the discard, a last turn scored, the turn cap
                                                                          -> DRAW / ROUND_END
    finish_round(state, …)             scores, totals           -> ROUND_START / GAME_OVER

:func:`settle` makes the steps that need no decision (finishing and beginning rounds);
:func:`apply_move` is the draw or the discard the phase waits for; :func:`act` applies
one decision and settles. A step given an illegal move changes nothing and returns an
``ERR_*`` status. :func:`new_game` and :func:`play_action` are the same on a
:class:`StateData`, for callers in Python.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from enum import IntEnum
from typing import NamedTuple

import numpy as np
from numba import njit

from fcsim.core.borrow import borrow
from fcsim.core.cards import (
    DECK_SIZE,
    JOKER,
    JOKER_PENALTY,
    N_KINDS,
    N_SUITS,
    full_deck,
    kind_at,
    wild_index,
    wild_rank,
)
from fcsim.core.events import (
    EV_CAPPED,
    EV_DEAL,
    EV_END,
    EV_HAND,
    EV_RESHUFFLE,
    EV_SCORE,
    EV_TURN,
    HAND_COL,
    SCORE_COL,
    write_cards,
    write_event,
    write_turn_details,
)
from fcsim.core.records import RoundInfo, Score
from fcsim.core.rng import STATE_WORDS, seed_seat_stream, seed_state, shuffle, stream_seed
from fcsim.core.rules import FACE_VALUE, R_SIZE, Rule, RuleSet
from fcsim.core.solver import best_discard_kernel, new_scratch, penalty_memo

# GameState.scalars, by name (a record: see fcsim.core.records).
Scalar = IntEnum("Scalar", [
    "ROUND",  # the round being played (1…), 0 before the first
    "DEALER",
    "SEAT",  # the seat to move
    "TURN",  # turns played this round
    "OUT_SEAT",  # the seat that went out this round, -1 if nobody yet
    "OUT_TURN",  # the turn it went out on
    "CAPPED",  # 1 when the round was stopped by the turn cap
    "PHASE",  # PHASE_*
    "STOCK",  # cards in the stock (its top is stock[STOCK - 1])
    "PILE",  # cards in the discard pile (its top is pile[PILE - 1])
    "SOURCE",  # this turn's draw source (DRAW_STOCK / DRAW_PILE)
    "DRAWN",  # this turn's drawn card
    "BEST_DISCARD",  # the solver's best discard of the hand just drawn to…
    "BEST_PENALTY",  # … and the penalty it leaves
    "WILD_POINTS",  # points of an unmelded wild-rank card this round
], start=0)
S_SIZE = len(Scalar)

# Phases: what the game waits for.
PHASE_ROUND_START = 0  # a round to deal
PHASE_DRAW = 1  # the seat to move chooses where to draw from
PHASE_DISCARD = 2  # the seat to move chooses a discard
PHASE_ROUND_END = 3  # a round to score
PHASE_GAME_OVER = 4

DRAW_STOCK = 0
DRAW_PILE = 1

# Step statuses.
OK = 0
ERR_DRAW = 1  # a draw source other than stock or pile
ERR_DISCARD = 2  # a card the hand does not hold
ERR_PHASE = 3  # a move the game is not waiting for

# GameState.scores and GameState.round_info hold the fcsim.core.records Score and RoundInfo.
SC_SIZE = len(Score)
RI_SIZE = len(RoundInfo)

# GameState.history planes: the round's public record of each seat (counts per kind).
Plane = IntEnum("Plane", [
    "DISCARDED",  # the cards it discarded
    "TAKEN",  # the pile cards it took
    "PASSED",  # the pile tops it passed up (it drew from the stock instead)
], start=0)
H_SIZE = len(Plane)

# The fields under the flat names callers outside the core import.
S_ROUND = Scalar.ROUND
S_DEALER = Scalar.DEALER
S_SEAT = Scalar.SEAT
S_TURN = Scalar.TURN
S_OUT_SEAT = Scalar.OUT_SEAT
S_OUT_TURN = Scalar.OUT_TURN
S_CAPPED = Scalar.CAPPED
S_PHASE = Scalar.PHASE
S_STOCK = Scalar.STOCK
S_PILE = Scalar.PILE
S_SOURCE = Scalar.SOURCE
S_DRAWN = Scalar.DRAWN
S_BEST_DISCARD = Scalar.BEST_DISCARD
S_BEST_PENALTY = Scalar.BEST_PENALTY
S_WILD_POINTS = Scalar.WILD_POINTS
SC_PENALTY = Score.PENALTY
SC_WILD_PTS = Score.WILD_PTS
SC_JOKER_PTS = Score.JOKER_PTS
RI_OUT_SEAT = RoundInfo.OUT_SEAT
RI_OUT_TURN = RoundInfo.OUT_TURN
RI_TURNS = RoundInfo.TURNS
RI_CAPPED = RoundInfo.CAPPED
H_DISCARDED = Plane.DISCARDED
H_TAKEN = Plane.TAKEN
H_PASSED = Plane.PASSED

_DECK = full_deck()  # frozen into the kernels as a constant

# The steps of every turn are compiled into their callers (numba IR inlining): a call
# passes the whole state by value — twelve arrays, about a kilobyte — and as calls they
# cost the batch engine a sixth of its speed (scripts/bench_engine.py --against 902eb15).
INLINE_STEP = "always"


class GameState(NamedTuple):
    """Every part of a game (``P`` seats, ``R`` rounds) by name: views into its
    :class:`StateData`, which njit code steps in place.

    ``scalars`` int64[S_SIZE] (:data:`Scalar` fields); ``rules`` int64[R_SIZE]
    (``RuleSet.as_array``, :data:`~fcsim.core.rules.Rule` fields); ``totals`` int64[P]
    (before the round being played); ``scores`` int64[R, P, SC_SIZE] and ``round_info``
    int64[R, RI_SIZE] (:mod:`fcsim.core.records`: ``Score``, ``RoundInfo``); ``history``
    int64[H_SIZE, P, 56], the round's public record per seat (:data:`Plane` planes: a card
    taken and thrown back turn after turn counts past any small integer); ``seed``
    uint64[1], the game seed; ``rng`` uint64[4], the play stream (reshuffles);
    ``seat_rng`` uint64[P, 4], each seat's own stream, which its strategy draws its random
    choices from (:func:`~fcsim.core.rng.seed_seat_stream`: nothing of the deals or of the
    other streams can be worked out of it); ``stock`` and ``pile`` int8[116] (kinds, bottom first;
    lengths in the scalars); ``hands`` and ``known`` int8[P, 56] (copies per kind; known:
    taken from the pile and not discarded since); ``scored`` int8[P] (1: scored this round
    already).
    """

    scalars: np.ndarray
    rules: np.ndarray
    totals: np.ndarray
    scores: np.ndarray
    round_info: np.ndarray
    seed: np.ndarray
    rng: np.ndarray
    seat_rng: np.ndarray
    stock: np.ndarray
    pile: np.ndarray
    hands: np.ndarray
    known: np.ndarray
    history: np.ndarray
    scored: np.ndarray


class StateData(NamedTuple):
    """What a game state *is*: three flat arrays, by element type. Copying a state is
    copying them; a kernel takes them in one argument and reads the parts by name
    through :func:`unpack`."""

    ints: np.ndarray  # int64: scalars, rules, totals, scores, round_info, history
    cards: np.ndarray  # int8: stock, pile, hands, known, scored
    streams: np.ndarray  # uint64: seed, rng, seat_rng


STREAM_SEED = 0  # streams[STREAM_SEED]: the game seed
STREAM_RNG = 1  # streams[STREAM_RNG:STREAM_SEATS]: the play stream's xoshiro256** state
STREAM_SEATS = STREAM_RNG + STATE_WORDS  # then each seat's stream, STATE_WORDS words a seat


def data_lengths(players: int, rounds: int) -> tuple[int, int, int]:
    """Lengths of a :class:`StateData`'s ``ints``, ``cards`` and ``streams`` for a table
    of ``players`` and ``rounds``."""
    ints = (S_SIZE + R_SIZE + players + rounds * players * SC_SIZE + rounds * RI_SIZE
            + H_SIZE * players * N_KINDS)
    cards = 2 * DECK_SIZE + 2 * players * N_KINDS + players
    streams = STREAM_SEATS + players * STATE_WORDS
    return ints, cards, streams


def state_views(data: StateData) -> GameState:
    """The parts of ``data`` by name (views, no copy). Plain code, also compiled as
    :func:`unpack`, so Python and the kernels read one layout."""
    ints, cards, streams = data
    players = ints[S_SIZE + Rule.PLAYERS]
    rounds = ints[S_SIZE + Rule.ROUNDS]
    at = S_SIZE + R_SIZE
    scores_end = at + players + rounds * players * SC_SIZE
    history_at = scores_end + rounds * RI_SIZE
    hands_at = 2 * DECK_SIZE
    known_at = hands_at + players * N_KINDS
    scored_at = known_at + players * N_KINDS
    return GameState(
        scalars=ints[:S_SIZE],
        rules=ints[S_SIZE:at],
        totals=ints[at : at + players],
        scores=ints[at + players : scores_end].reshape((rounds, players, SC_SIZE)),
        round_info=ints[scores_end:history_at].reshape((rounds, RI_SIZE)),
        seed=streams[STREAM_SEED:STREAM_RNG],
        rng=streams[STREAM_RNG:STREAM_SEATS],
        seat_rng=streams[STREAM_SEATS : STREAM_SEATS + players * STATE_WORDS].reshape(
            (players, STATE_WORDS)),
        stock=cards[:DECK_SIZE],
        pile=cards[DECK_SIZE:hands_at],
        hands=cards[hands_at:known_at].reshape((players, N_KINDS)),
        known=cards[known_at:scored_at].reshape((players, N_KINDS)),
        history=ints[history_at : history_at + H_SIZE * players * N_KINDS].reshape(
            (H_SIZE, players, N_KINDS)),
        scored=cards[scored_at : scored_at + players],
    )


unpack = njit(cache=True)(state_views)


@njit(cache=True)
def lend(data: StateData) -> GameState:
    """The parts of ``data`` as :func:`unpack` reads them, borrowed (no reference
    counting, :mod:`fcsim.core.borrow`): how an entry point reads the ``data`` it was
    passed, so that no step of the game pays for counting its twelve parts. For compiled
    callers only: Python reads a state through :func:`state_views`."""
    return unpack(StateData(borrow(data.ints), borrow(data.cards), borrow(data.streams)))


def new_state(rules: RuleSet) -> StateData:
    """A state for games under ``rules``, before any game (start one with :func:`new_game`)."""
    n_ints, n_cards, n_streams = data_lengths(rules.players, rules.rounds)
    data = StateData(np.zeros(n_ints, np.int64), np.zeros(n_cards, np.int8),
                     np.zeros(n_streams, np.uint64))
    data.ints[S_SIZE : S_SIZE + R_SIZE] = rules.as_array()
    return data


def copy_state(data: StateData) -> StateData:
    """An independent copy: stepping one leaves the other unchanged."""
    return StateData(data.ints.copy(), data.cards.copy(), data.streams.copy())


_SHARED_SCRATCH: list[np.ndarray] = []


def shared_scratch() -> np.ndarray:
    """The solver work space of everything that steps games from Python in this process
    (games, agents): they take turns, and its memo is exact, so sharing it changes no
    answer."""
    if not _SHARED_SCRATCH:
        _SHARED_SCRATCH.append(new_scratch())
    return _SHARED_SCRATCH[0]


@contextmanager
def blank_shared_scratch() -> Iterator[np.ndarray]:
    """For the length of the block, a blank work space (every item zero) as
    :func:`shared_scratch`: a decision made in it reads only what it writes itself, not
    what other seats' solver calls left there (their hands). The memo is exact, so a fair
    decision is the same in it (``fcsim.testing`` compares)."""
    kept = shared_scratch()
    blank = np.zeros_like(kept)
    _SHARED_SCRATCH[0] = blank
    try:
        yield blank
    finally:
        _SHARED_SCRATCH[0] = kept


@njit(cache=True)
def reset_game(state: GameState, seed: np.uint64) -> None:
    """Start a new game with game seed ``seed``: totals 0, the play stream and the seats'
    streams seeded."""
    state.seed[0] = np.uint64(seed)
    seed_state(state.rng, stream_seed(state.seed[0], 0))
    for seat in range(state.seat_rng.shape[0]):
        seed_seat_stream(state.seat_rng[seat], state.seed[0], seat)
    state.totals[:] = 0
    state.scores[:, :, :] = 0
    state.round_info[:, :] = 0
    state.scalars[:] = 0
    state.scalars[Scalar.OUT_SEAT] = -1
    state.scalars[Scalar.PHASE] = PHASE_ROUND_START


@njit(cache=True)
def hand_size(state: GameState) -> int:
    """Cards a hand holds between turns this round (``round + 2``)."""
    return wild_rank(state.scalars[Scalar.ROUND])


@njit(cache=True)
def wild_points_of(rules: np.ndarray, round_number: int) -> int:
    """Points of an unmelded wild-rank card in ``round_number`` under ``rules``
    (``RuleSet.as_array``): the face value of the rank, or the fixed penalty."""
    penalty = rules[Rule.WILD_PENALTY]
    return wild_rank(round_number) if penalty == FACE_VALUE else penalty


@njit(cache=True)
def players_of(state: GameState) -> int:
    """Seats at the table."""
    return state.rules[Rule.PLAYERS]


@njit(cache=True)
def all_wild_melds(state: GameState) -> bool:
    """Whether three or more wilds alone are a meld under the state's rules."""
    return state.rules[Rule.ALL_WILD_MELDS] == 1


@njit(cache=True)
def dealt_seat(t: int, players: int, dealer: int) -> int:
    """The seat the ``t``-th card of a deal goes to (0-based): one pass at a time, from the
    dealer's left."""
    return (dealer + 1 + t % players) % players


@njit(cache=True)
def deal_hands(stock: np.ndarray, hands: np.ndarray, n: int, dealer: int) -> int:
    """Deal ``n`` cards a seat off the full ``stock``'s top (its last card), in the order of
    :func:`dealt_seat`; the stock size left. The OpenSpiel game recounts a deal with it."""
    players = hands.shape[0]
    stock_len = DECK_SIZE
    hands[:, :] = 0
    for t in range(n * players):
        stock_len -= 1
        hands[dealt_seat(t, players, dealer), stock[stock_len]] += 1
    return stock_len


@njit(cache=True)
def _deal(stock: np.ndarray, hands: np.ndarray, deal_rng: np.ndarray, n: int,
          dealer: int) -> int:
    """Shuffle the full deck into ``stock`` and deal ``n`` cards a seat
    (:func:`deal_hands`); the stock size left."""
    stock[:] = _DECK
    shuffle(deal_rng, stock, DECK_SIZE)
    return deal_hands(stock, hands, n, dealer)


@njit(cache=True)
def begin_round(state: GameState, trace: np.ndarray, row: int) -> int:
    """Deal the next round (docs/ENGINE.md, steps 1-3); the next trace row."""
    sc = state.scalars
    players = players_of(state)
    r = sc[Scalar.ROUND] + 1
    n = wild_rank(r)
    dealer = (r - 1) % players
    deal_rng = np.empty(STATE_WORDS, dtype=np.uint64)
    seed_state(deal_rng, stream_seed(state.seed[0], r))
    stock_len = _deal(state.stock, state.hands, deal_rng, n, dealer) - 1
    state.pile[0] = state.stock[stock_len]
    state.known[:, :] = 0
    state.history[:, :, :] = 0
    state.scored[:] = 0
    sc[Scalar.ROUND], sc[Scalar.DEALER], sc[Scalar.SEAT] = r, dealer, (dealer + 1) % players
    sc[Scalar.TURN], sc[Scalar.OUT_SEAT], sc[Scalar.OUT_TURN], sc[Scalar.CAPPED] = 0, -1, 0, 0
    sc[Scalar.STOCK], sc[Scalar.PILE] = stock_len, 1
    sc[Scalar.WILD_POINTS] = wild_points_of(state.rules, r)
    sc[Scalar.PHASE] = PHASE_DRAW
    row = write_event(trace, row, EV_DEAL, r, dealer, state.pile[0])
    for s in range(players):
        row = write_event(trace, row, EV_HAND, r, s, n)
        write_cards(trace, row, HAND_COL, state.hands[s])
    return row


@njit(cache=True)
def _restock(pile: np.ndarray, stock: np.ndarray, n: int, rng: np.ndarray) -> None:
    """Lay the pile's first ``n`` cards into ``stock`` and shuffle them (by ``rng``)."""
    for j in range(n):
        stock[j] = pile[j]
    shuffle(rng, stock, n)


@njit(cache=True)
def _reshuffle(state: GameState) -> None:
    """Turn the discard pile but its top card into a shuffled stock (play stream)."""
    sc = state.scalars
    pile_len = sc[Scalar.PILE]
    top = state.pile[pile_len - 1]
    _restock(state.pile, state.stock, pile_len - 1, state.rng)
    state.pile[0] = top
    sc[Scalar.STOCK], sc[Scalar.PILE] = pile_len - 1, 1


@njit(cache=True)
def reshuffle_top(state: GameState) -> int:
    """The pile position of the card the next reshuffle puts on top of the new stock (-1:
    no card to reshuffle): the reshuffle's own steps, on the positions and a copy of the
    play stream, so the state is left as it is. The OpenSpiel game lays a chance outcome
    there."""
    n = state.scalars[Scalar.PILE] - 1
    if n < 1:
        return -1
    positions = np.arange(n)
    stock = np.empty(n, dtype=np.int64)
    _restock(positions, stock, n, state.rng.copy())
    return stock[n - 1]


@njit(cache=True)
def wild_split(hand: np.ndarray, wild_pos: int, left: int, wild_points: int
               ) -> tuple[int, int]:
    """Points of the ``left`` cheapest wilds of ``hand``: (wild-rank points, joker points)."""
    n_rank = 0
    for s in range(N_SUITS):
        n_rank += hand[kind_at(wild_pos, s)]
    n_jokers = int(hand[JOKER])
    if wild_points <= JOKER_PENALTY:
        rank_left = min(left, n_rank)
        joker_left = left - rank_left
    else:
        joker_left = min(left, n_jokers)
        rank_left = left - joker_left
    return rank_left * wild_points, joker_left * JOKER_PENALTY


@njit(cache=True)
def _score_seat(state: GameState, seat: int, table: np.ndarray, scratch: np.ndarray) -> None:
    """Fix ``seat``'s round score: the least penalty of the cards it keeps, split into
    wild-rank and joker points (docs/ENGINE.md, step 5)."""
    r = state.scalars[Scalar.ROUND]
    hand = state.hands[seat]
    wild_points = state.scalars[Scalar.WILD_POINTS]
    pen, left = penalty_memo(hand, r, wild_points, all_wild_melds(state), table, scratch)
    wild_pts, joker_pts = wild_split(hand, r - 1, left, wild_points)
    score = state.scores[r - 1, seat]
    score[Score.PENALTY], score[Score.WILD_PTS], score[Score.JOKER_PTS] = pen, wild_pts, joker_pts
    state.scored[seat] = 1


@njit(cache=True)
def solve_drawn(state: GameState, table: np.ndarray, scratch: np.ndarray) -> tuple[int, int]:
    """Record the best discard of the hand of the seat to move, just drawn to, and the
    penalty it leaves (the scalars ``BEST_DISCARD``, ``BEST_PENALTY``: a discard of that
    card at 0 goes out); return both."""
    sc = state.scalars
    best, best_pen = best_discard_kernel(state.hands[sc[Scalar.SEAT]], sc[Scalar.ROUND],
                                         sc[Scalar.WILD_POINTS], all_wild_melds(state),
                                         table, scratch)
    sc[Scalar.BEST_DISCARD], sc[Scalar.BEST_PENALTY] = best, best_pen
    return best, best_pen


@njit(cache=True, inline=INLINE_STEP)
def apply_draw(state: GameState, source: int, table: np.ndarray, scratch: np.ndarray,
               trace: np.ndarray, row: int) -> tuple[int, int]:
    """The seat to move draws from ``source`` (docs/ENGINE.md, step 4.1-4.2).

    If the hand can then meld whole, the seat goes out at once with the solver's best
    discard. Returns (status, next trace row); an illegal source changes nothing.
    """
    sc = state.scalars
    if sc[Scalar.PHASE] != PHASE_DRAW:
        return ERR_PHASE, row
    if source != DRAW_STOCK and source != DRAW_PILE:
        return ERR_DRAW, row
    seat = sc[Scalar.SEAT]
    if source == DRAW_STOCK:
        state.history[Plane.PASSED, seat, state.pile[sc[Scalar.PILE] - 1]] += 1
        if sc[Scalar.STOCK] == 0:
            _reshuffle(state)
            row = write_event(trace, row, EV_RESHUFFLE, sc[Scalar.ROUND], sc[Scalar.STOCK])
        sc[Scalar.STOCK] -= 1
        card = state.stock[sc[Scalar.STOCK]]
    else:
        sc[Scalar.PILE] -= 1
        card = state.pile[sc[Scalar.PILE]]
        state.known[seat, card] += 1
        state.history[Plane.TAKEN, seat, card] += 1
    state.hands[seat, card] += 1
    sc[Scalar.SOURCE], sc[Scalar.DRAWN] = source, card
    best, best_pen = solve_drawn(state, table, scratch)
    if best_pen == 0:  # going out is automatic
        return OK, _end_turn(state, best, True, table, scratch, trace, row)
    sc[Scalar.PHASE] = PHASE_DISCARD
    return OK, row


@njit(cache=True, inline=INLINE_STEP)
def apply_discard(state: GameState, kind: int, table: np.ndarray, scratch: np.ndarray,
                  trace: np.ndarray, row: int) -> tuple[int, int]:
    """The seat to move discards ``kind`` (docs/ENGINE.md, step 4.3-4.7).

    Returns (status, next trace row); a card the hand does not hold changes nothing.
    """
    sc = state.scalars
    if sc[Scalar.PHASE] != PHASE_DISCARD:
        return ERR_PHASE, row
    if kind < 0 or kind >= N_KINDS or state.hands[sc[Scalar.SEAT], kind] == 0:
        return ERR_DISCARD, row
    # A hand that melds whole goes out at the draw (apply_draw), so in a game no discard
    # goes out; a position set up at that moment (fcsim advise) goes out with the best one.
    went_out = sc[Scalar.BEST_PENALTY] == 0 and kind == sc[Scalar.BEST_DISCARD]
    return OK, _end_turn(state, kind, went_out, table, scratch, trace, row)


@njit(cache=True)
def _trace_turn_details(state: GameState, seat: int, drop: int, table: np.ndarray,
                        scratch: np.ndarray, trace: np.ndarray, row: int) -> None:
    """The turn just traced as the decision data records it (events.TURN_*): the least
    penalty of the hand before the draw and after the discard, the wilds kept."""
    sc = state.scalars
    r, wild_points, all_wild = sc[Scalar.ROUND], sc[Scalar.WILD_POINTS], all_wild_melds(state)
    hand = state.hands[seat]
    after, _ = penalty_memo(hand, r, wild_points, all_wild, table, scratch)
    hand[drop] += 1  # the hand as it was before the draw, for a moment
    hand[sc[Scalar.DRAWN]] -= 1
    before, _ = penalty_memo(hand, r, wild_points, all_wild, table, scratch)
    hand[sc[Scalar.DRAWN]] += 1
    hand[drop] -= 1
    wilds = 0
    for s in range(N_SUITS):
        wilds += hand[kind_at(wild_index(r), s)]
    write_turn_details(trace, row, sc[Scalar.TURN], sc[Scalar.STOCK], before, after, wilds,
                       hand[JOKER])


@njit(cache=True, inline=INLINE_STEP)
def _end_turn(state: GameState, drop: int, went_out: bool, table: np.ndarray,
              scratch: np.ndarray, trace: np.ndarray, row: int) -> int:
    """Discard ``drop`` and close the turn: a last turn is scored, going out starts the
    last turns, the turn cap stops the round, else the next seat is to move."""
    sc = state.scalars
    seat = sc[Scalar.SEAT]
    state.hands[seat, drop] -= 1
    state.pile[sc[Scalar.PILE]] = drop
    sc[Scalar.PILE] += 1
    state.history[Plane.DISCARDED, seat, drop] += 1
    if state.known[seat, drop] > 0:
        state.known[seat, drop] -= 1
    sc[Scalar.TURN] += 1
    last = sc[Scalar.OUT_SEAT] >= 0
    # events.Turn's fields, in order:
    row = write_event(trace, row, EV_TURN, sc[Scalar.ROUND], seat, sc[Scalar.SOURCE],
                      sc[Scalar.DRAWN], drop, 1 if went_out else 0, 1 if last else 0)
    if trace.shape[0]:
        _trace_turn_details(state, seat, drop, table, scratch, trace, row)
    if last:
        _score_seat(state, seat, table, scratch)
    elif went_out:
        sc[Scalar.OUT_SEAT], sc[Scalar.OUT_TURN] = seat, sc[Scalar.TURN]
        state.scores[sc[Scalar.ROUND] - 1, seat, Score.PENALTY] = state.rules[Rule.GO_OUT_BONUS]
        state.scored[seat] = 1
    elif sc[Scalar.TURN] >= state.rules[Rule.TURN_CAP]:
        sc[Scalar.CAPPED] = 1
        sc[Scalar.PHASE] = PHASE_ROUND_END
        return row
    seat = (seat + 1) % players_of(state)
    sc[Scalar.SEAT] = seat
    done = sc[Scalar.OUT_SEAT] >= 0 and seat == sc[Scalar.OUT_SEAT]
    sc[Scalar.PHASE] = PHASE_ROUND_END if done else PHASE_DRAW
    return row


@njit(cache=True)
def finish_round(state: GameState, table: np.ndarray, scratch: np.ndarray, trace: np.ndarray,
                 row: int) -> int:
    """Score the round (docs/ENGINE.md, steps 5-6); the next round, or the game's end."""
    sc = state.scalars
    r = sc[Scalar.ROUND]
    if sc[Scalar.CAPPED]:
        row = write_event(trace, row, EV_CAPPED, r)
    for s in range(players_of(state)):
        if state.scored[s] == 0:
            _score_seat(state, s, table, scratch)
        score = state.scores[r - 1, s]
        state.totals[s] += score[Score.PENALTY]
        row = write_event(trace, row, EV_SCORE, r, s, score[Score.PENALTY], score[Score.WILD_PTS],
                          score[Score.JOKER_PTS], 1 if s == sc[Scalar.OUT_SEAT] else 0,
                          wild_rank(r))
        write_cards(trace, row, SCORE_COL, state.hands[s])
    info = state.round_info[r - 1]
    info[RoundInfo.OUT_SEAT], info[RoundInfo.OUT_TURN] = sc[Scalar.OUT_SEAT], sc[Scalar.OUT_TURN]
    info[RoundInfo.TURNS], info[RoundInfo.CAPPED] = sc[Scalar.TURN], sc[Scalar.CAPPED]
    if r < state.rules[Rule.ROUNDS]:
        sc[Scalar.PHASE] = PHASE_ROUND_START
        return row
    sc[Scalar.PHASE] = PHASE_GAME_OVER
    if trace.shape[0]:
        trace[row, 0] = EV_END
        trace[row, 1 : 1 + players_of(state)] = state.totals
        row += 1
    return row


@njit(cache=True, inline=INLINE_STEP)
def settle(state: GameState, table: np.ndarray, scratch: np.ndarray, trace: np.ndarray,
           row: int) -> int:
    """Make the steps that need no decision — finish a round, begin the next — until a
    seat must decide or the game is over; the next trace row."""
    while True:
        phase = state.scalars[Scalar.PHASE]
        if phase == PHASE_ROUND_END:
            row = finish_round(state, table, scratch, trace, row)
        elif phase == PHASE_ROUND_START:
            row = begin_round(state, trace, row)
        else:
            return row


@njit(cache=True, inline=INLINE_STEP)
def apply_move(state: GameState, action: int, table: np.ndarray, scratch: np.ndarray,
               trace: np.ndarray, row: int) -> tuple[int, int]:
    """Apply the pending decision — a draw source by :func:`apply_draw` in the draw
    phase, else a kind to discard by :func:`apply_discard` — without settling.

    Returns (status, next trace row); an illegal action changes nothing.
    """
    if state.scalars[Scalar.PHASE] == PHASE_DRAW:
        return apply_draw(state, action, table, scratch, trace, row)
    return apply_discard(state, action, table, scratch, trace, row)


@njit(cache=True)
def act(state: GameState, action: int, table: np.ndarray, scratch: np.ndarray,
        trace: np.ndarray, row: int) -> tuple[int, int]:
    """Apply the pending decision (a draw source, or a kind to discard) and settle.

    Returns (status, next trace row); an illegal action changes nothing.
    """
    status, row = apply_move(state, action, table, scratch, trace, row)
    if status != OK:
        return status, row
    return OK, settle(state, table, scratch, trace, row)


# Entry points from Python: they take the StateData (one cheap argument) and step its
# parts, borrowed with the work arrays for the length of the call.


@njit(cache=True)
def new_game(data: StateData, seed: np.uint64, table: np.ndarray, scratch: np.ndarray,
             trace: np.ndarray, row: int) -> int:
    """Start game ``seed`` in ``data`` and deal its first round; the next trace row."""
    state = lend(data)
    reset_game(state, seed)
    return settle(state, borrow(table), borrow(scratch), borrow(trace), row)


@njit(cache=True)
def play_action(data: StateData, action: int, table: np.ndarray, scratch: np.ndarray,
                trace: np.ndarray, row: int) -> tuple[int, int]:
    """:func:`act` on ``data``: (status, next trace row)."""
    return act(lend(data), action, borrow(table), borrow(scratch), borrow(trace), row)
