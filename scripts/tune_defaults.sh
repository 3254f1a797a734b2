#!/usr/bin/env bash
# The studies behind the built-in strategies' defaults (README, "How the defaults were
# chosen"): each family against itself at its defaults and in a mixed table (one of each
# fair family at its defaults), then a confirmation on fresh deals. Usage:
#   bash scripts/tune_defaults.sh [OUT]        (default OUT: results/tune-defaults)
# Each study is resumable: run the script again to complete an interrupted one.
set -euo pipefail
out="${1:-results/tune-defaults}"
mixed="greedy,expected,aware"
run() { echo "== fcsim $*" >&2; fcsim "$@" --resume; }

# greedy was tuned while its default was take_margin=0, which these commands name.
old_greedy="greedy:take_margin=0"
run tune "$old_greedy" --against "$old_greedy" --param take_margin=0:20 --trials 40 \
    --deals 500 --confirm-deals 5000 --seed 1 --out "$out/greedy-self"
run sweep "$old_greedy" --against "$old_greedy" --grid take_margin=7,8 --deals 5000 \
    --seed 10451216379200822465 --out "$out/greedy-self-check"
run tune "$old_greedy" --param take_margin=0:20 --against "$old_greedy,expected,aware" \
    --trials 30 --deals 300 --confirm-deals 2000 --seed 1 --out "$out/greedy-mixed"
run tune expected --param take_margin=0:10 --param candidates=1:8 --trials 30 --deals 300 \
    --confirm-deals 2000 --seed 1 --out "$out/expected-self"
run tune expected --param take_margin=0:10 --param candidates=1:8 --against "$mixed" \
    --trials 30 --deals 300 --confirm-deals 2000 --seed 1 --out "$out/expected-mixed"
run tune aware --param candidates=2:8 --param feed_weight=0:10 --param danger_turns=0:10 \
    --param urgency=0:1 --trials 24 --deals 200 --confirm-deals 1500 --seed 1 \
    --out "$out/aware-self"
run tune aware --param candidates=2:8 --param feed_weight=0:10 --param danger_turns=0:10 \
    --param urgency=0:1 --against "$mixed" --trials 24 --deals 200 --confirm-deals 1500 \
    --seed 1 --out "$out/aware-mixed"
