"""Two compare runs on the same deals, paired deal by deal: how much more does A gain over
B in the first run than C over D in the second?

    python scripts/pair_runs.py RUN1 A B RUN2 C D

prints one stable line:

    deals=… mean=… lo=… hi=… p=…

— the mean over the deals both runs played of ``(A − B) − (C − D)``, each a deal's mean
total over its seat rotations (as ``fcsim compare`` pairs them), with its 95% t interval
and p-value. Both runs must be duplicate deals of one seed and one table (``fcsim
compare … --seed S --out RUN``): A and C then played the same cards against the same
opponent, and what the difference keeps is what A does that C does not. STRENGTH.md
pairs the hands oracle's partial readings with the fair search this way.
"""

from __future__ import annotations

import argparse
import sys

import polars as pl
from arguments import input_refused_in_one_line, summary

from fcsim.analysis.load import check_run, load_results
from fcsim.analysis.stats import mean_difference
from fcsim.strategies import parse_strategy

SAME = ("seed", "rules", "duplicate", "seat_rotation")  # what two runs must share to pair


def per_deal(run: str, a: str, b: str) -> pl.DataFrame:
    """Per deal of run folder ``run``: A's mean total less B's (column ``d``)."""
    strategy = pl.col("strategy").cast(pl.String)
    frame = (load_results(run).group_by("deal")
             .agg(pl.col("total").filter(strategy == a).mean().alias("a"),
                  pl.col("total").filter(strategy == b).mean().alias("b"))
             .collect())
    if frame["a"].null_count() == frame.height or frame["b"].null_count() == frame.height:
        sys.exit(f"{run}: strategies {a!r} and {b!r} did not both play")
    return frame.select("deal", d=pl.col("a") - pl.col("b")).drop_nulls()


def main() -> None:
    parser = argparse.ArgumentParser(description=summary(__doc__))
    for name in ("run1", "a", "b", "run2", "c", "d"):
        parser.add_argument(name)
    args = parser.parse_args()
    with input_refused_in_one_line():
        first, second = check_run(args.run1).meta, check_run(args.run2).meta
        # as a run stores them: parameters in their declared order, defaults left out
        a, b, c, d = (parse_strategy(spec).spec for spec in (args.a, args.b, args.c, args.d))
    differ = [key for key in SAME if first.get(key) != second.get(key)]
    if differ:
        sys.exit(f"the runs differ in {', '.join(differ)}: their deals do not pair")
    joined = per_deal(args.run1, a, b).join(per_deal(args.run2, c, d), on="deal", suffix="_2")
    deals, mean, lo, hi, p = mean_difference((joined["d"] - joined["d_2"]).to_numpy())
    print(f"deals={deals} mean={mean:+.2f} lo={lo:+.2f} hi={hi:+.2f} p={p:.3g}")


if __name__ == "__main__":
    main()
