#!/usr/bin/env bash
# merge_time_resolution.sh BUILD_DIR -- recorder-merge --time-resolution: vpic-like
# traced at 4 ranks, merged exactly and to within 1 ms: the second says so in
# its metadata (merge.time_resolution), every rank reads back the same calls
# with times within that resolution (merge_check reads it), its stream is
# smaller, and a bad resolution is refused with a message naming it.
set -euo pipefail
build=$1
work=$build/merge-runs/time-resolution
rm -rf "$work" && mkdir -p "$work"
fail() { echo "merge_time_resolution: $*" >&2; exit 1; }
preload=$build/tests/support/liboversubscribe.so:$build/tracer/librecorder.so
bash "$(dirname "$0")/../../kernels/run_kernel.sh" "$work/out" \
  mpiexec -np 4 -genv LD_PRELOAD "$preload" -genv RECORDER_TRACES_DIR "$work/trace" \
  "$build/kernels/vpic-like" > "$work/kernel.txt"
merge=$build/merger/recorder-merge
bytes() { sed -E 's/.* in [0-9.]+ s, ([0-9]+) bytes .*/\1/'; }
exact=$("$merge" "$work/trace" -o "$work/exact" | bytes)
coarse=$("$merge" "$work/trace" -o "$work/coarse" --time-resolution 0.001 | bytes)
grep -qx 'option: merge.time_resolution=0.001' <<< "$("$build/analysis/recorder2text" --info "$work/coarse")" ||
  fail "no merge.time_resolution=0.001 in the merged trace's metadata"
! grep -q 'merge.time_resolution' <<< "$("$build/analysis/recorder2text" --info "$work/exact")" ||
  fail "an exact merge states a time resolution"
"$build/tests/merge/merge_check" "$work/trace" "$work/exact" > "$work/check-exact.txt"
"$build/tests/merge/merge_check" "$work/trace" "$work/coarse" > "$work/check-coarse.txt" ||
  { cat "$work/check-coarse.txt" >&2; fail "the merge to within 1 ms does not read back"; }
grep -q 'times to within 10000 ticks' "$work/check-coarse.txt" || fail "merge_check: $(head -1 "$work/check-coarse.txt")"
[ "$coarse" -lt "$exact" ] || fail "to within 1 ms: $coarse bytes, exact: $exact"
for bad in 0 -1 x 2000; do
  if "$merge" "$work/trace" -o "$work/bad" --time-resolution "$bad" 2> "$work/bad.txt"; then
    fail "--time-resolution $bad accepted"
  fi
  grep -q "recorder-merge: --time-resolution: not a number of seconds above 0, at most 1000: $bad" "$work/bad.txt" ||
    fail "--time-resolution $bad: $(cat "$work/bad.txt")"
done
echo "merge_time_resolution: merged stream $exact bytes exact, $coarse to within 1 ms; both read back"
