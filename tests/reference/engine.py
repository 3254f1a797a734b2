"""The slow pure-Python reference engine: docs/ENGINE.md, step by step.

``play_game(seed, rules, strategies)`` plays one game and returns its events (plain dicts,
cards in RULES.md notation). The numba engine (``fcsim/core/engine.py``) must produce the
same events move for move; :func:`compare_fields` / :func:`first_difference` name what a
cross-check compares. Penalties come from the exact solver (``fcsim.min_penalty``,
``fcsim.best_discard``, ``penalty_kernel``), which is verified on its own: the point here
is the game procedure and every random number it draws.

Events, in play order::

    {"event": "deal", "round", "dealer", "wild_rank", "hands": [[card, ...] per seat], "upcard"}
    {"event": "reshuffle", "round", "stock_size"}          # before the draw that needed it
    {"event": "turn", "round", "seat", "source": "stock"|"discard", "drawn", "discard",
     "out", "last_turn"}
    {"event": "capped", "round"}                           # before a capped round's scores
    {"event": "score", "round", "seat", "penalty", "wild_pts", "joker_pts", "went_out"}
    {"event": "end", "totals", "winners", "places"}

``out`` is true on every turn that ends with all ``n`` cards melded (ENGINE.md 4.2 makes
going out automatic, also on a last turn); ``went_out`` is true only for the round's
``out_seat``, the first to go out, whose ``penalty`` is the go-out bonus.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from types import ModuleType

import numpy as np

from fcsim import RuleSet, best_discard, min_penalty
from fcsim.core.cards import (
    JOKER,
    JOKER_PENALTY,
    N_SUITS,
    format_card,
    full_deck,
    hand_kinds,
    kind_of,
    parse_card,
    wild_rank,
)
from fcsim.core.solver import as_counts, new_scratch, penalty_kernel
from fcsim.core.tables import solver_table
from fcsim.strategies import parse_strategy

from . import strategies as twins  # a module: the search twin imports this one
from .rng import Xoshiro256, game_seed, seat_stream, stream_seed
from .strategies.view import View

STOCK, DISCARD = 0, 1
SOURCE_NAMES = ("stock", "discard")
PLAY_STREAM = 0

Event = dict


# ---------------------------------------------------------------------------------------
# The table: everything on it during a round.


@dataclass
class Table:
    """The state of one round: hands (lists of kinds), stock (top = last), discard pile."""

    round: int
    dealer: int
    hands: list[list[int]]
    stock: list[int]
    pile: list[int]  # bottom -> top
    known: list[Counter[int]]  # per seat: kinds taken from the pile and not discarded since
    turn: int = 0  # turns played this round (the first turn is 1)
    seat: int = -1  # the seat on turn
    out_seat: int = -1
    out_turn: int = 0
    events: list[Event] = field(default_factory=list)  # the game's events so far

    @property
    def n(self) -> int:
        """The hand size (and wild rank) of the round."""
        return self.round + 2

    @property
    def players(self) -> int:
        """Number of seats."""
        return len(self.hands)


# An observer sees the table at "deal" (after the upcard), "draw" (after the draw, before
# the discard) and "turn" (after the turn). The tests use it to check invariants.
Observer = Callable[[str, Table], None]


# ---------------------------------------------------------------------------------------
# Strategies: the twins of tests/reference/strategies, fed the seat's view of the table.


Hidden = tuple[list[list[int]], list[int]]  # every hand, and the stock (top = last)


def hidden_now(table: Table) -> Hidden:
    """A copy of what only an oracle sees: every hand and the stock."""
    return [list(h) for h in table.hands], list(table.stock)


@dataclass(frozen=True)
class Streams:
    """What a game draws from once dealt (ENGINE.md, "Randomness"): the play stream, for
    reshuffles, and each seat's own, for its strategy's random choices."""

    play: Xoshiro256
    seats: list[Xoshiro256]

    @classmethod
    def of_game(cls, seed: int, players: int) -> Streams:
        """The streams of the game seeded ``seed``."""
        return cls(Xoshiro256(stream_seed(seed, PLAY_STREAM)),
                   [seat_stream(seed, seat) for seat in range(players)])


@dataclass(frozen=True)
class Strategy:
    """A seat's policy: the twin of a spec and its parameters by name."""

    spec: str
    twin: ModuleType
    params: dict[str, float]
    oracle: bool  # sees every hand and the stock

    def choose_source(self, table: Table, seat: int, rules: RuleSet, streams: Streams) -> int:
        """``STOCK`` (0) or ``DISCARD`` (1), with the seat's ``n`` cards in hand."""
        return self.twin.draw(self.view(table, seat, rules), self.params, streams.seats[seat])

    def choose_discard(self, table: Table, seat: int, rules: RuleSet, streams: Streams,
                       turn_start: Hidden) -> int:
        """The kind to discard from the seat's ``n + 1`` cards (an oracle sees the hands
        and the stock of ``turn_start``)."""
        return self.twin.discard(self.view(table, seat, rules, turn_start), self.params,
                                 streams.seats[seat])

    def view(self, table: Table, seat: int, rules: RuleSet,
             turn_start: Hidden | None = None) -> View:
        """What ``seat`` sees now (ENGINE.md, "What a strategy sees"); an oracle also
        sees every hand and the stock, top first, as they were when the turn began
        (``turn_start``, else now)."""
        hands, stock = turn_start or hidden_now(table)
        return View(
            hand=tuple(sorted(table.hands[seat])),
            pile=tuple(table.pile),
            known=tuple(Counter(known) for known in table.known),
            round=table.round,
            seat=seat,
            players=table.players,
            turn=table.turn,
            last_turn=table.out_seat >= 0,
            wild_points=rules.wild_points(table.round),
            all_wild=rules.all_wild_melds,
            hands=tuple(tuple(sorted(h)) for h in hands) if self.oracle else None,
            stock=tuple(reversed(stock)) if self.oracle else None,
            dealer=table.dealer,
            stock_size=len(table.stock),
            out_seat=table.out_seat,
            go_out_bonus=rules.go_out_bonus,
        )


def make_strategy(spec: str) -> Strategy:
    """The twin strategy of a spec (``greedy``, ``aware:feed_weight=1``, …); a bad spec
    raises :class:`fcsim.strategies.StrategyError` (a ``ValueError``) listing what exists."""
    twin, params = twins.twin_of(spec)
    return Strategy(spec, twin, params, parse_strategy(spec).family.oracle)


# ---------------------------------------------------------------------------------------
# Scoring.


def score_split(hand: list[int], round_number: int, rules: RuleSet) -> tuple[int, int, int]:
    """``(penalty, wild_pts, joker_pts)`` of ``hand`` (its ``n`` cards kept).

    Of the least-penalty arrangements the solver takes the one leaving the fewest wilds
    unmelded; those are the cheapest wilds (cards of the wild rank before jokers when
    they cost no more than a joker, as in the solver).
    """
    counts = as_counts(hand)
    wild_points = rules.wild_points(round_number)
    penalty, wilds_left = penalty_kernel(counts, round_number, wild_points,
                                         rules.all_wild_melds, solver_table(), new_scratch())
    penalty, wilds_left = int(penalty), int(wilds_left)
    assert penalty == min_penalty(hand, round_number, rules)
    rank = wild_rank(round_number)
    n_rank_wilds = sum(1 for k in hand if k in _rank_kinds(rank))
    n_jokers = hand.count(JOKER)
    if wild_points <= JOKER_PENALTY:
        rank_left = min(wilds_left, n_rank_wilds)
        jokers_left = wilds_left - rank_left
    else:
        jokers_left = min(wilds_left, n_jokers)
        rank_left = wilds_left - jokers_left
    assert rank_left <= n_rank_wilds and jokers_left <= n_jokers
    return penalty, rank_left * wild_points, jokers_left * JOKER_PENALTY


def _rank_kinds(rank: int) -> set[int]:
    """The five kinds of one rank."""
    return {kind_of(rank, suit) for suit in range(N_SUITS)}


def winners_of(totals: list[int]) -> list[int]:
    """Seats with the lowest total (ties share the win)."""
    return [seat for seat, total in enumerate(totals) if total == min(totals)]


def places_of(totals: list[int]) -> list[int]:
    """Place of each seat: 1 + the number of seats with a strictly lower total."""
    return [1 + sum(1 for other in totals if other < total) for total in totals]


# ---------------------------------------------------------------------------------------
# The game.


def _sorted_cards(kinds: Iterable[int]) -> list[str]:
    """Cards in RULES.md notation, in kind order."""
    return [format_card(k) for k in sorted(kinds)]


def deal_round(seed: int, round_number: int, players: int) -> Table:
    """ENGINE.md steps 1–3: shuffle the canonical deck with the round's deal stream, deal
    ``n`` passes starting left of the dealer, turn up the top card."""
    deck = [int(k) for k in full_deck()]
    Xoshiro256(stream_seed(seed, round_number)).shuffle(deck)
    dealer = (round_number - 1) % players
    hands: list[list[int]] = [[] for _ in range(players)]
    stock = deck  # the top of the stock is the last element
    for _ in range(wild_rank(round_number)):
        for step in range(1, players + 1):
            hands[(dealer + step) % players].append(stock.pop())
    pile = [stock.pop()]
    return Table(round=round_number, dealer=dealer, hands=hands, stock=stock, pile=pile,
                 known=[Counter() for _ in range(players)])


def _draw(table: Table, seat: int, source: int, play: Xoshiro256) -> int:
    """ENGINE.md 4.1: take the top of the stock or of the pile; an empty stock is first
    rebuilt from the pile under its top card (shuffled with the play stream)."""
    if source == DISCARD:
        card = table.pile.pop()
        table.known[seat][card] += 1
    else:
        if not table.stock:
            under_top, top = table.pile[:-1], table.pile[-1]
            assert under_top, "the stock and the pile under its top card are both empty"
            play.shuffle(under_top)
            table.stock, table.pile = under_top, [top]
            table.events.append({"event": "reshuffle", "round": table.round,
                                 "stock_size": len(table.stock)})
        card = table.stock.pop()
    table.hands[seat].append(card)
    return card


def play_turn(table: Table, seat: int, strategy: Strategy, rules: RuleSet,
               streams: Streams, observer: Observer | None) -> bool:
    """One turn (ENGINE.md 4.1–4.4); returns whether the seat went out (all n melded)."""
    table.seat = seat
    turn_start = hidden_now(table)
    source = strategy.choose_source(table, seat, rules, streams)
    if source not in (STOCK, DISCARD):
        raise ValueError(f"strategy {strategy.spec!r} chose draw source {source!r}")
    drawn = _draw(table, seat, source, streams.play)
    if observer:
        observer("draw", table)
    return finish_turn(table, seat, strategy, rules, streams, turn_start, source, drawn,
                       observer)


def finish_turn(table: Table, seat: int, strategy: Strategy, rules: RuleSet,
                streams: Streams, turn_start: Hidden, source: int | None, drawn: int | None,
                observer: Observer | None = None) -> bool:
    """The rest of a turn after its draw (ENGINE.md 4.2–4.4): going out, or the seat's
    discard; whether the seat went out. A turn taken up after its draw (a search's
    rollout) has no ``source`` nor ``drawn`` card to record."""
    last_turn = table.out_seat >= 0
    hand = table.hands[seat]
    best_card, best_penalty = best_discard(hand, table.round, rules)
    went_out = best_penalty == 0
    if went_out:  # going out is automatic, whatever the strategy
        discard = parse_card(best_card)
    else:
        discard = strategy.choose_discard(table, seat, rules, streams, turn_start)
        if discard not in hand:
            raise ValueError(f"strategy {strategy.spec!r} discarded {format_card(discard)}, "
                             "which is not in its hand")
    hand.remove(discard)
    table.pile.append(discard)
    if table.known[seat][discard] > 0:
        table.known[seat][discard] -= 1
    table.turn += 1
    table.events.append({
        "event": "turn", "round": table.round, "seat": seat,
        "source": None if source is None else SOURCE_NAMES[source],
        "drawn": None if drawn is None else format_card(drawn),
        "discard": format_card(discard), "out": went_out, "last_turn": last_turn,
    })
    if observer:
        observer("turn", table)
    return went_out


def _play_round(table: Table, strategies: list[Strategy], rules: RuleSet,
                streams: Streams, observer: Observer | None) -> bool:
    """ENGINE.md step 4: turns until everyone had a last turn, or the cap; returns capped."""
    return play_on(table, (table.dealer + 1) % table.players, strategies, rules, streams,
                   observer)


def next_seat(table: Table, seat: int, went_out: bool, rules: RuleSet) -> tuple[int | None, bool]:
    """After ``seat``'s turn: the seat to play next, or None when the round is over; and
    whether the turn cap ended it."""
    if table.out_seat < 0 and went_out:
        table.out_seat, table.out_turn = seat, table.turn
    elif table.out_seat < 0 and table.turn >= rules.turn_cap:
        return None, True
    seat = (seat + 1) % table.players
    if seat == table.out_seat:  # play came back to the one who went out
        return None, False
    return seat, False


def play_on(table: Table, seat: int | None, strategies: list[Strategy], rules: RuleSet,
            streams: Streams, observer: Observer | None = None) -> bool:
    """Turns from ``seat`` on (None: the round is over) to the round's end; returns
    whether the cap ended it."""
    capped = False
    while seat is not None:
        went_out = play_turn(table, seat, strategies[seat], rules, streams, observer)
        seat, capped = next_seat(table, seat, went_out, rules)
    return capped


def play_game(seed: int, rules: RuleSet, strategies: list[str],
              observer: Observer | None = None) -> list[Event]:
    """Play one game of ENGINE.md and return its events (see the module docstring).

    ``seed`` is the game seed (e.g. ``game_seed(root, g)``); ``strategies`` has one entry
    per seat. ``observer(stage, table)`` is called at "deal", "draw" and "turn".
    """
    if len(strategies) != rules.players:
        raise ValueError(f"{rules.players} players need {rules.players} strategies, "
                         f"not {len(strategies)}")
    seats = [make_strategy(spec) for spec in strategies]
    seed &= (1 << 64) - 1
    streams = Streams.of_game(seed, rules.players)
    events: list[Event] = []
    totals = [0] * rules.players
    for round_number in range(1, rules.rounds + 1):
        table = deal_round(seed, round_number, rules.players)
        table.events = events
        events.append({
            "event": "deal", "round": round_number, "dealer": table.dealer,
            "wild_rank": wild_rank(round_number),
            "hands": [_sorted_cards(h) for h in table.hands],
            "upcard": format_card(table.pile[-1]),
        })
        if observer:
            observer("deal", table)
        capped = _play_round(table, seats, rules, streams, observer)
        if capped:
            events.append({"event": "capped", "round": round_number})
        for seat in range(rules.players):
            if seat == table.out_seat:
                score, wild_pts, joker_pts = rules.go_out_bonus, 0, 0
            else:  # a last-turn penalty, fixed when it was played, is that of the same hand
                score, wild_pts, joker_pts = score_split(table.hands[seat], round_number, rules)
            totals[seat] += score
            events.append({
                "event": "score", "round": round_number, "seat": seat, "penalty": score,
                "wild_pts": wild_pts, "joker_pts": joker_pts,
                "went_out": seat == table.out_seat,
            })
    events.append({"event": "end", "totals": totals, "winners": winners_of(totals),
                   "places": places_of(totals)})
    return events


def play_games(seeds: Iterable[int], rules: RuleSet, strategies: list[str]) -> list[list[Event]]:
    """:func:`play_game` for each seed."""
    return [play_game(seed, rules, strategies) for seed in seeds]


def play_run(root_seed: int, n_games: int, rules: RuleSet,
             strategies: list[str]) -> list[list[Event]]:
    """Games ``0 … n_games-1`` of a run with root seed ``root_seed`` (ENGINE.md game_seed)."""
    return play_games((game_seed(root_seed, g) for g in range(n_games)), rules, strategies)


# ---------------------------------------------------------------------------------------
# What a cross-check compares.

COMPARE_FIELDS: dict[str, tuple[str, ...]] = {
    "deal": ("round", "dealer", "wild_rank", "hands", "upcard"),
    "reshuffle": ("round", "stock_size"),
    "turn": ("round", "seat", "source", "drawn", "discard", "out", "last_turn"),
    "capped": ("round",),
    "score": ("round", "seat", "penalty", "wild_pts", "joker_pts", "went_out"),
    "end": ("totals", "winners", "places"),
}


def compare_fields(event: Event) -> tuple:
    """The part of an event a cross-check must match exactly: its type and every field.

    Values are normalised to plain Python (ints, bools, strings, nested lists) so numpy
    scalars or arrays from another engine compare equal to the reference's.
    """
    kind = event["event"]
    return (kind, *(_plain(event[name]) for name in COMPARE_FIELDS[kind]))


def _plain(value: object) -> object:
    """numpy scalars/arrays and tuples as Python ints, bools, strings and lists."""
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, np.bool_ | bool):
        return bool(value)
    if isinstance(value, np.integer):
        return int(value)
    return value


def first_difference(expected: list[Event], actual: list[Event]) -> tuple[int, Event | None,
                                                                          Event | None] | None:
    """``(index, expected_event, actual_event)`` of the first mismatch, or ``None``."""
    for i in range(max(len(expected), len(actual))):
        want = expected[i] if i < len(expected) else None
        got = actual[i] if i < len(actual) else None
        if want is None or got is None or compare_fields(want) != compare_fields(got):
            return i, want, got
    return None


def hand_cards(counts: np.ndarray) -> list[str]:
    """A count vector as sorted RULES.md cards (to compare a numba hand with an event)."""
    return [format_card(k) for k in hand_kinds(counts)]
