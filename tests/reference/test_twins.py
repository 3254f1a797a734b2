"""The twins' own plumbing: one twin per registered family, and a view read back exactly
from a decision function's arguments."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import numpy as np

from fcsim.core.cards import hand_kinds
from fcsim.strategies import families, parse_strategy
from fcsim.strategies.base import I_PLAYERS, I_ROUND, I_SEAT, I_TURN
from tests.strategies.positions import DISCARD, DRAW, positions

from .strategies import TWINS, twin_of
from .strategies.view import (
    exact,
    expected_penalty_after_draw,
    unseen_cards,
    view_from_arguments,
)


def test_every_registered_family_has_a_twin() -> None:
    # built-in families (an agent another test registered, from outside fcsim, has none)
    assert set(TWINS) == {family.name for family in families() if family.source == "fcsim"}
    twin, params = twin_of("aware:urgency=0.25")
    assert twin is TWINS["aware"]
    assert params == dict(zip([p.name for p in parse_strategy("aware").family.params],
                              parse_strategy("aware:urgency=0.25").values, strict=True))


def test_the_view_reads_the_arguments_back() -> None:
    oracle = parse_strategy("oracle")
    for stage in (DRAW, DISCARD):
        for position in positions(3, 24, stage, last_share=0.5, short_stock_share=0.5):
            hand, pile, known, info, hidden = position.arguments(oracle)[:5]
            view = view_from_arguments(hand, pile, known, info, hidden)
            players = int(info[I_PLAYERS])
            assert list(view.hand) == hand_kinds(hand) and list(view.pile) == pile.tolist()
            assert view.known == tuple(Counter(hand_kinds(row)) for row in known)
            assert (view.round, view.seat, view.players, view.turn) == (
                info[I_ROUND], info[I_SEAT], players, info[I_TURN])
            assert view.hands[view.seat] == view.hand
            assert list(view.stock) == [int(k) for k in hidden[players] if k >= 0]
            honest = view_from_arguments(hand, pile, known, info, np.zeros((0, 0), np.int8))
            assert honest.hands is None and honest.stock is None


def test_unseen_cards_are_the_deck_less_what_the_seat_has_seen() -> None:
    for position in positions(4, 24, DISCARD, known_shares=(0.5,)):
        hand, pile, known, info, hidden = position.arguments(parse_strategy("oracle"))[:5]
        view = view_from_arguments(hand, pile, known, info, hidden)
        others = Counter()
        for seat, cards in enumerate(view.hands):
            if seat != view.seat:
                others += Counter(cards) - view.known[seat]
        assert Counter(unseen_cards(view)) == others + Counter(view.stock)
    assert expected_penalty_after_draw(view.hand, [], view) == 0


def test_parameters_are_read_as_written() -> None:
    assert exact(0.3) == Fraction(3, 10) and exact(2) == 2 and exact(0.25) == Fraction(1, 4)
