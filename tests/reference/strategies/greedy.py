"""Twin of ``greedy``: play for the least penalty right now."""

from __future__ import annotations

from collections.abc import Mapping

from fcsim import RuleSet, best_discard
from fcsim.core.cards import parse_card

from ..rng import Xoshiro256
from .view import View, exact, penalty, penalty_after_best_discard


def draw(view: View, params: Mapping[str, float], rng: Xoshiro256) -> int:
    """The discard pile (1) when taking its visible card and discarding best leaves a
    penalty more than ``take_margin`` below the hand's as it stands; else the stock (0)."""
    keep = penalty(view.hand, view)
    taken = penalty_after_best_discard([*view.hand, view.pile[-1]], view)
    return 1 if taken < keep - exact(params["take_margin"]) else 0


def discard(view: View, params: Mapping[str, float], rng: Xoshiro256) -> int:
    """The solver's best discard (its tie rule: a natural before a wild, then the higher
    card)."""
    return solver_best_discard(view)


def solver_best_discard(view: View) -> int:
    """:func:`fcsim.best_discard` of the hand, under the view's rules."""
    rules = RuleSet(wild_penalty=view.wild_points, all_wild_melds=view.all_wild)
    card, _ = best_discard(list(view.hand), view.round, rules)
    return parse_card(card)
