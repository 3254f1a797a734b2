"""Twin of ``aware``: ``expected`` that plays the table.

Draws as ``expected``. Discards: on a last turn the solver's best discard; otherwise,
among the ``candidates`` best discards now (as ``expected`` ranks them), the least score

    score = (1 - w) * expected penalty after the next draw + w * penalty now + feed

where ``w`` is ``urgency`` once ``turn >= danger_turns * players`` (else 0) and ``feed``
is ``feed_weight`` for a card that feeds the next seat (else 0). Scores are exact
fractions of the parameters read as decimals (:func:`.view.exact`); the fast code's floats
compared within 1e-9 give the same order for parameters of a few decimals.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from fcsim.core.cards import JOKER, rank_of, suit_of

from ..rng import Xoshiro256
from ..solver import is_wild
from . import expected
from .greedy import solver_best_discard
from .view import View, exact_params, penalty, unseen_cards, without

draw = expected.draw


def feeds(kind: int, known: Counter[int], round_number: int) -> bool:
    """Whether discarding ``kind`` helps a seat known to hold ``known``: a wild always
    does; a natural does when that seat holds a natural of its rank, or of its suit within
    two ranks of it."""
    if is_wild(kind, round_number):
        return True
    return any(rank_of(card) == rank_of(kind)
               or (suit_of(card) == suit_of(kind) and abs(rank_of(card) - rank_of(kind)) <= 2)
               for card in known.elements() if card != JOKER)


def discard(view: View, params: Mapping[str, float], rng: Xoshiro256) -> int:
    """The solver's best discard on a last turn, else the least score (ties: the earlier
    candidate)."""
    if view.last_turn:
        return solver_best_discard(view)
    p = exact_params(params)
    late = view.turn >= p["danger_turns"] * view.players
    weight_now = p["urgency"] if late else 0
    next_seat_holds = view.known[(view.seat + 1) % view.players]
    unseen = unseen_cards(view)

    def score(kind: int):
        later = expected.expected_after_discard(view, kind, unseen)
        now = penalty(without(view.hand, kind), view)
        feed = p["feed_weight"] if feeds(kind, next_seat_holds, view.round) else 0
        return (1 - weight_now) * later + weight_now * now + feed

    ranked = expected.candidates(view, int(params["candidates"]))
    return min(ranked, key=lambda kind: (score(kind), ranked.index(kind)))
