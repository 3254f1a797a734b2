"""Time ``fcsim report`` on a synthetic run of N game × seat rows (default 10 million).

The run (4 strategies with planted edges, 11 rounds, the Parquet schema of
``fcsim simulate``) is written in chunks to a temporary folder first; only the report is
timed, in a child process, so its peak RSS is measured alone. Prints one stable line:
``rows=… report_s=… peak_rss_mb=…``.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from arguments import at_least, summary
from bench_page import recording

from fcsim.analysis.synthetic import write_synthetic_run

STRATEGIES = ("greedy", "greedy:take_margin=3", "expected", "random")
EDGES = (0.3, 0.25, 0.15, -0.5)


def main() -> None:
    parser = argparse.ArgumentParser(description=summary(__doc__))
    parser.add_argument("--rows", type=at_least(len(STRATEGIES) ** 2), default=10_000_000,
                        help="game × seat rows (at least one game in every seat rotation)")
    parser.add_argument("--duplicate", action="store_true", help="duplicate-format deals")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    players = len(STRATEGIES)
    games = args.rows // players // players * players
    with tempfile.TemporaryDirectory(prefix="fcsim-bench-") as tmp:
        run = write_synthetic_run(Path(tmp) / "run", STRATEGIES, EDGES, games, seed=args.seed,
                                  duplicate=args.duplicate)
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "fcsim", "report", str(run),
                        "--out", str(Path(tmp) / "report")], check=True,
                       stdout=subprocess.DEVNULL)
        seconds = time.perf_counter() - start
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"rows={games * players} report_s={seconds:.1f} peak_rss_mb={peak_mb:.0f}")


if __name__ == "__main__":
    with recording(__file__):
        main()
