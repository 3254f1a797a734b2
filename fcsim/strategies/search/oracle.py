"""``search_oracle`` and ``search_hands_oracle`` — ANALYSIS ONLY, NOT FAIR PLAYERS: they
see every hidden card.

``search_oracle``: the ``search`` player's decision with every world the real state
(perfect-information rollouts): an upper reference for what its rollouts could find if
it knew the cards. ``search_hands_oracle``: the same with every hand as it really is but
the stock resampled in each world — what a perfect reading of the opponents' hands (from
their draws, discards and passes) could give a fair search, since no fair player can
know the stock's order.
"""

from __future__ import annotations

from dataclasses import replace

from fcsim.strategies.registry import Family, register
from fcsim.strategies.search.bind import bound_perfect_decisions, bound_real_hands_decisions
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
    history=True,
))

# The real hands: the worlds differ in the stock's order only.
HANDS_CHANGED = {
    "skill": {"help": "no effect: the worlds hold the real hands"},
}
HANDS_PARAMS = tuple(replace(p, **HANDS_CHANGED.get(p.name, {})) for p in SEARCH_PARAMS)

HANDS_FAMILY = register(Family(
    "search_hands_oracle",
    "ANALYSIS ONLY: search on the real hands with the stock resampled (sees every hand); "
    "what perfect inference of the hands could give.",
    params=HANDS_PARAMS,
    oracle=True,
    bind=bound_real_hands_decisions,
    history=True,
))
