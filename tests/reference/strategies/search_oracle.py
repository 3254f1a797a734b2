"""Twin of ``search_oracle`` (analysis only): the search with every world the real state.

The search twin's decision (:mod:`.search`) on worlds read from the oracle's view
(:func:`.search.real_world`): every hand as it is, and the stock as it was shown, or
after a reshuffle that was never shown, shuffled by the world's generator.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..rng import Xoshiro256
from . import search
from .view import View


def decide(view: View, params: Mapping[str, float], rng: Xoshiro256) -> int:
    """The perfect-information search's draw source or discard."""
    return search.decide(view, params, rng, oracle_world=search.real_world)


draw = discard = decide
