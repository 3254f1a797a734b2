"""The seeded positions are tables a real game could reach, in the contract's types."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from fcsim import RuleSet
from fcsim.core.cards import full_deck, hand_kinds, parse_card, parse_cards
from fcsim.strategies import parse_strategy
from fcsim.strategies.base import (
    I_BEST_DISCARD,
    I_BEST_PENALTY,
    I_HAND_SIZES,
    I_LAST_TURN,
    I_OUT_SEAT,
    I_PLAYERS,
    I_ROUND,
    I_SEAT,
    I_STOCK_SIZE,
)
from tests.reference.strategies.view import unseen_cards, view_from_arguments
from tests.strategies.positions import (
    DISCARD,
    DRAW,
    deal_position,
    matches_signature,
    positions,
)


@pytest.mark.parametrize("stage", [DRAW, DISCARD])
def test_positions_are_real_tables(stage: str) -> None:
    for position in positions(5, 66, stage, last_share=0.3, short_stock_share=0.2):
        info, hidden = position.info, position.hidden
        players, seat, n = int(info[I_PLAYERS]), int(info[I_SEAT]), int(info[I_ROUND]) + 2
        hands = hidden[:players, : position.hand.shape[0]]
        stock = [int(k) for k in hidden[players] if k >= 0]
        everything = Counter(hand_kinds(hands.sum(axis=0))) + Counter(position.pile.tolist())
        assert everything + Counter(stock) == Counter(full_deck().tolist())
        assert np.array_equal(hands[seat], position.hand)
        assert (position.known <= hands).all(), "known cards are in the hands"
        sizes = [n] * players
        sizes[seat] += stage == DISCARD
        assert info[I_HAND_SIZES : I_HAND_SIZES + players].tolist() == sizes
        assert hands.sum(axis=1).tolist() == sizes
        assert info[I_STOCK_SIZE] == len(stock) and len(position.pile) >= 1
        assert (info[I_OUT_SEAT] >= 0) == bool(info[I_LAST_TURN]) and info[I_OUT_SEAT] != seat
        if stage == DRAW:
            assert info[I_BEST_DISCARD] == info[I_BEST_PENALTY] == -1
        else:  # the engine asks for a discard only when the hand cannot go out
            assert info[I_BEST_PENALTY] > 0 and position.hand[info[I_BEST_DISCARD]] > 0
        for spec in ("greedy", "oracle"):
            arguments = position.arguments(parse_strategy(spec))
            assert matches_signature(arguments)
            assert (arguments[4].size > 0) == (spec == "oracle")


def test_set_hand_top_and_unseen_count() -> None:
    rng = np.random.default_rng(6)
    hand, top = parse_cards("7H 8H 9H 10H 3S"), parse_card("JK")
    position = deal_position(rng, DRAW, 3, 4, RuleSet(), hand=hand, top=top, unseen=64)
    assert hand_kinds(position.hand) == sorted(hand) and position.pile[-1] == top
    view = view_from_arguments(*position.arguments(parse_strategy("expected"))[:5])
    assert len(unseen_cards(view)) == 64
    with pytest.raises(ValueError, match="goes out"):
        deal_position(rng, DISCARD, 1, 2, RuleSet(), hand=parse_cards("4S 4H 4D JK"))
    with pytest.raises(ValueError, match="cannot be had"):
        deal_position(rng, DRAW, 11, 7, RuleSet(), unseen=10)
