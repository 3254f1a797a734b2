"""Slow, obviously correct twins of the built-in strategies (tests only).

Each module re-implements one family's documented policy (its module docstring in
``fcsim/strategies/``, the README's table) in plain Python over a :class:`.view.View`:
``draw(view, params, rng)`` returns 0 (stock) or 1 (discard pile) and
``discard(view, params, rng)`` the kind to discard. ``params`` maps each parameter's name
to its value; ``rng`` is the seat's own stream (:class:`tests.reference.rng.Xoshiro256`).
The tests hold each jitted family to its twin decision for decision, and the reference
engine plays games with them.
"""

from __future__ import annotations

from types import ModuleType

from fcsim.strategies import parse_strategy

from . import (
    aware,
    expected,
    greedy,
    learned,
    oracle,
    random,
    search,
    search_hands_oracle,
    search_oracle,
)

TWINS: dict[str, ModuleType] = {
    "random": random,
    "greedy": greedy,
    "expected": expected,
    "aware": aware,
    "learned": learned,
    "oracle": oracle,
    "search": search,
    "search_oracle": search_oracle,
    "search_hands_oracle": search_hands_oracle,
}


def twin_of(spec: str) -> tuple[ModuleType, dict[str, float]]:
    """The twin module of a spec (``name`` or ``name:key=value,…``) and its parameters by
    name, defaults filled in (parsed as :func:`fcsim.strategies.parse_strategy` does)."""
    strategy = parse_strategy(spec)
    names = [p.name for p in strategy.family.params]
    return TWINS[strategy.name], dict(zip(names, strategy.values, strict=True))
