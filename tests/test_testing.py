"""fcsim.testing: check_strategy reports what a broken strategy changed or returned, by
name; compare gives the paired difference of ``fcsim compare``."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from fcsim.core.cards import N_KINDS, format_card
from fcsim.core.solver.layout import MEMO_SLOTS, Memo, memo_at
from fcsim.core.state import shared_scratch
from fcsim.strategies import Family, Strategy
from fcsim.strategies.base import (
    DRAW_PILE,
    DRAW_STOCK,
    I_BEST_DISCARD,
    I_DISCARDED,
    I_PLAYERS,
    I_TURN,
    decision,
)
from fcsim.strategies.random import discard as random_discard
from fcsim.strategies.random import draw as random_draw
from fcsim.testing import StrategyCheckError, check_strategy, compare


@decision
def _shuffle_pile(hand, pile, known, info, hidden, params, table, scratch, rng):
    pile[0], pile[-1] = pile[-1], pile[0]
    return 0


@decision
def _forget_known(hand, pile, known, info, hidden, params, table, scratch, rng):
    known[:] = 0
    return info[I_BEST_DISCARD]


@decision
def _count_turns_in_info(hand, pile, known, info, hidden, params, table, scratch, rng):
    info[I_TURN] += 1
    return 0


@decision
def _draw_two(hand, pile, known, info, hidden, params, table, scratch, rng):
    return 2


@decision
def _discard_past_the_deck(hand, pile, known, info, hidden, params, table, scratch, rng):
    return 99


@decision
def _scribble_on_the_table(hand, pile, known, info, hidden, params, table, scratch, rng):
    table[0, 0] += 1
    table[0, 0] -= 1  # restored: not a change
    table[1, 1] ^= 1
    return 0


@decision
def _draw_a_float(hand, pile, known, info, hidden, params, table, scratch, rng):
    return 0.7


@pytest.mark.parametrize(("draw", "discard", "message"), [
    (_draw_a_float, random_discard, r"^broken: its draw decision returns float64, not an "
                                    r"integer: the engine would cut it \(0\.7 plays 0\)$"),
    (_shuffle_pile, random_discard,
     r"^broken: its draw decision changed the pile it was given \(round 1, turn \d+, seat "
     r"\d\); a decision must leave its inputs as it found them$"),
    (random_draw, _forget_known, r"^broken: its discard decision changed the known cards"),
    (_count_turns_in_info, random_discard, r"^broken: its draw decision changed the info "
                                           r"vector"),
    (_draw_two, random_discard, r"^broken: its draw decision returned 2, not 0 \(stock\) or "
                                r"1 \(pile\) \(round 1"),
    (random_draw, _discard_past_the_deck, r"^broken: its discard decision returned 99, not a "
                                          r"card of its hand \w+ \w+ \w+ \w+ \(round 1"),
    (_scribble_on_the_table, random_discard, r"^broken: changed the solver table"),
])
def test_a_broken_strategy_is_named_with_what_it_did(draw, discard, message) -> None:
    with pytest.raises(StrategyCheckError, match=message):
        check_strategy(Strategy(Family("broken", "", draw, discard)), games=1)


KEEPS = 2  # cards _drop_a_card leaves a hand


@decision
def _drop_a_card(hand, pile, known, info, hidden, params, table, scratch, rng):
    """Throws a card of its hand away before each draw, down to ``KEEPS``."""
    if hand.sum() > KEEPS:
        for k in range(N_KINDS):
            if hand[k]:
                hand[k] -= 1
                break
    return DRAW_STOCK


def test_an_oracle_that_changes_its_hand_is_named() -> None:
    """An oracle is checked without copies of its inputs (it may read hidden ones), so a
    hand it changes reaches the game: its games then hold hands no deck can, which is the
    strategy's fault, and said so."""
    cheat = Strategy(Family("cheat", "", _drop_a_card, random_discard, oracle=True))
    with pytest.raises(StrategyCheckError, match=r"^cheat: its games hold a hand no deck can "
                                                 r"\(.*\): a decision function must leave "
                                                 r"its inputs as it found them$"):
        check_strategy(cheat, games=1)


HEADS_UP = 2  # seats at the smallest table


@decision
def _draw_two_heads_up(hand, pile, known, info, hidden, params, table, scratch, rng):
    """The stock at any table but one of two seats, where it returns 2 (no draw source)."""
    return 2 if info[I_PLAYERS] == HEADS_UP else DRAW_STOCK


def test_a_strategy_broken_only_heads_up_is_caught() -> None:
    """A strategy written for a full table can break with one opponent: the check seats it
    at a table of two as well, not only at tables of three and four."""
    with pytest.raises(StrategyCheckError, match=r"^heads-up: its draw decision returned 2"):
        check_strategy(Strategy(Family("heads-up", "", _draw_two_heads_up, random_discard)),
                       games=1)


@decision
def _discard_a_card_others_discarded(hand, pile, known, info, hidden, params, table,
                                     scratch, rng):
    """Reads the public history (a kind some seat discarded this round, if held) without
    its family declaring it."""
    for k in range(N_KINDS):
        if hand[k] and info[I_DISCARDED + k] + info[I_DISCARDED + N_KINDS + k]:
            return k
    return info[I_BEST_DISCARD]


def test_a_strategy_reading_the_history_undeclared_is_told_to_declare_it() -> None:
    undeclared = Family("peeker", "", random_draw, _discard_a_card_others_discarded)
    with pytest.raises(StrategyCheckError, match=r"^peeker: played differently when given "
                                                 r"the round's public history .*declare "
                                                 r"it in its Family"):
        check_strategy(Strategy(undeclared), games=2)
    check_strategy(Strategy(replace(undeclared, history=True)), games=2)


def test_a_plain_python_agent_is_checked_as_it_is() -> None:
    def first_legal(view):
        return "stock" if view.phase == "draw" else view.legal_actions[0]

    check_strategy(first_legal, games=1)
    with pytest.raises(ValueError, match=r"^games must be a whole number, 1 or more, not 0$"):
        check_strategy(first_legal, games=0)  # an IndexError, before


class _Hoarder:
    """A Python agent that throws away the view's pile as it looks at it."""

    def __call__(self, view):
        view.pile_kinds[:] = 0
        return "stock" if view.phase == "draw" else view.hand[0]


def test_a_python_agent_that_changes_its_view_is_named() -> None:
    with pytest.raises(StrategyCheckError, match=r"test_testing:_Hoarder.*: its draw decision "
                                                 r"changed the pile"):
        check_strategy(Strategy(Family("test_testing:_Hoarder", "", agent=_Hoarder)), games=1)


def test_compare_pairs_deals_like_the_command() -> None:
    result = compare("greedy", "random", deals=10)
    assert (result.a, result.b, result.deals) == ("greedy", "random", 10)
    assert result.mean_diff_lo <= result.mean_diff <= result.mean_diff_hi < 0
    assert "greedy - random:" in str(result) and np.isfinite(result.p_value)


@decision
def _memo_filled(scratch):
    """Whether the solver's memo holds any answer: another seat's, for a decision that
    has asked nothing yet."""
    filled = 0
    for slot in range(MEMO_SLOTS):
        filled += scratch[memo_at(slot, Memo.TAG)] != 0
    return filled > 0


@decision
def _draw_by_what_others_left(hand, pile, known, info, hidden, params, table, scratch, rng):
    """The pile iff the work space holds what other seats' solver calls left in it."""
    return DRAW_PILE if _memo_filled(scratch) else DRAW_STOCK


def _agent_by_what_others_left(view):
    """On a round's first turns, the pile iff the work space holds what other seats' solver
    calls left in it (later the stock, so that rounds end)."""
    if view.phase == "draw":
        first_turns = view.turn < view.players
        return "pile" if first_turns and _memo_filled(shared_scratch()) else "stock"
    return format_card(int(view.info[I_BEST_DISCARD]))


@pytest.mark.parametrize("strategy", [
    Strategy(Family("nosy", "", _draw_by_what_others_left, random_discard)),
    _agent_by_what_others_left,
])
def test_a_strategy_reading_what_other_seats_left_in_the_work_space_is_caught(strategy) -> None:
    """The seats share the solver's work space, whose memo keeps the hands they asked about
    (docs/STRATEGIES.md): called with a blank one, a strategy reading it plays differently."""
    with pytest.raises(StrategyCheckError, match=r"played differently when each decision was "
                                                 r"called on copies .*solver's work space"):
        check_strategy(strategy, games=2)
