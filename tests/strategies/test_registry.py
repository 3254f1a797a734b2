"""Strategy specs: parsing, canonical form, and the errors that list what exists."""

from __future__ import annotations

import pytest

from fcsim.strategies import (
    StrategyError,
    display_name,
    families,
    parse_strategies,
    parse_strategy,
)


def test_builtin_strategies_are_registered_in_listing_order() -> None:
    builtin = [f for f in families() if f.source == "fcsim"]  # not agents other tests made
    assert [f.name for f in builtin] == ["random", "greedy", "expected", "aware", "learned",
                                            "search", "oracle", "search_oracle",
                                            "search_hands_oracle"]
    assert [f.name for f in builtin if f.oracle] == ["oracle", "search_oracle",
                                                        "search_hands_oracle"]


def test_spec_round_trip_and_defaults() -> None:
    s = parse_strategy("Greedy: take_margin = 3")
    assert s.spec == "greedy:take_margin=3"
    assert parse_strategy(s.spec) == s
    assert parse_strategy("greedy:take_margin=8").spec == "greedy"  # the default is left out
    assert parse_strategy("aware:urgency=0.25").values[-1] == 0.25


def test_list_with_parameters() -> None:
    specs = [s.spec for s in parse_strategies("greedy:take_margin=3,random, expected")]
    assert specs == ["greedy:take_margin=3", "random", "expected"]
    specs = [s.spec for s in parse_strategies("aware:feed_weight=1,urgency=1,greedy")]
    assert specs == ["aware:feed_weight=1,urgency=1", "greedy"]


@pytest.mark.parametrize(("text", "fragment"), [
    ("greedy,,random", "an empty item in the strategy list 'greedy,,random'"),
    ("greedy,random,", "an empty item"),
    (" , ", "no strategy given"),
])
def test_a_list_with_a_gap_is_refused(text: str, fragment: str) -> None:
    with pytest.raises(StrategyError, match=fragment):
        parse_strategies(text)


@pytest.mark.parametrize(
    ("spec", "fragment"),
    [
        ("gredy", "known strategies: random, greedy, expected, aware, learned, search, oracle"),
        ("greedy:margin=3", "its parameters: take_margin"),
        ("greedy:take_margin=x", "must be a number"),
        ("greedy:take_margin=1.5", "whole number"),
        ("greedy:take_margin=-1", "must be 0 to 100"),
        ("expected:take_margin=-1", "must be 0 to 100"),
        ("learned:take_margin=-101", "must be -100 to 100"),  # signed: a network's advantage
        ("random:x=1", "its parameters: none"),
        ("greedy:take_margin", r"^greedy: take_margin needs a value \(take_margin=N\)$"),
        ("search:rollout", r"^search: rollout needs a value \(rollout=SPEC\)$"),
        ("aware:urgency=0.3,urgency=0.4", "aware: urgency is given twice"),
        ("search:rollout=aware:feed_weight=2;feed_weight=3", "aware: feed_weight is given twice"),
    ],
)
def test_bad_specs_explain_themselves(spec: str, fragment: str) -> None:
    with pytest.raises(StrategyError, match=fragment):
        parse_strategy(spec)


def test_a_reference_is_named_analysis_only_and_a_player_as_it_is() -> None:
    for family in families():
        shown = display_name(f"{family.name}:x=1")
        assert shown == f"{family.name}:x=1" + (" (analysis only)" if family.oracle else "")
    assert display_name("search_hands_oracle:reveal=0.5") == (
        "search_hands_oracle:reveal=0.5 (analysis only)")
    assert {f.name for f in families() if f.oracle} >= {"oracle", "search_oracle",
                                                       "search_hands_oracle"}
    # a spec naming no registered family is shown as written, and nothing is imported
    for spec in ("nope", "my_bot.py:agent", "some.module:agent", "openspiel:ismcts"):
        assert display_name(spec) == spec
