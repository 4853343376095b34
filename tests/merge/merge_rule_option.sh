#!/usr/bin/env bash
# merge_rule_option.sh BUILD_DIR -- recorder-merge --farthest-match: n-to-m
# traced at 4 ranks (its aggregators' calls are a group's, not every rank's)
# merges with that rule alone into more records than with the default rule,
# each rank still round-trips, and --paper, the option's first name, gives
# the same merged trace byte for byte.
set -euo pipefail
build=$1
work=$build/merge-runs/rule-option
rm -rf "$work" && mkdir -p "$work"
fail() { echo "merge_rule_option: $*" >&2; exit 1; }
preload=$build/tests/support/liboversubscribe.so:$build/tracer/librecorder.so
bash "$(dirname "$0")/../../kernels/run_kernel.sh" "$work/out" \
  mpiexec -np 4 -genv LD_PRELOAD "$preload" -genv RECORDER_TRACES_DIR "$work/trace" \
  "$build/kernels/n-to-m" > "$work/kernel.txt"
merge="$build/merger/recorder-merge"
records() { sed -E 's/.*-> ([0-9]+) merged records.*/\1/'; }
default=$("$merge" "$work/trace" -o "$work/default" | records)
farthest=$("$merge" "$work/trace" -o "$work/farthest" --farthest-match | records)
"$merge" "$work/trace" -o "$work/paper" --paper --quiet
"$build/tests/merge/merge_check" "$work/trace" "$work/farthest"
for f in "$work"/farthest/*; do
  cmp -s "$f" "$work/paper/$(basename "$f")" || fail "--paper and --farthest-match differ in $(basename "$f")"
done
[ "$farthest" -gt "$default" ] || fail "--farthest-match: $farthest merged records, the default rule $default"
echo "merge_rule_option: $default merged records by default, $farthest with --farthest-match (= --paper)"
