"""The shared helpers of fcsim.strategies.candidates against the twins' plain versions."""

from __future__ import annotations

import re

import numpy as np

from fcsim.core.cards import N_KINDS, card_points
from fcsim.core.solver import new_scratch
from fcsim.core.tables import solver_table
from fcsim.strategies import parse_strategy
from fcsim.strategies.base import I_ALL_WILD, I_ROUND, I_WILD_POINTS
from fcsim.strategies.candidates import (
    best_candidates,
    immediate_penalties,
    pile_outlook,
)
from tests.reference.solver import card_points as reference_card_points
from tests.reference.strategies.expected import candidates
from tests.reference.strategies.view import (
    penalty,
    penalty_after_best_discard,
    view_from_arguments,
    without,
)
from tests.sources import modules_saying
from tests.strategies.positions import DISCARD, DRAW, positions

TABLE = solver_table()
GREEDY = parse_strategy("greedy")


def test_card_points_match_the_reference() -> None:
    for round_number in range(1, 12):
        for wild_points in (20, round_number + 2, 60):
            for kind in range(N_KINDS):
                assert card_points(kind, round_number, wild_points) == reference_card_points(
                    kind, round_number, wild_points)


def test_immediate_penalties_and_best_candidates_match_the_twin() -> None:
    for position in positions(91, 44, DISCARD):
        hand, pile, known, info, hidden = position.arguments(GREEDY)[:5]
        view = view_from_arguments(hand, pile, known, info, hidden)
        rnd, points, all_wild = int(info[I_ROUND]), int(info[I_WILD_POINTS]), info[I_ALL_WILD] == 1
        now = np.zeros(N_KINDS, np.int64)
        immediate_penalties(hand, rnd, points, all_wild, TABLE, new_scratch(), now)
        assert np.array_equal(hand, position.hand), "the hand is restored"
        for kind in range(N_KINDS):
            want = penalty(without(view.hand, kind), view) if kind in view.hand else None
            assert (now[kind] if kind in view.hand else None) == want
            assert kind in view.hand or now[kind] >= 1 << 30
        for how_many in (1, 3, 14):
            out = np.zeros(how_many, np.int64)
            n = best_candidates(now, rnd, points, how_many, out)
            assert out[:n].tolist() == candidates(view, how_many), position.describe()


def test_pile_outlook_is_the_penalty_now_and_after_taking_the_top() -> None:
    for position in positions(92, 44, DRAW):
        hand, pile, known, info, hidden = position.arguments(GREEDY)[:5]
        view = view_from_arguments(hand, pile, known, info, hidden)
        got = pile_outlook(hand, pile, int(info[I_ROUND]), int(info[I_WILD_POINTS]),
                           info[I_ALL_WILD] == 1, TABLE, new_scratch())
        assert np.array_equal(hand, position.hand), "the hand is restored"
        assert got == (penalty(view.hand, view),
                       penalty_after_best_discard([*view.hand, view.pile[-1]], view))


def test_a_penalty_not_found_yet_is_the_solvers_huge_penalty() -> None:
    """The strategies start a search for the least penalty from the solver's own "none
    yet", not from a number of their own."""
    sources = ("fcsim/strategies/candidates.py", "fcsim/strategies/oracle.py",
               "fcsim/strategies/search/worlds.py")
    assert set(sources).isdisjoint(modules_saying("1 << 30"))
    assert set(sources) <= set(modules_saying("HUGE_PENALTY"))


def test_the_helpers_for_strategies_say_the_shapes_they_take() -> None:
    """The kernels STRATEGIES.md offers a strategy name their arrays' shape and type."""
    from fcsim.strategies import candidates, lookahead

    helpers = (candidates.pile_outlook, candidates.immediate_penalties,
               candidates.best_candidates, lookahead.unseen_counts,
               lookahead.expected_draw_penalty)
    assert [h.__name__ for h in helpers if not re.search(r"int(8|64)\[", h.__doc__)] == []
