#!/usr/bin/env bash
# Rebuild the model `learned` plays by default (fcsim/strategies/learned/default_model.npz)
# from its seed: self-play of aware and expected at 4 seats, a quarter of the discards
# recorded, a network of 24 hidden units fitted for 8 epochs. Needs the [learn] extra.
# Took 8 minutes on 2 cores (shared with other work; docs/LEARNING.md); the folder keeps the
# games, the positions and the report, and --resume completes an interrupted rebuild.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-results/default-model}
fcsim train --strategies aware,expected --players 4 --games 20000 --seed 1 \
    --share 0.25 --hidden 24 --epochs 8 --check-deals 200 --out "$out" --resume
cp "$out/model.npz" fcsim/strategies/learned/default_model.npz
echo "shipped: fcsim/strategies/learned/default_model.npz ($(sha256sum "$out/model.npz" | cut -c1-12))"
