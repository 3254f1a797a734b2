"""Seeds, seating and chunks: a pure function of the run, whatever the chunking."""

from __future__ import annotations

import numpy as np
import pytest

from fcsim.core.rng import game_seed
from fcsim.core.rules import RuleSet
from fcsim.runner import PlanError, RunPlan, make_plan
from fcsim.runner.plan import chunk_layout, round_up_games
from fcsim.strategies import StrategyError

RULES3 = RuleSet(players=3, rounds=6)
LISTED = ("greedy", "random", "greedy:take_margin=2")


def whole_layout(plan: RunPlan) -> dict[str, np.ndarray]:
    parts = [chunk_layout(plan, i) for i in range(plan.chunk_count)]
    return {name: np.concatenate([getattr(p, name) for p in parts])
            for name in ("game", "deal", "rotation", "seeds", "seating")}


@pytest.mark.parametrize("chunk_size", [1, 4, 7, 30])
def test_seeds_and_seating_follow_the_game_index(chunk_size):
    plan = RunPlan(strategies=LISTED, rules=RULES3, seed=99, games=23, chunk_size=chunk_size)
    lay = whole_layout(plan)
    assert lay["game"].tolist() == list(range(23))
    assert lay["deal"].tolist() == list(range(23))
    assert lay["seeds"].tolist() == [int(game_seed(np.uint64(99), np.uint64(g)))
                                     for g in range(23)]
    for g in range(23):
        k = g % 3
        assert lay["rotation"][g] == k
        seats = [plan.lineup[i] for i in lay["seating"][g]]
        assert seats == [LISTED[(j + k) % 3] for j in range(3)]


def test_no_seat_rotation_keeps_the_listed_order():
    plan = RunPlan(strategies=LISTED, rules=RULES3, seed=1, games=9, seat_rotation=False)
    lay = whole_layout(plan)
    assert not lay["rotation"].any()
    assert (lay["seating"] == np.array([0, 1, 2], np.int8)).all()


def test_duplicate_plays_each_deal_in_every_rotation():
    plan = RunPlan(strategies=LISTED, rules=RULES3, seed=5, games=12, duplicate=True,
                   chunk_size=5)
    lay = whole_layout(plan)
    assert lay["deal"].tolist() == [g // 3 for g in range(12)]
    assert lay["rotation"].tolist() == [g % 3 for g in range(12)]
    for deal in range(4):
        expected = int(game_seed(np.uint64(5), np.uint64(deal)))
        assert lay["seeds"][3 * deal: 3 * deal + 3].tolist() == [expected] * 3
    # Over the rotations of a deal, every strategy sits in every seat once.
    first_deal = {tuple(lay["seating"][g]) for g in range(3)}
    assert len(first_deal) == 3


def test_chunks_cover_every_game_once():
    for size in (1, 7, 50, 100):
        plan = RunPlan(strategies=LISTED, rules=RULES3, seed=0, games=100, chunk_size=size)
        games = [g for i in range(plan.chunk_count) for g in plan.chunk_games(i)]
        assert games == list(range(100))


def test_make_plan_fills_the_table_and_uses_canonical_specs():
    plan = make_plan("greedy:take_margin=8", RuleSet(players=4), seed=3, games=10)
    assert plan.strategies == ("greedy",) * 4
    assert plan.lineup == ("greedy",)
    plan = make_plan(["greedy:take_margin=3", "random"], RuleSet(players=2), 3, 10)
    assert plan.strategies == ("greedy:take_margin=3", "random")


def test_duplicate_rounds_games_up():
    assert round_up_games(10, 4, duplicate=True) == 12
    assert round_up_games(12, 4, duplicate=True) == 12
    assert round_up_games(10, 4, duplicate=False) == 10
    assert make_plan("greedy", RULES3, 0, 10, duplicate=True).games == 12


def test_bad_plans_are_refused():
    with pytest.raises(PlanError, match="3 strategies for 2 players"):
        make_plan("greedy,random,random", RuleSet(players=2), 0, 10)
    with pytest.raises(PlanError, match="at least 1"):
        make_plan("greedy", RULES3, 0, 0)
    with pytest.raises(PlanError, match="multiple of 3"):
        RunPlan(strategies=LISTED, rules=RULES3, seed=0, games=10, duplicate=True)
    with pytest.raises(StrategyError, match="known strategies"):
        make_plan("nonsense", RULES3, 0, 10)


def test_metadata_round_trip_and_differences():
    plan = RunPlan(strategies=LISTED, rules=RULES3, seed=7, games=30, chunk_size=4)
    assert RunPlan.from_metadata(plan.metadata()) == plan
    assert set(plan.metadata()) == {"fcsim_version", "rules", "strategies", "seed", "games",
                                    "duplicate", "seat_rotation", "chunk_size",
                                    "strategy_sources"}
    other = RunPlan(strategies=LISTED, rules=RULES3, seed=8, games=30, chunk_size=9)
    assert plan.differences(other) == ["seed 8 there, 7 here"]
    assert plan.differences(RunPlan(strategies=LISTED, rules=RULES3, seed=7, games=30)) == []
