"""The ``openspiel:`` strategies' prefix, parameters and defaults, declared once and apart
from the bots (:mod:`fcsim.openspiel.agents` registers them as families,
:mod:`fcsim.openspiel.bots` holds :func:`~fcsim.openspiel.bots.ismcts_bot` to the same
ranges and defaults), so neither of those modules imports the other's."""

from __future__ import annotations

from dataclasses import replace

from fcsim.strategies.greedy import TAKE_MARGIN as GREEDY_TAKE_MARGIN
from fcsim.strategies.registry import Param

PREFIX = "openspiel"

# The defaults of ISMCTS, read by the spec's parameters and by the bots' signatures.
SIMULATIONS = 100
UCT_C = 10.0
MAX_WORLD_SAMPLES = -1  # a new world every simulation
FINAL_POLICY = 2  # the most visited move
ROLLOUT_TAKE_MARGIN = GREEDY_TAKE_MARGIN.default  # greedy's own: the rollout policy is greedy

ISMCTS_PARAMS = (
    Param("simulations", SIMULATIONS, "ISMCTS simulations per decision", low=1,
          high=1_000_000),
    Param("uct_c", UCT_C, "UCT exploration constant, in points (returns are minus the "
          "totals)", integer=False, low=0, high=1e6),
    Param("max_world_samples", MAX_WORLD_SAMPLES, "worlds sampled at the root and reused "
          "(-1: a new one every simulation)", low=-1, high=1_000_000),
    Param("final_policy", FINAL_POLICY, "the move played: 1 by normalized visit counts, 2 "
          "the most visited, 3 the best valued", low=1, high=3),
    replace(GREEDY_TAKE_MARGIN, help="the greedy rollout policy's take margin"),
)
