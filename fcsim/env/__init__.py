"""Reinforcement-learning environments (the ``[rl]`` extra: ``pip install 'fcsim[rl]'``).

* :func:`env` / :func:`raw_env` — PettingZoo AEC, one agent per seat (:mod:`fcsim.env.aec`);
* :class:`FiveCrownsEnv` — Gymnasium, one learner against built-in strategies
  (:mod:`fcsim.env.single`), registered as ``fcsim/FiveCrowns-v1`` on import of this
  package (Gymnasium 1.x has no plug-in discovery: import ``fcsim.env`` first, or name
  the module in the id, ``gymnasium.make("fcsim.env:fcsim/FiveCrowns-v1")``).

Versions of the observation: 1 (the default, ``fcsim/FiveCrowns-v1``, PettingZoo's
``fivecrowns_v1``) holds the round's public history — each seat's discards, pile cards
taken and pile tops passed up; 0 (``fcsim/FiveCrowns-v0``, ``env(version=0)``) is the
observation without it, as it was first published.

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
from fcsim.env.encoding import LATEST_VERSION, VERSIONS
from fcsim.env.single import FiveCrownsEnv

ENV_IDS = {version: f"fcsim/FiveCrowns-v{version}" for version in VERSIONS}
ENV_ID = ENV_IDS[LATEST_VERSION]  # observations with the round's public history

for _version, _id in ENV_IDS.items():
    if _id not in gymnasium.registry:
        gymnasium.register(id=_id, entry_point="fcsim.env.single:FiveCrownsEnv",
                           kwargs={"version": _version})

__all__ = ["ENV_ID", "ENV_IDS", "FiveCrownsEnv", "env", "raw_env"]
