"""A chunk played in slices (so its progress can be reported) gives the rows of one call."""

from __future__ import annotations

from fcsim.core.rules import RuleSet
from fcsim.runner import chunk
from fcsim.runner.plan import RunPlan

RULES = RuleSet(players=2, rounds=6)


def test_slices_give_the_same_bytes_and_report_progress(monkeypatch):
    plan = RunPlan(strategies=("greedy", "random"), rules=RULES, seed=4, games=50,
                   chunk_size=50)
    whole = chunk.run_chunk(plan, 0)
    monkeypatch.setattr(chunk, "PROGRESS_GAMES", 12)
    heard: list[int] = []
    sliced = chunk.run_chunk(plan, 0, heard.append)
    assert sliced.data == whole.data
    assert heard == [12, 24, 36, 48, 50]
