"""``search_oracle`` — ANALYSIS ONLY, NOT A FAIR PLAYER: it sees every hidden card.

The ``search`` player's decision with every world the real state (perfect-information
rollouts): an upper reference for what its rollouts could find if it knew the cards.
"""

from __future__ import annotations

from fcsim.strategies.registry import Family, register
from fcsim.strategies.search.bind import bound_perfect_decisions
from fcsim.strategies.search.player import ORACLE_PARAMS

FAMILY = register(Family(
    "search_oracle",
    "ANALYSIS ONLY: search on the real state (sees the stock and all hands); perfect-"
    "information rollouts, an upper reference.",
    params=ORACLE_PARAMS,
    oracle=True,
    bind=bound_perfect_decisions,
))
