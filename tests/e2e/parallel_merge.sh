#!/usr/bin/env bash
# parallel_merge.sh BUILD_DIR: recorder-merge under mpirun (P > 1) merges
# as the serial merge does.
#   1. Every kernel of kernels/ and four corpus programs traced at 5 ranks,
#      and bench-merge's three synthetic traces at 64 ranks, merged serially
#      and under mpiexec -np 2 and 3: the merged trace is the serial one byte
#      for byte, or else every rank reads back the same records and the
#      merged record counts differ by at most 1 %; which of the two is said
#      per trace. The filters' stored data (h5_filtered) are the serial's.
#   2. More processes than ranks (6 on 5): the idle ones wait. --farthest-match
#      (which needs every rank's next call) runs on one process, said once.
#   3. A missing trace and a damaged rank stream: exit status 1, one message
#      naming the file and the reason, no parts left behind.
set -euo pipefail
build=$(cd "$1" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$src/tests/support/testlib.sh"
begin_test "parallel merge" "$build/parallel-merge-runs" logs traces
logs=$work/logs
preload=$build/tests/support/liboversubscribe.so:$build/tracer/librecorder.so
merge=$build/merger/recorder-merge
text=$build/analysis/recorder2text
identical=0 readback=0

# records_of SUMMARY_FILE: the merged record count of recorder-merge's summary line.
records_of() {
  sed -n 's/.* -> \([0-9]*\) merged records.*/\1/p' "$1" | head -1
}

# compare TRACE NP: the merge at NP processes against the serial one.
compare() {
  local trace=$1 np=$2 name
  name=$(basename "$trace").np$np
  rm -rf "$work/par"
  mpiexec -np "$np" "$merge" "$trace" -o "$work/par" > "$logs/$name.txt" 2> "$logs/$name.err" ||
    { cat "$logs/$name.err" >&2; fail "$name: recorder-merge at $np processes failed"; }
  grep -q "^recorder-merge: [0-9]* processes, peak" "$logs/$name.txt" ||
    fail "$name: no line about the processes: $(cat "$logs/$name.txt")"
  [ ! -e "$work/par/.recorder-merge-parts" ] || fail "$name: the parts were left in the merged trace"
  if cmp -s "$work/serial/merged.rec" "$work/par/merged.rec" && cmp -s "$work/serial/merged.meta" "$work/par/merged.meta" &&
    cmp -s "$work/serial/recorder.meta" "$work/par/recorder.meta"; then
    identical=$((identical + 1))
    echo "parallel merge: $name: identical to the serial merge ($(records_of "$logs/$name.txt") merged records)"
    return
  fi
  rm -rf "$work/text-serial" "$work/text-par"
  "$text" -o "$work/text-serial" "$work/serial" && "$text" -o "$work/text-par" "$work/par" ||
    fail "$name: recorder2text failed"
  diff -r "$work/text-serial" "$work/text-par" > "$logs/$name.diff" ||
    fail "$name: ranks read back differently: $(head -5 "$logs/$name.diff")"
  local s p
  s=$(records_of "$logs/$(basename "$trace").serial.txt") p=$(records_of "$logs/$name.txt")
  [ $(((p > s ? p - s : s - p) * 100)) -le "$s" ] || fail "$name: $p merged records, the serial merge $s"
  readback=$((readback + 1))
  echo "parallel merge: $name: not byte for byte (records of disjoint rank sets in another order);" \
    "every rank reads back the same, $p merged records against $s"
}

# check TRACE NP...: the serial merge, then each NP.
check() {
  local trace=$1
  shift
  rm -rf "$work/serial"
  "$merge" "$trace" -o "$work/serial" > "$logs/$(basename "$trace").serial.txt" || fail "$trace: the serial merge failed"
  for np in "$@"; do
    compare "$trace" "$np"
  done
}

# 1. The kernels and the corpus programs that call the libraries as real
# applications do (HDF5 filters among them: their stored sizes go through the
# parts), traced at 5 ranks (blocks of 3 and 2, or 2, 2 and 1).
for prog in "$build"/kernels/* "$build"/tests/corpus/{h5_filtered,h5_reader,mdtest_like,ior_like_c}; do
  [ -x "$prog" ] && [ -f "$prog" ] || continue
  kernel=$(basename "$prog")
  bash "$src/kernels/run_kernel.sh" "$work/out" \
    mpiexec -np 5 -genv LD_PRELOAD "$preload" -genv RECORDER_TRACES_DIR "$work/traces/$kernel" "$prog" \
    > "$logs/$kernel.run.txt" 2>&1 || fail "$kernel: the traced run failed: $(tail -3 "$logs/$kernel.run.txt")"
  check "$work/traces/$kernel" 2 3
done
# bench-merge's synthetic traces: pwrite (rank-dependent offsets, calls of 1
# rank in 16), vpic (HDF5 handles), cells (13 groups of ranks whose calls differ).
for pattern in pwrite vpic cells; do
  TMPDIR=$work/traces "$build/bench/bench-merge" --ranks 64 --records 600 --repeat 1 --min-seconds 0 --keep \
    --pattern "$pattern" > "$logs/bench-$pattern.txt" 2>&1 || fail "bench-merge --pattern $pattern failed"
  dir=$(sed -n 's/^bench-merge: kept \([^ ]*\) .*/\1/p' "$logs/bench-$pattern.txt")
  mv "$dir" "$work/traces/bench-$pattern"
  check "$work/traces/bench-$pattern" 2 3
done
[ "$identical" -gt 0 ] || fail "no trace merged byte for byte"
[ -s "$work/traces/h5_filtered/0.h5store" ] || fail "h5_filtered left no h5store"
rm -rf "$work/par"
mpiexec -np 3 "$merge" "$work/traces/h5_filtered" -o "$work/par" --quiet || fail "h5_filtered at 3 processes failed"
"$merge" "$work/traces/h5_filtered" -o "$work/serial" --quiet || fail "h5_filtered: the serial merge failed"
cmp "$work/serial/merged.h5store" "$work/par/merged.h5store" ||
  fail "h5_filtered: the filters' stored data differ from the serial merge's"
echo "parallel merge: h5_filtered: merged.h5store as the serial merge's ($(($(wc -l < "$work/par/merged.h5store") - 1)) entries)"

# --farthest-match needs every rank's next call: under mpirun it runs on one
# process, said once, and gives the serial merge's bytes.
rm -rf "$work/par" "$work/serial"
"$merge" "$work/traces/h5_filtered" -o "$work/serial" --farthest-match --quiet || fail "--farthest-match failed"
mpiexec -np 2 "$merge" "$work/traces/h5_filtered" -o "$work/par" --farthest-match > "$logs/paper.txt" 2>&1 ||
  fail "--farthest-match at 2 processes failed: $(cat "$logs/paper.txt")"
[ "$(grep -c 'farthest-match: merging on one process' "$logs/paper.txt")" = 1 ] ||
  fail "--farthest-match at 2 processes: not one notice: $(cat "$logs/paper.txt")"
cmp "$work/serial/merged.rec" "$work/par/merged.rec" || fail "--farthest-match at 2 processes: not the serial merge"

# 2. More processes than ranks.
check "$work/traces/ior-like" 6

# 3. Errors.
rm -rf "$work/par"
if mpiexec -np 2 "$merge" "$work/traces/none" -o "$work/par" > "$logs/missing.txt" 2>&1; then
  fail "a missing trace was merged"
fi
[ "$(grep -c '^recorder-merge: .*traces/none' "$logs/missing.txt")" = 1 ] ||
  fail "a missing trace: not one message naming it: $(cat "$logs/missing.txt")"
cp -r "$work/traces/ior-like" "$work/damaged"
head -c 40 "$work/traces/ior-like/4.rec" > "$work/damaged/4.rec"
status=0
mpiexec -np 2 "$merge" "$work/damaged" -o "$work/par" > "$logs/damaged.txt" 2>&1 || status=$?
[ "$status" = 1 ] || fail "a damaged rank stream: exit status $status, not 1"
grep -q '^recorder-merge: .*damaged/4.rec' "$logs/damaged.txt" ||
  fail "a damaged rank stream: the message does not name 4.rec: $(cat "$logs/damaged.txt")"
[ "$(grep -c '^recorder-merge:' "$logs/damaged.txt")" = 1 ] || fail "a damaged rank stream: not one message"
[ ! -e "$work/par/.recorder-merge-parts" ] || fail "a damaged rank stream: the parts were left behind"
echo "parallel merge: $identical merges byte for byte, $readback rank for rank; errors said once"
