#!/usr/bin/env bash
# diff_racing_delete.sh BUILD_DIR: ranks that race to remove one file
# (racing_delete) are equivalent whichever rank's removal succeeded, as long
# as as many succeeded: recorder-diff says so in a note. When none succeeded
# in B, each rank whose outcome changed is a difference.
set -euo pipefail
build=$(cd "$1" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$src/tests/support/testlib.sh"
begin_test "diff_racing_delete" "$build/diff-runs/racing-delete"
run() { # run WINNER TRACE [--no-file]
  [ "${3:-}" = --no-file ] || : > "$work/f"
  mpiexec -np 3 -genv LD_PRELOAD "$build/tests/support/liboversubscribe.so:$build/tracer/librecorder.so" \
    -genv RECORDER_TRACES_DIR "$work/$2" "$build/tests/diff/racing_delete" "$1" "$work/f" > "$work/$2.txt" 2>&1 ||
    fail "racing_delete $1 failed: $(cat "$work/$2.txt")"
}
run 1 a
run 2 b
run 2 c --no-file
"$build/analysis/recorder-diff" "$work/a" "$work/b" > "$work/ab.txt" 2>&1 || fail "a and b differ: $(cat "$work/ab.txt")"
grep -qx "recorder-diff: note: $work/f: which rank's removal succeeded differs (2 calls), as many succeeded" \
  "$work/ab.txt" || fail "no note of the race: $(cat "$work/ab.txt")"
rc=0
"$build/analysis/recorder-diff" "$work/a" "$work/c" > "$work/ac.txt" 2>&1 || rc=$?
[ $rc = 1 ] || fail "a and c: exit 1 expected, got $rc: $(cat "$work/ac.txt")"
grep -q '^rank 1, call 1: MPI_File_delete: return value differs: MPI_SUCCESS (A) vs MPI_ERR_NO_SUCH_FILE (B)' \
  "$work/ac.txt" || fail "a and c: the lost removal is not reported: $(cat "$work/ac.txt")"
grep -q 'not equivalent: 1 difference$' "$work/ac.txt" || fail "a and c: 1 difference expected: $(cat "$work/ac.txt")"
echo "ok: racing removals settled across ranks"
