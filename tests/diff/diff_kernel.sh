#!/usr/bin/env bash
# diff_kernel.sh BUILD_DIR KERNEL [NP]
# Traces one kernel twice at NP ranks (default 4) into different output
# directories and checks that recorder-diff calls the two traces equivalent
# after inferring the path mapping, in both directions, with --all-mpi and
# with --counters-only; and that with --no-map it does not (the paths differ).
# The traces stay in BUILD_DIR/diff-runs/KERNEL for the mutation tests.
set -euo pipefail
build=$1 kernel=$2 np=${3:-4}
work=$build/diff-runs/$kernel
diff=$build/analysis/recorder-diff
rm -rf "$work" && mkdir -p "$work"
preload=$build/tests/support/liboversubscribe.so:$build/tracer/librecorder.so
for run in 1 2; do
  bash "$(dirname "$0")/../../kernels/run_kernel.sh" "$work/out$run" \
    mpiexec -np "$np" -genv LD_PRELOAD "$preload" -genv RECORDER_TRACES_DIR "$work/trace$run" \
    "$build/kernels/$kernel" > "$work/kernel$run.txt"
done

fail() { echo "diff_kernel: $kernel: $*" >&2; exit 1; }
expect_status() { # WANT OUTPUT ARGS...
  local want=$1 out=$2 rc=0
  shift 2
  "$diff" "$@" > "$out" 2>&1 || rc=$?
  cat "$out"
  [ "$rc" = "$want" ] || fail "recorder-diff $* exited $rc, not $want"
}

expect_status 0 "$work/diff.txt" "$work/trace1" "$work/trace2"
grep -qF "recorder-diff: paths: \"$work/out1\" -> \"$work/out2\"" "$work/diff.txt" ||
  fail "the inferred path mapping is not $work/out1 -> $work/out2"
grep -q "^recorder-diff: equivalent: $np ranks, [1-9][0-9]* top-level I/O calls, [1-9][0-9]* files$" "$work/diff.txt" ||
  fail "no summary line"
expect_status 0 "$work/diff-reverse.txt" --all-mpi "$work/trace2" "$work/trace1"
expect_status 0 "$work/diff-counters.txt" --counters-only "$work/trace1" "$work/trace2"
grep -q "^recorder-diff: equivalent (per-file counters only): $np ranks" "$work/diff-counters.txt" ||
  fail "no counters-only summary line"
expect_status 1 "$work/diff-raw.txt" --no-map --max 1 "$work/trace1" "$work/trace2"
grep -q "pathname differs: \"$work/out1.*\" (A) vs \"$work/out2.*\" (B)" "$work/diff-raw.txt" ||
  grep -q "filename differs: \"$work/out1.*\" (A) vs \"$work/out2.*\" (B)" "$work/diff-raw.txt" ||
  fail "--no-map did not report the differing output directories"
echo "diff_kernel: $kernel: two traced runs are equivalent"
