#!/usr/bin/env bash
# merge_kernel.sh BUILD_DIR NP KERNEL [merge_check options...] -- traces the
# kernel at NP ranks, merges the trace and checks the merged trace with
# merge_check (exact round trip of every rank, plus the given checks).
set -euo pipefail
build=$1 np=$2 kernel=$3
shift 3
work=$build/merge-runs/$kernel.np$np${MERGE_RUN_SUFFIX:-}
rm -rf "$work" && mkdir -p "$work"
preload=$build/tests/support/liboversubscribe.so:$build/tracer/librecorder.so
bash "$(dirname "$0")/../../kernels/run_kernel.sh" "$work/out" \
  mpiexec -np "$np" -genv LD_PRELOAD "$preload" -genv RECORDER_TRACES_DIR "$work/trace" \
  "$build/kernels/$kernel" > "$work/kernel.txt"
"$build/merger/recorder-merge" "$work/trace" -o "$work/merged"
"$build/tests/merge/merge_check" "$work/trace" "$work/merged" "$@"
