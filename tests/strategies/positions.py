"""Seeded decision positions for holding each jitted strategy to its twin.

A :class:`Position` is the arguments a decision function receives (the contract of
:mod:`fcsim.strategies.base`), built the way a real table is: a shuffled deck dealt out,
the discard pile and the stock from the rest, the known cards of each seat a subset of
its hand, ``info`` filled per the ``I_*`` names, and an oracle's ``hidden`` array holding
every hand and the stock as they are at the decision. A discard is asked for only when
the hand cannot go out (the engine goes out by itself), so such a hand is dealt again,
with fewer wilds.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from fcsim import RuleSet
from fcsim.core.cards import (
    DECK_SIZE,
    JOKER,
    N_KINDS,
    N_RANKS,
    format_card,
    format_cards,
    full_deck,
)
from fcsim.core.rng import new_state
from fcsim.core.solver import best_discard_kernel, new_scratch
from fcsim.core.tables import solver_table
from fcsim.strategies import Strategy, parse_strategy
from fcsim.strategies.base import (
    DECISION_SIGNATURE,
    I_ALL_WILD,
    I_BEST_DISCARD,
    I_BEST_PENALTY,
    I_DEALER,
    I_DISCARDED,
    I_GO_OUT_BONUS,
    I_HAND_SIZES,
    I_LAST_TURN,
    I_OUT_SEAT,
    I_PASSED,
    I_PLAYERS,
    I_ROUND,
    I_SEAT,
    I_STOCK_SIZE,
    I_TAKEN,
    I_TOTALS,
    I_TURN,
    I_TURN_CAP,
    I_WILD_POINTS,
    I_WILD_RANK,
    INFO_SIZE,
)
from tests.reference.rng import Xoshiro256
from tests.reference.strategies import twin_of
from tests.reference.strategies.view import view_from_arguments

DRAW, DISCARD = "draw", "discard"
# The rule variants a decision depends on: wild points (20, face, 60) and all-wild melds.
VARIANTS = (
    RuleSet(),
    RuleSet(wild_penalty="face"),
    RuleSet(wild_penalty=60, all_wild_melds=False),
    RuleSet(all_wild_melds=False),
    RuleSet(wild_penalty="face", all_wild_melds=False),
    RuleSet(wild_penalty=60),
)
_TABLE = solver_table()
SCALE = float(os.environ.get("FCSIM_POSITIONS_SCALE", "1"))


@dataclass(frozen=True)
class Position:
    """One decision's arguments (fresh copies are handed out by :meth:`arguments`)."""

    stage: str  # DRAW (n cards in hand) or DISCARD (n + 1)
    rules: RuleSet
    hand: np.ndarray  # int8[56]
    pile: np.ndarray  # int8[:], bottom first
    known: np.ndarray  # int8[P, 56]
    info: np.ndarray  # int64[INFO_SIZE]
    hidden: np.ndarray  # int8[P + 1, 116]: what an oracle is shown
    rng: np.ndarray  # uint64[4]: the play stream

    def arguments(self, strategy: Strategy) -> tuple:
        """The nine arguments of a decision function for ``strategy`` (copies)."""
        hidden = self.hidden if strategy.family.oracle else np.zeros((0, 0), np.int8)
        return (self.hand.copy(), self.pile.copy(), self.known.copy(), self.info.copy(),
                hidden.copy(), strategy.param_vector, _TABLE, new_scratch(), self.rng.copy())

    def describe(self) -> str:
        """The position in words, for a failure message."""
        info, seat, players = self.info, int(self.info[I_SEAT]), int(self.info[I_PLAYERS])
        hand = [k for k in range(N_KINDS) for _ in range(self.hand[k])]
        known = {s: format_cards(k for k in range(N_KINDS) for _ in range(self.known[s, k]))
                 for s in range(players) if self.known[s].any()}
        stock = [int(k) for k in self.hidden[players] if k >= 0][:players + 1]
        return (f"{self.stage}: round {info[I_ROUND]}, {players} players, seat {seat}, "
                f"turn {info[I_TURN]}, last turn {bool(info[I_LAST_TURN])}, {self.rules}, "
                f"hand {format_cards(hand)}, pile top {format_cards(self.pile[-1:])} "
                f"({len(self.pile)} cards), known {known}, stock top {format_cards(stock)}")


def deal_position(rng: np.random.Generator, stage: str, round_number: int, players: int,
                  rules: RuleSet, *, wild_share: float = 0.0, known_share: float = 0.3,
                  last_turn: bool = False, max_turn: int | None = None,
                  stock_left: int | None = None, unseen: int | None = None,
                  hand: Sequence[int] | None = None, top: int | None = None) -> Position:
    """A position of ``stage`` at a table of ``players`` in ``round_number``.

    The deciding seat's cards come first off a deck in which each wild was moved ahead
    with odds ``wild_share`` (so its hand holds more wilds); each card of each hand is
    known with odds ``known_share``; the turn is uniform in ``0 … max_turn`` (default
    six turns per player), the pile up to one card per turn played plus the upcard —
    or, when given, all but ``stock_left`` cards, or as many as leave exactly ``unseen``
    cards unseen by the deciding seat (a draw). ``hand`` (kinds: n cards for a draw, n + 1
    for a discard) and ``top`` (the pile's visible card) set those cards instead.
    """
    n = round_number + 2
    while True:
        cards = _shuffled_deck(rng, round_number, wild_share, hand or (), top)
        seat = int(rng.integers(players))
        hands = np.zeros((players, N_KINDS), np.int8)
        for s in [seat] + [s for s in range(players) if s != seat]:
            for _ in range(n):
                hands[s, cards.pop(0)] += 1
        known = rng.binomial(hands.astype(np.int64), known_share).astype(np.int8)
        turn = int(rng.integers((6 * players if max_turn is None else max_turn) + 1))
        pile_size = 1 + int(rng.integers(min(turn, len(cards) - 1) + 1))
        if stock_left is not None:  # a stock of that many cards (the rest is the pile)
            pile_size = len(cards) - stock_left
        if unseen is not None:
            pile_size = _pile_leaving_unseen(unseen, stage, n, known, seat, len(cards))
        turn = max(turn, pile_size - 1)
        pile = [cards.pop(0) for _ in range(pile_size - (top is not None))]
        pile += [] if top is None else [top]
        stock = cards  # top first
        if stage == DISCARD:
            _draw(rng, hands[seat], known[seat], pile, stock, None if hand is None else hand[n])
        best, best_penalty = best_discard_kernel(hands[seat].copy(), round_number,
                                                 rules.wild_points(round_number),
                                                 rules.all_wild_melds, _TABLE, new_scratch())
        if stage == DRAW or best_penalty > 0:
            break
        if hand is not None:
            raise ValueError(f"the hand {format_cards(hand)} goes out: no discard is asked")
        wild_share /= 2  # fewer wilds next time: a hand of wilds alone goes out
    info = _info(rng, round_number, players, seat, rules, hands, len(stock), turn,
                 last_turn, (best, best_penalty) if stage == DISCARD else (-1, -1))
    hidden = np.full((players + 1, DECK_SIZE), -1, np.int8)
    hidden[:players, :N_KINDS] = hands
    hidden[players, : len(stock)] = stock
    return Position(stage, rules, hands[seat].copy(), np.array(pile, np.int8), known, info,
                    hidden, new_state(int(rng.integers(2**63))))


def _shuffled_deck(rng: np.random.Generator, round_number: int, wild_share: float,
                   hand: Sequence[int], top: int | None) -> list[int]:
    """The deck, shuffled, each wild moved ahead with odds ``wild_share``; the given
    ``hand`` first (its first n cards are dealt to the deciding seat) and ``top`` out."""
    deck = rng.permutation(full_deck())
    wild = (deck == JOKER) | (deck % N_RANKS == round_number - 1)
    ahead = wild & (rng.random(DECK_SIZE) < wild_share)
    cards = [int(k) for k in np.concatenate([deck[ahead], deck[~ahead]])]
    for card in [*hand, *([] if top is None else [top])]:
        cards.remove(card)
    return [*hand[: round_number + 2], *cards]


def _pile_leaving_unseen(unseen: int, stage: str, n: int, known: np.ndarray, seat: int,
                         available: int) -> int:
    """The pile size that leaves ``unseen`` cards unseen by ``seat`` holding ``n`` cards."""
    assert stage == DRAW, "unseen is for draws (n cards in hand)"
    size = DECK_SIZE - n - int(known.sum() - known[seat].sum()) - unseen
    if not 1 <= size <= available:
        raise ValueError(f"{unseen} unseen cards cannot be had with {n} cards a hand and "
                         f"{known.shape[0]} players")
    return size


def _draw(rng: np.random.Generator, hand: np.ndarray, known: np.ndarray, pile: list[int],
          stock: list[int], card: int | None) -> None:
    """The deciding seat's draw before a discard: ``card`` (set by the caller, out of the
    deck already) or the top of the pile (then known) or of the stock, at even odds."""
    if card is None and len(pile) > 1 and (not stock or rng.random() < 0.5):
        card = pile.pop()
        known[card] += 1
    elif card is None:
        card = stock.pop(0)
    hand[card] += 1


def _info(rng: np.random.Generator, round_number: int, players: int, seat: int,
          rules: RuleSet, hands: np.ndarray, stock_size: int, turn: int, last_turn: bool,
          best: tuple[int, int]) -> np.ndarray:
    """The ``info`` vector, filled per the ``I_*`` names (totals are random)."""
    info = np.zeros(INFO_SIZE, np.int64)
    info[I_ROUND], info[I_WILD_RANK], info[I_SEAT] = round_number, round_number + 2, seat
    info[I_PLAYERS], info[I_DEALER] = players, (round_number - 1) % players
    info[I_STOCK_SIZE], info[I_TURN], info[I_LAST_TURN] = stock_size, turn, int(last_turn)
    info[I_OUT_SEAT] = (seat + 1 + int(rng.integers(players - 1))) % players if last_turn else -1
    info[I_WILD_POINTS] = rules.wild_points(round_number)
    info[I_ALL_WILD], info[I_GO_OUT_BONUS] = int(rules.all_wild_melds), rules.go_out_bonus
    info[I_TURN_CAP] = rules.turn_cap
    info[I_BEST_DISCARD], info[I_BEST_PENALTY] = best
    for s in range(players):
        info[I_TOTALS + s] = int(rng.integers(0, 400))
        info[I_HAND_SIZES + s] = hands[s].sum()
    # A public history of a few cards a seat and plane, from a generator of its own (the
    # positions drawn from ``rng`` stay those they were before the view carried it).
    history = np.random.default_rng([int(info[I_TOTALS]), round_number, turn])
    for block in (I_DISCARDED, I_TAKEN, I_PASSED):
        for s in range(players):
            for kind in history.integers(0, N_KINDS, int(history.integers(0, 4))):
                info[block + s * N_KINDS + kind] += 1
    return info


def positions(seed: int, count: int, stage: str, **options) -> Iterator[Position]:
    """``count`` positions of ``stage`` cycling through rounds 1–11, 2–7 players and
    :data:`VARIANTS`, with varied wild and known shares. Options: ``last_share`` and
    ``short_stock_share`` (odds of a last turn, of a stock of 0 … P cards),
    ``unshown_stock_share`` (odds that an oracle was shown no stock: the draw rebuilt it
    from the pile, in an order never shown); ``players``,
    ``wild_shares`` and ``known_shares`` (the values to cycle through); the others go to
    :func:`deal_position`. ``$FCSIM_POSITIONS_SCALE`` scales ``count`` (the coverage run
    without the JIT uses a tenth)."""
    rng = np.random.default_rng(seed)
    count = max(1, round(count * SCALE))
    last_share = options.pop("last_share", 0.0)
    short_stock_share = options.pop("short_stock_share", 0.0)
    unshown_stock_share = options.pop("unshown_stock_share", 0.0)
    tables = options.pop("players", range(2, 8))
    wild_shares = options.pop("wild_shares", (0.0, 0.3, 0.8))
    known_shares = options.pop("known_shares", (0.0, 0.2, 0.5, 1.0))
    for i in range(count):
        players = tables[i % len(tables)]
        short = rng.random() < short_stock_share
        position = deal_position(rng, stage, 1 + i % 11, players, VARIANTS[i % len(VARIANTS)],
                                 wild_share=wild_shares[i % len(wild_shares)],
                                 known_share=known_shares[i % len(known_shares)],
                                 last_turn=bool(rng.random() < last_share),
                                 stock_left=int(rng.integers(players + 1)) if short else None,
                                 **options)
        if unshown_stock_share and rng.random() < unshown_stock_share:
            position.hidden[players] = -1
        yield position


def fast_decision(strategy: Strategy, position: Position) -> int:
    """The jitted strategy's answer (its ``draw`` or ``discard``), checked to leave the
    view's arrays as it found them."""
    decide = strategy.draw if position.stage == DRAW else strategy.discard
    arguments = position.arguments(strategy)
    decision = int(decide(*arguments))
    for given, kept in zip(arguments[:5], position.arguments(strategy)[:5], strict=True):
        assert np.array_equal(given, kept), f"{strategy.spec} changed its view"
    return decision


def twin_decision(spec: str, position: Position) -> int:
    """The twin's answer at the same position, from the same arguments."""
    strategy = parse_strategy(spec)
    twin, params = twin_of(spec)
    hand, pile, known, info, hidden, *_, state = position.arguments(strategy)
    view = view_from_arguments(hand, pile, known, info, hidden)
    decide = twin.draw if position.stage == DRAW else twin.discard
    return int(decide(view, params, Xoshiro256.from_state(state)))


def disagreements(spec: str, stage: str, seed: int, count: int, **options) -> list[str]:
    """Every position of :func:`positions` where the jitted strategy and its twin differ,
    described with both answers."""
    strategy = parse_strategy(spec)
    out = []
    for position in positions(seed, count, stage, **options):
        fast, twin = fast_decision(strategy, position), twin_decision(spec, position)
        if fast != twin:
            out.append(f"{spec} at {position.describe()}: jitted {answer(stage, fast)}, "
                       f"twin {answer(stage, twin)}")
    return out


def answer(stage: str, decision: int) -> str:
    """A decision in words: the draw source, or the card discarded."""
    if stage == DRAW:
        return ("stock", "pile")[decision] if decision in (0, 1) else str(decision)
    return format_card(decision) if 0 <= decision < N_KINDS else str(decision)


def matches_signature(arguments: tuple) -> bool:
    """Whether ``arguments`` have the dtypes and dimensions of ``DECISION_SIGNATURE``."""
    return all(arg.dtype == np.dtype(str(typ.dtype)) and arg.ndim == typ.ndim
               for arg, typ in zip(arguments, DECISION_SIGNATURE.args, strict=True))
