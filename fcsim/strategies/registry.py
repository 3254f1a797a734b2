"""Strategy families by name, and parsing of specs like ``greedy:take_margin=3``: the
public names of the registry's parts in one place.

A family is either **numba** (two decision functions the engine calls in compiled code)
or **Python** (an agent factory: parameters -> a callable from a view to an action).
Either way a :class:`Strategy` — a family with its parameters set — plays everywhere.
The parts import one another in one direction only: :mod:`.family` (what a strategy
is), :mod:`.known` (the registered families), :mod:`.external`, :mod:`.files` and
:mod:`.plugins` (strategies from outside fcsim), :mod:`.spec` (the spec parser).
"""

from fcsim.strategies.family import Family, Param, Strategy, StrategyError
from fcsim.strategies.known import agent_family, families, lookup, register
from fcsim.strategies.spec import (
    NESTED_SEPARATOR,
    display_name,
    imported_family,
    nested_strategy,
    parse_strategies,
    parse_strategy,
    with_params,
)

__all__ = [
    "NESTED_SEPARATOR",
    "Family",
    "Param",
    "Strategy",
    "StrategyError",
    "agent_family",
    "display_name",
    "families",
    "imported_family",
    "lookup",
    "nested_strategy",
    "parse_strategies",
    "parse_strategy",
    "register",
    "with_params",
]
