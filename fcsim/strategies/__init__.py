"""The strategy registry: ``name`` or ``name:key=value`` → a :class:`Strategy`.

A new strategy is one module defining ``draw`` and ``discard`` with the signature of
:mod:`fcsim.strategies.base`, registered with :func:`register`, plus its import below.
"""

from fcsim.strategies import greedy, random  # noqa: F401  (registration)
from fcsim.strategies.registry import (
    Family,
    Param,
    Strategy,
    StrategyError,
    families,
    parse_strategies,
    parse_strategy,
    register,
)

__all__ = [
    "Family",
    "Param",
    "Strategy",
    "StrategyError",
    "families",
    "parse_strategies",
    "parse_strategy",
    "register",
]
