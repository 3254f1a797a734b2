"""The observer's pieces: each seat's cards written compactly."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pyspiel")

from fcsim.core.cards import parse_card
from fcsim.openspiel.observer import _seat_cards


def test_each_seat_s_cards_are_written_in_kind_order_the_player_s_own_left_out() -> None:
    plane = np.zeros((3, 56), np.int64)
    for seat, card, n in ((0, "9D", 1), (0, "3H", 2), (0, "JK", 1), (1, "5S", 1), (2, "KC", 1)):
        plane[seat, parse_card(card)] = n
    assert _seat_cards(plane, skip=1) == ["p0:3H3H9DJK", "p2:KC"]
    assert _seat_cards(plane) == ["p0:3H3H9DJK", "p1:5S", "p2:KC"]
    assert _seat_cards(np.zeros((3, 56), np.int64)) == []
