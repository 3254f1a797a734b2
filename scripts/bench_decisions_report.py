"""Time the Decisions part of ``fcsim report`` on a synthetic run of about N decision rows
(default 10 million; 4 strategies, 11 rounds, the schemas of ``fcsim simulate --decisions``).

The run is written first; the Decisions part alone (its statistics and charts) and then the
whole report are timed, each in a child process. Prints one stable line::

    decision_rows=… games=… decisions_part_s=… decisions_peak_rss_mb=… report_s=…
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pyarrow.parquet as pq
from arguments import at_least, summary
from bench_page import recording

from fcsim.analysis.synthetic import write_synthetic_run

STRATEGIES = ("greedy", "greedy:take_margin=3", "expected", "random")
EDGES = (0.3, 0.25, 0.15, -0.5)
TURNS_PER_GAME = 240  # about what the synthetic model plays with 4 seats and 11 rounds

DECISIONS_PART = """
import sys
from pathlib import Path
from fcsim.analysis import decisions, plots, stats
from fcsim.analysis.load import load_results
from fcsim.analysis.report import decision_sections
run, out = Path(sys.argv[1]), Path(sys.argv[2])
out.mkdir()
lf = load_results(run)
decision_sections(decisions.load_decisions(run), lf, out,
                   plots.strategy_colors(stats.strategies_of(lf)))
"""


def _timed(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=summary(__doc__))
    parser.add_argument("--rows", type=at_least(1), default=10_000_000,
                        help="decision rows (about)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    games = max(args.rows // TURNS_PER_GAME, 1)
    with tempfile.TemporaryDirectory(prefix="fcsim-bench-") as tmp:
        run = write_synthetic_run(Path(tmp) / "run", STRATEGIES, EDGES, games, seed=args.seed,
                                  decisions=True)
        rows = sum(pq.read_metadata(f).num_rows for f in (run / "decisions").iterdir())
        part_s = _timed([sys.executable, "-c", DECISIONS_PART, str(run), str(Path(tmp) / "d")])
        peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        report_s = _timed([sys.executable, "-m", "fcsim", "report", str(run),
                           "--out", str(Path(tmp) / "report")])
    print(f"decision_rows={rows} games={games} decisions_part_s={part_s:.1f} "
          f"decisions_peak_rss_mb={peak_mb:.0f} report_s={report_s:.1f}")


if __name__ == "__main__":
    with recording(__file__):
        main()
