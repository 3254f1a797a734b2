"""A chunk played in slices (so its progress can be reported) gives the rows of one call."""

from __future__ import annotations

import pytest

from fcsim.core.rules import RuleSet
from fcsim.core.view import StrategyFailed
from fcsim.runner import chunk, make_plan
from fcsim.runner.plan import RunPlan
from fcsim.strategies import StrategyError
from tests.learn.models import random_model

RULES = RuleSet(players=2, rounds=6)


def test_slices_give_the_same_bytes_and_report_progress(monkeypatch):
    plan = RunPlan(strategies=("greedy", "random"), rules=RULES, seed=4, games=50,
                   chunk_size=50)
    whole = chunk.run_chunk(plan, 0)
    monkeypatch.setattr(chunk, "PROGRESS_GAMES", 12)
    heard: list[int] = []
    sliced = chunk.run_chunk(plan, 0, heard.append)
    assert sliced.data == whole.data
    assert heard == [1, 3, 7, 15, 27, 39, 50]  # 1 game, then doubling up to 12


def test_slices_grow_from_one_game_and_cover_the_chunk_once() -> None:
    """A strategy that plays a game a second shows progress within seconds."""
    assert chunk.slices(0) == []
    for games in (1, 10, 1_000, 10_000):
        bounds = chunk.slices(games)
        assert [stop for _, stop in bounds[:-1]] == [start for start, _ in bounds[1:]]
        assert (bounds[0][0], bounds[-1][1]) == (0, games)
        sizes = [stop - start for start, stop in bounds]
        assert sizes[:3] == [1, 2, 4][:len(sizes)] and max(sizes) <= chunk.PROGRESS_GAMES


def test_an_error_names_the_run_s_game_not_the_chunk_s(tmp_path):
    strategy = tmp_path / "stuck.py"
    strategy.write_text("def agent(view):\n    raise RuntimeError('stuck')\n")
    plan = make_plan([f"{strategy}:agent", "greedy"], RULES, 4, 30, chunk_size=10)
    with pytest.raises(StrategyFailed, match=r"raised RuntimeError: stuck in game 20 at "):
        chunk.run_chunk(plan, 2)


def test_a_short_last_chunk_counts_its_own_games():
    """25 games in chunks of 10: the last chunk holds 5, and says so, or the progress bar
    would end past the run's games."""
    plan = RunPlan(strategies=("greedy", "random"), rules=RULES, seed=4, games=25,
                   chunk_size=10)
    last = plan.chunk_count - 1
    assert chunk.run_chunk(plan, last).games == len(plan.chunk_games(last)) == 5


def test_a_worker_refuses_a_model_other_than_the_one_the_run_records(tmp_path):
    """A model file replaced after the run recorded its digest (or another file at that
    path on a Dask worker): the worker refuses, where it played the other model under the
    recorded digest."""
    path = random_model(tmp_path / "m.npz", seed=1)
    plan = make_plan([f"learned:model={path}", "greedy"], RULES, 4, 4)
    random_model(path, seed=2)
    with pytest.raises(StrategyError, match=r"^the run's strategies load other files here: "
                                            r"strategy file .* changed since the run was "
                                            r"written \(sha256 \w+ there, \w+ here\)$"):
        chunk.prepare(plan)
