"""What ``fcsim simulate --decisions`` costs: 4 x greedy with and without the flag, side by
side (alternating, so the machine's noise falls on both), and the decision rows' size.

Prints stable lines::

    decisions=off games=… workers=… wall_s=…
    decisions=on games=… workers=… wall_s=… decision_rows=… bytes_per_decision_row=…
    overhead games=… wall_s_off=… wall_s_on=… extra_pct=…

``wall_s_*`` are the medians over ``--repeats`` runs of the whole command.

    python scripts/bench_decisions.py --games 20000 --workers 2
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pyarrow.parquet as pq
from arguments import at_least, summary
from bench_page import recording


def run(games: int, workers: int, out: Path, decisions: bool) -> float:
    """One ``fcsim simulate`` of 4 x greedy into ``out``; its wall time."""
    command = [sys.executable, "-m", "fcsim", "simulate", "--strategies", "greedy",
               "--games", str(games), "--workers", str(workers), "--out", str(out)]
    start = time.perf_counter()
    subprocess.run(command + (["--decisions"] if decisions else []), check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=summary(__doc__))
    parser.add_argument("--games", type=at_least(1), default=20_000)
    parser.add_argument("--workers", type=at_least(1), default=2)
    parser.add_argument("--repeats", type=at_least(1), default=2)
    args = parser.parse_args()
    walls: dict[bool, list[float]] = {False: [], True: []}
    with tempfile.TemporaryDirectory(prefix="fcsim-bench-") as tmp:
        run(200, 1, Path(tmp) / "warm", True)  # load the kernels once, untimed
        for i in range(args.repeats):
            for decisions in (False, True):
                out = Path(tmp) / f"run-{decisions}-{i}"
                walls[decisions].append(run(args.games, args.workers, out, decisions))
        files = list((out / "decisions").glob("part-*.parquet"))
        rows = sum(pq.read_metadata(f).num_rows for f in files)
        size = sum(f.stat().st_size for f in files)
    off, on = statistics.median(walls[False]), statistics.median(walls[True])
    common = f"games={args.games} workers={args.workers}"
    print(f"decisions=off {common} wall_s={off:.1f}")
    print(f"decisions=on {common} wall_s={on:.1f} decision_rows={rows} "
          f"bytes_per_decision_row={size / rows:.2f}")
    print(f"overhead games={args.games} wall_s_off={off:.1f} wall_s_on={on:.1f} "
          f"extra_pct={100 * (on - off) / off:.0f}")


if __name__ == "__main__":
    with recording(__file__):
        main()
