"""Positions written by hand: the view they make is the one a game makes, and the
impossible ones are refused in one line."""

from __future__ import annotations

import numpy as np
import pytest

import fcsim
from fcsim.core.rng import STATE_WORDS, seed_seat_stream
from fcsim.core.view import view_arrays
from fcsim.position import Position, PositionError, position_view


def test_position_view_matches_a_game_view() -> None:
    game = fcsim.Game(players=3, seed=4)
    view = game.view()  # seat 1 draws first in round 1 (dealer 0)
    position = Position(round=1, hand=view.hand, pile=view.pile, players=3)
    mine = position_view(position)
    hand, pile, _, _ = view_arrays(game.data)
    assert np.array_equal(mine.hand_counts, hand) and np.array_equal(mine.pile_kinds, pile)
    assert mine.stock_size == view.stock_size and mine.phase == "draw"


def test_a_positions_seats_draw_from_the_streams_a_game_of_its_seed_gives_them() -> None:
    """A player asked for its move in a written position draws its random choices from
    the seat's own stream, seeded one-way by ``seed`` as a game's (an all-zero stream
    would give xoshiro's fixed point: the same choice every time)."""
    position = Position(round=1, hand=["3H", "4H", "5H"], pile=["KD"])
    expected = np.zeros(STATE_WORDS, dtype=np.uint64)
    seed_seat_stream(expected, np.uint64(9), 0)
    assert np.array_equal(position_view(position, seed=9).rng, expected)
    assert not np.array_equal(position_view(position).rng, expected)
    assert position_view(position).rng.any()
    with pytest.raises(PositionError, match="seed must be a whole number from 0 to"):
        position_view(position, seed=-1)


@pytest.mark.parametrize(("rules", "points"), [
    (fcsim.RuleSet(), 20),  # the default wild penalty
    (fcsim.RuleSet(wild_penalty="face"), 3),  # face value: round 1's wilds are the 3s
])
def test_a_positions_unmelded_wilds_cost_what_the_rules_say(rules, points) -> None:
    """The view carries the round's wild points, as a game's does: advice scores every
    hand of its rollouts by them (without, a wild left in hand would cost nothing)."""
    position = Position(round=1, hand=["3S", "5H", "9C", "KD"], pile=["KD"], rules=rules)
    assert position_view(position).wild_points == points
    assert fcsim.Game(rules=rules, seed=1).view().wild_points == points


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
    ({"passed": {1: ["7H", "ZZ"]}}, "passed by seat 1: bad card 'ZZ'"),
    ({"discarded": {4: ["3S"]}}, "a discarded seat must be a whole number from 0 to 3"),
    ({"taken": {2: ["5S", "5S", "5S"]}}, "taken by seat 2: 5S appears 3 times"),
    ({"hand_sizes": [4, 3, 3, 3]}, "hand sizes: seat 0 holds the 3 cards of its hand, not 4"),
    ({"hand_sizes": [3, "3", 3, 3]}, "seat 1's hand size must be a whole number from 0 to "
     "116, not '3'"),
    # the turn cap stops the round: no decision is pending at it, but a last turn's
    ({"turn": 2000}, "turn must be a whole number from 0 to 1999, not 2000"),
    ({"turn": 2003, "last_turn": True}, "turn must be a whole number from 0 to 2002"),
])
def test_impossible_positions_say_why(changes: dict, message: str) -> None:
    base = {"round": 1, "hand": ["3H", "4H", "9C"], "pile": ["KD"], "players": 4}
    with pytest.raises(PositionError) as err:
        position_view(Position(**{**base, **changes}))
    assert message in str(err.value) and "\n" not in str(err.value)


HISTORY = Position(round=5, hand=["3H", "4H", "5H", "7S", "9D", "9C", "KD", "QS"],
                   pile=["8C", "10S", "JD"], known={1: ["JD", "QD"]}, turn=9,
                   passed={2: ["KH", "QC"], 3: ["6S"]}, discarded={1: ["9H"], 3: ["KS"]},
                   taken={1: ["JD", "QD"]})


def test_the_public_history_reaches_the_view() -> None:
    view = position_view(HISTORY)
    assert view.passed == [[], [], ["KH", "QC"], ["6S"]]
    assert view.discarded == [[], ["9H"], [], ["KS"]]
    assert view.taken == [[], ["JD", "QD"], [], []]
    data = {"round": 1, "hand": "3H 4H 9C", "pile": ["KD"], "passed": {"1": "7H 8H"}}
    assert position_view(Position.from_json(data)).passed[1] == ["7H", "8H"]
    commas = {**data, "hand": "3H,4H, 9C", "passed": {"1": "7H,8H"}}  # RULES.md's notation
    assert position_view(Position.from_json(commas)).passed[1] == ["7H", "8H"]
    assert position_view(Position(round=1, hand=["3H", "4H", "9C"], pile=["KD"], turn=2002,
                                  last_turn=True)).last_turn
    with pytest.raises(PositionError, match=r"^passed must map seat numbers to cards$"):
        Position.from_json({**data, "passed": ["7H"]})


@pytest.mark.parametrize(("changes", "message"), [
    ({"hand": ["3H", 5, "9C"]}, "hand must be cards, a string or a list of strings, not "
     "['3H', 5, '9C']"),
    ({"pile": {"top": "KD"}}, "pile must be cards, a string or a list of strings"),
    ({"scores": "1 2 3 4"}, "scores must be a list of numbers, one per seat, not '1 2 3 4'"),
    ({"hand_sizes": 3}, "hand_sizes must be a list of numbers, one per seat, not 3"),
])
def test_a_json_position_of_the_wrong_shapes_says_which_key(changes: dict,
                                                            message: str) -> None:
    data = {"round": 1, "hand": "3H 4H 9C", "pile": ["KD"], **changes}
    with pytest.raises(PositionError) as err:
        position_view(Position.from_json(data))
    assert message in str(err.value) and "\n" not in str(err.value)
