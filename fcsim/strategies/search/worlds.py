"""Worlds: full game states consistent with what one seat sees.

A search decides on a view (:mod:`fcsim.core.view`), but the steps of
:mod:`fcsim.core.state` play full states. A *world* is a state that agrees with the view
in everything the seat can see — its hand, the pile, the cards known in each hand, the
public scalars — and fills in what it cannot: the other hands (their known cards kept,
the rest drawn from the unseen cards) and the stock order. Every world holds exactly the
unseen cards, each once; the solver kernels trust their input, so a wrong world would
corrupt memory rather than fail (the tests sample under ``NUMBA_BOUNDSCHECK=1``).

The other hands are drawn uniformly by default; two models of the opponents can shape
them (:func:`deal_unseen`): ``skill`` (they kept their best cards) and ``evidence`` (they
play by what helps them, so the cards they passed up or threw away likely did not: each
hand is resampled by the likelihood of the seat's public history).

A world is laid out for the round being played only (``rules[Rule.ROUNDS]`` is that round),
which is all a rollout to the end of the round needs. The rules a view does not carry
(the turn cap) are the defaults. Analysis only, from an oracle's ``hidden``: *real*
worlds are the real state; *real-hands* worlds hold every hand as it is (or, with a
``reveal`` below 1, each unshown card as it is with that chance) and a resampled stock.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from fcsim.core.cards import DECK_COUNTS, DECK_SIZE, N_KINDS, copies
from fcsim.core.records import Score
from fcsim.core.rng import next_u64, randbelow, seed_state, shuffle, uniform
from fcsim.core.rules import Rule
from fcsim.core.solver import penalty_memo
from fcsim.core.solver.hand import HUGE_PENALTY
from fcsim.core.state import (
    H_SIZE,
    PHASE_DISCARD,
    PHASE_DRAW,
    S_SIZE,
    GameState,
    Scalar,
    StateData,
    data_lengths,
    unpack,
)
from fcsim.core.view import (
    HISTORY_BLOCK,
    I_DISCARDED,
    I_HAND_SIZES,
    I_HISTORY,
    I_PASSED,
    I_TOTALS,
    I_TURN_CAP,
    Info,
    is_drawing,
)
from fcsim.strategies.candidates import penalty_after_taking
from fcsim.strategies.lookahead import unseen_counts

MAX_TRIES = 32  # draws a skilled opponent's hand is the best of, at most
EVIDENCE_TRIES = 8  # draws an opponent's hand is resampled from by its history
FULL_REVEAL = 1.0  # deal_real_hands' reveal: every hand as it is (sampled worlds ignore it)

compiled_data_lengths = njit(data_lengths)  # for new_world


@njit(cache=True)
def new_world(info: np.ndarray) -> StateData:
    """An empty state laid out for the table and round of ``info`` (``int64[INFO_SIZE]``)."""
    players, rnd = info[Info.PLAYERS], info[Info.ROUND]
    n_ints, n_cards, n_streams = compiled_data_lengths(players, rnd)
    world = StateData(np.zeros(n_ints, np.int64), np.zeros(n_cards, np.int8),
                      np.zeros(n_streams, np.uint64))
    world.ints[S_SIZE + Rule.PLAYERS] = players  # the layout unpack() reads
    world.ints[S_SIZE + Rule.ROUNDS] = rnd
    return world


@njit(cache=True)
def copy_world(source: StateData, target: StateData) -> None:
    """Overwrite ``target`` with ``source`` (same layout)."""
    target.ints[:] = source.ints
    target.cards[:] = source.cards
    target.streams[:] = source.streams


@njit(cache=True)
def seed_seat_streams(state: GameState, rng: np.ndarray) -> None:
    """Seed every seat's stream of the world ``state`` from ``rng`` (one output a seat,
    in seat order): the streams a world's play-outs draw their random choices from."""
    for seat in range(state.seat_rng.shape[0]):
        seed_state(state.seat_rng[seat], next_u64(rng))


@njit(cache=True)
def seen_part(world: StateData, hand: np.ndarray, pile: np.ndarray, known: np.ndarray,
              info: np.ndarray) -> GameState:
    """Write into ``world`` everything the view shows; the unknown cards are left empty
    (:func:`deal_unseen` or :func:`deal_hidden` fill them). Returns its parts."""
    state = unpack(world)
    players, rnd, seat = info[Info.PLAYERS], info[Info.ROUND], info[Info.SEAT]
    rules = state.rules  # players and rounds: set by new_world
    rules[Rule.WILD_PENALTY] = info[Info.WILD_POINTS]  # this round's points (face value or not)
    rules[Rule.GO_OUT_BONUS] = info[Info.GO_OUT_BONUS]
    rules[Rule.ALL_WILD_MELDS] = info[Info.ALL_WILD]
    rules[Rule.TURN_CAP] = info[I_TURN_CAP]
    sc = state.scalars
    sc[:] = 0
    sc[Scalar.ROUND], sc[Scalar.DEALER], sc[Scalar.SEAT] = rnd, info[Info.DEALER], seat
    sc[Scalar.TURN] = info[Info.TURN]
    sc[Scalar.OUT_SEAT] = info[Info.OUT_SEAT]
    sc[Scalar.PHASE] = PHASE_DRAW if is_drawing(hand, rnd) else PHASE_DISCARD
    sc[Scalar.STOCK], sc[Scalar.PILE] = info[Info.STOCK_SIZE], pile.shape[0]
    sc[Scalar.BEST_DISCARD] = info[Info.BEST_DISCARD]
    sc[Scalar.BEST_PENALTY] = info[Info.BEST_PENALTY]
    sc[Scalar.WILD_POINTS] = info[Info.WILD_POINTS]
    for s in range(players):
        state.totals[s] = info[I_TOTALS + s]
    state.scores[:, :, :] = 0
    state.round_info[:, :] = 0
    state.pile[:] = 0
    state.pile[: pile.shape[0]] = pile
    state.known[:, :] = known
    for h in range(H_SIZE):
        for s in range(players):
            at = I_HISTORY + h * HISTORY_BLOCK + s * N_KINDS
            state.history[h, s] = info[at : at + N_KINDS]
    state.hands[:, :] = 0
    state.hands[seat, :] = hand
    state.scored[:] = 0
    out = info[Info.OUT_SEAT]
    if out >= 0:  # the seat that went out is scored; last turns played are scored again
        state.scored[out] = 1
        state.scores[rnd - 1, out, Score.PENALTY] = info[Info.GO_OUT_BONUS]
    return state


@njit(cache=True)
def unseen_cards(hand: np.ndarray, pile: np.ndarray, known: np.ndarray, info: np.ndarray
                 ) -> np.ndarray:
    """The cards the seat has not seen, one entry per card (``int8[U]``, kind order)."""
    counts = np.empty(N_KINDS, dtype=np.int64)
    cards = np.empty(unseen_counts(hand, pile, known, info[Info.SEAT], counts), dtype=np.int8)
    _spread(counts, cards)
    return cards


@njit(cache=True)
def _spread(counts: np.ndarray, out: np.ndarray) -> int:
    """Write ``counts[k]`` cards of each kind ``k`` to ``out``, in kind order; return their
    number."""
    at = 0
    for k in range(N_KINDS):
        for _ in range(counts[k]):
            out[at] = k
            at += 1
    return at


@njit(cache=True)
def cards_missing(known: np.ndarray, info: np.ndarray) -> int:
    """Cards the view cannot place: the other hands' unknown cards and the stock."""
    players, seat = info[Info.PLAYERS], info[Info.SEAT]
    missing = info[Info.STOCK_SIZE]
    for s in range(players):
        if s != seat:
            missing += info[I_HAND_SIZES + s] - known[s].sum()
    return missing


@njit(cache=True)
def turns_played(info: np.ndarray, seat: int) -> int:
    """Turns ``seat`` has played this round (play starts left of the dealer)."""
    players = info[Info.PLAYERS]
    offset = (seat - info[Info.DEALER] - 1) % players
    turns = info[Info.TURN]
    return (turns - offset + players - 1) // players if turns > offset else 0


@njit(cache=True)
def _hand_penalty(row: np.ndarray, info: np.ndarray, table: np.ndarray, scratch: np.ndarray
                  ) -> int:
    return penalty_memo(row, info[Info.ROUND], info[Info.WILD_POINTS], info[Info.ALL_WILD] == 1,
                        table, scratch)[0]


@njit(cache=True)
def history_cards(info: np.ndarray, seat: int) -> int:
    """Cards ``seat`` passed up on the pile or discarded this round (the evidence)."""
    passed, discarded = I_PASSED + seat * N_KINDS, I_DISCARDED + seat * N_KINDS
    return info[passed : passed + N_KINDS].sum() + info[discarded : discarded + N_KINDS].sum()


@njit(cache=True)
def evidence_weight(row: np.ndarray, seat: int, info: np.ndarray, evidence: float,
                    table: np.ndarray, scratch: np.ndarray) -> float:
    """How likely ``seat``'s public history is if it holds ``row`` (``int8[56]``, n cards):
    ``(1 - evidence) ** m``, ``m`` the cards it passed up on the pile or discarded this
    round (``info``'s ``I_PASSED`` and ``I_DISCARDED`` rows, copy by copy) that ``row``
    would have wanted — with which, less its best discard, it would leave less penalty than
    it leaves now. A player likely takes, or keeps, a card that helps it.

    The model judges the hand ``row`` is now, not the hand the seat held when it acted
    (that hand has changed since): an approximation. A card ``row`` holds every copy of
    cannot be added, and counts for nothing. ``row`` is restored."""
    rnd, points, all_wild = info[Info.ROUND], info[Info.WILD_POINTS], info[Info.ALL_WILD] == 1
    now = penalty_memo(row, rnd, points, all_wild, table, scratch)[0]
    passed, discarded = I_PASSED + seat * N_KINDS, I_DISCARDED + seat * N_KINDS
    wanted = 0
    for k in range(N_KINDS):
        given_up = info[passed + k] + info[discarded + k]
        if given_up > 0 and row[k] < copies(k) and penalty_after_taking(
                row, k, now, rnd, points, all_wild, table, scratch) < now:
            wanted += given_up
    weight = 1.0
    for _ in range(wanted):  # a product, as the twin computes it
        weight *= 1.0 - evidence
    return weight


@njit(cache=True)
def weighted_choice(weights: np.ndarray, rng: np.ndarray) -> int:
    """An index of ``weights`` (``float64[T]``, none negative) with odds proportional to
    its weight, from one :func:`~fcsim.core.rng.uniform` draw; all zero: uniform."""
    n = weights.shape[0]
    total = 0.0
    for t in range(n):
        total += weights[t]
    u = uniform(rng)
    if total <= 0.0:
        return int(u * n)
    target = u * total
    t, reached = 0, weights[0]
    while target >= reached and t < n - 1:
        t += 1
        reached += weights[t]
    return t


@njit(cache=True)
def _fresh_draw(unseen: np.ndarray, at: int, need: int, rng: np.ndarray) -> None:
    """A new random draw in ``unseen[at : at + need]``: a partial shuffle of ``unseen[at:]``."""
    rest = unseen.shape[0] - at
    for i in range(need):
        j = at + i + randbelow(rng, rest - i)
        unseen[at + i], unseen[j] = unseen[j], unseen[at + i]


@njit(cache=True)
def _least_penalty_draw(row: np.ndarray, unseen: np.ndarray, at: int, need: int, tries: int,
                        info: np.ndarray, rng: np.ndarray, table: np.ndarray,
                        scratch: np.ndarray, best: np.ndarray) -> None:
    """Write to ``best`` (``int8[need]``) the draw that leaves ``row`` (the seat's known
    cards) the least penalty of ``tries`` draws of ``need`` cards from ``unseen[at:]``: the
    first is ``unseen[at : at + need]`` as it lies, the others fresh (``unseen[at:]`` is
    permuted; ``row`` is restored)."""
    best_pen = HUGE_PENALTY
    for t in range(tries):
        if t > 0:
            _fresh_draw(unseen, at, need, rng)
        for i in range(need):
            row[unseen[at + i]] += 1
        pen = _hand_penalty(row, info, table, scratch) if tries > 1 else 0
        for i in range(need):
            row[unseen[at + i]] -= 1
        if pen < best_pen:
            best_pen = pen
            best[:] = unseen[at : at + need]


@njit(cache=True)
def _evidence_draw(row: np.ndarray, unseen: np.ndarray, at: int, need: int, tries: int,
                   seat: int, info: np.ndarray, evidence: float, rng: np.ndarray,
                   table: np.ndarray, scratch: np.ndarray, best: np.ndarray) -> None:
    """Write to ``best`` (``int8[need]``) a draw resampled by the evidence
    (sampling-importance-resampling): of ``EVIDENCE_TRIES`` draws, each as
    :func:`_least_penalty_draw` makes it, one picked with odds proportional to its
    :func:`evidence_weight` (``unseen[at:]`` is permuted; ``row`` is restored)."""
    draws = np.empty((EVIDENCE_TRIES, need), dtype=np.int8)
    weights = np.empty(EVIDENCE_TRIES, dtype=np.float64)
    for t in range(EVIDENCE_TRIES):
        if t > 0:
            _fresh_draw(unseen, at, need, rng)
        _least_penalty_draw(row, unseen, at, need, tries, info, rng, table, scratch, draws[t])
        for i in range(need):
            row[draws[t, i]] += 1
        weights[t] = evidence_weight(row, seat, info, evidence, table, scratch)
        for i in range(need):
            row[draws[t, i]] -= 1
    best[:] = draws[weighted_choice(weights, rng)]


@njit(cache=True)
def _take_draw(row: np.ndarray, unseen: np.ndarray, at: int, drawn: np.ndarray) -> None:
    """Give ``drawn`` to ``row``, moved to ``unseen[at : at + drawn.size]`` card by card (the
    rest of ``unseen[at:]`` stays a permutation of the cards not dealt)."""
    for i in range(drawn.shape[0]):
        for j in range(at + i, unseen.shape[0]):
            if unseen[j] == drawn[i]:
                unseen[at + i], unseen[j] = unseen[j], unseen[at + i]
                break
        row[drawn[i]] += 1


@njit(cache=True)
def deal_unseen(state: GameState, unseen: np.ndarray, known: np.ndarray, info: np.ndarray,
                rng: np.ndarray, skill: float, evidence: float, table: np.ndarray,
                scratch: np.ndarray) -> None:
    """Deal a random world: shuffle ``unseen`` (in place) and give each other seat its
    known cards plus as many unseen ones as its hand lacks, the rest to the stock.

    ``skill`` > 0 models opponents who kept their best cards: a seat that has played
    ``t`` turns this round gets the best (least penalty) of ``1 + skill * t`` random
    draws (at most ``MAX_TRIES``); 0 deals uniformly. ``evidence`` in (0, 1] weighs each
    seat's hand by its public history: of ``EVIDENCE_TRIES`` such draws, one with odds
    proportional to :func:`evidence_weight` (the skill's choice is the prior, the history
    the likelihood); a seat with no history, or no card to draw, is dealt as with 0, which
    deals exactly as before there was evidence. ``unseen`` must hold exactly
    :func:`cards_missing` cards (the caller checks).
    """
    shuffle(rng, unseen, unseen.shape[0])
    players, seat = info[Info.PLAYERS], info[Info.SEAT]
    at = 0
    for s in range(players):
        if s == seat:
            continue
        row = state.hands[s]
        row[:] = known[s]
        need = info[I_HAND_SIZES + s] - known[s].sum()
        tries = min(MAX_TRIES, 1 + int(skill * turns_played(info, s)))
        drawn = np.empty(need, dtype=np.int8)
        if evidence > 0.0 and need > 0 and history_cards(info, s) > 0:
            _evidence_draw(row, unseen, at, need, tries, s, info, evidence, rng, table,
                           scratch, drawn)
        else:
            _least_penalty_draw(row, unseen, at, need, tries, info, rng, table, scratch,
                                drawn)
        _take_draw(row, unseen, at, drawn)
        at += need
    stock_len = state.scalars[Scalar.STOCK]
    for j in range(stock_len):
        state.stock[j] = unseen[at + j]


@njit(cache=True)
def deal_hidden(state: GameState, hidden: np.ndarray, info: np.ndarray, rng: np.ndarray
                ) -> None:
    """The real world, from an oracle's ``hidden``: every hand, and the stock (row P, top
    first).

    ``hidden`` is revealed as the turn starts, so when discarding after a stock draw its
    first stock card is the one drawn: the stock is its last ``stock size`` cards. After
    a draw that reshuffled the pile, the new stock's order was never revealed: it is the
    cards in no hand and not on the pile, shuffled with ``rng``.
    """
    players = info[Info.PLAYERS]
    _real_hands(state, hidden, info)
    stock_len = state.scalars[Scalar.STOCK]
    revealed = 0
    while revealed < hidden.shape[1] and hidden[players, revealed] >= 0:
        revealed += 1
    if revealed >= stock_len:
        first = revealed - stock_len
        for j in range(stock_len):
            state.stock[j] = hidden[players, first + stock_len - 1 - j]
        return
    _shuffled_stock(state, rng)


@njit(cache=True)
def deal_real_hands(state: GameState, hidden: np.ndarray, info: np.ndarray, rng: np.ndarray,
                    reveal: float) -> None:
    """A world with every hand as it really is (an oracle's ``hidden``) and the stock
    resampled: the cards in no hand and not on the pile, shuffled with ``rng`` — what a
    perfect reading of the opponents' hands could know, and no more.

    With ``reveal`` below 1 the reading is partial: each opponent card its seat has not
    shown is kept as it is with chance ``reveal`` (one :func:`~fcsim.core.rng.uniform`
    draw per card, seat by seat, in kind order); the cards not kept are shuffled with the
    stock's and refill the hands in seat order, the rest the stock. At 0 every world is
    dealt as uniformly as a fair search's.
    """
    if reveal >= FULL_REVEAL:
        _real_hands(state, hidden, info)
        _shuffled_stock(state, rng)
        return
    players, seat = info[Info.PLAYERS], info[Info.SEAT]
    for s in range(players):
        if s == seat:
            continue
        row = state.hands[s]
        row[:] = state.known[s]
        for k in range(N_KINDS):
            for _ in range(hidden[s, k] - state.known[s, k]):
                if uniform(rng) < reveal:
                    row[k] += 1
    left = np.empty(DECK_SIZE, dtype=np.int8)
    n_left = _cards_in_no_hand(state, left)
    shuffle(rng, left, n_left)
    at = 0
    for s in range(players):
        if s == seat:
            continue
        for _ in range(info[I_HAND_SIZES + s] - state.hands[s].sum()):
            state.hands[s, left[at]] += 1
            at += 1
    state.stock[: n_left - at] = left[at:n_left]


@njit(cache=True)
def _real_hands(state: GameState, hidden: np.ndarray, info: np.ndarray) -> None:
    """Every other seat's hand from an oracle's ``hidden`` (rows 0 … P-1)."""
    for s in range(info[Info.PLAYERS]):
        if s != info[Info.SEAT]:
            state.hands[s, :] = hidden[s, :N_KINDS]


@njit(cache=True)
def _cards_in_no_hand(state: GameState, out: np.ndarray) -> int:
    """Write the cards in no hand and not on the pile to ``out``, in kind order; return
    their number."""
    left = DECK_COUNTS.copy()
    for s in range(state.hands.shape[0]):
        for k in range(N_KINDS):
            left[k] -= state.hands[s, k]
    for j in range(state.scalars[Scalar.PILE]):
        left[state.pile[j]] -= 1
    return _spread(left, out)


@njit(cache=True)
def _shuffled_stock(state: GameState, rng: np.ndarray) -> None:
    """The stock: the cards in no hand and not on the pile, in kind order, shuffled."""
    shuffle(rng, state.stock, _cards_in_no_hand(state, state.stock))


__all__ = ["EVIDENCE_TRIES", "FULL_REVEAL", "MAX_TRIES", "cards_missing", "copy_world",
           "deal_hidden", "deal_real_hands", "deal_unseen", "evidence_weight", "history_cards",
           "new_world", "seen_part", "turns_played", "unseen_cards", "weighted_choice"]
