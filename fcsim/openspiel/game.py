"""``python_five_crowns``: Five Crowns as an OpenSpiel game, played on fcsim's steps.

A state holds an fcsim game state (:class:`~fcsim.core.state.StateData`) and steps it
with :func:`~fcsim.core.state.play_action`, the function :class:`fcsim.Game` steps with:
the rules are fcsim's, once. OpenSpiel's chance nodes choose the cards: a round starts
with ``n * P + 1`` chance nodes (the dealt cards in dealing order, then the upcard), and
every stock draw is a chance node after the player's ``stock`` action (over the stock's
cards, or the pile's but its top when the stock is empty and will be reshuffled). How an
outcome is laid onto fcsim's deal and draw: :mod:`fcsim.openspiel.kernels`.

Actions are the environments' (:mod:`fcsim.env.encoding`): ``0`` stock, ``1`` pile,
``2 + kind`` discard that card; chance outcomes are card kinds (``0`` … ``55``, the joker
55). Rewards come at the end of each round: minus each seat's penalty, so the returns are
minus the totals. What each seat saw, move by move (its information state, perfect
recall), and the past a resampled world comes with: :mod:`fcsim.openspiel.recall`.
"""

from __future__ import annotations

import functools
from collections import Counter

import numpy as np
import pyspiel

from fcsim.core.cards import (
    DECK_COUNTS,
    DECK_SIZE,
    N_KINDS,
    format_card,
    format_cards,
    full_deck,
    hand_kinds,
    wild_rank,
)
from fcsim.core.events import (
    EV_DEAL,
    EV_HAND,
    EV_RESHUFFLE,
    EV_SCORE,
    EV_TURN,
    HAND_COL,
    SCORE_COL,
    TRACE_WIDTH,
    DealRow,
    EventDecoder,
    HandRow,
    ScoreRow,
    Turn,
    rows_per_step,
)
from fcsim.core.rng import seed_state
from fcsim.core.rules import FACE, MAX_PLAYERS, MIN_PLAYERS, RulesError, RuleSet
from fcsim.core.state import (
    OK,
    PHASE_DRAW,
    PHASE_GAME_OVER,
    S_DEALER,
    S_PHASE,
    S_PILE,
    S_ROUND,
    S_SEAT,
    S_STOCK,
    StateData,
    new_game,
    new_state,
    play_action,
    shared_scratch,
    state_views,
)
from fcsim.core.tables import solver_table
from fcsim.core.view import View
from fcsim.env.encoding import (
    ACTION_PILE,
    ACTION_STOCK,
    DISCARD_BASE,
    N_ACTIONS,
    Encoder,
    action_name,
)
from fcsim.openspiel import kernels, recall
from fcsim.openspiel.observer import FiveCrownsObserver
from fcsim.openspiel.recall import Chain

GAME_NAME = "python_five_crowns"
DEFAULTS = RuleSet()
PARAMETERS = {
    "players": DEFAULTS.players,
    "rounds": DEFAULTS.rounds,
    "wild_penalty": DEFAULTS.wild_penalty,  # 0: face value (fcsim's "face")
    "go_out_bonus": DEFAULTS.go_out_bonus,
    "all_wild_melds": DEFAULTS.all_wild_melds,
    "turn_cap": DEFAULTS.turn_cap,
}
FACE_VALUE_PARAM = 0  # wild_penalty=0 is fcsim's wild_penalty="face"
NODES_PER_TURN = 3  # the draw, the chance node of a stock card, the discard
SAMPLE_SCALE = 2.0**53  # a probability sample in [0, 1) as a whole seed: its 53-bit mantissa
SEED_LIMIT = 2**63  # a resampled world's play stream: any seed numpy draws as an int64

GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Five Crowns (fcsim)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.REWARDS,
    max_num_players=MAX_PLAYERS,
    min_num_players=MIN_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=PARAMETERS,
)

_DECK = Counter(full_deck().tolist())


def rules_of(params: dict) -> RuleSet:
    """The fcsim rules of OpenSpiel game parameters; an out-of-range value raises
    :class:`pyspiel.SpielError` naming it (one line)."""
    values = {**PARAMETERS, **(params or {})}
    unknown = sorted(set(values) - set(PARAMETERS))
    if unknown:
        raise pyspiel.SpielError(f"Unknown parameter '{unknown[0]}'. Available parameters "
                                 f"are: {', '.join(PARAMETERS)}")
    wild = values["wild_penalty"]
    if wild == FACE_VALUE_PARAM:
        values["wild_penalty"] = FACE
    try:
        return RuleSet(**values)
    except RulesError as err:
        text = str(err)
        if text.startswith("wild_penalty"):
            text = f"wild_penalty must be 0 (face value) or 1 to 1000, not {wild!r}"
        raise pyspiel.SpielError(f"{GAME_NAME}: {text}") from None


def returns_of(totals: np.ndarray) -> list[float]:
    """The returns of seats with these totals: minus each (a seat on 0 gets 0.0, never
    -0.0)."""
    return [float(-int(t)) for t in totals]


class FiveCrownsGame(pyspiel.Game):
    """``python_five_crowns``: parameters ``players`` (2-7), ``rounds`` (11, or 6 for the
    short game), ``wild_penalty`` (points of an unmelded wild-rank card; 0 face value),
    ``go_out_bonus``, ``all_wild_melds``, ``turn_cap`` — fcsim's defaults."""

    def __init__(self, params: dict | None = None) -> None:
        self.rules = rules_of(params or {})
        rules = self.rules
        info = pyspiel.GameInfo(
            num_distinct_actions=N_ACTIONS,
            max_chance_outcomes=N_KINDS,
            num_players=rules.players,
            min_utility=-float(rules.rounds * rules.worst_round),
            max_utility=float(-rules.rounds * rules.go_out_bonus),  # 0.0, never -0.0
            utility_sum=None,
            max_game_length=rules.rounds * (NODES_PER_TURN * rules.most_turns + DECK_SIZE),
        )
        super().__init__(GAME_TYPE, info, params or {})
        self.fixed = fixed_for(rules)
        self.encoder = self.fixed.encoder

    def new_initial_state(self) -> FiveCrownsState:
        """A game about to be dealt (its first chance node deals the first card)."""
        return FiveCrownsState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> FiveCrownsObserver:
        """The observer of information states (``perfect_recall``) or observations."""
        if params:
            raise pyspiel.SpielError(f"{GAME_NAME}: observer parameters are not supported "
                                     f"(got {params})")
        if iig_obs_type is not None and not (
                iig_obs_type.public_info
                and iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER):
            raise pyspiel.SpielError(f"{GAME_NAME}: observers show the public information "
                                     f"and the observing player's own cards only, not "
                                     f"public_info={iig_obs_type.public_info}, private_info="
                                     f"{iig_obs_type.private_info.name}")
        perfect = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return FiveCrownsObserver(self, perfect)


class _Fixed:
    """What every state of one game shares: its rules, encoders, solver table and work
    arrays (a deep copy of it is itself)."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.encoder = Encoder(rules)  # the latest version: with the public history
        self.now_encoder = Encoder(rules, version=0)  # what is on the table now
        self.table, self.scratch = solver_table(), shared_scratch()
        self.trace = np.zeros((rows_per_step(rules.players), TRACE_WIDTH), np.int16)
        self.no_trace = np.zeros((0, TRACE_WIDTH), np.int16)

    def __deepcopy__(self, memo: dict) -> _Fixed:
        return self

    def __reduce__(self) -> tuple:
        """Pickled (a serialized state) as its rules; unpickled, the process's own for
        them: the solver table alone is 11 MB."""
        return fixed_for, (self.rules,)


@functools.cache
def fixed_for(rules: RuleSet) -> _Fixed:
    """The part every state of a game under ``rules`` shares, one per rules in a process."""
    return _Fixed(rules)


class FiveCrownsState(pyspiel.State):
    """A state of ``python_five_crowns``: fcsim's state of the game, plus what the chance
    nodes in progress have chosen (the deal's cards so far, or a stock draw pending)."""

    def __init__(self, game: FiveCrownsGame, traced: bool = True, seed: int = 0) -> None:
        super().__init__(game)
        # OpenSpiel clones a Python state by deep-copying each attribute: what never
        # changes, and the history, are shared (copying them would cost a whole game).
        self._fixed = game.fixed
        self._data = new_state(game.rules)
        self._rows = Chain(None, None)  # the event trace so far, when traced
        self._seen = Chain(None, None)  # what the seats saw: recall.py
        self._traced = traced
        self._dealt: list[int] | None = []  # the deal's chance outcomes; None: not dealing
        self._drawing = False  # the mover chose the stock: its card is a chance node
        self._over = False
        self._horizon = 0  # > 0: the state ends with that round (a search's horizon)
        self._rewards = [0.0] * game.rules.players
        fixed = self._fixed
        self._keep(new_game(self._data, np.uint64(seed), fixed.table, fixed.scratch,
                            self._trace, 0))

    @classmethod
    def from_world(cls, game: FiveCrownsGame, world: StateData, horizon: int) -> FiveCrownsState:
        """A state of ``game`` on ``world`` (fcsim's state of a round being played, not one
        its chance nodes dealt), ending with round ``horizon`` (a search's), with no event
        trace; what the seats remember starts at it (:meth:`recall_from_here`)."""
        state = cls(game, traced=False)
        state._data = world
        state._dealt, state._drawing, state._horizon = None, False, horizon
        state.recall_from_here()
        return state

    @property
    def rules(self) -> RuleSet:
        return self._fixed.rules

    @property
    def fixed(self) -> _Fixed:
        """What every state of the game shares: its rules, encoders, solver table and work
        arrays."""
        return self._fixed

    @property
    def _trace(self) -> np.ndarray:
        return self._fixed.trace if self._traced else self._fixed.no_trace

    # --- fcsim's side ---------------------------------------------------------------

    @property
    def data(self) -> StateData:
        """fcsim's state of the game (every hand and the stock: not for a fair player)."""
        return self._data

    @property
    def dealing(self) -> bool:
        """Whether the round's deal is being chosen by chance nodes."""
        return self._dealt is not None

    @property
    def dealt(self) -> list[int]:
        """The deal's chance outcomes so far (card kinds in dealing order; [] when no deal
        is being chosen)."""
        return list(self._dealt or [])

    @property
    def deal_size(self) -> int:
        """The chance outcomes of the round's deal: its hands' cards and the upcard."""
        return wild_rank(int(self._data.ints[S_ROUND])) * self.rules.players + 1

    @property
    def drawing(self) -> bool:
        """Whether the mover chose the stock: its card is the chance node pending."""
        return self._drawing

    @property
    def seen(self) -> Chain:
        """What the seats saw so far (:mod:`fcsim.openspiel.recall`'s sightings)."""
        return self._seen

    def view(self, player: int) -> View:
        """What ``player`` sees when it is to decide (fcsim's :class:`View`)."""
        if self.is_chance_node() or self.is_terminal() or self.current_player() != player:
            raise pyspiel.SpielError(f"{GAME_NAME}: player {player} is not to decide here")
        return View.of(self._data).detached()  # a bot's draws leave the state as it is

    @property
    def events(self) -> list[dict]:
        """The events so far, as :attr:`fcsim.Game.events` gives them (a deal once its
        chance nodes have chosen it)."""
        if not self._traced:
            raise pyspiel.SpielError(f"{GAME_NAME}: this state keeps no event trace")
        blocks = list(self._rows.items())
        if not blocks:
            return []
        rows = np.concatenate(blocks)
        if self._dealt is not None:  # fcsim's deal underneath is not the one being chosen
            rows = rows[: np.flatnonzero(rows[:, DealRow.CODE] == EV_DEAL)[-1]]
        return list(EventDecoder(self.rules).decode(rows))

    def _keep(self, rows: int) -> None:
        """Keep a step's event rows (written whether or not the state keeps a trace: what
        the table sees comes from them)."""
        if rows and self._traced:
            self._rows = Chain(self._fixed.trace[:rows].copy(), self._rows)

    def recall_from_here(self) -> None:
        """Start what the seats remember at this state (one built from a seat's view, not
        played from a deal): each seat's hand, the known cards and the pile as they are."""
        parts = state_views(self._data)
        rows = [tuple(tuple(int(n) for n in row) for row in grid)
                for grid in (parts.hands, parts.known)]
        pile = tuple(int(k) for k in parts.pile[: int(self._data.ints[S_PILE])])
        self._seen = recall.chained([(recall.START, *rows, pile)])

    def _see(self, *item: int | tuple) -> None:
        self._seen = Chain(item, self._seen)

    def _see_step(self, rows: np.ndarray, seat: int, phase: int, move: int, drawn: int,
                  top: int, offered: tuple[int, ...]) -> None:
        """What the table saw of one step, from its event rows: the draw (a stock card by
        its drawer, after any reshuffle of the cards ``offered``, per kind), the discard
        (fcsim's own when the draw lets the seat go out), and at a round's end every hand
        laid down."""
        codes = rows[:, Turn.CODE]  # the same column in every row
        if phase == PHASE_DRAW:
            if (codes == EV_RESHUFFLE).any():
                self._see(recall.RESHUFFLE, offered)
            if move == ACTION_PILE:
                self._see(recall.PILE, seat, top)
            else:
                self._see(recall.STOCK, seat, drawn)
        for row in rows[codes == EV_TURN]:
            self._see(recall.DISCARD, seat, int(row[Turn.DISCARD]), int(row[Turn.OUT]))
        scored = rows[codes == EV_SCORE]
        if len(scored):
            hands = np.zeros((self.rules.players, N_KINDS), np.int64)
            for row in scored:
                kinds = row[SCORE_COL : SCORE_COL + row[ScoreRow.CARDS]]
                hands[row[ScoreRow.SEAT]] = np.bincount(kinds, minlength=N_KINDS)
            self._see(recall.END, tuple(tuple(int(n) for n in hand) for hand in hands))

    def _step(self, move: int, drawn: int = -1) -> None:
        """One fcsim step (``drawn``: the stock card a stock draw brings), and what the
        table saw of it; a round's end brings its rewards, every hand laid down to be
        scored, and the next deal."""
        views = state_views(self._data)
        before = views.totals.copy()
        round_before = int(self._data.ints[S_ROUND])
        seat, phase = int(self._data.ints[S_SEAT]), int(self._data.ints[S_PHASE])
        top = int(views.pile[int(self._data.ints[S_PILE]) - 1]) if move == ACTION_PILE else -1
        reshuffles = move == ACTION_STOCK and int(self._data.ints[S_STOCK]) == 0
        offered = tuple(int(n) for n in self._chance_counts()) if reshuffles else ()
        status, rows = play_action(self._data, move, self._fixed.table, self._fixed.scratch,
                                   self._fixed.trace, 0)
        if status != OK:  # the legal actions were checked: this is a bug, say so
            raise pyspiel.SpielError(f"{GAME_NAME}: fcsim refused move {move} (status "
                                     f"{status})")
        self._keep(rows)
        self._see_step(self._fixed.trace[:rows], seat, phase, move, drawn, top, offered)
        phase = int(self._data.ints[S_PHASE])
        if phase == PHASE_GAME_OVER or int(self._data.ints[S_ROUND]) != round_before:
            after = state_views(self._data).totals
            self._rewards = [r - float(a - b)
                             for r, a, b in zip(self._rewards, after, before, strict=True)]
            if phase == PHASE_GAME_OVER or (self._horizon and round_before >= self._horizon):
                self._over = True
            else:
                self._dealt = []

    def _finish_deal(self) -> None:
        dealt = np.array(self._dealt, dtype=np.int64)
        if not kernels.arrange_deal(self._data, dealt):
            raise pyspiel.SpielError(f"{GAME_NAME}: the deal {dealt.tolist()} is not a deck's")
        self._dealt = None
        if self._traced and self._rows.item is not None:  # the deal's events: these cards
            rows = self._rows.item.copy()
            state = state_views(self._data)
            r = int(self._data.ints[S_ROUND])
            for row in rows:
                if row[DealRow.CODE] == EV_DEAL and row[DealRow.ROUND] == r:
                    row[DealRow.UPCARD] = state.pile[0]
                elif row[HandRow.CODE] == EV_HAND and row[HandRow.ROUND] == r:
                    kinds = hand_kinds(state.hands[row[HandRow.SEAT]])
                    row[HAND_COL : HAND_COL + len(kinds)] = kinds
            self._rows = Chain(rows, self._rows.earlier)

    # --- OpenSpiel's side -----------------------------------------------------------

    def current_player(self) -> int:
        if self._over:
            return pyspiel.PlayerId.TERMINAL
        if self._dealt is not None or self._drawing:
            return pyspiel.PlayerId.CHANCE
        return int(self._data.ints[S_SEAT])

    def is_terminal(self) -> bool:
        return self._over

    def _legal_actions(self, player: int) -> list[int]:
        if self._over or self._dealt is not None or self._drawing:
            return []
        mask = self._fixed.encoder.action_mask(state_views(self._data), player)
        return np.flatnonzero(mask).tolist()

    def _chance_counts(self) -> np.ndarray:
        if self._dealt is not None:
            return DECK_COUNTS - np.bincount(np.array(self._dealt, dtype=np.int64),
                                              minlength=N_KINDS)
        counts = np.zeros(N_KINDS, np.int64)
        kernels.draw_counts(self._data, counts)
        return counts

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards the chance node can bring, each with its share of the cards left."""
        if not self.is_chance_node():
            raise pyspiel.SpielError(f"{GAME_NAME}: chance_outcomes of a decision node")
        counts = self._chance_counts()
        total = counts.sum()
        return [(int(k), float(counts[k]) / total) for k in np.flatnonzero(counts)]

    def _apply_action(self, action: int) -> None:
        if self.is_chance_node():
            counts = self._chance_counts()
            if not 0 <= action < N_KINDS or counts[action] == 0:
                legal = " ".join(str(int(k)) for k in np.flatnonzero(counts))
                raise pyspiel.SpielError(f"{GAME_NAME}: chance outcome {action} is not a "
                                         f"card the chance node can bring (legal: {legal})")
            if self._dealt is not None:
                t = len(self._dealt)
                if t == self.deal_size - 1:
                    self._see(recall.UP, int(action))
                else:
                    self._see(recall.DEAL, kernels.deal_seat(self._data, t), int(action))
                self._dealt.append(int(action))
                if len(self._dealt) == self.deal_size:
                    self._finish_deal()
            else:
                kernels.arrange_draw(self._data, int(action))
                self._drawing = False
                self._step(ACTION_STOCK, int(action))
            return
        legal = self._legal_actions(self.current_player())
        if action not in legal:
            names = ", ".join(f"{a} ({action_name(a)})" for a in legal)
            what = action_name(action) if 0 <= action < N_ACTIONS else "no action"
            raise pyspiel.SpielError(f"{GAME_NAME}: action {action} ({what}) is not legal; "
                                     f"legal actions: {names or 'none'}")
        self._rewards = [0.0] * self.rules.players  # rewards since the last decision
        if action == ACTION_STOCK:
            self._drawing = True
        elif action == ACTION_PILE:
            self._step(ACTION_PILE)
        else:
            self._step(action - DISCARD_BASE)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"card {format_card(action)}" if 0 <= action < N_KINDS else f"card {action}?"
        return action_name(action)

    def rewards(self) -> list[float]:
        """Minus each seat's penalty of a round ended since the last decision (the stock
        card that ends a round is a chance outcome: OpenSpiel reads rewards at the next
        decision); else 0."""
        return list(self._rewards)

    def returns(self) -> list[float]:
        """Minus each seat's total so far."""
        return returns_of(state_views(self._data).totals)

    def _check_player(self, player: int) -> None:
        """One line naming ``player`` unless it is a seat of this game (fcsim's kernels index
        the seats unchecked)."""
        if not 0 <= player < self.rules.players:
            raise pyspiel.SpielError(f"{GAME_NAME}: player {player} is not a seat of this "
                                     f"game (0 to {self.rules.players - 1})")

    def resample_from_infostate(self, player_id: int, probability_sampler) -> FiveCrownsState:
        """A state ``player_id`` cannot tell from this one, past included: the other
        seats' hidden cards, the stock, and what each was dealt and drew in every round,
        dealt afresh from the cards the player has not seen (:func:`recall.reconstruct`);
        the play stream and the seats' streams re-seeded; at another seat's discard, the
        solver's best discard of that seat's hand as dealt in the world."""
        self._check_player(player_id)
        if self._dealt is not None or self._over:
            raise pyspiel.SpielError(f"{GAME_NAME}: resample_from_infostate needs a decision "
                                     f"node or a stock draw, not a deal or the end")
        seed = int(probability_sampler() * SAMPLE_SCALE)
        parts = state_views(self._data)
        hands = parts.known.astype(np.int64)
        hands[player_id] = parts.hands[player_id]
        table = recall.Table(player_id, hands, parts.hands.sum(axis=1),
                             int(self._data.ints[S_STOCK]))
        rng = np.random.default_rng(seed)
        try:
            seen, world = recall.reconstruct(self._seen, table, _DECK, rng)
        except recall.NoPast:
            raise pyspiel.SpielError(f"{GAME_NAME}: player {player_id}'s view does not add "
                                     f"up") from None
        twin = self.clone()
        twin._traced = False  # a world: no event trace to show
        twin._rows = Chain(None, None)
        twin._seen = seen
        views = state_views(twin._data)
        views.hands[:] = world.hands
        views.stock[: len(world.stock)] = world.stock
        kernels.solve_world(twin._data, self._fixed.table, self._fixed.scratch)
        seed_state(views.rng, np.uint64(int(rng.integers(SEED_LIMIT))))
        for seat_stream in views.seat_rng:
            seed_state(seat_stream, np.uint64(int(rng.integers(SEED_LIMIT))))
        return twin

    def __str__(self) -> str:
        """Every hand and the pile (for debugging: it shows hidden cards)."""
        if self._over:
            return f"game over, totals {list(state_views(self._data).totals)}"
        state = state_views(self._data)
        lines = [f"round {int(self._data.ints[S_ROUND])}, dealer {int(self._data.ints[S_DEALER])}"]
        if self._dealt is not None:
            lines.append(f"dealing: {' '.join(format_cards(self._dealt))}")
        else:
            for s in range(self.rules.players):
                lines.append(f"p{s}: {' '.join(format_cards(hand_kinds(state.hands[s])))}")
            pile = state.pile[: int(self._data.ints[S_PILE])]
            lines.append(f"pile: {' '.join(format_cards(pile))}; stock "
                         f"{int(self._data.ints[S_STOCK])}")
        return "\n".join(lines)


pyspiel.register_game(GAME_TYPE, FiveCrownsGame)
