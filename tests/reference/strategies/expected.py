"""Twin of ``expected``: the exact one-draw expectation over the unseen cards.

Every unseen card is, in turn, the next stock card (one by one: no grouping of alike
draws, no early stop, no memo), and the expectation is an exact fraction. The fast code
compares float means with a 1e-9 tolerance; with a common denominator (the number of
unseen cards, at most 116) two different means are at least 1/116 apart, so its
comparisons are these exact ones.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from ..rng import Xoshiro256
from ..solver import card_points
from .view import (
    View,
    exact,
    expected_penalty_after_draw,
    penalty,
    penalty_after_best_discard,
    unseen_cards,
    without,
)


def draw(view: View, params: Mapping[str, float], rng: Xoshiro256) -> int:
    """The discard pile (1) when the penalty it leaves (after the best discard) is more
    than ``take_margin`` below the expected penalty of a stock draw; else the stock (0)."""
    taken = penalty_after_best_discard([*view.hand, view.pile[-1]], view)
    from_stock = expected_penalty_after_draw(view.hand, unseen_cards(view), view)
    return 1 if taken < from_stock - exact(params["take_margin"]) else 0


def candidates(view: View, how_many: int) -> list[int]:
    """The ``how_many`` kinds held whose discard leaves the least penalty now, best first
    (ties: more points first, then the lower kind)."""
    def order(kind: int) -> tuple[int, int, int]:
        return (penalty(without(view.hand, kind), view),
                -card_points(kind, view.round, view.wild_points), kind)

    return sorted(set(view.hand), key=order)[:how_many]


def expected_after_discard(view: View, kind: int, unseen: list[int]) -> Fraction:
    """Expected least penalty after discarding ``kind``, drawing from the stock and
    discarding best."""
    return expected_penalty_after_draw(without(view.hand, kind), unseen, view)


def discard(view: View, params: Mapping[str, float], rng: Xoshiro256) -> int:
    """Among the ``candidates`` best discards now, the one whose hand has the least
    expected penalty after the next draw; ties keep the earlier candidate (the lower
    penalty now, then the higher card)."""
    unseen = unseen_cards(view)  # with the n + 1 cards: the discard stays seen
    ranked = candidates(view, int(params["candidates"]))
    return min(ranked, key=lambda kind: (expected_after_discard(view, kind, unseen),
                                         ranked.index(kind)))
