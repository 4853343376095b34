#!/usr/bin/env bash
# trace_vpic.sh BUILD_DIR: the shared fixture of the analysis tests: vpic-like
# (HDF5 -> MPI-IO -> POSIX, collective) traced at 4 ranks into
# BUILD_DIR/analysis-runs/vpic-like.fixture, checked against its --expect.
test_name=analysis.trace.vpic-like
source "$(dirname "$0")/common.sh"
trace_kernel vpic-like.fixture 4 vpic-like
[ -s "$work/want.txt" ] || fail "vpic-like printed no expect lines"
"$build/tests/support/trace_expect" "$work/trace" > "$work/got.txt"
diff -u "$work/want.txt" "$work/got.txt" > /dev/null || fail "the trace disagrees with the kernel's --expect"
echo "$test_name: traced into $work/trace"
