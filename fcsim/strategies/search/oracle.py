"""``search_oracle`` and ``search_hands_oracle`` — ANALYSIS ONLY, NOT FAIR PLAYERS: they
see every hidden card.

``search_oracle``: the ``search`` player's decision with every world the real state
(perfect-information rollouts): an upper reference for what its rollouts could find if
it knew the cards. ``search_hands_oracle``: the same with every hand as it really is but
the stock resampled in each world — what a perfect reading of the opponents' hands (from
their draws, discards and passes) could give a fair search, since no fair player can
know the stock's order. Its ``reveal`` (below 1) makes that reading partial: in each world
each opponent card not shown is the real one with that chance, so the figures between 0
(the fair search's worlds) and 1 say how good a reading of the hands must be to be worth
a given gain.
"""

from __future__ import annotations

from dataclasses import replace

from fcsim.strategies.registry import Family, Param, register
from fcsim.strategies.search.bind import bound_perfect_decisions, bound_real_hands_decisions
from fcsim.strategies.search.player import PARAMS as SEARCH_PARAMS
from fcsim.strategies.search.player import REVEAL


def oracle_family(name: str, description: str, changed: dict, bind,
                  own: tuple[Param, ...] = ()) -> Family:
    """A search oracle: the search's parameters in the same slots (its decision reads
    them there), ``changed`` by name, then its ``own``, bound to the decision ``bind``
    makes."""
    params = tuple(replace(p, **changed.get(p.name, {})) for p in SEARCH_PARAMS) + own
    return register(Family(name, description, params=params, oracle=True, bind=bind,
                           history=True))


# The ceilings of docs/STRENGTH.md were measured with the search's first anchor and gate;
# the oracles keep them, so that their figures stay reproducible.
MEASURED = {"anchor": {"default": "aware"}, "confidence": {"default": 2}}
# Its worlds are all the real one, so they differ only in the order of a stock the draw
# rebuilt from the pile, and no opponent's hand is guessed.
CHANGED = MEASURED | {
    "worlds": {"default": 1, "help": "worlds per decision: the real one each time (they "
               "differ only in the order of a stock rebuilt from the pile)"},
    "skill": {"help": "no effect: the oracle's worlds hold the real hands"},
    "evidence": {"help": "no effect: the oracle's worlds hold the real hands"},
}
FAMILY = oracle_family(
    "search_oracle",
    "ANALYSIS ONLY: search on the real state (sees the stock and all hands); perfect-"
    "information rollouts, an upper reference.",
    CHANGED, bound_perfect_decisions)

# The real hands: the worlds differ in the stock's order only.
HANDS_FAMILY = oracle_family(
    "search_hands_oracle",
    "ANALYSIS ONLY: search on the real hands with the stock resampled (sees every hand); "
    "what perfect inference of the hands could give.",
    MEASURED | {"skill": {"help": "no effect: the worlds hold the real hands"},
                "evidence": {"help": "no effect: the worlds hold the real hands"}},
    bound_real_hands_decisions, own=(REVEAL,))
