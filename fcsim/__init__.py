"""fcsim: Five Crowns at scale — exact meld solver, numba game engine, batch simulation,
honest statistics. See README.md; the rules are ../shared/RULES.md (docs/ENGINE.md for
how a game is played step by step)."""

from fcsim.core.cards import CardError, format_card, format_cards, parse_hand
from fcsim.core.rules import RulesError, RuleSet
from fcsim.core.solver import best_discard, min_penalty, solve

__version__ = "0.1.0"

__all__ = [
    "CardError",
    "RuleSet",
    "RulesError",
    "__version__",
    "best_discard",
    "format_card",
    "format_cards",
    "min_penalty",
    "parse_hand",
    "solve",
]
