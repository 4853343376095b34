#!/usr/bin/env bash
# replay_h5input.sh BUILD_DIR -- a crafted trace opens and reads an HDF5 file
# it never created, and has a mkdir that failed for want of permission. The
# replay must report the HDF5 input, skip the HDF5 calls on it with the
# reason, count the mkdir that now succeeds as a differing result, and exit
# 0, or 1 under --strict.
set -euo pipefail
build=$1
. "$(dirname "$0")/../support/testlib.sh"
begin_test replay_h5input "$build/replay-runs/h5input"
"$build/tests/replay/craft_trace" h5input "$work/trace"
run() { # EXPECTED_STATUS OPTIONS...
  local want=$1 rc=0
  shift
  mpiexec -np 1 -genv LD_PRELOAD "$build/tests/support/liboversubscribe.so" "$build/replayer/recorder-replay" "$@" \
    --prefix "$work/prefix" "$work/trace" > "$work/out.txt" 2> "$work/err.txt" || rc=$?
  cat "$work/out.txt" "$work/err.txt"
  [ "$rc" = "$want" ] || fail "recorder-replay $* exited $rc, not $want"
}
expect() { grep -qF -- "$1" "$work/out.txt" || fail "the summary lacks: $1"; }
run 0
expect "HDF5 inputs the trace did not create"
expect "    /data/in.h5"
expect "H5Fopen: 1 (an HDF5 input the trace did not create: it cannot be synthesized)"
expect "H5Dopen2: 1 (uses a handle whose creating call was not replayed)"
expect "H5Dread: 1 (uses a handle whose creating call was not replayed)"
expect "results that differ from the trace: 1 call"
expect "    mkdir: 1"
rm -rf "$work/prefix"
run 1 --strict
echo "replay_h5input: the HDF5 input is reported and its calls skipped; --strict fails on the differing result"
