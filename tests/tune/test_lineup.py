"""The candidate's seats: alternating with one field strategy, or one seat among several."""

from __future__ import annotations

import pytest

from fcsim.tune.lineup import LineupError, make_lineup


def test_one_field_strategy_alternates() -> None:
    lineup = make_lineup(["greedy"])
    assert lineup.players == 4 and lineup.positions == (0, 2)
    assert lineup.seating("expected") == ["expected", "greedy", "expected", "greedy"]
    assert make_lineup(["greedy"], 3).seating("x") == ["x", "greedy", "x"]
    assert lineup.describe() == "candidate, greedy, candidate, greedy"


def test_a_mixed_field_takes_the_other_seats() -> None:
    lineup = make_lineup(["expected", "random", "aware"])
    assert lineup.players == 4 and lineup.positions == (0,)
    assert lineup.seating("greedy") == ["greedy", "expected", "random", "aware"]
    assert make_lineup(["expected", "random"], 3).players == 3


def test_a_field_that_does_not_fit_is_one_line() -> None:
    with pytest.raises(LineupError) as err:
        make_lineup(["expected", "random"], 4)
    assert str(err.value) == ("--against lists 2 strategies for 4 players: give one (the seats "
                              "alternate with it) or 3 (one per other seat)")


def test_each_deal_is_played_in_every_rotation_that_moves_the_candidate() -> None:
    """So the candidate plays each deal from every seat its positions can take: 2 rotations
    alternating at 4 seats (rotations 2 and 3 would replay 0 and 1), all 3 alternating at
    3 seats, and one per seat in a mixed field, where it holds a single position."""
    assert make_lineup(["greedy"]).rotations == 2
    assert make_lineup(["greedy"], 3).rotations == 3
    assert make_lineup(["expected", "random", "aware"]).rotations == 4
