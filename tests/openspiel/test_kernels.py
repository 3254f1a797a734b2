"""Chance outcomes laid onto fcsim's deal and draw: whatever card chance picks is the card
fcsim's own step deals or draws, the reshuffle of an empty stock included."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pyspiel")

import fcsim
from fcsim.core.cards import DECK_SIZE, N_KINDS, full_deck, wild_rank
from fcsim.core.events import TRACE_WIDTH
from fcsim.core.state import (
    OK,
    S_DRAWN,
    S_STOCK,
    copy_state,
    play_action,
    shared_scratch,
    state_views,
)
from fcsim.core.tables import solver_table
from fcsim.openspiel import kernels

NO_TRACE = np.zeros((0, TRACE_WIDTH), np.int16)


def _stock_only(view: fcsim.View) -> str:
    return "stock" if view.phase == "draw" else view.legal_actions[-1]


def _drawn_after(data, kind: int) -> int:
    twin = copy_state(data)
    assert kernels.arrange_draw(twin, kind)
    status, _ = play_action(twin, 0, solver_table(), shared_scratch(), NO_TRACE, 0)
    assert status == OK
    return int(twin.ints[S_DRAWN])


def test_every_card_a_stock_draw_can_bring_is_the_card_drawn() -> None:
    game = fcsim.Game(players=7, seed=2)
    seen_empty = 0
    while not game.over and seen_empty < 3:
        if game.phase == "draw":
            counts = np.zeros(N_KINDS, np.int64)
            total = kernels.draw_counts(game.data, counts)
            assert total == counts.sum() > 0
            for kind in np.flatnonzero(counts):
                assert _drawn_after(game.data, int(kind)) == kind
            seen_empty += int(game.data.ints[S_STOCK] == 0)
        game.step(_stock_only(game.view()))
    assert seen_empty == 3  # reshuffles drawn from, each card of the pile in turn


def test_a_card_the_stock_cannot_bring_is_refused() -> None:
    data = copy_state(fcsim.Game(players=2, seed=1).data)
    data.ints[S_STOCK] = 1  # a stock of one card: its bottom one
    only = int(state_views(data).stock[0])
    assert kernels.arrange_draw(copy_state(data), only)
    assert not kernels.arrange_draw(data, (only + 1) % N_KINDS)


def test_any_deal_is_laid_where_fcsims_deal_takes_its_cards() -> None:
    game = fcsim.Game(players=3, seed=5)
    rng = np.random.default_rng(0)
    n = wild_rank(1)
    dealt = rng.permutation(full_deck())[: n * 3 + 1].astype(np.int64)
    data = copy_state(game.data)
    assert kernels.arrange_deal(data, dealt)
    state = state_views(data)
    for t in range(n * 3):
        assert kernels.deal_seat(data, t) == (1 + t) % 3  # dealer 0: from its left
    assert kernels.deal_seat(data, n * 3) == -1
    for seat in range(3):
        expected = np.bincount(dealt[[t for t in range(n * 3) if (1 + t) % 3 == seat]],
                               minlength=N_KINDS)
        assert np.array_equal(state.hands[seat], expected)
    assert state.pile[0] == dealt[-1]
    assert np.array_equal(np.sort(state.stock), np.sort(full_deck()))  # still one deck
    assert int(data.ints[S_STOCK]) == DECK_SIZE - n * 3 - 1
