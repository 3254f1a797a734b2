"""Regenerate the sample report in ``results/sample/`` from real runs of the built-in strategies.

Five duplicate-format runs (the same deals in every seat rotation), then one report over all:

* 200,000 games of ``greedy`` (its default, ``take_margin=8``) against a greedy that takes
  any saving from the pile (``take_margin=0``), a more patient one (``take_margin=15``)
  and ``random``;
* 4,000 games of ``random``, ``greedy``, ``expected`` and ``aware`` (the lookahead
  strategies are ~50x slower, hence the smaller run);
* 4,000 games of ``learned`` (its shipped model), ``aware``, ``expected`` and ``greedy``;
* 800 games of ``search``, ``aware``, ``expected`` and ``greedy`` (a search seat plays
  about a game a second);
* 800 games of the analysis-only references ``search_oracle``, ``search_hands_oracle`` and
  ``oracle`` (they see hidden cards; the report marks them so) with ``aware``.

The runs go to ``results/sample-runs/`` (not tracked); the report (Markdown, HTML, PNGs)
to ``results/sample/``. ``--scale`` shrinks the runs for a quick look, into
``results/sample-scaled-runs/`` and ``results/sample-scaled/`` (not tracked), so the
tracked sample is only ever written whole. It prints one stable line per step:
``step=… games=… wall_s=…``.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from pathlib import Path

from arguments import positive, summary

from fcsim.runner.format import read_metadata

ROOT = Path(__file__).resolve().parents[1]
RUNS = [  # name, strategies, games, seed, chunk size (small chunks keep every core busy)
    ("greedy-variants", "greedy,greedy:take_margin=0,greedy:take_margin=15,random", 200_000, 1,
     10_000),
    ("lookahead", "random,greedy,expected,aware", 4_000, 2, 250),
    ("learned", "learned,aware,expected,greedy", 4_000, 4, 250),
    ("search", "search,aware,expected,greedy", 800, 3, 25),
    ("references", "search_oracle,search_hands_oracle,oracle,aware", 800, 5, 25),
]


def _fcsim(*args: str) -> None:
    """``fcsim ARGS`` of this checkout (run from its root), not whichever is on ``PATH``."""
    subprocess.run([sys.executable, "-m", "fcsim", *args], check=True, cwd=ROOT)


def simulate(strategies: str, games: int, seed: int, chunk_size: int, path: Path) -> int:
    """One duplicate-format run into ``path``; the games it holds (``fcsim simulate``
    rounds the games up to whole sets of seat rotations)."""
    _fcsim("simulate", "--strategies", strategies, "--games", str(games), "--seed", str(seed),
           "--duplicate", "--chunk-size", str(chunk_size), "--out", str(path))
    return int(read_metadata(path)["games"])


def destinations(scale: float) -> tuple[Path, Path]:
    """Where the runs and the report go: the tracked sample at full scale only."""
    name = "sample" if scale == 1 else "sample-scaled"
    return ROOT / "results" / f"{name}-runs", ROOT / "results" / name


def main() -> None:
    parser = argparse.ArgumentParser(description=summary(__doc__))
    parser.add_argument("--scale", type=positive, default=1.0,
                        help="multiply every run's games (not 1: into results/sample-scaled/)")
    args = parser.parse_args()
    runs_dir, report_dir = destinations(args.scale)
    shutil.rmtree(runs_dir, ignore_errors=True)
    paths = []
    for name, strategies, games, seed, chunk_size in RUNS:
        path = runs_dir / name
        start = time.perf_counter()
        games = simulate(strategies, max(1, int(games * args.scale)), seed, chunk_size, path)
        print(f"step=simulate-{name} games={games} wall_s={time.perf_counter() - start:.1f}",
              flush=True)
        paths.append(str(path))
    shutil.rmtree(report_dir, ignore_errors=True)
    start = time.perf_counter()
    _fcsim("report", *paths, "--out", str(report_dir))
    print(f"step=report wall_s={time.perf_counter() - start:.1f} "
          f"out={report_dir.relative_to(ROOT)}", flush=True)


if __name__ == "__main__":
    main()
