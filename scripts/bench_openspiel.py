"""Benchmark Five Crowns in OpenSpiel: resampled worlds, information states, ISMCTS.

Prints one stable ``key=value`` line per case and tree:

    case=resample tree=working-tree commit=… ms=…
    case=infostate tree=working-tree commit=… us=…
    case=ismcts tree=working-tree commit=… decisions_per_s=…
    case=ismcts ratio=…

``resample``: one ``resample_from_infostate`` (a world and its past), ms, at the first
decision of round 7 of a 4-player game of ``greedy`` bots (seed 1), 50 worlds, after one
untimed; ``infostate``: one ``information_state_string`` of that state, µs; ``ismcts``:
``openspiel:ismcts`` at 100 simulations as an fcsim agent in seat 0 against three
``greedy``, decisions per second over the two short games of docs/OPENSPIEL.md's table
(``fcsim.Game(rules=RuleSet(players=4, rounds=6), seed=27, game=g)``, g = 0, 1). Each
figure is the median of ``--passes`` (3) fresh processes, after one that warms the
caches. ``--against REF`` runs the same on git ref ``REF`` too (``checkout.py``),
alternating tree by tree, then one ``ratio`` line per case (this tree / REF).
``--page`` records the lines in docs/BENCHMARKS.md. Needs the ``[openspiel]`` extra.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import subprocess
import sys
import time

from arguments import at_least, names_of, summary
from bench_page import recording
from checkout import Tree, in_turn, ref_tree, working_tree

CASES = {"resample": "ms", "infostate": "us", "ismcts": "decisions_per_s"}


def _mid_game():
    """The state at the first decision of round 7 of a 4-player game of greedy bots."""
    import numpy as np
    import pyspiel

    import fcsim.openspiel

    game = pyspiel.load_game("python_five_crowns(players=4)")
    bots = [fcsim.openspiel.bot("greedy", seat) for seat in range(4)]
    rng = np.random.default_rng(1)
    state = game.new_initial_state()
    while state.is_chance_node() or int(state.data.ints[0]) < 7:
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return state


def measure(case: str) -> float:
    """One figure of ``case`` on the fcsim this process imports."""
    if case == "ismcts":
        import fcsim
        from fcsim.openspiel.bots import ismcts_agent

        rules, agent, decisions = fcsim.RuleSet(players=4, rounds=6), ismcts_agent(100), 0
        start = time.perf_counter()
        for g in (0, 1):
            game = fcsim.Game(rules=rules, seed=27, game=g)
            others = [fcsim.agent("greedy") for _ in range(3)]
            while not game.over:
                seat = game.to_move
                game.step(agent(game.view()) if seat == 0 else others[seat - 1](game.view()))
                decisions += seat == 0
        return decisions / (time.perf_counter() - start)
    state = _mid_game()
    player = state.current_player()
    if case == "resample":
        state.resample_from_infostate(player, lambda: 0.05)
        start = time.perf_counter()
        for i in range(50):
            state.resample_from_infostate(player, lambda i=i: (i + 0.5) / 50)
        return (time.perf_counter() - start) / 50 * 1e3
    start = time.perf_counter()
    for _ in range(200):
        state.information_state_string(player)
    return (time.perf_counter() - start) / 200 * 1e6


def _run(tree: Tree, case: str) -> float:
    out = subprocess.run([sys.executable, __file__, "--measure", case],
                         env=tree.env(tree.kept_cache()), check=True, capture_output=True,
                         text=True).stdout
    return float(out.split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=summary(__doc__))
    parser.add_argument("--cases", type=names_of(CASES), default=list(CASES),
                        help="comma-separated cases to run")
    parser.add_argument("--passes", type=at_least(1), default=3, help="processes per case")
    parser.add_argument("--against", metavar="REF", help="git ref to compare with")
    parser.add_argument("--measure", choices=CASES, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(measure(args.measure))
        return
    trees = [working_tree()]
    with ref_tree(args.against) if args.against else contextlib.nullcontext() as ref:
        if ref is not None:
            trees.append(ref)
        for case in args.cases:
            figures: dict[str, list[float]] = {tree.label: [] for tree in trees}
            for tree in trees:
                _run(tree, case)  # warm the caches
            for n in range(args.passes):
                for tree in in_turn(trees, n):
                    figures[tree.label].append(_run(tree, case))
            medians = {label: statistics.median(values) for label, values in figures.items()}
            for tree in trees:
                print(f"case={case} tree={tree.label} commit={tree.commit} "
                      f"{CASES[case]}={medians[tree.label]:.2f}", flush=True)
            if ref is not None:
                ratio = medians[trees[0].label] / medians[ref.label]
                print(f"case={case} ratio={ratio:.3f}", flush=True)


if __name__ == "__main__":
    if "--measure" in sys.argv:
        main()
    else:
        with recording(__file__):
            main()
