"""The event trace: room for any game, and decoding in pieces equals decoding at once."""

from __future__ import annotations

from itertools import pairwise

import numpy as np
import pytest

import fcsim
from fcsim.core.engine import trace_game
from fcsim.core.events import (
    EV_END,
    EV_RESHUFFLE,
    EV_TURN,
    EventDecoder,
    decode_events,
    rows_per_game,
)
from fcsim.core.rng import game_seed


class Hoarder:
    """Draws from the stock and throws the drawn card back: its hand never changes, so a
    round nobody goes out of runs to the turn cap, reshuffling the stock again and again
    — the longest traces there are."""

    def __init__(self) -> None:
        self.before: dict[int, np.ndarray] = {}

    def __call__(self, view: fcsim.View) -> object:
        if view.phase == "draw":
            self.before[view.seat] = view.hand_counts.copy()
            return "stock"
        return int(np.flatnonzero(view.hand_counts > self.before[view.seat])[0])


@pytest.mark.slow
def test_the_longest_games_fit_their_trace() -> None:
    players = 7
    rules = fcsim.RuleSet(players=players, rounds=6, turn_cap=1200)
    _, trace = trace_game(17, [Hoarder()] * players, rules)
    reshuffles = np.bincount(trace[trace[:, 0] == EV_RESHUFFLE, 1])
    assert reshuffles.max() > 2 * players + 2  # more than a budget of 4P + 4 rows a round held
    assert len(trace) <= rows_per_game(rules)
    assert trace[-1, 0] == EV_END  # a trace cut short at its room would end mid-round
    # Rounds are budgeted alike (the game's end row aside), and only one round here runs
    # to the turn cap: its rows must fit its own share, not borrow the short rounds' room.
    round_budget = (rows_per_game(rules) - 1) // rules.rounds
    assert np.bincount(trace[trace[:, 0] != EV_END, 1]).max() <= round_budget


def test_a_round_gone_out_of_on_its_capped_turn_fits_its_trace() -> None:
    """Going out near the cap, the other seats still play their last turns: a round of up
    to turn_cap + players - 1 turns (the room was for turn_cap: the trace was written past
    its end, and a process died of the corrupted memory)."""
    rules = fcsim.RuleSet(players=7, turn_cap=10)
    greedy = [fcsim.agent("greedy")] * rules.players
    longest = 0
    for game in range(4):  # game 0 of root seed 1 needs 309 rows; the room was 298
        _, trace = trace_game(int(game_seed(np.uint64(1), np.uint64(game))), greedy, rules)
        turns = np.bincount(trace[trace[:, 0] == EV_TURN, 1])
        longest = max(longest, int(turns.max()))
        assert len(trace) <= rows_per_game(rules) and trace[-1, 0] == EV_END
    assert longest > rules.turn_cap  # last turns after the cap were played


def test_decoding_in_pieces_is_decoding_at_once() -> None:
    rules = fcsim.RuleSet(players=3)
    _, trace = trace_game(5, [fcsim.agent("greedy")] * 3, rules)
    whole = decode_events(trace, rules)
    decoder = EventDecoder(rules)
    cuts = np.linspace(0, len(trace), 13).astype(int)
    pieces = [e for a, b in pairwise(cuts)
              for e in decoder.decode(trace[a:b])]
    assert pieces == whole
