#!/usr/bin/env bash
# Rebuild the model `learned` plays by default (fcsim/strategies/learned/default_model.npz)
# from its seed: self-play of aware and expected at 4 seats, half of the discards
# recorded, each with its 5 best discards now played out to the round's end, and half of
# the draws worth weighing (the pile's card lowers the penalty now or is near the hand; not on
# a last turn), both sources played out (rollout labels);
# a discard network on relative inputs and a draw network, 64 hidden units each, fitted
# for 30 epochs. Needs the [learn] extra. About 20 minutes on 2 cores (docs/LEARNING.md);
# the folder keeps the games, the positions and the report, and --resume completes an
# interrupted rebuild.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-results/default-model}
fcsim train --strategies aware,expected --players 4 --games 20000 --seed 1 \
    --share 0.5 --labels rollouts --candidates 5 --hidden 64 --epochs 30 \
    --check-deals 200 --out "$out" --resume
cp "$out/model.npz" fcsim/strategies/learned/default_model.npz
echo "shipped: fcsim/strategies/learned/default_model.npz ($(sha256sum "$out/model.npz" | cut -c1-12))"
