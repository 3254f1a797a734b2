#!/usr/bin/env bash
# Rebuild the model `learned` plays by default (fcsim/strategies/learned/default_model.npz)
# from its seeds: self-play of aware and expected, half of the discards recorded, each with
# its 5 best discards now played out to the round's end, and half of the draws worth
# weighing (the pile's card lowers the penalty now or is near the hand; not on a last
# turn), both sources played out (rollout labels); a discard network on relative inputs
# and a draw network, 64 hidden units each, fitted for 30 epochs. First at 2 seats (seed
# 215): the networks the model plays at a 2-player table; then at 4 seats (seed 1): the
# networks it plays at every other table, the 2-player ones joined to them
# (--table-model). Needs the [learn] extra. 28 to 42 minutes on 2 cores (docs/LEARNING.md);
# each folder keeps its games, positions and report, and --resume completes an
# interrupted rebuild. Usage:
#   scripts/train_default_model.sh [OUT]   (default OUT: results/default-model, from the
#                                           repository's root)
set -euo pipefail
source "$(dirname "$0")/study.sh"
folder_argument results/default-model "$@"
cd "$(dirname "$0")/.."
# The fit's arithmetic, pinned: OpenBLAS's Haswell kernels run on any x86-64 CPU with AVX2,
# and on a CPU with AVX-512 OpenBLAS would pick others, whose rounding, amplified over 30
# epochs, fits other weights (measured: the same held-out error, another network).
export OPENBLAS_CORETYPE=Haswell
out=$folder
recipe=(--strategies aware,expected --games 20000 --share 0.5 --labels rollouts
        --candidates 5 --hidden 64 --epochs 30 --resume)
fcsim train "${recipe[@]}" --players 2 --seed 215 --check-deals 0 --out "$out/2-players"
fcsim train "${recipe[@]}" --players 4 --seed 1 --check-deals 200 --out "$out/4-players" \
    --table-model "$out/2-players/model.npz"
cp "$out/4-players/model.npz" fcsim/strategies/learned/default_model.npz
echo "shipped: fcsim/strategies/learned/default_model.npz ($(sha256sum "$out/4-players/model.npz" | cut -c1-12))"
