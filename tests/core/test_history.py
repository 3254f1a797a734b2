"""The round's public history in the view: what each seat discarded, took from the pile
and passed up, equal to what the game's own event trace says happened."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

import fcsim
from fcsim.core.cards import N_KINDS, parse_card
from fcsim.core.rules import MAX_PLAYERS
from fcsim.core.state import H_DISCARDED, H_PASSED, H_TAKEN
from fcsim.core.view import I_DISCARDED, I_PASSED, I_TAKEN


def history_from_events(game: fcsim.Game) -> np.ndarray:
    """The round's history rebuilt from the events: int8[3, P, 56]."""
    players = game.rules.players
    history = np.zeros((3, players, N_KINDS), np.int64)
    top = None
    for event in game.events:
        if event["event"] == "deal":
            history[:] = 0
            top = event["upcard"]
        elif event["event"] == "turn":
            seat = event["seat"]
            if event["source"] == "stock":  # the other source is "discard": the pile
                history[H_PASSED, seat, parse_card(top)] += 1
            else:
                history[H_TAKEN, seat, parse_card(event["drawn"])] += 1
            history[H_DISCARDED, seat, parse_card(event["discard"])] += 1
            top = event["discard"]
    return history


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (4, 2), (7, 3)])
def test_history_equals_the_events(players: int, seed: int) -> None:
    game = fcsim.Game(players=players, seed=seed, rules=fcsim.RuleSet(players=players,
                                                                      rounds=6))
    agents = [fcsim.agent("random"), fcsim.agent("greedy")]
    checked = 0
    pending = None  # a draw made this turn: (plane, the pile top it was made on)
    while not game.over:
        view = game.view()
        expected = history_from_events(game)
        if view.phase == "discard":  # the draw is public already; its turn event is not
            plane, top = pending
            expected[plane, view.seat, parse_card(top)] += 1
        assert np.array_equal(view.history_counts, expected)
        for plane, at in ((H_DISCARDED, I_DISCARDED), (H_TAKEN, I_TAKEN), (H_PASSED, I_PASSED)):
            block = view.info[at : at + MAX_PLAYERS * N_KINDS].reshape(MAX_PLAYERS, N_KINDS)
            assert np.array_equal(block[:players], expected[plane])
            assert not block[players:].any()
        assert [Counter(cards) for cards in view.taken] == [
            Counter(fcsim.format_cards(np.repeat(np.arange(N_KINDS), row)))
            for row in expected[H_TAKEN]]
        action = agents[view.seat % 2](view)
        if view.phase == "draw":
            pending = (H_TAKEN if action == "pile" else H_PASSED, view.pile_top)
        game.step(action)
        checked += 1
    assert checked > 30


def test_history_lists_cards_in_rules_notation() -> None:
    game = fcsim.Game(players=2, seed=7)
    upcard = game.events[0]["upcard"]
    game.step("stock")
    view = game.view()
    assert view.passed[view.seat] == [upcard] and view.taken == [[], []]
    discard, seat = view.legal_actions[0], view.seat
    game.step(discard)
    assert game.view().discarded[seat] == [discard]


def test_a_pass_on_the_turn_the_stock_is_reshuffled_is_counted() -> None:
    """Two seats that draw from the stock and throw the drawn card back until the stock
    runs out: the pile top passed up on the reshuffle turn counts like any other."""
    game = fcsim.Game(players=2, seed=1)  # nobody goes out before the stock runs out
    while not any(event["event"] == "reshuffle" for event in game.events):
        held = Counter(game.view().hand)
        game.step("stock")
        drawn = next((Counter(game.view().hand) - held).elements())
        game.step(drawn)
    view = game.view()
    assert view.round == 1
    assert np.array_equal(view.history_counts, history_from_events(game))
    assert view.history_counts[H_PASSED].sum() == view.turn


def test_a_card_taken_and_thrown_back_is_counted_every_time() -> None:
    """Two seats that take the pile's card and throw it back, turn after turn: the counts
    pass any small integer type (an int8 store wrapped to negative numbers at 128)."""
    game = fcsim.Game(players=2, seed=0)
    top = None
    while game.view().turn < 300:
        view = game.view()
        if view.phase == "draw":
            top = view.pile_top
            game.step("pile")
        else:
            game.step(top)
    view = game.view()
    assert np.array_equal(view.history_counts, history_from_events(game))
    assert view.history_counts[H_TAKEN].sum() == view.turn == 300
    assert len(view.taken[0]) + len(view.taken[1]) == 300
