"""Helpers of the tune tests: short four-player games of greedy play fast."""

from __future__ import annotations

from pathlib import Path

from fcsim.core.rules import RuleSet
from fcsim.runner.pool import Executor, InProcess
from fcsim.strategies import parse_strategy
from fcsim.tune.arena import Arena
from fcsim.tune.lineup import make_lineup
from fcsim.tune.search import Search

RULES = RuleSet(players=4, rounds=6)


def make_search(out: Path, spec: str = "greedy", field: tuple[str, ...] = ("greedy",),
                deals: int = 12, seed: int = 5, executor: Executor | None = None) -> Search:
    """A search of ``spec`` in ``field`` on short games, played in this process."""
    out.mkdir(parents=True, exist_ok=True)
    arena = Arena(make_lineup(list(field), RULES.players), RULES, executor or InProcess())
    return Search(parse_strategy(spec), arena, seed, deals, out)
