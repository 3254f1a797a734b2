"""Engine properties beyond the move-for-move agreement with the reference engine."""

from __future__ import annotations

import re
from collections import Counter

import numpy as np
import pytest

import fcsim
from fcsim import RuleSet
from fcsim.core.cards import DECK_SIZE, parse_card
from fcsim.core.engine import play_games
from fcsim.core.rng import game_seed
from fcsim.replay import game_events
from fcsim.strategies import parse_strategy
from tests.compiled import requires_jit
from tests.conftest import buggy_numba_strategy

GREEDY = parse_strategy("greedy")
RANDOM = parse_strategy("random")


def _seeds(n: int, root: int = 3) -> np.ndarray:
    return np.array([game_seed(np.uint64(root), np.uint64(g)) for g in range(n)], np.uint64)


def test_games_do_not_depend_on_batching() -> None:
    rules = RuleSet(players=3)
    seeds = _seeds(12)
    seating = np.array([[g % 2, 1 - g % 2, 0] for g in range(12)], np.int8)
    whole = play_games(seeds, seating, [GREEDY, RANDOM], rules)
    for lo, hi in ((0, 5), (5, 6), (6, 12)):
        part = play_games(seeds[lo:hi], seating[lo:hi], [GREEDY, RANDOM], rules)
        assert np.array_equal(part.total, whole.total[lo:hi])
        assert np.array_equal(part.penalty, whole.penalty[lo:hi])
        assert np.array_equal(part.turns, whole.turns[lo:hi])


def test_results_are_consistent() -> None:
    rules = RuleSet(players=4, go_out_bonus=-10)
    res = play_games(_seeds(30), np.zeros((30, 4), np.int8), [GREEDY], rules)
    assert np.array_equal(res.total, res.penalty.sum(axis=1))
    low = res.total.min(axis=1, keepdims=True)
    assert np.array_equal(res.win, res.total == low)
    for g in range(30):
        for s in range(4):
            assert res.place[g, s] == 1 + (res.total[g] < res.total[g, s]).sum()
    out = res.out_seat
    assert (out >= 0).all() and not res.capped.any()
    rows = np.arange(30)[:, None]
    assert (res.penalty[rows, np.arange(11), out] == -10).all()  # the bonus, every round
    assert (res.wild_pts + res.joker_pts <= np.maximum(res.penalty, 0)).all()
    assert ((res.out_turn >= 1) & (res.out_turn <= res.turns)).all()


def test_deal_depends_only_on_seed_and_round() -> None:
    rules = RuleSet(players=4)
    deals = {}
    for table in ([GREEDY] * 4, [RANDOM] * 4):
        events = game_events(99, table, rules)
        deals[table[0].name] = [e for e in events if e["event"] == "deal"]
    assert deals["greedy"] == deals["random"]


def test_cards_are_conserved_turn_by_turn() -> None:
    rules = RuleSet(players=5, turn_cap=60)
    events = game_events(5, [RANDOM, GREEDY, RANDOM, GREEDY, RANDOM], rules)
    hands: list[Counter] = []
    pile: list[int] = []
    stock = 0
    for e in events:
        if e["event"] == "deal":
            hands = [Counter(parse_card(c) for c in h) for h in e["hands"]]
            pile = [parse_card(e["upcard"])]
            stock = DECK_SIZE - 5 * (e["round"] + 2) - 1
        elif e["event"] == "reshuffle":
            stock = e["stock_size"]
            assert stock == len(pile) - 1
            pile = pile[-1:]
        elif e["event"] == "turn":
            drawn = parse_card(e["drawn"])
            if e["source"] == "discard":
                assert pile.pop() == drawn
            else:
                stock -= 1
            hands[e["seat"]][drawn] += 1
            discard = parse_card(e["discard"])
            assert hands[e["seat"]][discard] > 0
            hands[e["seat"]][discard] -= 1
            pile.append(discard)
            assert sum(sum(h.values()) for h in hands) + len(pile) + stock == DECK_SIZE
            assert all(sum(h.values()) == e["round"] + 2 for h in hands)
        elif e["event"] == "score":
            assert Counter(parse_card(c) for c in e["hand"]) == +hands[e["seat"]]


def test_turn_cap_flags_and_scores_every_player() -> None:
    rules = RuleSet(players=4, turn_cap=10)
    res = play_games(_seeds(4), np.zeros((4, 4), np.int8), [RANDOM], rules)
    assert res.capped.any()
    capped = res.capped
    assert (res.turns[capped] == 10).all()
    assert (res.out_seat[capped] == -1).all() and (res.out_turn[capped] == 0).all()
    assert (res.penalty[capped] > 0).all()  # nobody could go out, so nobody is at 0


@pytest.mark.parametrize("rounds", [11, 6])
def test_round_count(rounds: int) -> None:
    rules = RuleSet(players=2, rounds=rounds)
    res = play_games(_seeds(2), np.zeros((2, 2), np.int8), [GREEDY], rules)
    assert res.penalty.shape == (2, rounds, 2)
    events = game_events(1, [GREEDY, GREEDY], rules)
    wild = [e["wild_rank"] for e in events if e["event"] == "deal"]
    assert wild == list(range(3, 3 + rounds))


def test_the_core_stands_alone() -> None:
    """The engine loads no strategy, runner, CLI or analysis module (the arrows go one way)."""
    import subprocess
    import sys

    code = ("import sys, fcsim.core.engine, fcsim.game; "
            "print(sorted(m for m in sys.modules if m.startswith(('fcsim.strategies', "
            "'fcsim.runner', 'fcsim.cli', 'fcsim.analysis'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "[]"


@requires_jit
def test_decision_functions_reach_the_engine_as_first_class_functions() -> None:
    """Even a decision function also called from Python (compiled there for C-layout
    arrays) reaches the engine as a function value, never as its dispatcher: a dispatcher
    in the engine's signature would be pickled into the engine's kernel cache, and every
    process loading it would compile the strategy again, uncached."""
    import numba
    from numba.core import types

    from fcsim.core.cards import N_KINDS
    from fcsim.core.engine import decision_tables
    from fcsim.core.view import INFO_SIZE, NO_HIDDEN

    strategy = parse_strategy("random")
    hand = np.zeros(N_KINDS, np.int8)
    hand[:4] = 1
    strategy.family.draw(hand, hand.copy(), np.zeros((4, N_KINDS), np.int8),
                         np.zeros(INFO_SIZE, np.int64), NO_HIDDEN, np.zeros(1),
                         np.zeros((1, 1), np.uint8), np.zeros(8, np.int64),
                         np.zeros(4, np.uint64))  # C-layout arrays: an overload of its own
    assert strategy.family.draw.overloads
    for table in decision_tables([strategy] * 4)[:2]:
        kind = numba.typeof(table)
        assert isinstance(kind, types.UniTuple) and isinstance(kind.dtype, types.FunctionType)


@pytest.mark.parametrize("other", ["greedy", "a Python agent"])
def test_a_numba_strategy_that_raises_is_named_with_the_game_and_its_line(tmp_path,
                                                                          other) -> None:
    """At a table of numba strategies, and beside a Python agent (another loop)."""
    # a file's module is named by its content: one of its own for each case
    path, line = buggy_numba_strategy(tmp_path,
                                      f'raise ValueError("no plan for round 2")  # {other}')
    seating = np.array([[0, 1]] * 3, np.int8)
    greedy = fcsim.agent("greedy")
    opponent = parse_strategy("greedy") if other == "greedy" else lambda view: greedy(view)
    with pytest.raises(fcsim.StrategyFailed,
                       match=rf"^strategy '{re.escape(path)}' raised ValueError: no plan for "
                             rf"round 2 in game 40 at {re.escape(path)}:{line}, in discard$"):
        play_games(_seeds(3), seating, [parse_strategy(path), opponent], RuleSet(players=2),
                   first_game=40)


@requires_jit
def test_a_numba_strategy_that_does_not_compile_is_named_with_numba_s_reason(
        tmp_path) -> None:
    path, line = buggy_numba_strategy(tmp_path, 'return "7H"')
    seating = np.array([[0, 1]], np.int8)
    with pytest.raises(fcsim.StrategyFailed,
                       match=rf"^strategy '{re.escape(path)}' does not compile with numba at "
                             rf"{re.escape(path)}:{line}: No conversion from "
                             r"Literal\[str\]\(7H\) to int64"):
        play_games(_seeds(1), seating, [parse_strategy(path), parse_strategy("greedy")],
                   RuleSet(players=2))


def test_an_illegal_move_names_the_run_s_game() -> None:
    seating = np.array([[0, 1]] * 2, np.int8)
    with pytest.raises(fcsim.IllegalMoveError, match=r"in game 7$"):
        play_games(_seeds(2), seating, [lambda view: "JK?", parse_strategy("greedy")],
                   RuleSet(players=2), first_game=7)


def test_only_the_first_player_out_scores_the_bonus() -> None:
    """RULES.md: a last-turn hand that melds every card scores 0, not the go-out bonus,
    which is the first player out's alone."""
    rules = RuleSet(players=4, go_out_bonus=-10)
    melded_whole = 0
    for seed in range(40):
        events = game_events(seed, [GREEDY] * 4, rules)
        out = {(e["round"], e["seat"]) for e in events
               if e["event"] == "turn" and e["out"] and e["last_turn"]}
        for e in events:
            if e["event"] == "score" and (e["round"], e["seat"]) in out:
                assert (e["penalty"], e["went_out"]) == (0, False)
                melded_whole += 1
            elif e["event"] == "score" and e["went_out"]:
                assert e["penalty"] == -10
    assert melded_whole > 0
