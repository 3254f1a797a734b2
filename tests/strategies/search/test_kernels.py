"""The search's decision: honest (the hidden part of the state changes nothing),
deterministic given the rng, and its pieces (candidates, choice) as documented."""

from __future__ import annotations

import numpy as np
import pytest

import fcsim
from fcsim.core.cards import DECK_SIZE
from fcsim.core.state import S_STOCK, copy_state, shared_scratch, state_views
from fcsim.core.tables import solver_table
from fcsim.core.view import DRAW_STOCK, I_BEST_DISCARD, NO_HIDDEN, reveal, view_arrays
from fcsim.strategies import parse_strategy
from fcsim.strategies.search.player import choose, futile
from tests.strategies.positions import DISCARD, fast_decision, positions

SEARCH = "search:worlds=16"


def _reshuffled_hidden(data: fcsim.core.state.StateData, seat: int):
    """A copy of ``data`` with one unknown card of ``seat``'s hand swapped with a
    different stock card: the view of the seat to move is unchanged."""
    twin = copy_state(data)
    state = state_views(twin)
    stock = state.stock[: state.scalars[S_STOCK]]
    unknown = np.flatnonzero(state.hands[seat] > state.known[seat])
    for card in unknown:
        for j in range(stock.size):
            if stock[j] != card:
                state.hands[seat, card] -= 1
                state.hands[seat, stock[j]] += 1
                stock[j] = card
                return twin
    return None


def _positions(players: int, seed: int, count: int):
    """Discard decisions of seat 0 in a game of greedy players (late enough to matter)."""
    game = fcsim.Game(players=players, seed=seed)
    agent = fcsim.agent("greedy:take_margin=0")  # positions as they were pinned
    found = []
    while not game.over and len(found) < count:
        if game.phase == "discard" and game.to_move == 0 and game.round >= 3:
            found.append(copy_state(game.data))
        game.step(agent(game.view()))
    return found


def _decide(strategy, data, hidden: np.ndarray) -> int:
    hand, pile, known, info = view_arrays(data)
    rng = np.array([1, 2, 3, 4], dtype=np.uint64)
    return int(strategy.discard(hand, pile, known, info, hidden, strategy.param_vector,
                                solver_table(), shared_scratch(), rng))


def _revealed(data, players: int) -> np.ndarray:
    hidden = np.full((players + 1, DECK_SIZE), -1, dtype=np.int8)
    reveal(state_views(data), hidden)
    return hidden


@pytest.mark.parametrize(("players", "spec"), [(3, SEARCH), (3, f"{SEARCH},evidence=0.8")])
def test_decisions_do_not_depend_on_hidden_cards(players: int, spec: str) -> None:
    """Same view, other hands and stock → same decision, even if the hidden part were
    handed to it (the evidence reads the public history only); the perfect-information
    search, given the same, does change its mind."""
    fair, perfect = parse_strategy(spec), parse_strategy("search_oracle:worlds=16")
    changed = 0
    for data in _positions(players, seed=11, count=12):
        twin = _reshuffled_hidden(data, seat=1)
        assert twin is not None
        for a, b in zip(view_arrays(data), view_arrays(twin), strict=True):
            assert np.array_equal(a, b)
        decision = _decide(fair, data, NO_HIDDEN)
        assert _decide(fair, data, _revealed(data, players)) == decision
        assert _decide(fair, twin, _revealed(twin, players)) == decision
        changed += _decide(perfect, data, _revealed(data, players)) != _decide(
            perfect, twin, _revealed(twin, players))
    assert changed > 0  # the test can tell a player that reads hidden cards


def test_same_rng_same_decision_and_one_number_drawn() -> None:
    strategy = parse_strategy(SEARCH)
    data = _positions(4, seed=3, count=6)[-1]
    hand, pile, known, info = view_arrays(data)
    args = (pile, known, info, NO_HIDDEN, strategy.param_vector, solver_table(),
            shared_scratch())
    first, second = np.array([5, 6, 7, 8], np.uint64), np.array([5, 6, 7, 8], np.uint64)
    a = strategy.discard(hand, *args, first)
    assert strategy.discard(hand.copy(), *args, second) == a
    assert np.array_equal(first, second) and not np.array_equal(first, [5, 6, 7, 8])


def test_trivial_decisions_are_not_searched() -> None:
    """On a last turn the best discard is exact; a pile card that cannot help is passed."""
    strategy = parse_strategy(SEARCH)
    game = fcsim.Game(players=2, seed=8)
    agent = fcsim.agent("greedy:take_margin=0")  # positions as they were pinned
    seen_last, seen_blind = False, False
    while not game.over and not (seen_last and seen_blind):
        view = game.view()
        rng = view.rng.copy()
        if view.phase == "discard" and view.last_turn:
            assert strategy(view) == fcsim.format_card(int(view.info[I_BEST_DISCARD]))
            seen_last = True
        elif view.phase == "draw" and agent(view) == "stock":
            # A pile card greedy (asking nothing) passes cannot lower the penalty: no world
            # is dealt, so the rng is not touched.
            assert strategy(view) == "stock" and np.array_equal(rng, view.rng)
            seen_blind = True
        game.step(agent(view))
    assert seen_last and seen_blind


def test_choose_keeps_the_anchor_unless_beaten_with_confidence() -> None:
    rng = np.random.default_rng(0)
    noise = rng.normal(0, 1, 64)
    values = np.stack([10 + noise, 9 + noise + rng.normal(0, 0.1, 64), 12 + noise])
    assert choose(values, 0.0) == 1
    assert choose(values, 2.0) == 1  # a clear, paired advantage
    assert choose(values, 1e3) == 0  # not that clear
    assert choose(values[[0, 2]], 0.0) == 0  # nothing beats the anchor
    assert choose(values[[0, 0]].copy(), 0.0) == 0  # a tie keeps it
    assert DRAW_STOCK == 0


def test_futile_when_no_candidate_is_near_overruling_the_anchor() -> None:
    rng = np.random.default_rng(1)
    noise = rng.normal(0, 1, 16)
    anchor = 10 + noise
    near = anchor - (0.1 + np.resize([1.0, -1.0], 16))  # ahead by 0.1 ± 1: 0.39 SE
    ahead = 9 + noise + rng.normal(0, 0.1, 16)  # ahead by many standard errors
    behind = 11 + noise
    assert futile(np.stack([anchor, behind]), 1.0, 3.0)
    assert futile(np.stack([anchor, near, behind]), 1.0, 3.0)
    assert not futile(np.stack([anchor, near, ahead]), 1.0, 3.0)
    assert not futile(np.stack([anchor, behind]), 0.0, 3.0)  # 0: never
    assert not futile(np.stack([anchor, behind]), 1.0, 1.0)  # a gate no stricter: never
    # the same paired gain judged against a stricter margin
    gain = anchor - near
    z = gain.mean() / (gain.std() / np.sqrt(15))
    assert z == pytest.approx(0.1 * np.sqrt(15))
    pair = np.stack([anchor, near])
    assert not futile(pair, z / 2, 3.0) and futile(pair, z * 2, 3.0)


def test_a_futile_first_look_keeps_the_anchor_s_move_without_the_other_worlds() -> None:
    """With ``futility`` a search that sees no candidate near overruling the anchor after
    the first quarter of its worlds keeps the anchor's move: it decides as the full search
    (``futility=0``) or as the anchor, and at some positions as the anchor where the full
    search, on every world, would have overruled it (else the stop would never have
    happened)."""
    # aware anchors the kernels module itself (no copy to compile); a futility just below
    # the gate stops every search whose first look is not already near passing it
    base = "search:worlds=32,confidence=1,anchor=aware"
    full = parse_strategy(f"{base},futility=0")
    stopping = parse_strategy(f"{base},futility=0.9")
    anchor = parse_strategy("aware")
    kept = 0
    for position in positions(97, 60, DISCARD):
        searched, stopped = fast_decision(full, position), fast_decision(stopping, position)
        assert stopped in (searched, fast_decision(anchor, position)), position.describe()
        kept += stopped != searched
    assert kept > 0


def test_as_an_agent_it_plays_the_batch_engine_game() -> None:
    """Deterministic per game seed: stepped from Python or played in the batch engine, the
    same seed gives the same game, move for move."""
    from fcsim.core.rng import game_seed
    from fcsim.replay import game_events

    rules = fcsim.RuleSet(players=2, rounds=6)
    strategies = [parse_strategy("search:worlds=8"), parse_strategy("aware")]
    game = fcsim.Game(seed=9, game=0, rules=rules)
    game.play([fcsim.agent(s.spec) for s in strategies])
    assert game.events == game_events(int(game_seed(np.uint64(9), np.uint64(0))), strategies,
                                      rules)
