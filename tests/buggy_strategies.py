"""A numba strategy with a bug in round 2, written into a folder: for the tests of how
fcsim names a strategy whose code fails."""

from __future__ import annotations

from pathlib import Path

NUMBA_STRATEGY = '''
from fcsim.strategies.base import DRAW_STOCK, I_BEST_DISCARD, I_ROUND, decision
from fcsim.strategies.registry import Family


@decision
def draw(hand, pile, known, info, hidden, params, table, scratch, rng):
    return DRAW_STOCK


@decision
def discard(hand, pile, known, info, hidden, params, table, scratch, rng):
    if info[I_ROUND] == 2:
        {bug}
    return info[I_BEST_DISCARD]


FAMILY = Family("buggy", "a numba strategy with a bug in round 2", draw, discard)
'''
BUG_LINE = 14  # the line of {bug} in the file written


def buggy_numba_strategy(folder: Path, bug: str) -> str:
    """The path of a strategy file whose discard runs ``bug`` (one line) in round 2."""
    path = folder / "buggy.py"
    path.write_text(NUMBA_STRATEGY.format(bug=bug))
    return str(path)
