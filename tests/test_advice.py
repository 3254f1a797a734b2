"""fcsim.advise: every legal action with its estimated outcome; positions written by hand,
and the impossible ones refused in one line."""

from __future__ import annotations

import numpy as np
import pytest

import fcsim
from fcsim.advice import Position, PositionError, advise, position_view
from fcsim.core.view import view_arrays


def test_advises_every_legal_action_of_a_game_view_best_first() -> None:
    game = fcsim.Game(players=3, seed=2)
    game.step("stock")
    view = game.view()
    advice = advise(view, worlds=40)
    assert advice.phase == "discard" and advice.worlds == 40
    assert sorted(a.action for a in advice.actions) == sorted(view.legal_actions)
    table = [a.against_table.mean for a in advice.actions]
    assert table == sorted(table)
    for a in advice.actions:
        for e in (a.penalty, a.out_first, a.against_table):
            assert e.low <= e.mean <= e.high
        assert a.out_first.low >= 0 and a.out_first.high <= 1 and a.penalty.low >= 0
    assert advice.recommendation.startswith(f"discard {advice.best.action}: ")
    assert advise(view, worlds=40).to_json()["actions"] == advice.to_json()["actions"]


def test_time_limits_the_worlds() -> None:
    view = fcsim.Game(players=4, seed=3).view()
    advice = advise(view, worlds=10**6, seconds=0.05)
    assert 2 <= advice.worlds < 10**6


def test_a_hand_that_goes_out_has_one_action() -> None:
    view = position_view(Position(round=1, hand=["3H", "4H", "5H", "9C"], pile=["KD"]))
    advice = advise(view, worlds=4)
    assert [a.action for a in advice.actions] == ["9C"]
    assert advice.recommendation == "discard 9C (it goes out)"


def test_position_view_matches_a_game_view() -> None:
    game = fcsim.Game(players=3, seed=4)
    view = game.view()  # seat 1 draws first in round 1 (dealer 0)
    position = Position(round=1, hand=view.hand, pile=view.pile, players=3)
    mine = position_view(position)
    hand, pile, _, _ = view_arrays(game.data)
    assert np.array_equal(mine.hand_counts, hand) and np.array_equal(mine.pile_kinds, pile)
    assert mine.stock_size == view.stock_size and mine.phase == "draw"


@pytest.mark.parametrize(("changes", "message"), [
    ({"hand": ["3H", "4H", "5H", "9C", "KD", "QD"]}, "round 1 hands hold 3 cards (4 after "
     "drawing), not 6"),
    ({"pile": ["KD", "KD"], "hand": ["KD", "4H", "5H"]}, "3 copies of KD (hand 1, pile 2): "
     "the deck holds 2"),
    ({"known": {1: ["JK", "JK", "JK"]}, "hand": ["JK", "JK", "JK", "JK"]},
     "7 copies of JK (hand 4, seat 1 3): the deck holds 6"),
    ({"hand": ["3H", "4H", "ZZ"]}, "hand: bad card 'ZZ'"),
    ({"known": {1: ["3S", "4S", "5S", "6S"]}}, "seat 1: 4 known cards, but it holds 3"),
    ({"known": {4: ["3S"]}}, "a known seat must be a whole number from 1 to 3"),
    ({"pile": []}, "a draw needs a discard pile"),
    ({"players": 9}, "players must be a whole number from 2 to 7"),
    ({"round": 12}, "round must be a whole number from 1 to 11"),
    ({"hand_sizes": [3, 3, 4, 3]}, "seat 2 holds 3 cards between turns"),
    ({"scores": [1, 2]}, "scores: one per seat (4), not 2"),
])
def test_impossible_positions_say_why(changes: dict, message: str) -> None:
    base = {"round": 1, "hand": ["3H", "4H", "9C"], "pile": ["KD"], "players": 4}
    with pytest.raises(PositionError) as err:
        position_view(Position(**{**base, **changes}))
    assert message in str(err.value) and "\n" not in str(err.value)
