"""Observations: the documented layout, within bounds, and blind to every hidden card."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("gymnasium")

import fcsim
from fcsim.core.cards import DECK_SIZE, N_KINDS, parse_card
from fcsim.core.state import (
    PHASE_DISCARD,
    S_BEST_PENALTY,
    S_PHASE,
    S_PILE,
    S_SEAT,
    S_STOCK,
    state_views,
)
from fcsim.env.encoding import (
    PLANE_HAND,
    PLANE_KNOWN,
    PLANE_PILE,
    PLANE_PILE_TOP,
    PLANE_UNSEEN,
    PLANE_WILD,
    X_BEST_PENALTY,
    X_DEALER,
    X_HAND_SIZES,
    X_LAST_TURN,
    X_PHASE,
    X_ROUND,
    X_STOCK,
    X_TO_MOVE,
    X_TURN,
    Encoder,
    action_index,
    action_name,
    agent_action,
    move_index,
)

RULES = fcsim.RuleSet(players=4, turn_cap=80)


def _games(rules: fcsim.RuleSet, seed: int, steps: int):
    """A game after each of ``steps`` random legal steps."""
    rng = random.Random(seed)
    game = fcsim.Game(seed=seed, rules=rules)
    for _ in range(steps):
        if game.over:
            return
        yield game
        game.step(rng.choice(game.view().legal_actions))


def _split(encoder: Encoder, obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return obs[: encoder.cards_size].reshape(encoder.planes, N_KINDS), obs[encoder.cards_size :]


def test_first_observation_reads_as_documented() -> None:
    game = fcsim.Game(seed=3, rules=RULES)
    encoder = Encoder(RULES, version=0)
    view = game.view()
    planes, scalars = _split(encoder, encoder.observation(game.state, view.seat))
    assert encoder.size == (4 + 4) * 56 + 10 + 2 * 4
    assert planes.shape == (8, 56) and planes[PLANE_HAND].sum() == 3
    assert planes[PLANE_HAND].tolist() == view.hand_counts.tolist()
    assert planes[PLANE_PILE_TOP].tolist() == planes[PLANE_PILE].tolist()  # the upcard
    assert planes[PLANE_PILE_TOP, parse_card(view.pile_top)] == 1
    wild = [parse_card(c) for c in ("3S", "3H", "3D", "3C", "3X", "JK")]
    assert np.flatnonzero(planes[PLANE_WILD]).tolist() == wild
    assert planes[PLANE_UNSEEN].sum() == DECK_SIZE - 3 - 1 and not planes[PLANE_KNOWN:].any()
    assert scalars[X_ROUND] == 1 and scalars[X_PHASE] == 0 and scalars[X_TO_MOVE] == 0
    assert scalars[X_DEALER] == 3  # seat 0 deals; seat 1 sees it three seats on
    assert scalars[X_STOCK] == view.stock_size and scalars[X_BEST_PENALTY] == -1
    assert scalars[X_HAND_SIZES : X_HAND_SIZES + 4].tolist() == [3] * 4
    other = encoder.observation(game.state, 0)
    assert _split(encoder, other)[1][X_TO_MOVE] == 1


def test_a_round_may_run_past_the_cap_by_the_last_turns() -> None:
    """A seat may go out on the capped turn; the others' last turns follow, and their
    observations stay within the bounds (PettingZoo's checker once found turn 61 of 60)."""
    rules = fcsim.RuleSet(players=3, rounds=6, turn_cap=10)
    encoder = Encoder(rules)
    past_cap = 0
    for seed in range(40):
        for game in _games(rules, seed, 10_000):
            for seat in range(rules.players):
                obs = encoder.observation(game.state, seat)
                assert ((encoder.low <= obs) & (obs <= encoder.high)).all()
            past_cap += obs[encoder.cards_size + X_TURN] > rules.turn_cap
    assert past_cap  # the case was played
    assert encoder.high[encoder.cards_size + X_TURN] == rules.most_turns == 12


def test_every_observation_is_in_bounds_and_adds_up() -> None:
    encoder = Encoder(RULES)
    for game in _games(RULES, 1, 1500):
        state = game.state
        for seat in range(RULES.players):
            obs = encoder.observation(state, seat)
            assert obs.dtype == np.float32
            assert (encoder.low <= obs).all() and (obs <= encoder.high).all()
            planes, scalars = _split(encoder, obs)
            assert (planes[PLANE_UNSEEN] >= 0).all()
            hidden = state.scalars[S_STOCK] + sum(
                int(state.hands[s].sum()) for s in range(RULES.players) if s != seat)
            known = planes[PLANE_KNOWN : encoder.history_at].sum()
            assert planes[PLANE_UNSEEN].sum() + known == hidden
            assert planes[PLANE_PILE].sum() == state.scalars[S_PILE]
            sizes = scalars[X_HAND_SIZES : X_HAND_SIZES + RULES.players]
            assert sizes[0] == planes[PLANE_HAND].sum()
        if game.view().last_turn:
            assert scalars[X_LAST_TURN] == 1


def test_only_the_seat_deciding_its_discard_is_told_its_best_penalty() -> None:
    """The best penalty is worked out from the hand of the seat to discard: told to any
    other seat it would tell of cards that seat cannot see (swapping hidden cards, as the
    test below does, leaves the state's worked-out value as it was, so only this test sees
    it)."""
    encoder = Encoder(RULES)
    told = 0
    for game in _games(RULES, 3, 400):
        state = game.state
        for seat in range(RULES.players):
            deciding = (state.scalars[S_PHASE] == PHASE_DISCARD
                        and state.scalars[S_SEAT] == seat)
            best = _split(encoder, encoder.observation(state, seat))[1][X_BEST_PENALTY]
            assert best == (state.scalars[S_BEST_PENALTY] if deciding else -1)
            told += deciding
    assert told > 100  # the seats to discard were observed


def test_hand_sizes_and_totals_are_each_seat_s_the_observer_first() -> None:
    """Both are public: the k-th of each is seat (s + k) % P's, whoever observes, and the
    seat to discard holds one card more."""
    encoder = Encoder(RULES)
    players = RULES.players
    totals_differ = False
    for game in _games(RULES, 1, 1500):
        state = game.state
        for seat in range(players):
            scalars = _split(encoder, encoder.observation(state, seat))[1]
            order = [(seat + k) % players for k in range(players)]
            sizes = scalars[X_HAND_SIZES : X_HAND_SIZES + players]
            assert sizes.tolist() == [state.hands[s].sum() for s in order]
            assert scalars[X_HAND_SIZES + players :].tolist() == state.totals[order].tolist()
        totals_differ |= len(set(state.totals.tolist())) > 1
    assert totals_differ  # rounds were scored, and not alike


def _hide_differently(data, seat: int, rng: random.Random) -> None:
    """Change what ``seat`` cannot see: trade unknown cards between the other hands and the
    stock, and shuffle the stock."""
    parts = state_views(data)
    stock = parts.stock[: parts.scalars[S_STOCK]]
    for other in range(parts.hands.shape[0]):
        if other == seat:
            continue
        unknown = [k for k in range(N_KINDS)
                   if parts.hands[other, k] > parts.known[other, k]]
        for _ in range(2):
            if not unknown or not stock.size:
                break
            give, at = rng.choice(unknown), rng.randrange(stock.size)
            take = stock[at]
            parts.hands[other, give] -= 1
            parts.hands[other, take] += 1
            stock[at] = give
            unknown = [k for k in range(N_KINDS)
                       if parts.hands[other, k] > parts.known[other, k]]
    rng.shuffle(stock)


def test_an_observation_never_depends_on_a_hidden_card() -> None:
    encoder = Encoder(RULES)
    rng = random.Random(4)
    changed = 0
    for game in _games(RULES, 2, 600):
        seat = rng.randrange(RULES.players)
        twin = game.copy()
        _hide_differently(twin.data, seat, rng)
        changed += not all(np.array_equal(a, b) for a, b in zip(game.data, twin.data,
                                                               strict=True))
        for part in ("observation", "action_mask"):
            assert np.array_equal(encoder.observe(game.state, seat)[part],
                                  encoder.observe(twin.state, seat)[part]), part
    assert changed > 500  # the hidden cards really were changed


def test_actions_are_named_both_ways() -> None:
    assert [action_name(a) for a in (0, 1, 2, 57, 58)] == [
        "stock", "pile", "discard 3S", "discard JK", "no action (actions are 0 to 57)"]
    assert [action_index(a) for a in ("stock", "pile", "3S", "JK")] == [0, 1, 2, 57]
    assert [agent_action(i) for i in (0, 1, 2, 57)] == ["stock", "pile", "3S", "JK"]


def test_a_move_is_indexed_as_a_game_reads_it() -> None:
    """Every spelling fcsim.Game.step takes; -1 for what names nothing."""
    assert [move_index(m, drawing=True) for m in ("stock", " PILE ", 0, 1, "7H", 2)] == [
        0, 1, 0, 1, -1, -1]
    assert [move_index(m, drawing=False) for m in ("3s", "JK", 0, 55, "stock", 56)] == [
        2, 57, 2, 57, -1, -1]
    assert all(move_index(agent_action(i), drawing=i < 2) == i for i in range(58))


def test_version_1_adds_the_public_history_seat_by_seat() -> None:
    """Per plane (discarded, taken, passed) one plane per seat, the observer first; the
    rest is version 0's observation, unchanged."""
    old, new = Encoder(RULES, version=0), Encoder(RULES)
    assert new.version == 1 and new.size == (4 * 4 + 4) * 56 + 10 + 2 * 4
    seen = 0
    for game in _games(RULES, 5, 150):
        view = game.view()
        for seat in range(4):
            obs = new.observation(game.state, seat)
            planes, scalars = _split(new, obs)
            before, rest = _split(old, old.observation(game.state, seat))
            assert np.array_equal(planes[: old.planes], before)
            assert np.array_equal(scalars, rest)
            order = [(seat + k) % 4 for k in range(4)]
            history = planes[old.planes :].reshape(3, 4, N_KINDS)
            assert np.array_equal(history, view.history_counts[:, order])
            assert (obs <= new.high).all() and (obs >= new.low).all()
            seen += int(history.sum())
    assert seen > 100


def test_an_unknown_version_is_refused() -> None:
    with pytest.raises(ValueError, match=r"version must be one of \(0, 1\)"):
        Encoder(RULES, version=2)
