"""fcsim: Five Crowns at scale — exact meld solver, numba game engine, batch simulation,
honest statistics. See README.md; the rules are docs/RULES.md (docs/ENGINE.md for how a
game is played step by step).

Every name below is imported on first use, so that ``import fcsim`` (and every
``fcsim`` command) loads only what it uses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fcsim._after_import import after_import
from fcsim._version import __version__


def _configure_numba_cache() -> None:
    from fcsim import _numba_cache  # noqa: F401  (configures the cache on import)


after_import("numba", _configure_numba_cache)  # before any kernel is compiled or loaded

if TYPE_CHECKING:
    from fcsim.advice import advise
    from fcsim.agents import agent
    from fcsim.analysis.load import load_results
    from fcsim.core.arrangement import solve
    from fcsim.core.cards import CardError, format_card, format_cards, parse_hand
    from fcsim.core.rules import RulesError, RuleSet
    from fcsim.core.solver import best_discard, min_penalty
    from fcsim.core.view import IllegalMoveError, StrategyFailed, View
    from fcsim.errors import FcsimError
    from fcsim.game import Game
    from fcsim.runner.run import simulate


_LAZY = {"advise": "fcsim.advice", "simulate": "fcsim.runner.run",
         "load_results": "fcsim.analysis.load", "Game": "fcsim.game", "agent": "fcsim.agents",
         "IllegalMoveError": "fcsim.core.view", "StrategyFailed": "fcsim.core.view",
         "View": "fcsim.core.view",
         "solve": "fcsim.core.arrangement", "CardError": "fcsim.core.cards",
         "format_card": "fcsim.core.cards", "format_cards": "fcsim.core.cards",
         "parse_hand": "fcsim.core.cards", "RulesError": "fcsim.core.rules",
         "RuleSet": "fcsim.core.rules", "best_discard": "fcsim.core.solver",
         "min_penalty": "fcsim.core.solver", "FcsimError": "fcsim.errors"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'fcsim' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The public names too (they load on first use), for ``dir()`` and completion."""
    return sorted({*globals(), *__all__})


__all__ = [
    "CardError",
    "FcsimError",
    "Game",
    "IllegalMoveError",
    "RuleSet",
    "RulesError",
    "StrategyFailed",
    "View",
    "__version__",
    "advise",
    "agent",
    "best_discard",
    "format_card",
    "format_cards",
    "load_results",
    "min_penalty",
    "parse_hand",
    "simulate",
    "solve",
]
