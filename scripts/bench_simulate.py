"""End-to-end ``fcsim simulate`` benchmark: 4 x greedy, full games, all cores.

Prints one stable line per run::

    games=100000 workers=2 wall_s=… games_per_s=… peak_rss_mb=… bytes_per_row=…

and one line for the parallel efficiency (the same run on 1 worker, then on 2)::

    parallel games=200000 games_per_s_1=… games_per_s_2=… speedup=… efficiency=…

Wall time covers the whole command (start-up, warm-up, writing). ``peak_rss_mb`` is the
largest sum of resident memory over the command and all its worker processes, sampled
every 0.1 s from /proc (Linux).

    python scripts/bench_simulate.py                 # 100,000 and 1,000,000 games
    python scripts/bench_simulate.py --games 100000  # one size
"""

from __future__ import annotations

import argparse
import contextlib
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from arguments import at_least, summary
from bench_page import recording

PLAYERS = 4
PAGE = os.sysconf("SC_PAGE_SIZE")


def _children() -> dict[int, list[int]]:
    """Parent pid → child pids, for every process now."""
    tree: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                stat = Path(entry.path, "stat").read_text()
            except OSError:
                continue
            parent = int(stat.rsplit(")", 1)[1].split()[1])
            tree.setdefault(parent, []).append(int(entry.name))
    return tree


def tree_rss(root: int) -> int:
    """Resident bytes of ``root`` and all its descendants."""
    tree, todo, total = _children(), [root], 0
    while todo:
        pid = todo.pop()
        todo += tree.get(pid, [])
        with contextlib.suppress(OSError):  # ended meanwhile
            total += int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE
    return total


def run(games: int, workers: int, out: Path) -> dict[str, float]:
    """Run ``fcsim simulate`` once; its wall time, peak memory and bytes per row."""
    command = [sys.executable, "-m", "fcsim", "simulate", "--strategies", "greedy",
               "--players", str(PLAYERS), "--games", str(games), "--seed", "1",
               "--workers", str(workers), "--out", str(out)]
    start = time.perf_counter()
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak = 0
    while proc.poll() is None:
        peak = max(peak, tree_rss(proc.pid))
        time.sleep(0.1)
    wall = time.perf_counter() - start
    if proc.returncode:
        sys.exit(f"fcsim simulate failed:\n{proc.stderr.read().decode()}")
    size = sum(p.stat().st_size for p in out.glob("part-*.parquet"))
    return {"wall_s": wall, "games_per_s": games / wall, "peak_rss_mb": peak / 2**20,
            "bytes_per_row": size / (games * PLAYERS)}


def main() -> None:
    parser = argparse.ArgumentParser(description=summary(__doc__))
    parser.add_argument("--games", type=at_least(1), action="append",
                        help="games per run (repeatable; default 100000 and 1000000)")
    parser.add_argument("--workers", type=at_least(1), default=len(os.sched_getaffinity(0)))
    parser.add_argument("--parallel-games", type=at_least(0), default=200_000,
                        help="games for the 1-vs-2-worker efficiency run (0 to skip); "
                             "enough chunks that process start-up does not dominate")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench_simulate_") as scratch:
        for index, games in enumerate(args.games or [100_000, 1_000_000]):
            r = run(games, args.workers, Path(scratch, f"run{index}"))
            print(f"games={games} workers={args.workers} wall_s={r['wall_s']:.1f} "
                  f"games_per_s={r['games_per_s']:.0f} peak_rss_mb={r['peak_rss_mb']:.0f} "
                  f"bytes_per_row={r['bytes_per_row']:.2f}", flush=True)
        if args.parallel_games:
            n = args.parallel_games
            one = run(n, 1, Path(scratch, "one"))["games_per_s"]
            two = run(n, 2, Path(scratch, "two"))["games_per_s"]
            print(f"parallel games={n} games_per_s_1={one:.0f} games_per_s_2={two:.0f} "
                  f"speedup={two / one:.2f} efficiency={two / one / 2:.2f}", flush=True)


if __name__ == "__main__":
    with recording(__file__):
        main()
