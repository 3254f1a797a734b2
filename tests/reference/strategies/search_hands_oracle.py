"""Twin of ``search_hands_oracle`` (analysis only): the search with every hand as it
really is and the stock resampled in each world.

The search twin's decision (:mod:`.search`) on worlds read from the oracle's view
(:func:`.search.real_hands_world`): every hand as it is, and the cards in no hand and not
on the pile, in kind order, shuffled by the world's generator as the stock; with
``reveal`` below 1, each card not shown kept with that chance and the rest dealt with the
stock (:func:`.search.read_hands_world`).
"""

from __future__ import annotations

from collections.abc import Mapping

from ..rng import Xoshiro256
from . import search
from .view import View


def decide(view: View, params: Mapping[str, float], rng: Xoshiro256) -> int:
    """The search's draw source or discard on the real hands (``reveal`` of them)."""
    reveal = float(params["reveal"])
    return search.decide(view, params, rng,
                         oracle_world=lambda view, gen: search.read_hands_world(view, gen,
                                                                                reveal))


draw = discard = decide
