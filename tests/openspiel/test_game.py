"""python_five_crowns: the same game as fcsim.Game event for event, OpenSpiel's own
consistency check, a hand-made position as OpenSpiel sees it, honest observers and
resampler, and bad input refused in one line."""

from __future__ import annotations

import pickle
import time

import numpy as np
import pytest

pytest.importorskip("pyspiel")

import pyspiel
from open_spiel.python.observation import make_observation

import fcsim
from fcsim.core.cards import DECK_SIZE, parse_card
from fcsim.core.state import S_DRAWN, state_views
from fcsim.env.encoding import action_index
from fcsim.openspiel import GAME_NAME, FiveCrownsGame, FiveCrownsState


def stock_only(view: fcsim.View) -> str:
    """Never takes the pile, so the pile grows until the stock is reshuffled."""
    return "stock" if view.phase == "draw" else view.legal_actions[-1]


# (rules, seat specs, seed, game): 2 to 7 players and every variant.
TABLES = [
    (fcsim.RuleSet(players=2), ["greedy", stock_only], 4, 0),
    (fcsim.RuleSet(players=2), ["greedy", "random"], 3, 0),
    (fcsim.RuleSet(players=3, rounds=6, wild_penalty="face"), ["random"] * 3, 5, 1),
    (fcsim.RuleSet(players=4, go_out_bonus=-10, all_wild_melds=False),
     ["greedy", "random", "greedy", "random"], 11, 2),
    (fcsim.RuleSet(players=5, turn_cap=10), ["random"] * 5, 7, 0),
    (fcsim.RuleSet(players=6, rounds=6, wild_penalty=15), ["greedy", "random"] * 3, 2, 4),
    (fcsim.RuleSet(players=7), [stock_only] * 5 + ["greedy", "random"], 1, 9),
]


def params_of(rules: fcsim.RuleSet) -> dict:
    """OpenSpiel's parameters of fcsim's rules."""
    wild = 0 if rules.wild_penalty == "face" else rules.wild_penalty
    return {"players": rules.players, "rounds": rules.rounds, "wild_penalty": wild,
            "go_out_bonus": rules.go_out_bonus, "all_wild_melds": rules.all_wild_melds,
            "turn_cap": rules.turn_cap}


def drive_as_fcsim(rules: fcsim.RuleSet, specs: list[str], seed: int, game: int,
                   os_seed: int = 12345) -> tuple[fcsim.Game, FiveCrownsState]:
    """Play fcsim.Game(seed, game) with ``specs``, and the OpenSpiel game beside it with
    the same moves and the chance outcomes fcsim's seed produced: fcsim's deal (the
    stock's top down) and each stock card fcsim drew. The OpenSpiel state runs on
    another seed underneath (``os_seed``), so only the chance outcomes can make it
    equal."""
    fc = fcsim.Game(rules=rules, seed=seed, game=game)
    agents = [fcsim.agent(spec) for spec in specs]
    state = FiveCrownsState(FiveCrownsGame(params_of(rules)), seed=os_seed)
    while not state.is_terminal():
        if state.dealing:
            card = state_views(fc.data).stock[DECK_SIZE - 1 - len(state.dealt)]
            state.apply_action(int(card))
        elif state.is_chance_node():  # a stock draw fcsim has just made
            state.apply_action(int(fc.data.ints[S_DRAWN]))
        else:
            assert state.current_player() == fc.to_move
            action = agents[fc.to_move](fc.view())
            fc.step(action)
            state.apply_action(action_index(str(action)))
    return fc, state


@pytest.mark.parametrize(("rules", "specs", "seed", "game"), TABLES)
def test_the_game_driven_by_fcsims_chance_is_fcsims_event_for_event(rules, specs, seed,
                                                                     game) -> None:
    fc, state = drive_as_fcsim(rules, specs, seed, game)
    assert fc.over
    assert state.events == fc.events
    assert state.returns() == [-float(t) for t in fc.totals]


def test_the_equivalence_covers_reshuffles_and_capped_rounds() -> None:
    kinds = set()
    for rules, specs, seed, game in TABLES:
        fc, _ = drive_as_fcsim(rules, specs, seed, game)
        kinds |= {event["event"] for event in fc.events}
    assert {"reshuffle", "capped"} <= kinds


def test_the_seed_underneath_never_shows() -> None:
    """Two states on different fcsim seeds, given the same chance outcomes, are the same
    game to every player, at every node."""
    rules = fcsim.RuleSet(players=3, rounds=6)
    game = FiveCrownsGame(params_of(rules))
    a, b = FiveCrownsState(game, seed=1), FiveCrownsState(game, seed=2)
    rng = np.random.default_rng(4)
    while not a.is_terminal():
        for p in range(3):
            assert a.information_state_string(p) == b.information_state_string(p)
            assert a.observation_tensor(p) == b.observation_tensor(p)
            assert a.information_state_tensor(p) == b.information_state_tensor(p)
        assert a.legal_actions() == b.legal_actions()
        assert a.chance_outcomes() == b.chance_outcomes() if a.is_chance_node() else True
        if a.is_chance_node():
            outcomes, probs = zip(*a.chance_outcomes(), strict=True)
            action = int(rng.choice(outcomes, p=probs))
        else:
            action = int(rng.choice(a.legal_actions()))
        a.apply_action(action)
        b.apply_action(action)
        assert a.rewards() == b.rewards()
    assert b.is_terminal() and a.returns() == b.returns() and a.events == b.events


@pytest.mark.parametrize("players", [2, 4, 7])
def test_openspiels_random_simulation_test_passes_on_the_short_game(players) -> None:
    game = pyspiel.load_game(GAME_NAME, {"players": players, "rounds": 6})
    started = time.perf_counter()
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    assert time.perf_counter() - started < 20


def test_a_whole_game_serializes_small_and_comes_back_whole() -> None:
    """A state pickles its event trace as a list (a chain of links recursed once per step,
    past Python's limit within a round or two) and its shared part as the rules (the solver
    table is 11 MB)."""
    game = pyspiel.load_game(GAME_NAME, {"players": 4})
    state, rng = game.new_initial_state(), np.random.default_rng(5)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    data = state.serialize()
    assert len(data) < 500_000
    back = game.deserialize_state(data)
    assert back.returns() == state.returns() and back.events == state.events
    assert back.history() == state.history() and back.fixed is state.fixed
    assert pickle.loads(pickle.dumps(state)).events == state.events


def test_the_game_loads_by_name_with_fcsims_defaults() -> None:
    game = pyspiel.load_game(GAME_NAME)
    assert game.get_parameters() == {"players": 4, "rounds": 11, "wild_penalty": 20,
                                     "go_out_bonus": 0, "all_wild_melds": True,
                                     "turn_cap": 2000}
    assert game.num_players() == 4
    assert game.num_distinct_actions() == 58 and game.max_chance_outcomes() == 56
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = dict(state.chance_outcomes())
    assert outcomes[parse_card("JK")] == pytest.approx(6 / 116)
    assert outcomes[parse_card("7H")] == pytest.approx(2 / 116)
    assert str(game.max_utility()) == "0.0"  # without a going-out bonus: not -0.0


@pytest.mark.parametrize("private", ["NONE", "ALL_PLAYERS"])
def test_an_observer_of_other_information_is_refused(private) -> None:
    """An observer shows the public information and the player's own cards; one asked
    for less (public only) or more (every hand) would show something else than asked."""
    game = pyspiel.load_game(GAME_NAME, {"players": 3})
    asked = pyspiel.IIGObservationType(perfect_recall=False, public_info=True,
                                       private_info=getattr(pyspiel.PrivateInfoType, private))
    with pytest.raises(pyspiel.SpielError, match=f"own cards only, not public_info=True, "
                                                 f"private_info={private}"):
        make_observation(game, asked)


def _cards(*codes: str) -> list[int]:
    return [parse_card(code) for code in codes]


def hand_made() -> FiveCrownsState:
    """Round 1 of two players, dealer 0: seat 1 holds 4S 5S 7H, seat 0 8D 10C QH, the
    upcard 6S (cards are dealt one at a time from the dealer's left)."""
    state = pyspiel.load_game(GAME_NAME, {"players": 2}).new_initial_state()
    for card in _cards("4S", "8D", "5S", "10C", "7H", "QH", "6S"):
        state.apply_action(card)
    return state


def test_a_hand_made_position_as_openspiel_sees_it() -> None:
    state = hand_made()
    assert state.current_player() == 1
    assert state.legal_actions() == [0, 1]
    assert [state.action_to_string(1, a) for a in state.legal_actions()] == ["stock", "pile"]
    assert state.information_state_string(1) == (
        "p1 round 1 dealer p0 | p1 to draw | turn 0 stock 109 | hand 4S 5S 7H | pile 6S "
        "| sizes 3 3 | totals 0 0 | seen d4S d5S d7H u6S")
    assert state.observation_string(0) == (
        "p0 round 1 dealer p0 | p1 to draw | turn 0 stock 109 | hand QH 8D 10C "
        "| pile top 6S (1) | sizes 3 3 | totals 0 0")
    state.apply_action(1)  # seat 1 takes the 6S: 4S 5S 6S melds, it goes out with 7H
    assert state.current_player() == 0 and state.legal_actions() == [0, 1]
    assert state.information_state_string(0) == (
        "p0 round 1 dealer p0 | p0 to draw | turn 1 stock 109 | out p1 | hand QH 8D 10C "
        "| pile 7H | known p1:6S | discarded p1:7H | taken p1:6S | sizes 3 3 "
        "| totals 0 0 | seen d8D d10C dQH u6S p1p6S p1d7H*")
    state.apply_action(0)  # seat 0's last turn: from the stock…
    assert state.is_chance_node()
    assert dict(state.chance_outcomes())[parse_card("4S")] == pytest.approx(1 / 109)
    state.apply_action(parse_card("KS"))  # …the KS, which it discards
    assert state.legal_actions() == [2 + k for k in _cards("KS", "QH", "8D", "10C")]
    state.apply_action(2 + parse_card("KS"))
    assert state.is_chance_node() and state.dealing  # round 2 is dealt
    assert state.returns() == [-30.0, 0.0]
    assert [e["event"] for e in state.events][-3:] == ["turn", "score", "score"]


def test_rewards_come_with_the_round_that_ends() -> None:
    state = hand_made()
    state.apply_action(1)
    assert state.rewards() == [0.0, 0.0]
    state.apply_action(0)
    state.apply_action(parse_card("KS"))
    state.apply_action(2 + parse_card("KS"))
    assert state.rewards() == [-30.0, -0.0]


def test_only_the_discarding_seat_sees_its_best_penalty() -> None:
    """The solver's hint is worked out from the discarding seat's hidden hand, so only
    that seat's strings show it; another seat's would learn how good that hand is."""
    state = hand_made()
    state.apply_action(1)  # seat 1 takes the 6S and goes out
    state.apply_action(0)  # seat 0's last turn: from the stock…
    state.apply_action(parse_card("KS"))  # …the KS: KS QH 8D 10C, nothing melds
    hint = "best penalty 30"  # discarding the KS leaves QH 12 + 10C 10 + 8D 8
    assert hint in state.observation_string(0)
    assert hint in state.information_state_string(0)
    assert state.observation_string(1) == (
        "p1 round 1 dealer p0 | p0 to discard | turn 1 stock 108 | out p1 | hand 4S 5S 6S "
        "| pile top 7H (1) | sizes 4 3 | totals 0 0")
    assert "best penalty" not in state.information_state_string(1)


def test_a_seats_information_never_depends_on_the_cards_it_has_not_seen() -> None:
    """Resampled worlds keep everything the seat sees, and a world is a function of the
    seat's information alone: resampling two states that differ only in what the seat
    cannot see gives the same world."""
    rng = np.random.default_rng(1)
    state = FiveCrownsState(FiveCrownsGame({"players": 4}))
    checked = 0
    while not state.is_terminal() and checked < 20:
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
            continue
        seat = int(rng.integers(4))
        world = state.resample_from_infostate(seat, lambda: 0.3)
        other = state.resample_from_infostate(seat, lambda: 0.7)
        for twin in (world, other):
            assert twin.information_state_string(seat) == state.information_state_string(seat)
            assert twin.observation_string(seat) == state.observation_string(seat)
            assert twin.information_state_tensor(seat) == state.information_state_tensor(seat)
            assert twin.observation_tensor(seat) == state.observation_tensor(seat)
            if seat == state.current_player():
                assert twin.legal_actions() == state.legal_actions()
        again = other.resample_from_infostate(seat, lambda: 0.3)
        for a, b in zip(state_views(world.data), state_views(again.data), strict=True):
            assert np.array_equal(a, b)
        for s in range(4):  # the past dealt the other seats too
            assert world.information_state_string(s) == again.information_state_string(s)
        hidden = [s for s in range(4) if s != seat]
        real = state_views(state.data)
        assert any(not np.array_equal(state_views(other.data).hands[s], real.hands[s])
                   for s in hidden)
        checked += 1
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert checked == 20


def test_while_dealing_a_seat_sees_only_its_own_cards_so_far() -> None:
    state = pyspiel.load_game(GAME_NAME, {"players": 2}).new_initial_state()
    for card in _cards("4S", "8D", "5S"):
        state.apply_action(card)
    assert state.information_state_string(1) == (
        "p1 round 1 dealer p0 | dealing card 4 of 7 | hand 4S 5S | totals 0 0 "
        "| seen d4S d5S")
    assert state.observation_string(0).endswith("| hand 8D | totals 0 0")
    with pytest.raises(pyspiel.SpielError, match="decision node"):
        state.resample_from_infostate(0, lambda: 0.5)


@pytest.mark.parametrize(("text", "fragment"), [
    ("python_five_crowns(foo=1)", "Unknown parameter 'foo'"),
    ("python_five_crowns(players=9)", "players must be 2 to 7, not 9"),
    ("python_five_crowns(players=1)", "players must be 2 to 7, not 1"),
    ("python_five_crowns(rounds=7)", "rounds must be 11 (full game) or 6"),
    ("python_five_crowns(wild_penalty=-2)", "wild_penalty must be 0 (face value) or 1"),
    ("python_five_crowns(go_out_bonus=5)", "go_out_bonus must be"),
    ("python_five_crowns(turn_cap=3)", "turn_cap must be 10"),
    ("python_five_crowns(players=two)", "Wrong type for parameter players"),
])
def test_bad_parameters_are_one_line_naming_them(text, fragment) -> None:
    with pytest.raises(pyspiel.SpielError) as caught:
        pyspiel.load_game(text)
    assert fragment in str(caught.value)
    assert "\n" not in str(caught.value).strip()


def test_an_illegal_action_names_itself_and_the_legal_ones() -> None:
    state = hand_made()
    with pytest.raises(pyspiel.SpielError) as caught:
        state.apply_action(2 + parse_card("7H"))
    assert str(caught.value) == ("python_five_crowns: action 17 (discard 7H) is not legal; "
                                 "legal actions: 0 (stock), 1 (pile)")
    state.apply_action(0)
    with pytest.raises(pyspiel.SpielError, match="chance outcome 57 is not a card"):
        state.apply_action(57)
    assert state.is_chance_node()  # nothing changed


@pytest.mark.parametrize("player", [-1, 2, 7, 100])
def test_resampling_for_a_seat_the_game_does_not_have_is_refused(player) -> None:
    """fcsim's kernels index the seats unchecked: seat 2 of two players resampled every
    hand (a world nobody sees), 7 read past the arrays."""
    state = hand_made()
    with pytest.raises(pyspiel.SpielError) as caught:
        state.resample_from_infostate(player, lambda: 0.5)
    assert str(caught.value) == (f"python_five_crowns: player {player} is not a seat of "
                                 f"this game (0 to 1)")


def test_a_seat_on_zero_returns_zero_not_minus_zero() -> None:
    """evaluate_bots printed a seat that went out every round as -0.0."""
    state = hand_made()
    assert [str(r) for r in state.returns()] == ["0.0", "0.0"]
    state.apply_action(1)  # seat 1 goes out
    state.apply_action(0)
    state.apply_action(parse_card("KS"))
    state.apply_action(2 + parse_card("KS"))
    assert [str(r) for r in state.returns()] == ["-30.0", "0.0"]
