"""Borrowed views read and write the very memory they borrow, and a lent state is the
state: the same parts, the same layout."""

from __future__ import annotations

import numpy as np
from numba import njit

from fcsim.core.borrow import borrow
from fcsim.core.rules import RuleSet
from fcsim.core.state import S_ROUND, lend, new_state, state_views


@njit(cache=False)
def _write_through(array):
    view = borrow(array)
    view[1:] += 1
    return view.sum()


@njit(cache=False)
def _parts_of(data):
    state = lend(data)
    state.scalars[S_ROUND] = 7
    state.hands[1, 5] = 3
    return (state.totals.shape[0], state.scores.shape, state.hands.shape,
            state.known.shape, state.stock.shape[0], state.rng.shape[0])


def test_a_borrowed_view_is_the_array_itself() -> None:
    array = np.arange(5, dtype=np.int64)
    assert _write_through(array) == 14
    assert array.tolist() == [0, 2, 3, 4, 5]


def test_borrow_is_the_identity_in_python() -> None:
    array = np.zeros(3)
    assert borrow(array) is array


def test_a_lent_state_has_the_parts_of_the_state() -> None:
    data = new_state(RuleSet(players=3))
    views = state_views(data)
    shapes = _parts_of(data)
    assert shapes == (views.totals.shape[0], views.scores.shape, views.hands.shape,
                      views.known.shape, views.stock.shape[0], views.rng.shape[0])
    assert views.scalars[S_ROUND] == 7 and views.hands[1, 5] == 3
