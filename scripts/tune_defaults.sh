#!/usr/bin/env bash
# The studies behind the built-in strategies' defaults (docs/RESULTS.md, "How the defaults are
# chosen"): each family against itself at its defaults and in a mixed table (one of each
# fair family at its defaults), then a confirmation on fresh deals. Usage:
#   bash scripts/tune_defaults.sh [OUT]        (default OUT: results/tune-defaults)
# Each study is resumable: run the script again to complete an interrupted one.
set -euo pipefail
source "$(dirname "$0")/study.sh"
folder_argument results/tune-defaults "$@"
out=$folder
run() { echo "== fcsim $*" >&2; fcsim "$@" --resume; }

# The studies ran from the defaults of their day, which these commands name: greedy's
# take_margin was 0; expected's candidates 3; aware's candidates 4, feed_weight 3 and
# danger_turns 3. The mixed table is one of each at those defaults (greedy at 8; in
# greedy's own mixed study, the starting greedy at 0).
old_greedy="greedy:take_margin=0"
old_expected="expected:take_margin=0,candidates=3"
old_aware="aware:take_margin=0,candidates=4,feed_weight=3,danger_turns=3,urgency=0.5"
mixed="greedy,$old_expected,$old_aware"
run tune "$old_greedy" --against "$old_greedy" --param take_margin=0:20 --trials 40 \
    --deals 500 --confirm-deals 5000 --seed 1 --out "$out/greedy-self"
run sweep "$old_greedy" --against "$old_greedy" --grid take_margin=7,8 --deals 5000 \
    --seed 10451216379200822465 --out "$out/greedy-self-check"
run tune "$old_greedy" --param take_margin=0:20 --against "$old_greedy,$old_expected,$old_aware" \
    --trials 30 --deals 300 --confirm-deals 2000 --seed 1 --out "$out/greedy-mixed"
run tune "$old_expected" --param take_margin=0:10 --param candidates=1:8 --trials 30 \
    --deals 300 --confirm-deals 2000 --seed 1 --out "$out/expected-self"
run tune "$old_expected" --param take_margin=0:10 --param candidates=1:8 --against "$mixed" \
    --trials 30 --deals 300 --confirm-deals 2000 --seed 1 --out "$out/expected-mixed"
run tune "$old_aware" --param candidates=2:8 --param feed_weight=0:10 --param danger_turns=0:10 \
    --param urgency=0:1 --trials 24 --deals 200 --confirm-deals 1500 --seed 1 \
    --out "$out/aware-self"
run tune "$old_aware" --param candidates=2:8 --param feed_weight=0:10 --param danger_turns=0:10 \
    --param urgency=0:1 --against "$mixed" --trials 24 --deals 200 --confirm-deals 1500 \
    --seed 1 --out "$out/aware-mixed"

# The rounded settings both fields pointed to, on deals no study saw, before the defaults
# of expected (candidates 3 -> 8) and aware (candidates 4 -> 6, feed_weight 3 -> 0.5,
# danger_turns 3 -> 7) moved.
fresh=2026120101
for field in self mixed; do
    against=(); [ "$field" = mixed ] && against=(--against "$mixed")
    run sweep "$old_expected" --grid candidates=6,8 "${against[@]}" --deals 2000 \
        --seed "$fresh" --out "$out/expected-$field-check"
    run sweep "$old_aware" --grid candidates=6 --grid feed_weight=0.5 --grid danger_turns=7 \
        --grid urgency=0.5 "${against[@]}" --deals 1500 --seed "$fresh" \
        --out "$out/aware-$field-check"
done
