"""A position written by hand — a round, a hand, the pile, what is known of the other
seats and the round's public history — checked, and the view a seat would have of it.

:func:`position_view` cuts the view from a game state holding the position, as
:class:`fcsim.Game` cuts every view, so :func:`fcsim.advise`, strategies and agents read
a hand-written position exactly as they read a game. A position that cannot occur raises
:class:`PositionError`, one line naming what is wrong.

>>> view = position_view(Position(round=1, hand=["3H", "4H", "5H", "9C"], pile=["KD"]))
>>> view.phase, view.hand
('discard', ['3H', '4H', '5H', '9C'])
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from fcsim.core.cards import (
    DECK_COUNTS,
    DECK_SIZE,
    N_KINDS,
    card_tokens,
    counts_from_kinds,
    format_card,
    parse_cards,
    wild_rank,
)
from fcsim.core.rng import seed_seat_stream
from fcsim.core.rules import DEFAULT_PLAYERS, MAX_PLAYERS, MIN_PLAYERS, RuleSet
from fcsim.core.seeds import MAX_SEED
from fcsim.core.solver import best_discard_kernel
from fcsim.core.state import (
    H_SIZE,
    PHASE_DISCARD,
    PHASE_DRAW,
    Plane,
    Scalar,
    StateData,
    new_state,
    shared_scratch,
    state_views,
)
from fcsim.core.tables import solver_table
from fcsim.core.view import View, is_drawing
from fcsim.errors import FcsimError


class PositionError(FcsimError, ValueError):
    """A position that cannot occur; the message says why, in one line."""


# The position keys that map seats to cards; the history's, with their planes.
HISTORY_KEYS = {"discarded": Plane.DISCARDED, "taken": Plane.TAKEN, "passed": Plane.PASSED}
SEAT_CARDS = ("known", *HISTORY_KEYS)


def _cards(value: object, key: str) -> list[str]:
    """A JSON position's cards as a list of tokens, from a list of them or a string."""
    if isinstance(value, str):
        return card_tokens(value)
    if not isinstance(value, list) or not all(isinstance(card, str) for card in value):
        raise PositionError(f"{key} must be cards, a string or a list of strings, "
                            f"not {value!r}")
    return value


def _seat_cards(value: object, key: str) -> dict[int, list[str]]:
    """A JSON position's map of seat numbers to cards."""
    try:
        return {int(s): _cards(v, key) for s, v in (value or {}).items()}
    except (AttributeError, TypeError, ValueError):
        raise PositionError(f"{key} must map seat numbers to cards") from None


def _per_seat(value: object, key: str) -> list | None:
    """A JSON position's list of one number per seat (or None: the default)."""
    if value is not None and not isinstance(value, list):
        raise PositionError(f"{key} must be a list of numbers, one per seat, not {value!r}")
    return value


@dataclass(frozen=True)
class Position:
    """A position written by hand, from the advised player's seat (seat 0).

    ``pile`` is bottom first (its top last); ``known`` maps another seat (1…P-1) to the
    cards known to be in its hand; ``hand_sizes`` and ``scores`` are per seat (own
    included). The phase follows from the hand: n cards (n = round + 2) to draw, n + 1
    to discard. ``last_turn``: someone (the seat before, by default) has gone out. The
    round's public history maps a seat (0…P-1) to cards: those it ``discarded``, the pile
    cards it took (``taken``), the pile tops it ``passed`` up (it drew from the stock).
    """

    round: int
    hand: list[str]
    pile: list[str]
    players: int = DEFAULT_PLAYERS
    known: dict[int, list[str]] = field(default_factory=dict)
    hand_sizes: list[int] | None = None
    scores: list[int] | None = None
    turn: int = 0
    last_turn: bool = False
    rules: RuleSet = field(default_factory=RuleSet)
    discarded: dict[int, list[str]] = field(default_factory=dict)
    taken: dict[int, list[str]] = field(default_factory=dict)
    passed: dict[int, list[str]] = field(default_factory=dict)

    @classmethod
    def from_json(cls, data: dict, rules: RuleSet | None = None) -> Position:
        """A position from a JSON object with the same keys (cards as lists or strings)."""
        allowed = {"round", "hand", "pile", "players", "known", "hand_sizes", "scores",
                   "turn", "last_turn", *SEAT_CARDS}
        unknown = set(data) - allowed
        if unknown:
            raise PositionError(f"unknown position keys: {', '.join(sorted(unknown))} "
                                f"(allowed: {', '.join(sorted(allowed))})")
        for key in ("round", "hand"):
            if key not in data:
                raise PositionError(f"a position needs {key!r}")
        by_seat = {key: _seat_cards(data.get(key), key) for key in SEAT_CARDS}
        return cls(round=data["round"], hand=_cards(data["hand"], "hand"),
                   pile=_cards(data.get("pile", []), "pile"),
                   players=data.get("players", DEFAULT_PLAYERS),
                   hand_sizes=_per_seat(data.get("hand_sizes"), "hand_sizes"),
                   scores=_per_seat(data.get("scores"), "scores"),
                   turn=data.get("turn", 0), last_turn=_flag(data.get("last_turn", False),
                                                             "last_turn"),
                   rules=rules or RuleSet(), **by_seat)


def _flag(value: object, name: str) -> bool:
    if not isinstance(value, bool):
        raise PositionError(f"{name} must be true or false, not {value!r}")
    return value


def _whole(value: object, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or not (
            low <= value <= high):
        raise PositionError(f"{name} must be a whole number from {low} to {high}, "
                            f"not {value!r}")
    return int(value)


def _card_counts(cards: list[str], where: str) -> np.ndarray:
    try:
        return counts_from_kinds(parse_cards(cards)).astype(np.int64)
    except ValueError as err:
        raise PositionError(f"{where}: {err}") from None


def _check_copies(places: list[tuple[str, np.ndarray]]) -> None:
    """Raise unless every kind appears no more often than the deck holds it."""
    total = sum(counts for _, counts in places)
    for kind in np.flatnonzero(total):
        limit = DECK_COUNTS[kind]
        if total[kind] > limit:
            where = ", ".join(f"{name} {int(c[kind])}" for name, c in places if c[kind])
            raise PositionError(f"{total[kind]} copies of {format_card(int(kind))} "
                                f"({where}): the deck holds {limit}")


def position_view(position: Position, seed: int = 0) -> View:
    """The advised seat's view of ``position``, cut from a state holding it as the game
    cuts every view; :class:`PositionError` (one line) if the position cannot occur.
    ``seed`` seeds the seats' own streams as a game whose own seed is ``seed`` seeds them
    (:func:`~fcsim.core.rng.seed_seat_stream`; a run derives each game's seed from its root
    seed and number), so a player asked for its move draws its random choices as at a
    table."""
    rules = position.rules
    seed = _whole(seed, "seed", 0, MAX_SEED)
    rnd = _whole(position.round, "round", 1, rules.rounds)
    players = _whole(position.players, "players", MIN_PLAYERS, MAX_PLAYERS)
    n = wild_rank(rnd)
    hand = _card_counts(position.hand, "hand")
    held = int(hand.sum())
    if held not in (n, n + 1):
        raise PositionError(f"round {rnd} hands hold {n} cards ({n + 1} after drawing), "
                            f"not {held}")
    drawing = is_drawing(hand, rnd)
    pile = _card_counts(position.pile, "pile")
    pile_kinds = np.array(parse_cards(position.pile), dtype=np.int8)
    if drawing and pile_kinds.size == 0:
        raise PositionError("a draw needs a discard pile with at least its top card")
    sizes = [held] + [n] * (players - 1) if position.hand_sizes is None else list(
        position.hand_sizes)
    if len(sizes) != players:
        raise PositionError(f"hand sizes: one per seat ({players}), not {len(sizes)}")
    if sizes[0] != held:
        raise PositionError(f"hand sizes: seat 0 holds the {held} cards of its hand, not "
                            f"{sizes[0]!r}")
    for seat, size in enumerate(sizes[1:], start=1):
        _whole(size, f"seat {seat}'s hand size", 0, DECK_SIZE)
        if size != n:
            raise PositionError(f"hand sizes: seat {seat} holds {n} cards between turns in "
                                f"round {rnd}, not {size}")
    known = np.zeros((players, N_KINDS), dtype=np.int8)
    places = [("hand", hand), ("pile", pile)]
    for seat, cards in sorted(position.known.items()):
        _whole(seat, "a known seat", 1, players - 1)
        counts = _card_counts(cards, f"seat {seat}")
        if counts.sum() > sizes[seat]:
            raise PositionError(f"seat {seat}: {int(counts.sum())} known cards, but it "
                                f"holds {sizes[seat]}")
        known[seat] = counts
        places.append((f"seat {seat}", counts))
    _check_copies(places)
    history = _history(position, players)
    scores = [0] * players if position.scores is None else list(position.scores)
    if len(scores) != players:
        raise PositionError(f"scores: one per seat ({players}), not {len(scores)}")
    stock = DECK_SIZE - held - int(pile.sum()) - sum(sizes[1:])
    if stock < 0:
        raise PositionError(f"{-stock} cards more than the deck holds")
    # turns played: below the cap while nobody is out (the cap stops the round); the last
    # turns go on past it, one for each seat but the one out
    turn = _whole(position.turn, "turn", 0, rules.turn_cap - 1 + (
        players - 1 if position.last_turn else 0))
    totals = [_whole(score, f"seat {seat}'s score", -100_000, 100_000)
              for seat, score in enumerate(scores)]
    return View.of(_position_data(position, players, hand, pile_kinds, known, history,
                                  totals, stock, turn, seed))


def _history(position: Position, players: int) -> np.ndarray:
    """The position's public history, checked: ``int64[H_SIZE, P, 56]`` (``Plane`` planes)."""
    history = np.zeros((H_SIZE, players, N_KINDS), dtype=np.int64)
    for key, plane in HISTORY_KEYS.items():
        for seat, cards in sorted(getattr(position, key).items()):
            _whole(seat, f"a {key} seat", 0, players - 1)
            history[plane, seat] = _card_counts(cards, f"{key} by seat {seat}")
    return history


def _position_data(position: Position, players: int, hand: np.ndarray,
                   pile_kinds: np.ndarray, known: np.ndarray, history: np.ndarray,
                   totals: list[int], stock: int, turn: int, seed: int) -> StateData:
    """A game state holding ``position`` (checked) with seat 0 to move, the seats'
    streams seeded by ``seed``: the other hands are left empty, as a view shows only
    their sizes."""
    rules = replace(position.rules, players=players)
    rnd = position.round
    drawing = is_drawing(hand, rnd)
    data = new_state(rules)
    state = state_views(data)
    sc = state.scalars
    sc[Scalar.ROUND], sc[Scalar.DEALER], sc[Scalar.SEAT] = rnd, players - 1, 0
    sc[Scalar.TURN], sc[Scalar.STOCK], sc[Scalar.PILE] = turn, stock, pile_kinds.size
    sc[Scalar.OUT_SEAT] = players - 1 if position.last_turn else -1
    sc[Scalar.WILD_POINTS] = rules.wild_points(rnd)
    sc[Scalar.PHASE] = PHASE_DRAW if drawing else PHASE_DISCARD
    if not drawing:
        sc[Scalar.BEST_DISCARD], sc[Scalar.BEST_PENALTY] = best_discard_kernel(
            hand.astype(np.int8), rnd, rules.wild_points(rnd), rules.all_wild_melds,
            solver_table(), shared_scratch())
    state.hands[0] = hand
    state.pile[: pile_kinds.size] = pile_kinds
    state.known[:] = known
    state.history[:] = history
    state.totals[:] = totals
    for seat in range(players):
        seed_seat_stream(state.seat_rng[seat], np.uint64(seed), seat)
    return data


__all__ = ["Position", "PositionError", "position_view"]
