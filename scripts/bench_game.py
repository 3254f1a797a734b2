"""Benchmark the Python layer: a Python loop over ``fcsim.Game``, ``Game.copy()`` and the
PettingZoo environment, on one core.

Prints one stable line per figure::

    loop=python agent=trivial players=4 games=… decisions=… decisions_per_s=…
    loop=python agent=greedy players=4 games=… decisions=… decisions_per_s=…
    copy players=4 copies=… copy_us=…
    env=pettingzoo players=4 games=… steps=… steps_per_s=…

``agent=trivial`` is a Python agent choosing uniformly among ``view.legal_actions`` (a
seeded ``random.Random``): the cost of the loop itself — ``Game.view()``, reading the
view, ``Game.step()``. ``agent=greedy`` is the built-in strategy as an agent, for
reference (its own decisions cost more). ``copy_us`` is the best of 7 repeats of a
mid-game ``Game.copy()``. The environment runs ``env.agent_iter()`` / ``last()`` /
``step()`` (the wrapped ``fcsim.env.env``) with actions chosen among the action mask;
``steps`` counts the decisions (not the finished agents' ``None`` steps). Times are CPU
time of this process (``time.process_time``) after a warm-up game; ``--scale``
multiplies the game counts. Without the ``[rl]`` extra the environment line is skipped.

    python scripts/bench_game.py
"""

from __future__ import annotations

import argparse
import random
import time
import timeit

import numpy as np
from arguments import positive, summary
from bench_page import recording

import fcsim

PLAYERS = 4
GAMES = {"trivial": 40, "greedy": 40, "env": 40}


def trivial_agent(seed: int):
    """A Python agent: a uniformly random legal action."""
    rng = random.Random(seed)

    def choose(view: fcsim.View) -> str:
        return rng.choice(view.legal_actions)

    return choose


def python_loop(agent, games: int) -> tuple[int, float]:
    """Decisions made and CPU seconds: ``games`` games, ``agent`` in every seat."""
    decisions = 0
    start = time.process_time()
    for g in range(games):
        game = fcsim.Game(players=PLAYERS, seed=1, game=g)
        while not game.over:
            game.step(agent(game.view()))
            decisions += 1
    return decisions, time.process_time() - start


def copy_us() -> tuple[int, float]:
    """Copies timed and the best µs per copy of a game in its fifth round."""
    game = fcsim.Game(players=PLAYERS, seed=1)
    agent = trivial_agent(0)
    while game.round < 5:
        game.step(agent(game.view()))
    number = 20_000
    best = min(timeit.repeat(game.copy, number=number, repeat=7, timer=time.process_time))
    return number, best / number * 1e6


def env_loop(games: int) -> tuple[int, float] | None:
    """Decisions and CPU seconds of ``games`` games of the PettingZoo environment."""
    try:
        from fcsim.env import env
    except ImportError:
        return None
    table = env(players=PLAYERS)
    rng = random.Random(0)
    steps = 0
    start = time.process_time()
    for g in range(games):
        table.reset(seed=1 if g == 0 else None)
        for _ in table.agent_iter():
            obs, _, terminated, truncated, _ = table.last()
            if terminated or truncated:
                table.step(None)
                continue
            table.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
            steps += 1
    return steps, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=summary(__doc__))
    parser.add_argument("--scale", type=positive, default=1.0)
    args = parser.parse_args()
    games = {k: max(1, int(v * args.scale)) for k, v in GAMES.items()}
    for name, agent in (("trivial", trivial_agent(0)), ("greedy", fcsim.agent("greedy"))):
        python_loop(agent, 1)  # warm-up
        decisions, secs = python_loop(agent, games[name])
        print(f"loop=python agent={name} players={PLAYERS} games={games[name]} "
              f"decisions={decisions} decisions_per_s={decisions / secs:.0f}", flush=True)
    copies, micros = copy_us()
    print(f"copy players={PLAYERS} copies={copies} copy_us={micros:.2f}", flush=True)
    if env_loop(1) is not None:  # warm-up
        steps, secs = env_loop(games["env"])
        print(f"env=pettingzoo players={PLAYERS} games={games['env']} steps={steps} "
              f"steps_per_s={steps / secs:.0f}", flush=True)


if __name__ == "__main__":
    with recording(__file__):
        main()
