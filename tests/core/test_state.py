"""The game state: its layout, copies, and steps that refuse illegal moves untouched."""

from __future__ import annotations

import numpy as np
import pytest

from fcsim import RuleSet
from fcsim.core.cards import DECK_SIZE, N_KINDS, wild_rank
from fcsim.core.solver import new_scratch
from fcsim.core.state import (
    ERR_DISCARD,
    ERR_DRAW,
    ERR_PHASE,
    OK,
    PHASE_DISCARD,
    PHASE_DRAW,
    PHASE_GAME_OVER,
    PHASE_ROUND_END,
    S_DEALER,
    S_PHASE,
    S_PILE,
    S_ROUND,
    S_SEAT,
    S_STOCK,
    apply_move,
    copy_state,
    deal_hands,
    dealt_seat,
    new_game,
    new_state,
    play_action,
    reshuffle_top,
    state_views,
    unpack,
)
from fcsim.core.tables import solver_table

NO_TRACE = np.zeros((0, 24), np.int16)


def _started(rules: RuleSet, seed: int = 3):
    data = new_state(rules)
    new_game(data, np.uint64(seed), solver_table(), new_scratch(), NO_TRACE, 0)
    return data


@pytest.mark.parametrize(("players", "rounds"), [(2, 11), (4, 6), (7, 11)])
def test_layout_parts_have_their_shapes_and_do_not_overlap(players, rounds) -> None:
    rules = RuleSet(players=players, rounds=rounds)
    data = new_state(rules)
    parts = state_views(data)
    shapes = {"scalars": None, "rules": (6,), "totals": (players,),
              "scores": (rounds, players, 3), "round_info": (rounds, 4), "seed": (1,),
              "rng": (4,), "stock": (DECK_SIZE,), "pile": (DECK_SIZE,),
              "hands": (players, N_KINDS), "known": (players, N_KINDS), "scored": (players,)}
    for name, shape in shapes.items():
        part = getattr(parts, name)
        assert shape is None or part.shape == shape, name
        assert all(np.shares_memory(part, whole) for whole in data if whole.dtype == part.dtype)
    assert np.array_equal(parts.rules, rules.as_array())
    for name in shapes:  # filling one part leaves every other part as it was
        before = [whole.copy() for whole in data]
        getattr(state_views(data), name)[...] = 99  # a value no part holds yet
        changed = sum(int((a != b).sum()) for a, b in zip(data, before, strict=True))
        assert changed == getattr(parts, name).size, name
        for whole, old in zip(data, before, strict=True):
            whole[...] = old


def test_python_and_kernel_layouts_agree() -> None:
    data = _started(RuleSet(players=3))
    kernel, python = unpack(data), state_views(data)
    for a, b in zip(kernel, python, strict=True):
        assert np.array_equal(a, b)


def test_a_new_game_deals_round_one() -> None:
    data = _started(RuleSet(players=4))
    parts = state_views(data)
    sc = parts.scalars
    assert sc[S_ROUND] == 1 and sc[S_PHASE] == PHASE_DRAW
    assert sc[S_SEAT] == (sc[S_DEALER] + 1) % 4
    assert (parts.hands.sum(axis=1) == wild_rank(1)).all()
    assert sc[S_PILE] == 1 and sc[S_STOCK] == DECK_SIZE - 4 * 3 - 1


def test_the_deal_goes_pass_by_pass_from_the_dealers_left() -> None:
    data = _started(RuleSet(players=3))
    parts = state_views(data)
    dealer = int(parts.scalars[S_DEALER])
    assert [dealt_seat(t, 3, dealer) for t in range(4)] == [(dealer + 1 + t) % 3
                                                            for t in range(4)]
    hands = np.zeros_like(parts.hands)
    stock = parts.stock.copy()
    left = deal_hands(stock, hands, wild_rank(1), dealer)
    assert left == parts.scalars[S_STOCK] + 1  # the upcard is the next card
    assert np.array_equal(hands, parts.hands)


def test_reshuffle_top_names_the_card_a_reshuffle_puts_on_top() -> None:
    table, scratch = solver_table(), new_scratch()
    data = _started(RuleSet(players=2))
    while not (data.ints[S_PHASE] == PHASE_DRAW and data.ints[S_STOCK] == 0):
        assert data.ints[S_PHASE] != PHASE_GAME_OVER, "no reshuffle: try another seed"
        hand = state_views(data).hands[data.ints[S_SEAT]]
        action = 0 if data.ints[S_PHASE] == PHASE_DRAW else int(np.flatnonzero(hand)[-1])
        assert play_action(data, action, table, scratch, NO_TRACE, 0)[0] == OK
    parts = state_views(data)
    pile = parts.pile[: int(data.ints[S_PILE])].copy()
    rng = parts.rng.copy()
    target = reshuffle_top(parts)
    assert np.array_equal(parts.rng, rng)  # a peek: the play stream is left as it is
    assert 0 <= target < len(pile) - 1
    assert play_action(data, 0, table, scratch, NO_TRACE, 0)[0] == OK
    assert state_views(data).stock[len(pile) - 2] == pile[target]  # drawn off the top


def test_copies_are_independent() -> None:
    data = _started(RuleSet(players=2))
    twin = copy_state(data)
    before = [part.copy() for part in data]
    table, scratch = solver_table(), new_scratch()
    while twin.ints[S_PHASE] != PHASE_GAME_OVER:
        action = 0 if twin.ints[S_PHASE] == PHASE_DRAW else int(np.flatnonzero(
            state_views(twin).hands[twin.ints[S_SEAT]])[0])
        status, _ = play_action(twin, action, table, scratch, NO_TRACE, 0)
        assert status == OK
    assert all(np.array_equal(a, b) for a, b in zip(data, before, strict=True))


def test_apply_move_is_the_step_the_phase_waits_for_and_does_not_settle() -> None:
    """It moves as :func:`play_action` does, and leaves a round it ended unfinished."""
    table, scratch = solver_table(), new_scratch()
    data = _started(RuleSet(players=2))
    twin = copy_state(data)
    while data.ints[S_PHASE] != PHASE_ROUND_END:
        assert all(np.array_equal(a, b) for a, b in zip(data, twin, strict=True))
        action = 0 if data.ints[S_PHASE] == PHASE_DRAW else int(np.flatnonzero(
            state_views(data).hands[data.ints[S_SEAT]])[0])
        assert apply_move(state_views(data), action, table, scratch, NO_TRACE, 0)[0] == OK
        assert play_action(twin, action, table, scratch, NO_TRACE, 0)[0] == OK
    assert twin.ints[S_PHASE] == PHASE_DRAW and twin.ints[S_ROUND] == 2  # play_action settled


def test_illegal_moves_change_nothing() -> None:
    table, scratch = solver_table(), new_scratch()
    data = _started(RuleSet(players=3))
    before = [part.copy() for part in data]
    for action in (-1, 2, 99):
        assert play_action(data, action, table, scratch, NO_TRACE, 0)[0] == ERR_DRAW
    assert all(np.array_equal(a, b) for a, b in zip(data, before, strict=True))
    status, _ = play_action(data, 0, table, scratch, NO_TRACE, 0)
    assert status == OK
    if data.ints[S_PHASE] == PHASE_DISCARD:
        hand = state_views(data).hands[data.ints[S_SEAT]]
        missing = int(np.flatnonzero(hand == 0)[0])
        before = [part.copy() for part in data]
        for action in (missing, -1, N_KINDS):
            assert play_action(data, action, table, scratch, NO_TRACE, 0)[0] == ERR_DISCARD
        assert all(np.array_equal(a, b) for a, b in zip(data, before, strict=True))


def test_a_finished_game_refuses_every_move() -> None:
    table, scratch = solver_table(), new_scratch()
    data = _started(RuleSet(players=2, rounds=6))
    while data.ints[S_PHASE] != PHASE_GAME_OVER:
        phase = data.ints[S_PHASE]
        hand = state_views(data).hands[data.ints[S_SEAT]]
        action = 1 if phase == PHASE_DRAW else int(np.flatnonzero(hand)[-1])
        play_action(data, action, table, scratch, NO_TRACE, 0)
    assert play_action(data, 0, table, scratch, NO_TRACE, 0)[0] == ERR_PHASE
