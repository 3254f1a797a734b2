"""Twin of ``random``: a uniformly random draw source and discard, from the seat's own stream."""

from __future__ import annotations

from collections.abc import Mapping

from ..rng import Xoshiro256
from .view import View


def draw(view: View, params: Mapping[str, float], rng: Xoshiro256) -> int:
    """Stock (0) or discard pile (1), each with odds one half: ``randbelow(2)``."""
    return rng.randbelow(2)


def discard(view: View, params: Mapping[str, float], rng: Xoshiro256) -> int:
    """The ``randbelow(n + 1)``-th card of the hand listed in kind order with repeats."""
    return view.hand[rng.randbelow(len(view.hand))]
