"""Worlds weighted by the evidence (:mod:`fcsim.strategies.search.worlds`): the weight of a
hand on hand-made positions, the weighted pick, worlds that follow the evidence, the same
worlds as the twin's (tests/reference/strategies/search.py), and evidence 0 dealing the
worlds dealt before there was evidence."""

from __future__ import annotations

import hashlib
from collections import Counter

import numpy as np
import pytest
from numba import njit

import fcsim
from fcsim.core.cards import N_KINDS, parse_cards, parse_hand
from fcsim.core.rng import new_state, seed_state
from fcsim.core.state import shared_scratch
from fcsim.core.tables import solver_table
from fcsim.core.view import I_DISCARDED, I_PASSED, I_STOCK_SIZE, View, view_arrays
from fcsim.position import Position, position_view
from fcsim.strategies.search.worlds import (
    deal_unseen,
    evidence_weight,
    new_world,
    seen_part,
    unseen_cards,
    weighted_choice,
)
from tests.reference.rng import Xoshiro256
from tests.reference.strategies import search as twin
from tests.reference.strategies.view import exact, view_from_arguments
from tests.strategies.positions import DISCARD, DRAW, positions


@njit
def deal_worlds(hand, pile, known, info, seed, worlds, skill, evidence, table, scratch):
    """Worlds ``0 … worlds - 1`` as a search seeded ``seed`` deals them: every hand
    (``int8[W, P, 56]``) and the stock (``int8[W, S]``)."""
    world = new_world(info)
    state = seen_part(world, hand, pile, known, info)
    unseen = unseen_cards(hand, pile, known, info)
    rng = np.empty(4, np.uint64)
    hands = np.empty((worlds, known.shape[0], N_KINDS), np.int8)
    stocks = np.empty((worlds, info[I_STOCK_SIZE]), np.int8)
    for w in range(worlds):
        seed_state(rng, seed + np.uint64(w))
        deal_unseen(state, unseen, known, info, rng, skill, evidence, table, scratch)
        hands[w] = state.hands
        stocks[w] = state.stock[: info[I_STOCK_SIZE]]
    return hands, stocks


def deal(arrays: tuple, seed: int, worlds: int, skill: float, evidence: float
         ) -> tuple[np.ndarray, np.ndarray]:
    hand, pile, known, info = arrays
    return deal_worlds(hand, pile, known, info, np.uint64(seed), worlds, skill, evidence,
                       solver_table(), shared_scratch())


def weight(view: View, seat: int, cards: str, evidence: float) -> float:
    return evidence_weight(parse_hand(cards), seat, view.info, evidence, solver_table(),
                           shared_scratch())


def view_with_history(position: Position, seat: int, passed: str = "", discarded: str = ""
                      ) -> View:
    """The view of ``position`` with ``seat``'s ``passed`` and ``discarded`` cards in the
    history of its ``info``."""
    view = position_view(position)
    for plane, cards in ((I_PASSED, passed), (I_DISCARDED, discarded)):
        for kind in parse_cards(cards):
            view.info[plane + seat * N_KINDS + kind] += 1
    return view


# Round 1 (3s wild), three seats: seat 1 passed up 7H twice and discarded QH and KD.
ROUND_1 = Position(round=1, hand=["5C", "8D", "JS"], pile=["9S"], players=3, turn=6)
HISTORY = view_with_history(ROUND_1, 1, passed="7H 7H", discarded="QH KD")


@pytest.mark.parametrize(("cards", "wanted"), [
    ("5H 6H 9C", 2),  # 7H makes a run with 5H 6H: passed twice, 2 cards it wanted
    ("4S 4D 5C", 0),  # nothing it passed or threw away leaves less than 13
    ("JS QS KS", 0),  # it melds already: nothing leaves less than nothing
    ("10H JH KC", 3),  # QH runs with 10H JH; 7H (twice) leaves less than KC does
    ("7H 7H 9C", 0),  # it holds both 7Hs (none to add); QH and KD do not help
])
def test_a_hand_counts_1_minus_evidence_per_card_it_would_have_wanted(cards: str,
                                                                      wanted: int) -> None:
    for evidence in (0.3, 0.9):
        assert weight(HISTORY, 1, cards, evidence) == pytest.approx((1 - evidence) ** wanted)
    assert weight(HISTORY, 1, cards, 1.0) == (0.0 if wanted else 1.0)
    assert weight(HISTORY, 1, cards, 0.0) == 1.0
    assert weight(HISTORY, 2, cards, 0.9) == 1.0  # seat 2 has no history


def test_a_discarded_card_counts_as_a_passed_one() -> None:
    for view in (view_with_history(ROUND_1, 2, passed="4H"),
                 view_with_history(ROUND_1, 2, discarded="4H")):
        assert weight(view, 2, "5H 6H 9C", 0.6) == pytest.approx(0.4)
        assert weight(view, 2, "5S 6S 9C", 0.6) == pytest.approx(0.4)  # 4H < 9C: it helps
        assert weight(view, 2, "5S 6S 7S", 0.6) == 1.0


def test_the_weighted_pick_follows_the_weights() -> None:
    rng = new_state(5)
    assert {weighted_choice(np.array([0.0, 0.0, 2.0, 0.0]), rng) for _ in range(50)} == {2}
    picks = Counter(weighted_choice(np.zeros(4), rng) for _ in range(4000))
    assert set(picks) == {0, 1, 2, 3} and min(picks.values()) > 850  # all zero: uniform
    picks = Counter(weighted_choice(np.array([1.0, 3.0]), rng) for _ in range(4000))
    assert 0.70 < picks[1] / 4000 < 0.80
    gen = Xoshiro256.from_state(rng)
    weights = [0.5, 0.0, 0.125, 1.0, 0.25]
    assert [twin.weighted_choice(weights, gen) for _ in range(200)] == [
        weighted_choice(np.array(weights), rng) for _ in range(200)]


def _wanted_share(hands: np.ndarray, view: View, seat: int) -> float:
    """The share of worlds whose hand of ``seat`` a card it passed up or discarded would
    have improved."""
    return float(np.mean([weight_of(h[seat].copy(), view, seat) < 1.0 for h in hands]))


def weight_of(row: np.ndarray, view: View, seat: int) -> float:
    return evidence_weight(row, seat, view.info, 0.5, solver_table(), shared_scratch())


def test_worlds_follow_the_evidence() -> None:
    """Seat 1 passed up six high cards: worlds where one of them would have improved its
    hand become much rarer with evidence 0.9 than without (0.80 -> 0.18 at this seed)."""
    view = view_with_history(Position(round=3, hand=["4H", "5C", "9D", "10S", "QH"],
                                      pile=["3C", "8D"], players=3, turn=9),
                             1, passed="KH QS KD QC JH KS")
    arrays = (view.hand_counts, view.pile_kinds, view.known_counts, view.info)
    uniform = _wanted_share(deal(arrays, 1, 400, 0.0, 0.0)[0], view, 1)
    weighed = _wanted_share(deal(arrays, 1, 400, 0.0, 0.9)[0], view, 1)
    assert uniform > 0.6 and weighed < uniform - 0.4
    # Seat 2 passed nothing: its hands are dealt as they would be without evidence.
    assert abs(_wanted_share(deal(arrays, 1, 400, 0.0, 0.9)[0], view, 2) - 0.0) < 1e-9


def test_same_seed_same_worlds() -> None:
    arrays = view_arrays(_late_game_state())
    first, again = deal(arrays, 7, 20, 1.0, 0.7), deal(arrays, 7, 20, 1.0, 0.7)
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    other = deal(arrays, 8, 20, 1.0, 0.7)
    assert not np.array_equal(first[0], other[0])


def _late_game_state():
    """A 4-seat game of greedy players some turns into a round (histories filled)."""
    game = fcsim.Game(players=4, seed=12)
    agent = fcsim.agent("greedy")
    while not (game.round >= 4 and game.view().turn >= 6):
        game.step(agent(game.view()))
    return game.data


# The worlds evidence 0 deals, pinned by the code before evidence existed (views of a 3-
# and a 5-seat game of greedy players, every seventh decision, worlds 0-2 of a search
# seeded 100 x the view's index, skill 0 and 1.5).
BEFORE_EVIDENCE = "cdc8b6f94f9605b65642ac7ad40af9a151c9cae6d01a0c680ab92e68fe73b101"


def test_evidence_0_deals_the_worlds_dealt_before_evidence() -> None:
    digest = hashlib.sha256()
    index = 0
    for players, seed in ((3, 4), (5, 6)):
        game = fcsim.Game(players=players, seed=seed)
        agent = fcsim.agent("greedy")
        for step in range(300):
            if game.over:
                break
            if step % 7 == 0:
                arrays = view_arrays(game.data)
                for skill in (0.0, 1.5):
                    hands, stocks = deal(arrays, 100 * index, 3, skill, 0.0)
                    for w in range(3):
                        digest.update(hands[w].tobytes())
                        digest.update(stocks[w].tobytes())
                index += 1
            game.step(agent(game.view()))
    assert digest.hexdigest() == BEFORE_EVIDENCE


@pytest.mark.parametrize(("stage", "skill", "evidence"), [
    (DISCARD, 0.0, 0.8), (DRAW, 1.0, 0.5), (DISCARD, 2.0, 1.0), (DRAW, 0.0, 0.0)])
def test_the_worlds_are_the_twin_s_card_for_card(stage: str, skill: float,
                                                 evidence: float) -> None:
    """Positions with a public history (every seat a few cards a plane): the twin deals
    the same hands and stock from the same generator, world after world."""
    worlds = 4
    for position in positions(31, 12, stage):
        hand, pile, known, info = (position.hand, position.pile, position.known,
                                   position.info)
        view = view_from_arguments(hand, pile, known, info, np.zeros((0, 0), np.int8))
        hands, stocks = deal((hand, pile, known, info), 40, worlds, skill, evidence)
        unseen = twin.unseen_cards(view)
        for w in range(worlds):
            twin_hands, twin_stock = twin.deal_world(view, unseen, Xoshiro256(40 + w),
                                                     exact(skill), evidence)
            for s, cards in enumerate(twin_hands):
                assert Counter(cards) == Counter(np.repeat(np.arange(N_KINDS), hands[w, s]))
            assert twin_stock == stocks[w].tolist()
