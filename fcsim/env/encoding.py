"""The environments' observations and actions as numbers (one table size, one encoder).

**Actions** — ``Discrete(58)``: ``0`` draw from the stock, ``1`` take the pile's top card,
``2 + kind`` discard that card (kinds as in :mod:`fcsim.core.cards`: ``suit * 11 + rank -
3`` with suits S H D C X, joker 55; so ``2`` is 3S and ``57`` the joker). Going out is
automatic, as everywhere in fcsim. Only the actions of ``action_mask`` are legal: the two
draws while drawing, the cards held while discarding; any other is refused with
:class:`~fcsim.core.view.IllegalMoveError`.

**Observation** of seat ``s`` at a table of ``P`` — a dict:

``action_mask``  int8[58]: 1 for each legal action of ``s`` (all 0 unless ``s`` is to move).
``observation``  float32[(4 * P + 4) * 56 + 10 + 2 * P] (version 1; version 0, without the
public history, float32[(P + 4) * 56 + 10 + 2 * P]): the card planes of 56 kinds, then
scalars. Planes (copies per kind; 0-2 for a natural, 0-6 jokers):

== ============ ==========================================================================
 0 hand         ``s``'s own cards
 1 pile         the discard pile (all of it: every player sees it)
 2 pile top     1 at the card on top of the pile (none while the only card was just taken)
 3 wild         1 at the kinds that are wild this round: the wild rank in every suit, joker
 4 unseen       the deck less own hand, pile and the known cards of other seats: cards in
                the stock or unseen in another hand
 5… known       per other seat, next seat first (``s+1``, ``s+2``, …): the cards it took
                from the pile and has not discarded since
 …  discarded   (version 1) per seat, ``s`` first: every card it discarded this round
 …  taken       (version 1) per seat, ``s`` first: every pile card it took this round
 …  passed      (version 1) per seat, ``s`` first: the pile tops it passed up this round
== ============ ==========================================================================

Scalars (seat numbers are offsets from ``s``: 0 is ``s``, 1 the next seat…):
``round`` (1…), ``phase`` (0 a draw is pending, 1 a discard, 2 the game is over),
``to_move`` (the seat deciding), ``dealer``, ``stock`` (cards in it), ``pile`` (cards
in it), ``turn`` (turns played this round), ``last_turn`` (1 once someone went out),
``out`` (the seat that went out, 0 while nobody has), ``best_penalty`` (when ``s`` is to
discard: the least penalty its hand keeps after its best discard, as the built-in
strategies are told; else -1), then ``P`` hand sizes and ``P`` totals of the finished
rounds, ``s`` first. Nothing else: a seat's observation never depends on a card it cannot
see (the tests change the hidden cards and compare).
"""

from __future__ import annotations

from enum import IntEnum

import numpy as np

from fcsim.core.cards import (
    COPIES,
    DECK_COUNTS,
    DECK_SIZE,
    JOKER,
    N_JOKERS,
    N_KINDS,
    N_NATURAL,
    N_SUITS,
    format_card,
    kind_of,
    parse_card,
    wild_rank,
)
from fcsim.core.rules import RuleSet
from fcsim.core.state import (
    H_SIZE,
    PHASE_DISCARD,
    PHASE_DRAW,
    PHASE_GAME_OVER,
    GameState,
    Scalar,
)
from fcsim.core.view import DRAW_PILE, DRAW_STOCK, action_code

ACTION_STOCK = 0
ACTION_PILE = 1
DISCARD_BASE = 2  # action DISCARD_BASE + kind discards kind
N_ACTIONS = DISCARD_BASE + N_KINDS

PLANE_HAND = 0
PLANE_PILE = 1
PLANE_PILE_TOP = 2
PLANE_WILD = 3
PLANE_UNSEEN = 4
PLANE_KNOWN = 5  # first of P - 1: the known cards of the next seats
# Then, in version 1, the public history: H_SIZE groups of P planes (in state.Plane order).

HISTORY_VERSION = 1  # the first version whose observation holds the public history
VERSIONS = (0, 1)
LATEST_VERSION = VERSIONS[-1]

# The observation's scalars after the card planes, by name (a record: see
# fcsim.core.records); then the hand sizes and the totals, P each.
Obs = IntEnum("Obs", "ROUND PHASE TO_MOVE DEALER STOCK PILE TURN LAST_TURN OUT BEST_PENALTY",
              start=0)
X_HAND_SIZES = len(Obs)
# The fields under the flat names callers outside the environments import.
X_ROUND = Obs.ROUND
X_PHASE = Obs.PHASE
X_TO_MOVE = Obs.TO_MOVE
X_DEALER = Obs.DEALER
X_STOCK = Obs.STOCK
X_PILE = Obs.PILE
X_TURN = Obs.TURN
X_LAST_TURN = Obs.LAST_TURN
X_OUT = Obs.OUT
X_BEST_PENALTY = Obs.BEST_PENALTY

OBS_PHASE_DRAW, OBS_PHASE_DISCARD, OBS_PHASE_OVER = 0, 1, 2
_DECK_PLANE = DECK_COUNTS.astype(np.float32)  # the deck's copies, as a card plane
_OBS_PHASE = {PHASE_DRAW: OBS_PHASE_DRAW, PHASE_DISCARD: OBS_PHASE_DISCARD,
              PHASE_GAME_OVER: OBS_PHASE_OVER}


def action_name(action: int) -> str:
    """What an action index means, for people (``"stock"``, ``"pile"``, ``"discard 7H"``)."""
    if action == ACTION_STOCK:
        return "stock"
    if action == ACTION_PILE:
        return "pile"
    if DISCARD_BASE <= action < N_ACTIONS:
        return f"discard {format_card(action - DISCARD_BASE)}"
    return f"no action (actions are 0 to {N_ACTIONS - 1})"


def action_index(action: str) -> int:
    """The index of a :class:`~fcsim.core.view.View` legal action (``"stock"``, ``"7H"``)."""
    if action == "stock":
        return ACTION_STOCK
    if action == "pile":
        return ACTION_PILE
    return DISCARD_BASE + parse_card(action)


def move_index(move: object, drawing: bool) -> int:
    """The action index of an agent's move, read as :meth:`fcsim.Game.step` reads it
    (:func:`~fcsim.core.view.action_code`: ``"stock"`` / ``"pile"`` in any case, a card
    code, or the move as an int); -1 when it names nothing."""
    code = action_code(move, drawing)
    if drawing:
        return {DRAW_STOCK: ACTION_STOCK, DRAW_PILE: ACTION_PILE}.get(code, -1)
    return -1 if code < 0 else DISCARD_BASE + code


def agent_action(index: int) -> str:
    """The :class:`~fcsim.core.view.View` legal action of an action index (``"stock"``,
    ``"7H"``): the inverse of :func:`action_index`, how an agent answers."""
    if index == ACTION_STOCK:
        return "stock"
    if index == ACTION_PILE:
        return "pile"
    return format_card(int(index) - DISCARD_BASE)


class Encoder:
    """Observations and action masks of the seats of one table (``rules``), in
    observation ``version`` (0: no public history; 1: with it)."""

    def __init__(self, rules: RuleSet, version: int = LATEST_VERSION) -> None:
        if version not in VERSIONS:
            raise ValueError(f"observation version must be one of {VERSIONS}, not {version!r}")
        players = rules.players
        self.players = players
        self.version = version
        self.history_at = PLANE_KNOWN + players - 1  # the first history plane (version 1)
        history = H_SIZE * players if version >= HISTORY_VERSION else 0
        self.planes = self.history_at + history
        self.cards_size = self.planes * N_KINDS
        self.size = self.cards_size + X_HAND_SIZES + 2 * players
        seats = np.arange(players)
        self._order = [(seat + seats) % players for seat in range(players)]  # s first
        self._hand_size = [wild_rank(r) for r in range(rules.rounds + 1)]  # by round
        self._wild = np.zeros((rules.rounds + 1, N_KINDS), np.float32)
        for r in range(1, rules.rounds + 1):
            self._wild[r, [kind_of(wild_rank(r), suit) for suit in range(N_SUITS)]] = 1
            self._wild[r, JOKER] = 1
        self.low, self.high = self._bounds(rules)

    def _bounds(self, rules: RuleSet) -> tuple[np.ndarray, np.ndarray]:
        low = np.zeros(self.size, np.float32)
        high = np.zeros(self.size, np.float32)
        planes = high[: self.cards_size].reshape(self.planes, N_KINDS)
        planes[:, :N_NATURAL] = COPIES
        planes[:, JOKER] = N_JOKERS
        planes[[PLANE_PILE_TOP, PLANE_WILD]] = 1
        planes[self.history_at :] = rules.most_turns  # a card may pass by again and again
        most_kept = wild_rank(rules.rounds)
        worst_round = rules.worst_round
        scalars_low, scalars_high = low[self.cards_size :], high[self.cards_size :]
        seat = (0, self.players - 1)
        bounds = {Obs.ROUND: (1, rules.rounds), Obs.PHASE: (0, OBS_PHASE_OVER),
                  Obs.TO_MOVE: seat, Obs.DEALER: seat, Obs.STOCK: (0, DECK_SIZE),
                  Obs.PILE: (0, DECK_SIZE), Obs.TURN: (0, rules.most_turns),
                  Obs.LAST_TURN: (0, 1), Obs.OUT: seat, Obs.BEST_PENALTY: (-1, worst_round)}
        for field in Obs:
            scalars_low[field], scalars_high[field] = bounds[field]
        scalars_high[X_HAND_SIZES : X_HAND_SIZES + self.players] = most_kept + 1
        totals = slice(X_HAND_SIZES + self.players, X_HAND_SIZES + 2 * self.players)
        scalars_low[totals] = rules.rounds * rules.go_out_bonus
        scalars_high[totals] = rules.rounds * worst_round
        return low, high

    def observation(self, state: GameState, seat: int) -> np.ndarray:
        """``seat``'s observation (a new float32 array, laid out as the module says)."""
        sc = state.scalars
        players = self.players
        obs = np.zeros(self.size, np.float32)
        planes = obs[: self.cards_size].reshape(self.planes, N_KINDS)
        hand = state.hands[seat]
        pile = state.pile[: sc[Scalar.PILE]]
        others = self._order[seat][1:]
        planes[PLANE_HAND] = hand
        planes[PLANE_PILE] = np.bincount(pile, minlength=N_KINDS)
        if pile.size:
            planes[PLANE_PILE_TOP, pile[-1]] = 1
        r = sc[Scalar.ROUND]
        planes[PLANE_WILD] = self._wild[r]
        known = planes[PLANE_KNOWN : self.history_at]
        known[:] = state.known[others]
        planes[PLANE_UNSEEN] = _DECK_PLANE - planes[PLANE_HAND] - planes[PLANE_PILE]
        planes[PLANE_UNSEEN] -= known.sum(axis=0)
        if self.version >= HISTORY_VERSION:
            history = planes[self.history_at :].reshape(H_SIZE, players, N_KINDS)
            history[:] = state.history[:, self._order[seat]]
        phase = sc[Scalar.PHASE]
        to_move = sc[Scalar.SEAT]
        out = sc[Scalar.OUT_SEAT]
        scalars = obs[self.cards_size :]
        scalars[Obs.ROUND], scalars[Obs.PHASE] = r, _OBS_PHASE[phase]
        scalars[Obs.TO_MOVE] = (to_move - seat) % players
        scalars[Obs.DEALER] = (sc[Scalar.DEALER] - seat) % players
        scalars[Obs.STOCK], scalars[Obs.PILE] = sc[Scalar.STOCK], pile.size
        scalars[Obs.TURN] = sc[Scalar.TURN]
        scalars[Obs.LAST_TURN] = out >= 0
        scalars[Obs.OUT] = (out - seat) % players if out >= 0 else 0
        deciding = phase == PHASE_DISCARD and to_move == seat
        scalars[Obs.BEST_PENALTY] = sc[Scalar.BEST_PENALTY] if deciding else -1
        sizes = scalars[X_HAND_SIZES : X_HAND_SIZES + players]
        sizes[:] = self._hand_size[r]
        if phase == PHASE_DISCARD:
            sizes[(to_move - seat) % players] += 1
        scalars[X_HAND_SIZES + players :] = state.totals[self._order[seat]]
        return obs

    def observe(self, state: GameState, seat: int) -> dict[str, np.ndarray]:
        """``seat``'s observation and action mask, as the environments return them."""
        return {"observation": self.observation(state, seat),
                "action_mask": self.action_mask(state, seat)}

    def action_mask(self, state: GameState, seat: int) -> np.ndarray:
        """int8[58]: the legal actions of ``seat`` (all 0 unless it is to move)."""
        mask = np.zeros(N_ACTIONS, np.int8)
        phase = state.scalars[Scalar.PHASE]
        if state.scalars[Scalar.SEAT] != seat:
            return mask
        if phase == PHASE_DRAW:
            mask[ACTION_STOCK] = mask[ACTION_PILE] = 1
        elif phase == PHASE_DISCARD:
            mask[DISCARD_BASE:] = state.hands[seat] > 0
        return mask
