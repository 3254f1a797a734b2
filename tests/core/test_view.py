"""The decision contract: the info layout, what a view holds, oracles' hidden cards."""

from __future__ import annotations

import numpy as np

import fcsim
from fcsim.core.cards import DECK_SIZE, JOKER, parse_card
from fcsim.core.rng import game_seed, next_u64, splitmix64
from fcsim.core.rules import MAX_PLAYERS
from fcsim.core.state import S_OUT_SEAT, S_STOCK, S_TURN, unpack
from fcsim.core.view import (
    HISTORY_BLOCK,
    HISTORY_END,
    I_BEST_DISCARD,
    I_BEST_PENALTY,
    I_DISCARDED,
    I_GO_OUT_BONUS,
    I_HAND_SIZES,
    I_HISTORY,
    I_PASSED,
    I_TAKEN,
    I_TOTALS,
    I_TURN_CAP,
    INFO_SIZE,
    action_code,
    is_drawing,
    reveal,
)


def test_info_layout_is_derived_from_the_largest_table() -> None:
    from fcsim.core import view

    blocks = ("I_TOTALS", "I_HAND_SIZES", "I_HISTORY", "I_DISCARDED", "I_TAKEN", "I_PASSED",
              "I_TURN_CAP")
    scalars = sorted(v for k, v in vars(view).items() if k.startswith("I_")
                     and k not in blocks)
    assert scalars == list(range(I_TOTALS))  # every position named once, none skipped
    assert I_HAND_SIZES == I_TOTALS + MAX_PLAYERS
    assert I_HISTORY == I_DISCARDED == I_HAND_SIZES + MAX_PLAYERS
    assert HISTORY_BLOCK == MAX_PLAYERS * 56
    assert I_TAKEN == I_DISCARDED + HISTORY_BLOCK and I_PASSED == I_TAKEN + HISTORY_BLOCK
    assert I_TURN_CAP == HISTORY_END == I_PASSED + HISTORY_BLOCK  # added at the end
    assert INFO_SIZE == I_TURN_CAP + 1


def test_info_describes_the_position() -> None:
    game = fcsim.Game(players=3, seed=5, rules=fcsim.RuleSet(players=3, go_out_bonus=-5,
                                                             turn_cap=300))
    for _ in range(7):
        game.step(fcsim.agent("greedy")(game.view()))
    view = game.view()
    state = game.state
    assert view.players == 3 and view.round == game.round and view.wild_rank == view.round + 2
    assert view.stock_size == state.scalars[S_STOCK] and view.turn == state.scalars[S_TURN]
    assert view.info[I_GO_OUT_BONUS] == -5 and view.info[I_TURN_CAP] == 300
    assert list(view.info[I_TOTALS + 3 : I_TOTALS + MAX_PLAYERS]) == [0] * (MAX_PLAYERS - 3)
    assert view.hand_sizes == [view.round + 2 + (s == view.seat and view.phase == "discard")
                               for s in range(3)]


def test_every_seat_sees_the_totals_in_seat_order() -> None:
    """``view.scores[s]`` is seat ``s``'s total, whoever is to move: totals listed from
    the mover's seat would put another seat's score in each place."""
    game = fcsim.Game(players=3, seed=5)
    agent = fcsim.agent("greedy")
    movers = set()
    while game.round < 3:  # two rounds scored: totals that differ
        view = game.view()
        assert view.scores == game.totals, view.seat
        movers.add(view.seat)
        game.step(agent(view))
    assert len(set(game.totals)) > 1 and movers == {0, 1, 2}


def test_a_view_names_the_dealer_and_the_seat_that_went_out() -> None:
    """The dealer of round r is seat (r - 1) mod P (docs/ENGINE.md); once a seat has gone
    out, every view of the round's last turns names it."""
    game = fcsim.Game(players=3, seed=5)
    agent = fcsim.agent("greedy")
    last_turns = 0
    while game.round < 3:
        view = game.view()
        assert view.dealer == (view.round - 1) % view.players
        assert view.out_seat == game.state.scalars[S_OUT_SEAT]
        assert view.last_turn == (view.out_seat >= 0)
        last_turns += view.last_turn
        game.step(agent(view))
    assert last_turns > 0  # some seat went out: the views after it were checked


def test_a_draw_shows_no_best_discard() -> None:
    """The solver's best discard is given at the discard only (-1 when drawing): at the
    draw the state still holds the previous seat's, which would tell of its hidden hand."""
    game = fcsim.Game(players=3, seed=5)
    agent = fcsim.agent("greedy")
    phases = set()
    while game.round < 2:
        view = game.view()
        drawing = view.phase == "draw"
        assert (view.info[I_BEST_DISCARD] == -1) == drawing
        assert (view.info[I_BEST_PENALTY] == -1) == drawing
        phases.add(view.phase)
        game.step(agent(view))
    assert phases == {"draw", "discard"}


def test_a_view_is_drawing_when_its_hand_holds_just_the_rounds_cards() -> None:
    game = fcsim.Game(players=3, seed=5)
    phases = set()
    for _ in range(6):
        view = game.view()
        assert is_drawing(view.hand_counts, view.round) == (view.phase == "draw")
        phases.add(view.phase)
        game.step(fcsim.agent("greedy")(view))
    assert phases == {"draw", "discard"}


def test_reveal_shows_every_hand_and_the_stock_from_the_top() -> None:
    game = fcsim.Game(players=2, seed=8)
    state = game.state
    hidden = np.zeros((3, DECK_SIZE), np.int8)
    reveal(unpack(game.data), hidden)
    stock_len = int(state.scalars[S_STOCK])
    assert np.array_equal(hidden[:2, : state.hands.shape[1]], state.hands)
    assert list(hidden[2, :stock_len]) == list(state.stock[:stock_len][::-1])
    assert (hidden[2, stock_len:] == -1).all()


def test_action_codes() -> None:
    assert action_code("Stock", True) == 0 and action_code(" pile ", True) == 1
    assert action_code("stack", True) == -1 and action_code(1, True) == 1
    assert action_code("10h", False) == parse_card("10H") == action_code("TH", False)
    assert action_code("jk", False) == JOKER and action_code("zz", False) == -1
    assert action_code(True, True) == -1  # a bool is no move


def test_the_pile_top_is_none_while_the_pile_is_empty() -> None:
    game = fcsim.Game(players=2, seed=3)
    game.step("pile")  # the upcard, the pile's only card
    view = game.view()
    assert view.pile == [] and view.pile_top is None
    assert "pile_top=None" in repr(view)


def test_a_detached_view_leaves_the_games_stream_as_it_is() -> None:
    """The view's stream is the game's own (the batch engine's strategies draw from it);
    asking a strategy on the detached view changes no later reshuffle."""
    def play(ask_first: bool) -> list[int]:
        game = fcsim.Game(players=7, seed=2)
        while not game.over:
            view = game.view()
            if ask_first:
                fcsim.agent("random")(view.detached())
            game.step("stock" if view.phase == "draw" else view.legal_actions[0])
        return game.totals

    assert play(ask_first=True) == play(ask_first=False)
    view = fcsim.Game(players=2, seed=1).view()
    before = view.rng.copy()
    fcsim.agent("random")(view.detached())
    assert np.array_equal(view.rng, before)
    fcsim.agent("random")(view)
    assert not np.array_equal(view.rng, before)  # live: as the batch engine's strategies


_WORD = 2**64
_GOLDEN = 0x9E3779B97F4A7C15


def _unshift(z: int, bits: int) -> int:
    """x with x ^ (x >> bits) == z."""
    x = z
    for _ in range(64 // bits + 1):
        x = z ^ (x >> bits)
    return x


def _unmix(y: int) -> int:
    """x with splitmix64(x) == y (each of its steps undone, last first)."""
    z = _unshift(y, 31) * pow(0x94D049BB133111EB, -1, _WORD) % _WORD
    z = _unshift(z, 27) * pow(0xBF58476D1CE4E5B9, -1, _WORD) % _WORD
    return (_unshift(z, 30) - _GOLDEN) % _WORD


def test_a_seats_stream_gives_the_game_away_no_more() -> None:
    """The stream a view hands its strategy is the seat's own, seeded one-way: undoing
    splitmix64 (which gave the game seed away when strategies drew from the play stream)
    gives nothing, and the view's array holds no part of the game's state, so writing it
    deals nothing."""
    game = fcsim.Game(players=3, seed=7, game=2)
    view = game.view()
    seed = int(game_seed(np.uint64(7), np.uint64(2)))
    assert _unmix(_unmix(int(view.rng[0])) ^ int(splitmix64(np.uint64(0)))) != seed
    assert _unmix(int(view.rng[0])) ^ int(splitmix64(np.uint64(0))) != seed
    assert view.rng.base is None and not np.shares_memory(view.rng, game.data.streams)

    def play(tamper: bool) -> list[dict]:
        twin = fcsim.Game(players=3, seed=7, game=2)
        while not twin.over:
            seen = twin.view()
            if tamper:
                seen.rng[:] = np.arange(1, 5, dtype=np.uint64)  # "a seed of its choosing"
            twin.step("stock" if seen.phase == "draw" else seen.legal_actions[0])
        return [e for e in twin.events if e["event"] in ("deal", "reshuffle")]

    assert play(tamper=True) == play(tamper=False)


def test_a_seats_random_choices_move_no_other_seat_nor_the_reshuffles() -> None:
    """Seat 0 plays the same moves (the stock, its first card), drawing random numbers it
    does not use, or none: the other seats (random) choose alike and the stock is
    reshuffled alike, so the games are the same event for event (with one stream for all
    they parted at seat 0's first draw)."""

    def first(view: fcsim.View) -> str:
        return "stock" if view.phase == "draw" else view.legal_actions[0]

    def burner(view: fcsim.View) -> str:
        for _ in range(3):
            next_u64(view.rng)
        return first(view)

    def events(seat_0: object) -> list[dict]:
        game = fcsim.Game(players=5, seed=2)
        game.play([seat_0] + [fcsim.agent("random")] * 4, names=["seat 0"] + ["random"] * 4)
        return game.events

    quiet = events(first)
    assert any(e["event"] == "reshuffle" for e in quiet)
    assert events(burner) == quiet
