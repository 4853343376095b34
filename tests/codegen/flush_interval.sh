#!/usr/bin/env bash
# flush_interval.sh BUILD_DIR: a slow run killed mid-way keeps its records
# up to the last flush by time. endless makes some 400 records a second a
# rank, far less than a block (RECORDER_BUFFER_SIZE, 1 MiB) in the 3 s
# before the kill: without RECORDER_FLUSH_INTERVAL no block reaches the
# files; with 1 s, every rank's trace holds the calls of its first seconds.
set -euo pipefail
build=$(cd "$1" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$src/tests/support/testlib.sh"
begin_test "flush_interval" "$build/codegen-runs/flush-interval" out logs
preload=$build/tests/support/liboversubscribe.so:$build/tracer/librecorder.so
records() { # TRACE: the records of every rank, one number per rank
  "$build/analysis/recorder-summary" --csv "$1" |
    awk -F, 'NR > 1 && $3 == "pwrite" {n[$1] += $5} END {for (r in n) print r, n[r]}' | sort -n
}
for interval in 0 1; do
  status=0
  timeout -s TERM 3 mpiexec -np 2 -genv LD_PRELOAD "$preload" -genv RECORDER_TRACES_DIR "$work/trace.$interval" \
    -genv RECORDER_FLUSH_INTERVAL "$interval" "$build/tests/codegen/endless" "$work/out" 20000 \
    > "$work/logs/run.$interval.txt" 2>&1 || status=$?
  [ "$status" = 124 ] || fail "the endless run ended with status $status, not killed by timeout (124)"
  records "$work/trace.$interval" > "$work/logs/pwrites.$interval.txt" ||
    fail "recorder-summary --csv failed on the killed run's trace (RECORDER_FLUSH_INTERVAL=$interval)"
done
[ ! -s "$work/logs/pwrites.0.txt" ] ||
  fail "without flushes by time the slow run kept records after all: $(tr '\n' ' ' < "$work/logs/pwrites.0.txt") (the test no longer tests)"
[ "$(wc -l < "$work/logs/pwrites.1.txt")" = 2 ] || fail "with RECORDER_FLUSH_INTERVAL=1, not both ranks kept pwrite records: $(tr '\n' ' ' < "$work/logs/pwrites.1.txt")"
while read -r rank n; do
  [ "$n" -ge 100 ] || fail "rank $rank kept $n pwrite records, not the first seconds' (some 400 a second)"
done < "$work/logs/pwrites.1.txt"
echo "flush_interval: killed after 3 s, each rank kept $(awk '{print $2}' "$work/logs/pwrites.1.txt" | tr '\n' ' ')pwrite records (none without)"
