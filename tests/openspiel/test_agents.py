"""The openspiel: specs: parsed like any strategy's, bad ones in one line, and without
OpenSpiel a line naming the extra to install."""

from __future__ import annotations

import sys

import pytest

from fcsim.strategies import StrategyError, parse_strategy


def test_specs_round_trip_with_their_parameters() -> None:
    pytest.importorskip("pyspiel")
    strategy = parse_strategy("openspiel:ismcts:simulations=50,uct_c=4.5")
    assert strategy.spec == "openspiel:ismcts:simulations=50,uct_c=4.5"
    assert parse_strategy(strategy.spec) == strategy
    assert strategy.kwargs["simulations"] == 50 and strategy.kwargs["uct_c"] == 4.5
    assert not strategy.family.is_numba and not strategy.oracle
    assert parse_strategy("OpenSpiel:Random").spec == "openspiel:random"


@pytest.mark.parametrize(("spec", "fragment"), [
    ("openspiel:alphazero", "unknown strategy openspiel:'alphazero'; OpenSpiel's: "
                            "openspiel:ismcts, openspiel:random"),
    ("openspiel:ismcts:simulations=0", "simulations must be 1 to 1000000"),
    ("openspiel:ismcts:worlds=3", "bad parameter 'worlds=3' for strategy 'openspiel:ismcts'"),
    ("openspiel:ismcts:uct_c=lots", "uct_c must be a number, not 'lots'"),
])
def test_bad_specs_are_one_line(spec, fragment) -> None:
    pytest.importorskip("pyspiel")
    with pytest.raises(StrategyError) as caught:
        parse_strategy(spec)
    assert fragment in str(caught.value)
    assert "\n" not in str(caught.value)


def test_without_openspiel_a_spec_names_the_extra(monkeypatch) -> None:
    for name in [m for m in sys.modules if m == "pyspiel" or m.startswith("fcsim.openspiel")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # import pyspiel fails
    with pytest.raises(StrategyError) as caught:
        parse_strategy("openspiel:ismcts:simulations=10")
    message = str(caught.value)
    assert message.startswith("strategy openspiel:ismcts: fcsim.openspiel needs OpenSpiel")
    assert "pip install 'fcsim[openspiel]'" in message and "\n" not in message
