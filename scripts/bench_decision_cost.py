"""What one decision costs each strategy, on the same positions: where a game's time goes.

Plays ``--games`` games of 4 x ``--from`` (the shipped ``learned`` by default) through
:class:`fcsim.Game` and keeps every position a seat decided in. Then each strategy of
``--strategies`` decides every position, in game order, twice in a row on a solver work
space of its own (an empty memo at the start, as a fresh process has):

- ``cold``: the first call, as the strategy meets the position in a game (the memo holds
  what its own earlier decisions asked);
- ``warm``: the same call again at once, every exact search it makes now answered from
  the memo. What remains is the decision's own work: what no faster solver could remove.

Prints one stable line per strategy and kind of decision (mean microseconds a decision,
less the cost of calling a compiled function from Python, measured on ``random``)::

    strategy=learned decision=discard positions=… cold_us=… warm_us=…

and one per game turn (a draw and a discard)::

    strategy=learned decision=all turns=… cold_us=… warm_us=…

Strategies play at their defaults unless their specs say otherwise
(``scripts/bench_engine.py`` pins them).

    python scripts/bench_decision_cost.py --games 12 --strategies aware learned
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass

import numpy as np
from arguments import at_least, strategy, summary
from bench_page import recording

import fcsim
from fcsim.core.solver.layout import new_scratch
from fcsim.core.tables import solver_table
from fcsim.core.view import NO_HIDDEN
from fcsim.strategies import parse_strategy

BASELINE = "random"  # its decisions do next to nothing: the cost of a call from Python
DECISIONS = ("draw", "discard")


@dataclass
class Position:
    """The arguments of one compiled decision, copied out of a view."""

    phase: str
    args: tuple[np.ndarray, ...]  # hand, pile, known, info (the view's arrays)
    rng: np.ndarray


def positions(spec: str, games: int, seed: int) -> list[Position]:
    """Every position a seat decided in, in game order, over ``games`` games of 4 x
    ``spec``."""
    player = fcsim.agent(spec)
    out = []
    for g in range(games):
        game = fcsim.Game(players=4, seed=seed, game=g)
        while not game.over:
            view = game.view()
            out.append(Position(view.phase, (view.hand_counts.copy(), view.pile_kinds.copy(),
                                             view.known_counts.copy(), view.info.copy()),
                                view.rng.copy()))
            game.step(player(view))
    return out


def timings(specs: list[str], found: list[Position]) -> dict[str, dict[str, list]]:
    """Per strategy and kind of decision: [positions, cold seconds, warm seconds]. The
    strategies take turns position by position, each on its own work space, so a busy
    machine's noise falls on all of them alike."""
    table = solver_table()
    players = []
    for spec in specs:
        strategy = parse_strategy(spec)
        players.append(({"draw": strategy.draw, "discard": strategy.discard},
                         strategy.param_vector, new_scratch()))
    totals = {spec: {name: [0, 0.0, 0.0] for name in DECISIONS} for spec in specs}
    for p in found:
        for spec, (calls, params, scratch) in zip(specs, players, strict=True):
            call, total = calls[p.phase], totals[spec][p.phase]
            hand, pile, known, info = (a.copy() for a in p.args)
            for i in (1, 2):
                rng = p.rng.copy()  # both calls see the same random stream
                start = time.perf_counter()
                call(hand, pile, known, info, NO_HIDDEN, params, table, scratch, rng)
                total[i] += time.perf_counter() - start
            total[0] += 1
    return totals


def main() -> None:
    parser = argparse.ArgumentParser(description=summary(__doc__))
    parser.add_argument("--games", type=at_least(1), default=12)
    parser.add_argument("--seed", type=int, default=500)
    parser.add_argument("--from", dest="source", type=strategy, default="learned",
                        help="the strategy whose games give the positions")
    parser.add_argument("--strategies", type=strategy, nargs="+", default=["aware", "learned"],
                        help="strategy specs, each as written")
    args = parser.parse_args()
    found = positions(args.source, args.games, args.seed)
    specs = [BASELINE, *args.strategies]
    timings(specs, found[:50])  # compile everything once, untimed
    measured = timings(specs, found)
    base = measured[BASELINE]
    call_s = (base["draw"][1] + base["discard"][1]) / len(found)  # a call from Python
    turns = base["discard"][0]
    for spec in specs[1:]:
        for name in DECISIONS:
            n, cold, warm = measured[spec][name]
            print(f"strategy={spec} decision={name} positions={n} "
                  f"cold_us={1e6 * (cold / n - call_s):.1f} "
                  f"warm_us={1e6 * (warm / n - call_s):.1f}")
        cold = sum(measured[spec][name][1] for name in DECISIONS) - len(found) * call_s
        warm = sum(measured[spec][name][2] for name in DECISIONS) - len(found) * call_s
        print(f"strategy={spec} decision=all turns={turns} "
              f"cold_us={1e6 * cold / turns:.1f} warm_us={1e6 * warm / turns:.1f}")


if __name__ == "__main__":
    with recording(__file__):
        main()
