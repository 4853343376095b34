#!/usr/bin/env bash
# run_h5input.sh BUILD_DIR -- the structure of HDF5 inputs (h5skel/):
#   - h5_reader at 4 ranks (MPI-IO, collective metadata reads) opens a file
#     its untraced --setup step wrote: the trace gets exactly one skeleton of
#     it, with its objects; the traced run prints on stderr only what the
#     untraced one does (HDF5's stacks of h5_reader's second close), and
#     reads the same values as the untraced one (h5_reader checks them);
#   - h5_dataspace_props reads back the file it wrote: no skeleton.
set -euo pipefail
build=$1
. "$(dirname "$0")/../support/testlib.sh"
begin_test tracer.h5input "$build/tests/tracer/work/h5input"
preload=$build/tests/support/liboversubscribe.so:$build/tracer/librecorder.so
src=$(cd "$(dirname "$0")/../.." && pwd)
corpus=$build/tests/corpus

bash "$src/kernels/run_kernel.sh" "$work/out" mpiexec -np 4 -genv LD_PRELOAD "$preload" \
  -genv RECORDER_TRACES_DIR "$work/trace" "$corpus/h5_reader" > "$work/traced.txt" 2> "$work/traced.err" ||
  { cat "$work/traced.err" >&2; fail "the traced h5_reader failed"; }
bash "$src/kernels/run_kernel.sh" "$work/plain" mpiexec -np 4 -genv LD_PRELOAD "$build/tests/support/liboversubscribe.so" \
  "$corpus/h5_reader" > "$work/untraced.txt" 2> "$work/untraced.err" ||
  { cat "$work/untraced.err" >&2; fail "h5_reader failed"; }
diff "$work/untraced.txt" "$work/traced.txt" || fail "the traced run's output differs from the untraced one's"
# h5_reader's rank 0 closes its file twice on purpose (HDF5 prints two error
# stacks): the traced run's stderr is the untraced one's, nothing of the tracer.
diff "$work/untraced.err" "$work/traced.err" || fail "the traced run wrote on stderr what the untraced one did not"

skeletons=$(find "$work/trace" -name 'h5skel-*' | wc -l)
[ "$skeletons" = 1 ] || fail "$skeletons skeletons in the trace, 1 expected (one capture for the 4 ranks)"
"$build/h5skel/recorder-h5skel" "$work/trace" > "$work/skeleton.txt" || fail "recorder-h5skel cannot read it"
cat "$work/skeleton.txt"
expect() {
  grep -qF -- "$1" "$work/skeleton.txt" || fail "the skeleton has no line with: $1"
}
expect "$work/out/input.h5: 14 objects, 12 chunk sizes, a 27240-byte file"
expect "  f /: superblock version 2, 0-byte user block"
expect "  t /meta/particle_t @777: 40-byte compound of 5 members"
expect "  d /fields/temperature @929 data @2048: 8-byte float, 32 x 16, contiguous, 4096 bytes stored"
expect "  a /fields/temperature -> units: 8-byte string, scalar"
expect ": 8-byte integer, 256 (at most unlimited), chunked 32, deflate 6, 289 bytes stored in 8 chunks"
expect "  d /particles -> /meta/particle_t @14952 data @17000"
expect "  l /latest -> /fields/temperature"
expect "  s /meta/current -> /fields/pressure"

bash "$src/kernels/run_kernel.sh" "$work/own" mpiexec -np 4 -genv LD_PRELOAD "$preload" \
  -genv RECORDER_TRACES_DIR "$work/own-trace" "$corpus/h5_dataspace_props" > /dev/null 2>&1 ||
  fail "the traced h5_dataspace_props failed"
[ -z "$(find "$work/own-trace" -name 'h5skel-*')" ] || fail "a skeleton of a file the run made itself"
echo "tracer.h5input: one skeleton for 4 ranks, none of a file the run made"
