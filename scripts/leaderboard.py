"""Every built-in player against one yardstick on the same fresh deals: the leaderboard.

    python scripts/leaderboard.py --players 4 --deals 2000 --seed 260 --out results/leaderboard

plays ``fcsim compare PLAYER aware`` for each player at its defaults, every run on the
same deals (one seed, one table: deal g is the same cards in every run), keeps each run in
``OUT/PLAYER`` (``fcsim compare`` completes a run already there, interrupted or not, and
refuses a folder holding another run), prints one stable line per player as it ends::

    player=… deals=… minus_yardstick=… lo=… hi=… p=… win_share=… wall_s=…

and then the leaderboard as a Markdown table, best first, the analysis-only references
(strategies that see hidden cards) labelled as such. Any two rows can be paired deal by
deal with ``scripts/pair_runs.py``. The README and STRENGTH.md carry its table.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from arguments import at_least, input_refused_in_one_line, summary, table_size

from fcsim.analysis import load_results
from fcsim.analysis.stats import paired_comparison, win_share
from fcsim.strategies import display_name, parse_strategy

YARDSTICK = "aware"
PLAYERS = ("random", "greedy", "expected", "learned", "search", "oracle",
           "search_hands_oracle", "search_oracle")


@dataclass(frozen=True)
class Row:
    """One player's paired result against the yardstick."""

    player: str
    deals: int
    diff: float
    lo: float
    hi: float
    p: float
    win_share: float
    wall_s: float


def play(player: str, args: argparse.Namespace) -> Row:
    """``fcsim compare PLAYER aware`` into ``OUT/PLAYER``, and its result."""
    folder = args.out / player.replace(":", "_")
    command = [sys.executable, "-m", "fcsim", "compare", player, YARDSTICK,
               "--players", str(args.players), "--deals", str(args.deals),
               "--seed", str(args.seed), "--out", str(folder)]
    if args.workers:
        command += ["--workers", str(args.workers)]
    start = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.DEVNULL)
    if done.returncode:  # its one line said why
        sys.exit(done.returncode)
    wall = time.perf_counter() - start
    lf = load_results(folder)
    row = paired_comparison(lf, [(player, YARDSTICK)]).row(0, named=True)
    share = {r["strategy"]: r["win_share"] for r in win_share(lf).iter_rows(named=True)}
    return Row(player, row["deals"], row["mean_diff"], row["mean_diff_lo"],
               row["mean_diff_hi"], row["p_value"], share[player], wall)


def signed(value: float) -> str:
    """``value`` with two decimals and its sign, a minus as the docs write it."""
    return f"{value:+.2f}".replace("-", "\u2212")


def table(rows: list[Row], args: argparse.Namespace) -> str:
    """The leaderboard in Markdown, best first, the yardstick in its place."""
    lines = [f"| player | − `{YARDSTICK}`, points per game (95% CI) | p | win share "
             f"(fair {1 / args.players:.3f}) |", "| --- | --- | --- | --- |"]
    yardstick = f"| `{YARDSTICK}` (the yardstick) | 0 | | |"
    for r in sorted(rows, key=lambda r: r.diff):
        if r.diff > 0 and yardstick not in lines:
            lines.append(yardstick)
        label = display_name(r.player).replace(r.player, f"`{r.player}`", 1)
        lines.append(f"| {label} | {signed(r.diff)} [{signed(r.lo)}, {signed(r.hi)}] | "
                     f"{'< 0.001' if r.p < 0.001 else f'{r.p:.3g}'} | {r.win_share:.3f} |")
    if yardstick not in lines:
        lines.append(yardstick)
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=summary(__doc__))
    parser.add_argument("--players", type=table_size, default=4)
    parser.add_argument("--deals", type=at_least(1), default=2000)
    parser.add_argument("--seed", type=int, default=260)
    parser.add_argument("--out", type=Path, default=Path("results/leaderboard"))
    parser.add_argument("--workers", type=at_least(1),
                        help="worker processes (default: all cores)")
    parser.add_argument("--only", help="comma-separated players (default: every one)")
    args = parser.parse_args()
    with input_refused_in_one_line():  # every player read before the first plays
        players = [parse_strategy(p).spec for p in (args.only.split(",") if args.only
                                                     else PLAYERS)]
    rows = []
    for player in players:
        rows.append(r := play(player, args))
        print(f"player={r.player} deals={r.deals} minus_yardstick={r.diff:.3f} lo={r.lo:.3f} "
              f"hi={r.hi:.3f} p={r.p:.3g} win_share={r.win_share:.4f} wall_s={r.wall_s:.0f}",
              flush=True)
    print(table(rows, args))


if __name__ == "__main__":
    main()
