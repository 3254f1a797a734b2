"""Twin of ``oracle`` (analysis only): one-step lookahead that sees the stock.

It reads ``view.stock`` (top first), which only an oracle's view holds.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..rng import Xoshiro256
from .view import View, penalty, penalty_after_best_discard, without


def draw(view: View, params: Mapping[str, float], rng: Xoshiro256) -> int:
    """The discard pile (1) when taking its card leaves (after the best discard) a lower
    penalty than taking the real top of the stock; the stock (0) on a tie; the pile when
    the stock is empty."""
    if not view.stock:
        return 1
    from_pile = penalty_after_best_discard([*view.hand, view.pile[-1]], view)
    from_stock = penalty_after_best_discard([*view.hand, view.stock[0]], view)
    return 1 if from_pile < from_stock else 0


def coming_card(view: View) -> int | None:
    """The card this seat draws next turn if every other seat draws from the stock: the
    stock's ``players``-th card from the top (none when the stock is shorter)."""
    others = view.players - 1
    return view.stock[others] if len(view.stock) > others else None


def discard(view: View, params: Mapping[str, float], rng: Xoshiro256) -> int:
    """The card whose discard leaves the least penalty after drawing the coming card and
    discarding best (without a coming card: the least penalty now); ties: the least
    penalty now, then the lower kind."""
    coming = coming_card(view)

    def outcome(kind: int) -> tuple[int, int, int]:
        kept = without(view.hand, kind)
        now = penalty(kept, view)
        later = now if coming is None else penalty_after_best_discard([*kept, coming], view)
        return later, now, kind

    return min(set(view.hand), key=outcome)
