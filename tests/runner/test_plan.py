"""Seeds, seating and chunks: a pure function of the run, whatever the chunking."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from fcsim._numba_cache import _closure
from fcsim.core.rng import game_seed
from fcsim.core.rules import RuleSet
from fcsim.runner import PlanError, RunPlan, make_plan
from fcsim.runner.plan import (
    DEFAULT_CHUNK_SIZE,
    chunk_layout,
    code_digest,
    default_chunk_size,
    round_up_games,
)
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


def test_duplicate_rounds_games_up_to_whole_deals():
    assert round_up_games(10, 4, duplicate=True) == 12
    assert round_up_games(12, 4, duplicate=True) == 12
    assert round_up_games(10, 4, duplicate=False) == 10
    assert make_plan("greedy,random,random", RULES3, 0, 10, duplicate=True).games == 12


def test_games_that_round_up_past_the_most_a_run_holds_say_so():
    with pytest.raises(PlanError, match=r"^games 1,000,000,000,000,000 round up to "
                                        r"1,000,000,000,000,002 \(whole deals of 3 games\): "
                                        r"at most 1,000,000,000,000,000$"):
        make_plan("greedy,random,random", RULES3, 0, 10**15, duplicate=True)


def test_seat_rotation_is_no_part_of_a_duplicate_run():
    """Every duplicate deal is played in its rotations (--no-seat-rotation is named unused):
    the flag makes neither other games nor another run to resume."""
    plain = make_plan("greedy,random,random", RULES3, 0, 12, duplicate=True)
    flagged = make_plan("greedy,random,random", RULES3, 0, 12, duplicate=True,
                        seat_rotation=False)
    assert flagged.metadata() == plain.metadata() and not flagged.differences(plain)


def test_a_duplicate_deal_is_played_in_its_distinct_rotations():
    """A, B, A, B at 4 seats: rotations 2 and 3 would be the very games of 0 and 1."""
    four = RuleSet(players=4)
    alternating = make_plan("greedy,random,greedy,random", four, 0, 9, duplicate=True)
    assert (alternating.games, alternating.deal_rotations) == (10, 2)
    layout = chunk_layout(alternating, 0)
    assert layout.deal.tolist() == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4]
    assert layout.rotation.tolist() == [0, 1] * 5
    alone = make_plan("greedy", four, 0, 9, duplicate=True)
    assert (alone.games, alone.deal_rotations) == (9, 1)  # one game a deal
    assert RunPlan.from_metadata(alternating.metadata()) == alternating
    assert alternating.metadata()["rotations"] == 2
    every = make_plan("greedy,random,expected,random", four, 0, 9, duplicate=True)
    assert "rotations" not in every.metadata() and every.deal_rotations == 4


def test_bad_plans_are_refused():
    with pytest.raises(PlanError, match="3 strategies for 2 players"):
        make_plan("greedy,random,random", RuleSet(players=2), 0, 10)
    with pytest.raises(PlanError, match="games must be 1 to"):
        make_plan("greedy", RULES3, 0, 0)
    with pytest.raises(PlanError, match="multiple of 3"):
        RunPlan(strategies=LISTED, rules=RULES3, seed=0, games=10, duplicate=True)
    with pytest.raises(StrategyError, match="known strategies"):
        make_plan("nonsense", RULES3, 0, 10)


def test_metadata_round_trip_and_differences():
    plan = RunPlan(strategies=LISTED, rules=RULES3, seed=7, games=30, chunk_size=4)
    assert RunPlan.from_metadata(plan.metadata()) == plan
    assert set(plan.metadata()) == {"format", "fcsim_version", "code_digest", "rules",
                                    "strategies", "seed", "games", "duplicate",
                                    "seat_rotation", "chunk_size", "strategy_sources"}
    other = RunPlan(strategies=LISTED, rules=RULES3, seed=8, games=30, chunk_size=9)
    assert plan.differences(other) == ["seed 8 there, 7 here"]
    assert plan.differences(RunPlan(strategies=LISTED, rules=RULES3, seed=7, games=30)) == []


@pytest.mark.parametrize("flags", [
    {"seat_rotation": False},
    {"duplicate": True},
    {"decisions": True},
    {"duplicate": True, "rotations": 1},
])
def test_metadata_round_trip_keeps_every_format_flag(flags: dict) -> None:
    """A folder's plan is read back from its metadata (resume, info, report): a flag lost
    on the way would make it another run, e.g. a rotating one for --no-seat-rotation."""
    plan = RunPlan(strategies=LISTED, rules=RULES3, seed=7, games=30, **flags)
    assert RunPlan.from_metadata(plan.metadata()) == plan


@pytest.mark.parametrize("changes, message", [
    ({"games": 10**15 + 1}, "games must be 1 to 1,000,000,000,000,000, not"),
    ({"chunk_size": 100_001}, "chunk size must be 1 to 100,000 games"),
    ({"games": 10.0}, "games must be 1 to 1,000,000,000,000,000, not 10.0"),
    ({"chunk_size": True}, "chunk size must be 1 to 100,000 games, not True"),
    ({"seed": 2**64}, r"seed must be 0 to 2\*\*64 - 1"),
    ({"seed": -1}, r"seed must be 0 to 2\*\*64 - 1"),
    ({"seed": "1"}, r"seed must be 0 to 2\*\*64 - 1 \(64 bits\), not '1'"),
    ({"seed": 1.5}, r"seed must be 0 to 2\*\*64 - 1 \(64 bits\), not 1.5"),
])
def test_sizes_fcsim_cannot_hold_are_refused(changes, message):
    args = {"strategies": LISTED, "rules": RULES3, "seed": 0, "games": 10, **changes}
    with pytest.raises(PlanError, match=message):
        RunPlan(**args)


def test_the_largest_run_is_a_few_numbers():
    plan = RunPlan(strategies=LISTED, rules=RULES3, seed=2**64 - 1, games=10**15,
                   chunk_size=1)
    assert plan.chunk_count == 10**15
    assert plan.chunk_games(10**15 - 1) == range(10**15 - 1, 10**15)


def test_rules_whose_values_the_columns_cannot_hold_are_refused():
    """turns_r is 16-bit: a turn cap beyond it would wrap (to -25,536 at 40,000). A round
    may last the cap and, when a seat goes out on the capped turn, the others' last turns."""
    with pytest.raises(PlanError, match=r"turn_cap 40000: .*turns = 40,002, more than the "
                                        r"run's turns column holds \(32,767\)"):
        RunPlan(strategies=LISTED, rules=RuleSet(players=3, turn_cap=40_000), seed=0, games=1)
    with pytest.raises(PlanError, match=r"turns = 32,768"):
        RunPlan(strategies=LISTED, rules=RuleSet(players=3, turn_cap=32_766), seed=0, games=1)
    RunPlan(strategies=LISTED, rules=RuleSet(players=3, turn_cap=32_765), seed=0, games=1)
    # Without all-wild melds a hand of wilds scores them all: 1,000 a card overflows totals.
    huge = RuleSet(players=3, wild_penalty=1000, all_wild_melds=False)
    with pytest.raises(PlanError, match=r"wild_penalty 1000: .*total = 82,300"):
        RunPlan(strategies=LISTED, rules=huge, seed=0, games=1)
    # With them, at most one wild is left over: 11 rounds of it fit.
    RunPlan(strategies=LISTED, rules=RuleSet(players=3, wild_penalty=1000), seed=0, games=1)


@pytest.mark.parametrize("rules", [RuleSet(), RuleSet(wild_penalty="face"),
                                   RuleSet(wild_penalty=300, all_wild_melds=False)])
def test_the_largest_round_penalty_bounds_every_hand(rules):
    """The bound holds for dealt hands of every round (the solver is exact), and a hand of
    wilds alone reaches it when wilds cannot meld alone."""
    from fcsim.core.cards import full_deck
    from fcsim.core.solver import min_penalty_batch
    from fcsim.runner.plan import _largest_round_penalty

    rng = np.random.default_rng(3)
    for r in range(1, 12):
        hands = np.zeros((2000, 56), np.int8)
        for row in hands:
            np.add.at(row, rng.permutation(full_deck())[: r + 2], 1)
        assert min_penalty_batch(hands, r, rules).max() <= _largest_round_penalty(rules, r)
    if not rules.all_wild_melds:
        from fcsim.core.solver import min_penalty

        assert min_penalty("3S 3H 3D", 1, rules) == _largest_round_penalty(rules, 1) == 900


def test_default_chunk_size_follows_the_games_only():
    assert default_chunk_size(2000) == 63  # 32 chunks: every core gets work
    assert default_chunk_size(80) == 10  # 8 chunks: a compare of 20 deals at 4 seats
    assert default_chunk_size(5) == 10
    assert default_chunk_size(32 * 5000) == 5000
    assert default_chunk_size(10**6) == DEFAULT_CHUNK_SIZE
    assert make_plan("greedy", RULES3, 0, 2000).chunk_size == 63
    assert make_plan("greedy", RULES3, 0, 2000, chunk_size=7).chunk_size == 7


def test_the_code_digest_is_the_same_in_every_process():
    here = code_digest()
    there = subprocess.run([sys.executable, "-c", "from fcsim.runner.plan import code_digest;"
                            "print(code_digest())"], capture_output=True, text=True,
                           check=True).stdout.strip()
    assert here == there and len(here) == 16
    assert RunPlan(strategies=LISTED, rules=RULES3, seed=0, games=1).code_digest == here


def test_the_code_digest_covers_what_plays_games_and_not_the_rest():
    """The modules that play a run's games (engine, rules, strategies, the runner that
    seats them) are in its digest; the loader of results, advice, the steppable game, the
    command line and the package's top-level API are not: changing them changes no game,
    so it does not make a run unresumable."""
    root = Path(__file__).resolve().parents[2]
    digested = {str(path.relative_to(root))
                for path in _closure((root / "fcsim" / "runner" / "chunk.py").resolve())}
    assert {"fcsim/core/engine.py", "fcsim/core/rules.py", "fcsim/strategies/aware.py",
            "fcsim/strategies/learned/model.py", "fcsim/runner/table.py"} <= digested
    assert not {name for name in digested if name.startswith(("fcsim/analysis/", "fcsim/cli/"))
                or name in ("fcsim/__init__.py", "fcsim/advice.py", "fcsim/game.py")}
