"""Grids and ranges: values checked against each parameter's declared bounds and type."""

from __future__ import annotations

import pytest

from fcsim.strategies import parse_strategy
from fcsim.tune.space import SpaceError, grid_points, inside, parse_grid, parse_ranges, with_values
from tests.sources import modules_saying

GREEDY = parse_strategy("greedy").family
AWARE = parse_strategy("aware").family
RANDOM = parse_strategy("random").family
SEARCH = parse_strategy("search").family


def test_grid_lists_and_steps() -> None:
    (axis,) = parse_grid(GREEDY, ["take_margin=0,2,5"])
    assert axis.param.name == "take_margin" and axis.values == (0, 2, 5)
    assert parse_grid(GREEDY, ["take_margin=1:4"])[0].values == (1, 2, 3, 4)
    assert parse_grid(GREEDY, ["take_margin=0:10:5"])[0].values == (0, 5, 10)
    assert parse_grid(AWARE, ["urgency=0:1:0.1"])[0].values[3] == 0.3  # not 0.30000000000000004


def test_a_stepped_grid_ends_on_its_high_end_when_the_step_divides_it() -> None:
    """(0.7 - 0.1) / 0.2 is 2.9999999999999996 in floats: the grid still counts four
    values, so the high end the user wrote is swept, not dropped."""
    assert parse_grid(AWARE, ["urgency=0.1:0.7:0.2"])[0].values == (0.1, 0.3, 0.5, 0.7)


def test_grid_points_are_every_combination_first_axis_slowest() -> None:
    axes = parse_grid(AWARE, ["candidates=2,4", "urgency=0,0.5,1"])
    points = grid_points(axes)
    assert len(points) == 6
    assert points[:2] == [{"candidates": 2, "urgency": 0}, {"candidates": 2, "urgency": 0.5}]


def test_values_make_canonical_specs() -> None:
    base = parse_strategy("aware:urgency=0.25")
    assert with_values(base, {"candidates": 5}).spec == "aware:candidates=5,urgency=0.25"
    assert with_values(base, {"urgency": 0.5}).spec == "aware"  # back to every default


def test_values_keep_the_strategy_parameters() -> None:
    """A search's rollout and anchor are specs, not numbers: setting its numbers keeps them."""
    base = parse_strategy("search:rollout=expected:candidates=2")
    point = with_values(base, {"worlds": 128})
    assert point.spec == "search:worlds=128,rollout=expected:candidates=2"
    assert with_values(parse_strategy("search"), {"worlds": 64}).spec == "search"


def test_ranges_and_inside() -> None:
    (r,) = parse_ranges(GREEDY, ["take_margin=0:10"])
    assert (r.low, r.high, r.text()) == (0, 10, "take_margin=0:10")
    assert inside(parse_strategy("greedy"), [r])
    assert not inside(parse_strategy("greedy:take_margin=11"), [r])


def test_a_range_holds_both_its_ends() -> None:
    """A range is inclusive: a starting spec on either end is inside it, so a tune plays it
    as trial 0 (docs/TUNE.md)."""
    (r,) = parse_ranges(GREEDY, ["take_margin=3:8"])
    assert inside(parse_strategy("greedy:take_margin=3"), [r])
    assert inside(parse_strategy("greedy:take_margin=8"), [r])
    assert not inside(parse_strategy("greedy:take_margin=2"), [r])


@pytest.mark.parametrize("texts, message", [
    (["speed=1,2"], "greedy has no parameter 'speed'; its parameters: take_margin"),
    (["take_margin=150"], "greedy: take_margin must be 0 to 100, not '150'"),
    (["take_margin=-1:3"], "greedy: take_margin must be 0 to 100, not '-1'"),
    (["take_margin=1.5"], "greedy: take_margin must be a whole number, not '1.5'"),
    (["take_margin="], "--grid 'take_margin=' gives no values; write take_margin=v1,v2,…"),
    (["take_margin=5:2"], "--grid take_margin=5:2 is empty: low is above high"),
    (["take_margin=0:4:0.5"], "the step must be one"),
    (["take_margin=0:4:-1"], "the step must be a positive number"),
    (["take_margin=0:4:nan"], "the step must be a positive number"),  # was a traceback
    (["take_margin=0:4:inf"], "the step must be a positive number"),  # was 'not nan'
    (["take_margin=1,1"], "--grid take_margin lists 1 twice"),
    (["take_margin=1", "take_margin=2"], "--grid take_margin is given twice"),
    (["take_margin"], "--grid 'take_margin': write name=v1,v2,… or name=low:high:step"),
    ([], "give at least one --grid"),
])
def test_bad_grids_say_what_is_allowed(texts, message) -> None:
    with pytest.raises(SpaceError) as err:
        parse_grid(GREEDY, texts)
    assert message in str(err.value) and "\n" not in str(err.value)


def test_an_axis_of_too_many_values_is_refused() -> None:
    with pytest.raises(SpaceError, match=r"^--grid feed_weight=0:1:1e-09 makes [\d,]{13} "
                                         r"values: at most 10,000 an axis"):
        parse_grid(AWARE, ["feed_weight=0:1:1e-09"])  # it built them all, a MemoryError


def test_a_strategy_parameter_is_not_swept() -> None:
    with pytest.raises(SpaceError) as err:
        parse_grid(SEARCH, ["rollout=greedy,random"])
    assert str(err.value) == ("search's rollout is a strategy, not a number: set it in the "
                              "spec (search:rollout=…) and sweep its numbers (worlds, "
                              "candidates, objective, confidence, futility, skill, "
                              "evidence)")


@pytest.mark.parametrize("family, texts, message", [
    (GREEDY, ["speed=0:1"], "greedy has no parameter 'speed'; its parameters: take_margin"),
    (GREEDY, ["take_margin=3:3"], "--param 'take_margin=3:3' is an empty range: low must be "
                                  "below high"),
    (GREEDY, ["take_margin=5:1"], "is an empty range"),
    (GREEDY, ["take_margin=0:101"], "greedy: take_margin must be 0 to 100, not '101'"),
    (AWARE, ["urgency=0:2"], "aware: urgency must be 0 to 1, not '2'"),
    (GREEDY, ["take_margin=0:2.5"], "greedy: take_margin must be a whole number, not '2.5'"),
    (GREEDY, ["take_margin=4"], "--param 'take_margin=4': write take_margin=low:high"),
    (GREEDY, ["take_margin=0:1", "take_margin=2:3"], "--param take_margin is given twice"),
    (RANDOM, ["x=0:1"], "random has no parameters to tune"),
    (SEARCH, ["anchor=0:1"], "search's anchor is a strategy, not a number: set it in the spec "
                             "(search:anchor=…) and tune its numbers (worlds, candidates, "
                             "objective, confidence, futility, skill, evidence)"),
    (GREEDY, [], "give at least one --param"),
])
def test_bad_ranges_say_what_is_allowed(family, texts, message) -> None:
    with pytest.raises(SpaceError) as err:
        parse_ranges(family, texts)
    assert message in str(err.value) and "\n" not in str(err.value)


def test_a_grid_of_a_number_parameter_needs_its_step() -> None:
    with pytest.raises(SpaceError, match=r"--grid urgency=0:1: write low:high:step \(urgency "
                                         r"takes any number: the step says which\)"):
        parse_grid(parse_strategy("aware").family, ["urgency=0:1"])


def test_a_value_is_written_as_a_spec_writes_it() -> None:
    """A range or a grid names its values with the registry's own writer: ``3``, not
    ``3.0`` (one rule for a spec and a search)."""
    assert modules_saying("is_integer() else repr(float(value))") == [
        "fcsim/strategies/family.py"]
