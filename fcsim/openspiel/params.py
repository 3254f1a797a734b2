"""The ``openspiel:`` strategies' prefix and parameters, declared once and apart from the
bots (:mod:`fcsim.openspiel.agents` registers them as families, :mod:`fcsim.openspiel.bots`
holds :func:`~fcsim.openspiel.bots.ismcts_bot` to the same ranges), so neither of those
modules imports the other's."""

from __future__ import annotations

from fcsim.strategies.registry import Param

PREFIX = "openspiel"

ISMCTS_PARAMS = (
    Param("simulations", 100, "ISMCTS simulations per decision", low=1, high=1_000_000),
    Param("uct_c", 10.0, "UCT exploration constant, in points (returns are minus the "
          "totals)", integer=False, low=0, high=1e6),
    Param("max_world_samples", -1, "worlds sampled at the root and reused (-1: a new one "
          "every simulation)", low=-1, high=1_000_000),
    Param("final_policy", 2, "the move played: 1 by normalized visit counts, 2 the most "
          "visited, 3 the best valued", low=1, high=3),
    Param("take_margin", 8, "the greedy rollout policy's take margin", low=0, high=100),
)
