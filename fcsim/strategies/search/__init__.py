"""``search``: plays each candidate out to the end of the round in worlds sampled from
its view, and keeps the best (:mod:`fcsim.strategies.search.player`).

``search_oracle`` (:mod:`fcsim.strategies.search.oracle`) is the same search on the
real state: analysis only.

Modules: ``worlds`` (states consistent with a view), ``rollout`` (what a rollout
measures), ``player`` (parameters, candidates, the choice), ``kernels`` (the compiled
decision: candidates played out in the same worlds), ``bind`` (the kernels bound to a
rollout policy and an anchor).
"""

from __future__ import annotations

from fcsim.strategies.registry import Family, register
from fcsim.strategies.search.bind import bound_decisions
from fcsim.strategies.search.player import PARAMS

FAMILY = register(Family(
    "search",
    "Plays the best few moves out to the end of the round in worlds sampled from its view "
    "(the same worlds for each); keeps the anchor's move unless one beats it.",
    params=PARAMS,
    bind=bound_decisions,
    history=True,  # its worlds carry the public history to a rollout policy that reads it
))
