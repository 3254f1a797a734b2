"""What a seat sees when it decides, as plain Python, and the penalties the twins need.

:class:`View` holds the player's view of docs/ENGINE.md ("What a strategy sees") as
tuples and Counters. :func:`view_from_arguments` reads it from the arguments of a jitted
decision function (the contract of :mod:`fcsim.strategies.base`, positions named by the
``I_*`` constants); the reference engine builds it from its own table. Penalties come from
the exact solver's plain kernel (``penalty_kernel``: no memo, no one-pass discard search),
which is verified on its own.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from fcsim.core.cards import N_KINDS, full_deck, hand_kinds
from fcsim.core.rules import DEFAULT_TURN_CAP
from fcsim.core.solver import new_scratch, penalty_kernel
from fcsim.core.tables import solver_table
from fcsim.strategies.base import (
    I_ALL_WILD,
    I_DEALER,
    I_DISCARDED,
    I_GO_OUT_BONUS,
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
)

_TABLE = solver_table()
_SCRATCH = new_scratch()


@dataclass(frozen=True)
class View:
    """One seat's view of the table at a decision (cards are kinds, in kind order)."""

    hand: tuple[int, ...]  # own cards: n when drawing, n + 1 when discarding
    pile: tuple[int, ...]  # the discard pile, bottom first; pile[-1] is the visible card
    known: tuple[Counter[int], ...]  # per seat: cards taken from the pile, not discarded since
    round: int  # 1 … 11
    seat: int  # the deciding seat
    players: int
    turn: int  # turns already played this round
    last_turn: bool  # someone has gone out
    wild_points: int  # points of an unmelded card of the wild rank
    all_wild: bool  # three wilds alone are a meld
    hands: tuple[tuple[int, ...], ...] | None = None  # oracles only: every seat's hand
    stock: tuple[int, ...] | None = None  # oracles only: the stock, top first
    # The rest of the public table, which the search plays on from:
    dealer: int = 0
    stock_size: int = 0
    out_seat: int = -1  # the seat that went out, -1 if nobody yet
    go_out_bonus: int = 0
    turn_cap: int = DEFAULT_TURN_CAP  # turns after which a round is stopped
    totals: tuple[int, ...] = ()  # per seat, before this round (empty if not given)
    # The round's public history, per seat (empty if not given):
    discarded: tuple[Counter[int], ...] = ()  # every card it discarded
    taken: tuple[Counter[int], ...] = ()  # every pile card it took
    passed: tuple[Counter[int], ...] = ()  # the pile tops it passed up


def view_from_arguments(hand: np.ndarray, pile: np.ndarray, known: np.ndarray,
                        info: np.ndarray, hidden: np.ndarray) -> View:
    """The view a jitted decision function receives, read back into a :class:`View`."""
    players = int(info[I_PLAYERS])
    hands = stock = None
    if hidden.shape[0] > 0:  # an oracle's: rows 0 … P-1 the hands, row P the stock
        hands = tuple(tuple(hand_kinds(hidden[s, :N_KINDS])) for s in range(players))
        row = [int(k) for k in hidden[players]]
        stock = tuple(row[: row.index(-1)] if -1 in row else row)
    return View(
        hand=tuple(hand_kinds(hand)),
        pile=tuple(int(k) for k in pile),
        known=tuple(Counter(hand_kinds(known[s])) for s in range(known.shape[0])),
        round=int(info[I_ROUND]),
        seat=int(info[I_SEAT]),
        players=players,
        turn=int(info[I_TURN]),
        last_turn=int(info[I_LAST_TURN]) == 1,
        wild_points=int(info[I_WILD_POINTS]),
        all_wild=int(info[I_ALL_WILD]) == 1,
        hands=hands,
        stock=stock,
        dealer=int(info[I_DEALER]),
        stock_size=int(info[I_STOCK_SIZE]),
        out_seat=int(info[I_OUT_SEAT]),
        go_out_bonus=int(info[I_GO_OUT_BONUS]),
        turn_cap=int(info[I_TURN_CAP]),
        totals=tuple(int(t) for t in info[I_TOTALS : I_TOTALS + players]),
        discarded=_history(info, I_DISCARDED, players),
        taken=_history(info, I_TAKEN, players),
        passed=_history(info, I_PASSED, players),
    )


def _history(info: np.ndarray, block: int, players: int) -> tuple[Counter[int], ...]:
    """One history plane of ``info``: per seat, the cards as a multiset."""
    return tuple(Counter({k: int(info[block + s * N_KINDS + k]) for k in range(N_KINDS)
                          if info[block + s * N_KINDS + k]}) for s in range(players))


def exact(value: float) -> Fraction:
    """A strategy parameter as the decimal number it is written as (``0.3`` is 3/10)."""
    return Fraction(repr(float(value)))


def exact_params(params: Mapping[str, float]) -> dict[str, Fraction]:
    """Every parameter of a spec, by name, as :func:`exact` numbers."""
    return {name: exact(value) for name, value in params.items()}


def without(cards: Iterable[int], card: int) -> list[int]:
    """``cards`` less one copy of ``card``."""
    rest = list(cards)
    rest.remove(card)
    return rest


def penalty(cards: Iterable[int], view: View) -> int:
    """The least penalty of ``cards`` kept in this round (exact solver)."""
    counts = np.bincount(np.fromiter(cards, dtype=np.int64), minlength=N_KINDS).astype(np.int8)
    pen, _ = penalty_kernel(counts, view.round, view.wild_points, view.all_wild, _TABLE,
                            _SCRATCH)
    return int(pen)


def penalty_after_best_discard(cards: Iterable[int], view: View) -> int:
    """The least penalty ``cards`` can keep after discarding one of them (any one)."""
    cards = list(cards)
    return min(penalty(without(cards, card), view) for card in set(cards))


def unseen_cards(view: View) -> list[int]:
    """Every card this seat has not seen, one entry per physical card: the 116 less its
    hand, the discard pile and the cards known to be in the other seats' hands."""
    left = Counter(int(k) for k in full_deck())
    left.subtract(view.hand)
    left.subtract(view.pile)
    for seat, known in enumerate(view.known):
        if seat != view.seat:
            left.subtract(known)
    return sorted(left.elements())  # elements() skips counts that went to zero or below


def expected_penalty_after_draw(cards: Iterable[int], unseen: list[int],
                                view: View) -> Fraction:
    """The mean, over every unseen card in turn as the next stock card, of the least
    penalty after drawing it and discarding best (exact; 0 when nothing is unseen)."""
    cards = list(cards)
    if not unseen:
        return Fraction(0)
    total = sum(penalty_after_best_discard([*cards, card], view) for card in unseen)
    return Fraction(total, len(unseen))
