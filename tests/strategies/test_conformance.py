"""Every registered strategy passes the shipped conformance check; a broken one does not."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from fcsim import RuleSet
from fcsim.core.engine import play_games
from fcsim.core.view import IllegalMoveError
from fcsim.strategies import Family, Strategy, families
from fcsim.strategies.base import DECISION_SIGNATURE
from fcsim.strategies.random import draw as random_draw
from fcsim.testing import StrategyCheckError, check_strategy


@pytest.mark.parametrize("family", families(), ids=lambda f: f.name)
def test_registered_strategy_conforms(family: Family) -> None:
    check_strategy(family.name, games=1)


@njit(DECISION_SIGNATURE, cache=True)
def _discard_a_card_not_held(hand, pile, known, info, hidden, params, table, scratch, rng):
    for k in range(hand.shape[0]):
        if hand[k] == 0:
            return k
    return -1


@njit(DECISION_SIGNATURE, cache=True)
def _draw_three(hand, pile, known, info, hidden, params, table, scratch, rng):
    return 3


@njit(DECISION_SIGNATURE, cache=True)
def _peek_at_hidden(hand, pile, known, info, hidden, params, table, scratch, rng):
    return hidden.shape[0] + hidden.shape[1]  # 0 (stock) unless something leaked


def _play(family: Family) -> None:
    seeds = np.arange(2, dtype=np.uint64)
    play_games(seeds, np.zeros((2, 4), np.int8), [Strategy(family)], RuleSet(players=4))


def test_illegal_discard_is_stopped_naming_strategy_and_card() -> None:
    cheat = Family("cheat", "discards cards it does not hold", random_draw,
                   _discard_a_card_not_held)
    with pytest.raises(IllegalMoveError, match=r"strategy 'cheat' discarded 3S, which is not in"):
        _play(cheat)
    with pytest.raises(StrategyCheckError, match="cheat"):
        check_strategy(Strategy(cheat), games=1)


def test_illegal_draw_is_stopped() -> None:
    bad = Family("bad", "draws from nowhere", _draw_three, _discard_a_card_not_held)
    with pytest.raises(IllegalMoveError, match="chose draw source 3"):
        _play(bad)


def test_honest_strategies_get_no_hidden_cards() -> None:
    honest = Family("honest", "", _peek_at_hidden, _discard_a_card_not_held)
    with pytest.raises(IllegalMoveError, match="discarded"):  # drew legally (0) first
        _play(honest)
    nosy = Family("nosy", "", _peek_at_hidden, _discard_a_card_not_held, oracle=True)
    with pytest.raises(IllegalMoveError, match="chose draw source"):  # saw a filled array
        _play(nosy)
