"""``search_oracle`` — ANALYSIS ONLY, NOT A FAIR PLAYER: it sees every hidden card.

The ``search`` player's decision with every world the real state (perfect-information
rollouts): an upper reference for what its rollouts could find if it knew the cards.
"""

from __future__ import annotations

from dataclasses import replace

from fcsim.strategies.registry import Family, register
from fcsim.strategies.search.bind import bound_perfect_decisions
from fcsim.strategies.search.player import PARAMS as SEARCH_PARAMS

# The search's parameters, in the same slots; its worlds are all the real one, so they
# differ only in the order of a stock the draw rebuilt from the pile, and no opponent's
# hand is guessed.
CHANGED = {
    "worlds": {"default": 1, "help": "worlds per decision: the real one each time (they "
               "differ only in the order of a stock rebuilt from the pile)"},
    "skill": {"help": "no effect: the oracle's worlds hold the real hands"},
}
PARAMS = tuple(replace(p, **CHANGED.get(p.name, {})) for p in SEARCH_PARAMS)

FAMILY = register(Family(
    "search_oracle",
    "ANALYSIS ONLY: search on the real state (sees the stock and all hands); perfect-"
    "information rollouts, an upper reference.",
    params=PARAMS,
    oracle=True,
    bind=bound_perfect_decisions,
))
