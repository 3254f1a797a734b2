"""Perfect recall in python_five_crowns: each seat's information state is everything it
saw, and a resampled world comes with a past that fits it, held to a card-by-card
bookkeeping of that past."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

pytest.importorskip("pyspiel")

import pyspiel

import fcsim
from fcsim.core.cards import N_KINDS, full_deck, parse_card
from fcsim.core.solver import best_discard
from fcsim.core.state import (
    PHASE_DISCARD,
    S_BEST_DISCARD,
    S_BEST_PENALTY,
    S_PHASE,
    S_PILE,
    S_ROUND,
    S_STOCK,
    state_views,
)
from fcsim.env.encoding import ACTION_STOCK
from fcsim.openspiel import GAME_NAME, FiveCrownsGame, FiveCrownsState, recall
from fcsim.openspiel.bots import root_from_view
from fcsim.openspiel.recall import (
    DEAL,
    DISCARD,
    END,
    PILE,
    RESHUFFLE,
    START,
    STOCK,
    UNKNOWN,
    UP,
)

PUBLIC = (UP, PILE, DISCARD, RESHUFFLE, END)


def _cards(*codes: str) -> list[int]:
    return [parse_card(code) for code in codes]


def _played(first: str, drawn: str) -> FiveCrownsState:
    """Round 1 of two players: seat 1 dealt ``first`` JC KC draws ``drawn`` from the stock
    and discards the 9D."""
    state = pyspiel.load_game(GAME_NAME, {"players": 2}).new_initial_state()
    for card in _cards(first, "8D", "JC", "10C", "KC", "QH", "6S"):
        state.apply_action(card)
    state.apply_action(0)
    state.apply_action(parse_card(drawn))
    state.apply_action(2 + parse_card("9D"))
    return state


def test_two_pasts_the_seat_saw_differently_are_two_information_states() -> None:
    """Dealt 9D JC KC drawing the 5H, or dealt 5H JC KC drawing the 9D, then discarding
    the 9D: the hands and the table are the same, the seat's memory is not. The seat that
    saw neither card cannot tell the two apart. (The tensor is the environments'
    observation: what is on the table now, not the past.)"""
    a, b = _played("9D", "5H"), _played("5H", "9D")
    assert a.observation_string(1) == b.observation_string(1)
    assert a.information_state_string(1).endswith("seen d9D dJC dKC u6S p1s5H p1d9D")
    assert b.information_state_string(1).endswith("seen d5H dJC dKC u6S p1s9D p1d9D")
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.information_state_string(0).endswith("seen d8D d10C dQH u6S p1s p1d9D")
    assert a.information_state_tensor(1) == b.information_state_tensor(1)


def test_a_round_ends_with_every_hand_laid_down() -> None:
    """Seat 1 goes out taking the 6S; seat 0's last turn draws the KS and throws it. The
    hands are scored face up: both seats remember them."""
    state = pyspiel.load_game(GAME_NAME, {"players": 2}).new_initial_state()
    for card in _cards("4S", "8D", "5S", "10C", "7H", "QH", "6S"):
        state.apply_action(card)
    for action in (1, 0, parse_card("KS"), 2 + parse_card("KS")):
        state.apply_action(action)
    assert state.dealing
    for seat, dealt in ((0, "d8D d10C dQH"), (1, "d4S d5S d7H")):
        drew = "p0sKS" if seat == 0 else "p0s"
        assert state.information_state_string(seat).endswith(
            f"seen {dealt} u6S p1p6S p1d7H* {drew} p0dKS EQH,8D,10C/4S,5S,6S")


def _sightings(state: FiveCrownsState) -> list[tuple]:
    return list(state.seen.items())


def _reshuffled_this_round(state: FiveCrownsState) -> bool:
    items = _sightings(state)
    ends = [i for i, item in enumerate(items) if item[0] == END]
    return any(item[0] == RESHUFFLE for item in items[ends[-1] + 1 if ends else 0:])


def check_past(state: FiveCrownsState) -> bool:
    """Play the world's past card by card: every dealt card from the deck, every stock card
    from the stock (after a reshuffle, the old pile's cards), every pile card from the
    pile's top, every discard from the hand, the hands laid down as the game held them,
    and the hands and stock of the world as they are now. A round whose past the search
    did not find (its other seats' cards unknown) is skipped. Whether the round being
    played had a reshuffle and was checked."""
    players = state.rules.players
    deck = Counter(full_deck().tolist())
    hands = [Counter() for _ in range(players)]
    pile: list[int] = []
    stock: Counter = Counter()
    reshuffled = skipped = False
    for item in _sightings(state):
        code = item[0]
        if code == END:
            assert skipped or [+h for h in hands] == [
                Counter({k: n for k, n in enumerate(row) if n}) for row in item[1]]
            hands, reshuffled, skipped = [Counter() for _ in range(players)], False, False
        elif skipped or (code in (DEAL, STOCK) and item[2] == UNKNOWN):
            skipped = True
        elif code == DEAL:
            hands[item[1]][item[2]] += 1
        elif code == UP:
            pile = [item[1]]
            stock = deck - sum(hands, Counter()) - Counter(pile)
        elif code == START:
            hands = [Counter({k: n for k, n in enumerate(row) if n}) for row in item[1]]
            pile = list(item[3])
            stock = deck - sum(hands, Counter()) - Counter(pile)
        elif code == RESHUFFLE:  # the pile but its top, as the sighting names them
            assert not +stock
            assert Counter({k: n for k, n in enumerate(item[1]) if n}) == Counter(pile[:-1])
            stock, pile, reshuffled = Counter(pile[:-1]), pile[-1:], True
        elif code == STOCK:
            assert stock[item[2]] > 0
            stock[item[2]] -= 1
            hands[item[1]][item[2]] += 1
        elif code == PILE:
            assert pile.pop() == item[2]
            hands[item[1]][item[2]] += 1
        elif code == DISCARD:
            assert hands[item[1]][item[2]] > 0
            hands[item[1]][item[2]] -= 1
            pile.append(item[2])
    if skipped:
        return False
    now = state_views(state.data)
    assert [+h for h in hands] == [Counter({k: int(n) for k, n in enumerate(row) if n})
                                   for row in now.hands]
    assert +stock == Counter(now.stock[: int(state.data.ints[S_STOCK])].tolist())
    assert pile == now.pile[: int(state.data.ints[S_PILE])].tolist()
    return reshuffled


@pytest.mark.parametrize("players", [3, 7])
def test_a_resampled_world_has_a_past_that_fits_it(players) -> None:
    """Long rounds of seats that always draw from the stock and discard at random, so that
    stocks run out and are reshuffled: at every 8th decision of a whole game, and every 2nd
    after a reshuffle, a random seat's world is resampled. It keeps
    what the seat saw and what the table saw, deals the other seats a past of their own,
    and that past plays card by card into the world's hands and stock."""
    rng, sampler = np.random.default_rng(3), np.random.default_rng(players)
    state = FiveCrownsState(FiveCrownsGame({"players": players}))
    worlds = reshuffles = decisions = 0
    while not state.is_terminal() and (worlds < 50 or reshuffles < 3):
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
            continue
        decisions += 1
        after = _reshuffled_this_round(state)
        if decisions % (2 if after else 8) == 0:
            seat = int(sampler.integers(players))
            world = state.resample_from_infostate(seat, lambda: float(sampler.random()))
            reshuffles += check_past(world)
            assert world.information_state_string(seat) == state.information_state_string(seat)
            mine = [item for item in _sightings(state) if item[0] in PUBLIC
                    or item[1] == seat]
            assert mine == [item for item in _sightings(world) if item[0] in PUBLIC
                            or item[1] == seat]
            worlds += 1
        legal = state.legal_actions()
        state.apply_action(ACTION_STOCK if ACTION_STOCK in legal else int(rng.choice(legal)))
    assert worlds >= 50 and reshuffles >= 3, (worlds, reshuffles)


def test_a_world_at_another_seat_s_discard_knows_that_seat_s_best_discard() -> None:
    """Resampled by another seat, the discarding seat holds other cards in the world: the
    solver's best discard recorded for it (whether its discard goes out) is its world
    hand's, not its real hand's."""
    rng, sampler = np.random.default_rng(5), np.random.default_rng(6)
    state = FiveCrownsState(FiveCrownsGame({"players": 3}))
    worlds = differ = 0
    while worlds < 40:
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
            continue
        mover = state.current_player()
        if int(state.data.ints[S_PHASE]) == PHASE_DISCARD:
            other = (mover + 1) % 3
            world = state.resample_from_infostate(other, lambda: float(sampler.random()))
            ints, hand = world.data.ints, state_views(world.data).hands[mover]
            expected = best_discard(fcsim.format_cards(np.repeat(np.arange(N_KINDS), hand)),
                                    int(ints[S_ROUND]))
            recorded = (fcsim.format_card(int(ints[S_BEST_DISCARD])), int(ints[S_BEST_PENALTY]))
            assert recorded == expected
            differ += recorded != (fcsim.format_card(int(state.data.ints[S_BEST_DISCARD])),
                                   int(state.data.ints[S_BEST_PENALTY]))
            worlds += 1
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert differ > 0  # the real hand's would not do


def test_a_state_built_from_a_view_remembers_from_there() -> None:
    fc = fcsim.Game(players=3, seed=5)
    fc.step("stock")
    view = fc.view()
    root = root_from_view(view, seed=2)
    hand = ",".join(view.hand)
    assert root.information_state_string(view.seat).endswith(f"seen v{hand}")
    world = root.resample_from_infostate(view.seat, lambda: 0.4)
    check_past(world)
    assert world.information_state_string(view.seat) == root.information_state_string(
        view.seat)


def test_a_round_whose_past_is_not_found_shows_its_hidden_cards_as_unknown(monkeypatch) -> None:
    """With no walk allowed, a round with a reshuffle gets no past: the other seats' dealt
    and drawn cards of it read ``?``, the player's own string is as it was, and the world
    still has every hand's size and the stock's."""
    monkeypatch.setattr(recall, "SEARCH_STEPS", 0)
    rng = np.random.default_rng(3)
    state = FiveCrownsState(FiveCrownsGame({"players": 3}))
    while not (state.current_player() >= 0 and _reshuffled_this_round(state)):
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            legal = state.legal_actions()
            state.apply_action(ACTION_STOCK if ACTION_STOCK in legal else int(rng.choice(legal)))
    seat = state.current_player()
    world = state.resample_from_infostate(seat, lambda: 0.5)
    assert world.information_state_string(seat) == state.information_state_string(seat)
    other = (seat + 1) % 3
    assert "?" in world.information_state_string(other).rpartition("seen ")[2]
    assert "?" not in state.information_state_string(other).rpartition("seen ")[2]
    real, dealt = state_views(state.data), state_views(world.data)
    assert (dealt.hands.sum(axis=1) == real.hands.sum(axis=1)).all()
    assert np.array_equal(dealt.hands[seat], real.hands[seat])
    assert int(world.data.ints[S_STOCK]) == int(state.data.ints[S_STOCK])
