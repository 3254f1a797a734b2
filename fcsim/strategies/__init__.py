"""The strategy registry: ``name`` or ``name:key=value`` → a :class:`Strategy`.

A new strategy is one module defining ``draw`` and ``discard`` with the signature of
:mod:`fcsim.strategies.base`, registered with :func:`register`, plus its import below.
"""

# Registration order is listing order: floor first, then stronger, the oracle last.
from fcsim.strategies import random  # noqa: I001, F401  (registration)
from fcsim.strategies import greedy  # noqa: F401
from fcsim.strategies import expected  # noqa: F401
from fcsim.strategies import aware  # noqa: F401
from fcsim.strategies import learned  # noqa: F401
from fcsim.strategies import search  # noqa: F401
from fcsim.strategies import oracle  # noqa: F401
from fcsim.strategies.search import oracle as search_oracle  # noqa: F401
from fcsim.strategies.registry import (
    Family,
    Param,
    Strategy,
    StrategyError,
    display_name,
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
    "display_name",
    "families",
    "parse_strategies",
    "parse_strategy",
    "register",
]
