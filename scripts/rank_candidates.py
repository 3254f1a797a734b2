"""Judge discard rules offline on rollout-labelled positions: the advantage each one earns.

For every held-out position (every tenth game) of a ``fcsim train --labels rollouts``
folder, each rule picks one of the position's candidates; a rule's score is the mean
advantage (the candidate's played-out outcome less the candidates' mean) of its picks.
Lower is better. The rules: least penalty now, least expected penalty after the next draw
(``expected``), ``aware``'s weights on the recorded features, every model given, and the
hindsight pick (the best play-out: a bound no player reaches).

    python scripts/rank_candidates.py TRAIN_DIR [MODEL.npz ...]

Prints ``rule=score`` lines.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
from arguments import input_refused_in_one_line, summary

from fcsim.learn.fit import read_inputs
from fcsim.learn.positions import MOVE_DISCARD
from fcsim.strategies.aware import PARAMS as AWARE_PARAMS
from fcsim.strategies.learned.model import RELATIVE, load_model


def aware_score(rows: pd.DataFrame) -> np.ndarray:
    """``aware``'s comparison on the recorded features (its default weights)."""
    p = {param.name: param.default for param in AWARE_PARAMS}
    late = rows["f_turns_per_seat"] >= p["danger_turns"]
    now = np.where(late, p["urgency"], 0.0)
    return ((1 - now) * rows["f_expected_next"] + now * rows["f_penalty_now"]
            + p["feed_weight"] * rows["f_feeds_next"])


def main() -> None:
    parser = argparse.ArgumentParser(description=summary(__doc__))
    parser.add_argument("train_dir", type=Path)
    parser.add_argument("models", type=Path, nargs="*")
    args = parser.parse_args()
    with input_refused_in_one_line():
        models = {path.parent.name or str(path): load_model(path) for path in args.models}
    parts = sorted((args.train_dir / "positions").glob("part-*.parquet"))
    if not parts:
        sys.exit(f"{args.train_dir}: no positions/part-*.parquet (not a fcsim train folder)")
    frames = []
    for path in parts:
        rows = pq.read_table(path).to_pandas()
        rows = rows[rows["move"] == MOVE_DISCARD].reset_index(drop=True)  # read_inputs' rows
        inputs, _, held = read_inputs(path, RELATIVE)
        rows, inputs = rows[held].copy(), inputs[held]
        for name, model in models.items():
            a = model.arrays
            x = inputs[:, : a["mean"].shape[0]]
            hidden = np.maximum((x - a["mean"]) / a["scale"] @ a["w1"] + a["b1"], 0.0)
            rows[f"model {name}"] = hidden @ a["w2"] + a["b2"][0]
        frames.append(rows)
    rows = pd.concat(frames, ignore_index=True)
    rows["aware"] = aware_score(rows)
    position = rows["game"].astype(np.int64) * (1 << 20) + rows["decision"]
    rules = {"penalty_now": "f_penalty_now", "expected": "f_expected_next", "aware": "aware",
             **{name: f"model {name}" for name in models}, "hindsight": "label"}
    print(f"positions={position.nunique()}")
    for name, column in rules.items():
        picks = rows.groupby(position)[column].idxmin()
        print(f"{name}={rows.loc[picks, 'label'].mean():.3f}")


if __name__ == "__main__":
    main()
