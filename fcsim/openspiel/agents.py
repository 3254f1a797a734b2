"""The ``openspiel:…`` strategies: OpenSpiel's bots as fcsim agents, by spec.

``openspiel:ismcts`` (``simulations``, ``uct_c``, ``max_world_samples``, ``final_policy``,
``take_margin``) and ``openspiel:random`` play wherever a Python agent plays: ``compare``,
``tournament``, :class:`fcsim.Game`, the report. The spec parser resolves the
``openspiel:`` prefix here (:func:`family`, found by the module's name in
``fcsim.strategies.spec.SPEC_PREFIXES``); without the ``[openspiel]`` extra, importing
this package fails with one line naming the extra, which the parser passes on.
"""

from __future__ import annotations

from fcsim.openspiel.params import ISMCTS_PARAMS, PREFIX
from fcsim.strategies.registry import Family, StrategyError


def _ismcts(**params: float) -> object:
    from fcsim.openspiel.bots import ismcts_agent

    return ismcts_agent(**params)


def _random() -> object:
    from fcsim.openspiel.bots import random_agent

    return random_agent()


FAMILIES = {
    "ismcts": Family(f"{PREFIX}:ismcts", "OpenSpiel's information-set MCTS (ISMCTSBot): "
                     "worlds resampled from the seat's view, leaves valued by a compiled "
                     "greedy rollout of the round", agent=_ismcts, params=ISMCTS_PARAMS,
                     source="open_spiel", leaderboard=False),
    "random": Family(f"{PREFIX}:random", "OpenSpiel's uniform random bot", agent=_random,
                     source="open_spiel", leaderboard=False),
}


def family(name: str) -> Family:
    """The family ``openspiel:<name>`` (a one-line :class:`StrategyError` for an unknown
    one). The spec parser reaches it by importing this module, which needs OpenSpiel: its
    ImportError names the extra to install."""
    found = FAMILIES.get(name.strip().lower())
    if found is None:
        raise StrategyError(f"unknown strategy {PREFIX}:{name.strip()!r}; OpenSpiel's: "
                            + ", ".join(f"{PREFIX}:{n}" for n in FAMILIES))
    return found


__all__ = ["FAMILIES", "ISMCTS_PARAMS", "PREFIX", "family"]
