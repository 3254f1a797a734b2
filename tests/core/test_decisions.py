"""Decision rows are the engine's own turns: row for row the turns ``replay`` shows, as
many per round as the game's ``turns``, and recording them changes no result."""

from __future__ import annotations

from dataclasses import fields

import numpy as np
import pytest

from fcsim import RuleSet
from fcsim.agents import agent
from fcsim.core.cards import format_card
from fcsim.core.decisions import DECISION_COLUMN
from fcsim.core.engine import play_games, play_recorded
from fcsim.core.rng import game_seed
from fcsim.replay import game_events
from fcsim.strategies import parse_strategy

RULES = RuleSet(players=3, rounds=6)
SPECS = ("greedy", "random", "greedy:take_margin=0")
GAMES = 6


def _seeds(games: int) -> np.ndarray:
    return np.array([game_seed(np.uint64(5), np.uint64(g)) for g in range(games)], np.uint64)


@pytest.fixture(scope="module")
def played():
    strategies = [parse_strategy(s) for s in SPECS]
    seating = (np.arange(RULES.players)[None, :] + np.arange(GAMES)[:, None]) % RULES.players
    seating = seating.astype(np.int8)
    results, rows = play_recorded(_seeds(GAMES), seating, strategies, RULES)
    return strategies, seating, results, rows


def _col(rows: np.ndarray, name: str) -> np.ndarray:
    return rows[:, DECISION_COLUMN[name]]


def test_recording_changes_no_result(played):
    strategies, seating, results, _ = played
    plain = play_games(_seeds(GAMES), seating, strategies, RULES)
    for f in fields(plain):
        assert np.array_equal(getattr(results, f.name), getattr(plain, f.name)), f.name


def test_rows_are_the_replayed_turns(played):
    strategies, seating, _, rows = played
    for g in range(GAMES):
        seats = [strategies[i] for i in seating[g]]
        turns = [e for e in game_events(int(_seeds(GAMES)[g]), seats, RULES)
                 if e["event"] == "turn"]
        mine = rows[_col(rows, "game") == g]
        got = [{"round": int(r[DECISION_COLUMN["round"]]), "seat": int(r[DECISION_COLUMN["seat"]]),
                "source": "discard" if r[DECISION_COLUMN["source"]] else "stock",
                "drawn": format_card(int(r[DECISION_COLUMN["drawn"]])),
                "discard": format_card(int(r[DECISION_COLUMN["discard"]])),
                "out": bool(r[DECISION_COLUMN["went_out"]]),
                "last_turn": bool(r[DECISION_COLUMN["last_turn"]])} for r in mine]
        assert got == [{k: v for k, v in t.items() if k != "event"} for t in turns]
        assert list(_col(mine, "strategy")) == [seating[g][s] for s in _col(mine, "seat")]


def test_turns_per_round_match_the_game_rows(played):
    _, _, results, rows = played
    for g in range(GAMES):
        for r in range(RULES.rounds):
            mine = rows[(_col(rows, "game") == g) & (_col(rows, "round") == r + 1)]
            assert len(mine) == results.turns[g, r]
            assert list(_col(mine, "turn")) == list(range(1, len(mine) + 1))
            # the seat that went out first (a last turn may meld whole too)
            out = mine[(_col(mine, "went_out") == 1) & (_col(mine, "last_turn") == 0)]
            if results.capped[g, r]:
                assert len(out) == 0
            else:
                assert len(out) == 1 and out[0, DECISION_COLUMN["seat"]] == results.out_seat[g, r]


def test_penalties_chain_and_last_turns_are_the_scores(played):
    _, _, results, rows = played
    for g in range(GAMES):
        for r in range(RULES.rounds):
            mine = rows[(_col(rows, "game") == g) & (_col(rows, "round") == r + 1)]
            for seat in range(RULES.players):
                own = mine[_col(mine, "seat") == seat]
                # the hand before a draw is the hand kept after the seat's previous discard
                before, after = _col(own, "penalty_before"), _col(own, "penalty_after")
                assert list(before[1:]) == list(after[:-1])
                last = own[_col(own, "last_turn") == 1]
                if len(last):
                    assert last[0, DECISION_COLUMN["penalty_after"]] == results.penalty[g, r, seat]
            assert (_col(mine, "penalty_after")[_col(mine, "went_out") == 1] == 0).all()


def test_python_agents_record_the_same_rows(played):
    strategies, seating, _, rows = played
    agents = [agent(s) for s in SPECS[:1]] + strategies[1:]  # seat greedy as a Python agent
    _, theirs = play_recorded(_seeds(GAMES), seating, agents, RULES)
    assert np.array_equal(theirs, rows)
