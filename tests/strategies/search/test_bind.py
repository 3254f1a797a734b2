"""Binding the search to its rollout policy and anchor; strategy-valued parameters."""

from __future__ import annotations

from pathlib import Path

import pytest

from fcsim._numba_cache import cache_root
from fcsim.strategies import StrategyError, parse_strategies, parse_strategy
from fcsim.strategies.search import kernels
from fcsim.strategies.search.bind import _policy, bound_module, bound_source
from tests.sources import modules_saying


def test_greedy_and_aware_are_the_kernels_module_itself() -> None:
    assert bound_source("greedy", "aware") == Path(kernels.__file__).read_text()
    assert bound_module("greedy", "aware") is kernels


def test_other_policies_get_a_copy_bound_to_them() -> None:
    module = bound_module("expected:candidates=2", "greedy:take_margin=1")
    assert module is not kernels
    assert Path(module.__file__).parent == cache_root() / "search"
    assert (module.ROLLOUT_SPEC, module.ANCHOR_SPEC) == ("expected:candidates=2",
                                                         "greedy:take_margin=1")
    assert list(module.ROLLOUT_PARAMS) == [0.0, 2.0] and list(module.ANCHOR_PARAMS) == [1.0]
    assert module.rollout_draw is parse_strategy("expected").family.draw


def test_a_greedy_rollout_with_another_anchor_gets_a_copy() -> None:
    """Only the very pair the module is written for is the module itself: with the greedy
    rollout, another anchor (or aware with other parameters) is bound in a copy, else the
    search would silently consult aware's moves."""
    for anchor in ("expected", "aware:feed_weight=1"):
        module = bound_module("greedy", anchor)
        assert module is not kernels
        assert anchor == module.ANCHOR_SPEC


def test_strategy_parameters_round_trip() -> None:
    s = parse_strategy("search:rollout=aware:feed_weight=2;urgency=1,worlds=8")
    assert s.spec == "search:worlds=8,rollout=aware:feed_weight=2;urgency=1"
    assert parse_strategy(s.spec) == s
    assert list(s.param_vector) == [8, 4, 1, 3, 1, 0, 0]  # only the numbers
    listed = parse_strategies("search:worlds=8,rollout=expected:candidates=2,aware")
    assert [x.spec for x in listed] == ["search:worlds=8,rollout=expected:candidates=2",
                                        "aware"]


@pytest.mark.parametrize(("spec", "fragment"), [
    ("search:rollout=oracle", "sees no hidden cards"),
    ("search:anchor=nobody", "unknown strategy 'nobody'"),
    ("search:rollout=greedy:margin=1", "its parameters: take_margin"),
    ("search:anchor=search", "anchor must be a numba strategy that sees no hidden cards and "
                             "binds no other, not 'search'"),
])
def test_bad_policies_explain_themselves(spec: str, fragment: str) -> None:
    with pytest.raises(StrategyError, match=fragment):
        parse_strategy(spec)


def test_a_strategy_given_as_a_parameter_is_checked_by_one_rule() -> None:
    """The spec parser and the binding of a search's policies refuse the same nested
    strategies through :func:`nested_strategy`, with one message."""
    with pytest.raises(StrategyError, match="the search's rollout must be a numba strategy"):
        _policy("oracle", "rollout")
    assert modules_saying("binds no other") == ["fcsim/strategies/spec.py"]
