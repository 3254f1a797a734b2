"""The search oracles' parameters: the search's, in the same slots (their decisions read
them there), with the real world as the one world ``search_oracle`` needs, and
``search_hands_oracle``'s own ``reveal`` after them."""

from __future__ import annotations

from fcsim.strategies import parse_strategy
from fcsim.strategies.search.oracle import CHANGED, MEASURED
from fcsim.strategies.search.player import REVEAL_SLOT


def test_the_oracle_keeps_the_search_s_parameter_slots() -> None:
    search, oracle = parse_strategy("search").family, parse_strategy("search_oracle").family
    assert [p.name for p in oracle.params] == [p.name for p in search.params]
    assert set(CHANGED) <= {p.name for p in search.params}
    assert oracle.params[oracle.param("worlds")].default == 1
    assert parse_strategy("search_oracle").spec == "search_oracle"
    for name in ("skill", "evidence"):
        assert "no effect" in oracle.params[oracle.param(name)].help


def test_the_hands_oracle_keeps_the_search_s_parameter_slots_and_is_labelled() -> None:
    search = parse_strategy("search").family
    hands = parse_strategy("search_hands_oracle").family
    # the search's parameters in their slots, then the oracle's own: its reading's share
    assert [p.name for p in hands.params] == [p.name for p in search.params] + ["reveal"]
    assert [p.default for p in hands.params if p.name not in MEASURED] == [
        p.default for p in search.params if p.name not in MEASURED] + [1]
    assert hands.param("reveal") == REVEAL_SLOT
    assert "reveal" not in {p.name for p in search.params}  # a fair search reads no hands
    assert hands.oracle and hands.description.startswith("ANALYSIS ONLY")
    for name in ("skill", "evidence"):
        assert "no effect" in hands.params[hands.param(name)].help


def test_the_oracles_keep_the_anchor_and_gate_their_ceilings_were_measured_with() -> None:
    """docs/STRENGTH.md's ceilings were played with the search anchored on ``aware`` at 2
    standard errors; the search's own defaults moved on (``learned``, 3), the oracles' not."""
    def gate(name: str) -> tuple[str, float]:
        defaults = {p.name: p.default for p in parse_strategy(name).family.params}
        return defaults["anchor"], defaults["confidence"]

    assert gate("search") == ("learned", 3)
    assert gate("search_oracle") == gate("search_hands_oracle") == ("aware", 2)
