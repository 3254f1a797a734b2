"""Reinforcement-learning environments (the ``[rl]`` extra: ``pip install 'fcsim[rl]'``).

* :func:`env` / :func:`raw_env` — PettingZoo AEC, one agent per seat (:mod:`fcsim.env.aec`);
* :class:`FiveCrownsEnv` — Gymnasium, one learner against built-in strategies
  (:mod:`fcsim.env.single`), registered as ``fcsim/FiveCrowns-v0`` on import of this
  package (Gymnasium 1.x has no plug-in discovery: import ``fcsim.env`` first, or name
  the module in the id, ``gymnasium.make("fcsim.env:fcsim/FiveCrowns-v0")``).

Observations, actions and the action mask: :mod:`fcsim.env.encoding`; seeding:
:mod:`fcsim.env.table`. Everything is played through :class:`fcsim.Game`.
"""

from __future__ import annotations

try:
    import gymnasium
    import pettingzoo  # noqa: F401
except ImportError as err:
    raise ImportError(f"fcsim.env needs pettingzoo and gymnasium ({err}): install them "
                      f"with pip install 'fcsim[rl]'") from None

from fcsim.env.aec import env, raw_env
from fcsim.env.single import FiveCrownsEnv

ENV_ID = "fcsim/FiveCrowns-v0"

if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="fcsim.env.single:FiveCrownsEnv")

__all__ = ["ENV_ID", "FiveCrownsEnv", "env", "raw_env"]
