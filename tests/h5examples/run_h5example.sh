#!/usr/bin/env bash
# run_h5example.sh BUILD_DIR NP EXAMPLE [PRODUCER]
# One of HDF5's own example programs (the library's examples directory,
# found by tests/h5examples/CMakeLists.txt; built into BUILD_DIR/tests/h5examples
# as h5ex_NAME) through the whole pipeline, as a user runs a program they did
# not write: PRODUCER, another example, first makes the file EXAMPLE reads
# (untraced, dated a second back, as an input made before the run); then
#   - EXAMPLE runs traced under a wrapper (`timeout`, a program without MPI
#     that must give the directory to it) and exits 0; with a PRODUCER the
#     trace holds the structure of that input (an h5skel file);
#   - recorder-codegen's kernel compiles with -Wall -Wextra -Werror, runs
#     traced at NP ranks and recorder-diff finds it equal to the original;
#   - recorder-replay, traced at NP ranks, is equal to the original too;
#   - both leave the original's output files with the same sizes.
set -euo pipefail
build=$(cd "$1" && pwd) np=$2 example=$3 producer=${4:-}
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$src/tests/support/testlib.sh"
begin_test "h5example: $example" "$build/h5examples-runs/$example" orig logs
logs=$work/logs
lib=$build/tracer/librecorder.so
preload=$build/tests/support/liboversubscribe.so:$lib
bin=$build/tests/h5examples
args=()
[ "$np" -gt 1 ] && args=(-f "$work/orig") # the parallel example names its directory

# 1. The original, traced; its input made first, untraced.
if [ -n "$producer" ]; then
  (cd "$work/orig" && "$bin/h5ex_$producer" > "$logs/producer.txt" 2>&1) || fail "the producer $producer failed"
  find "$work/orig" -type f -exec touch -d '-1 second' {} +
  cp -a "$work/orig" "$work/inputs"
fi
if [ "$np" -gt 1 ]; then
  (cd "$work/orig" && mpiexec -np "$np" -genv LD_PRELOAD "$preload" -genv RECORDER_TRACES_DIR "$work/trace" \
    "$bin/h5ex_$example" "${args[@]}") > "$logs/original.txt" 2>&1 || fail "the traced example failed"
else
  (cd "$work/orig" && LD_PRELOAD=$lib RECORDER_TRACES_DIR=$work/trace timeout 120 "$bin/h5ex_$example") \
    > "$logs/original.txt" 2>&1 || fail "the traced example failed: $(tail -3 "$logs/original.txt")"
fi
"$build/analysis/recorder2text" "$work/trace" > "$logs/trace.txt" || fail "recorder2text failed"
grep -q 'HDF5 H5F' "$logs/trace.txt" || fail "the trace has no HDF5 file call: $(head -3 "$logs/trace.txt")"
if [ -n "$producer" ]; then
  ls "$work/trace"/h5skel-* > /dev/null 2>&1 || fail "the trace holds no structure of the input $producer made"
fi

# 2. The kernel.
(cd "$work" && "$build/codegen/recorder-codegen" trace -o kernel.c) 2> "$logs/codegen.err" ||
  fail "recorder-codegen failed: $(cat "$logs/codegen.err")"
(cd "$work" && h5pcc -shlib -Wall -Wextra -Werror kernel.c -o kernel) > "$logs/compile.txt" 2>&1 ||
  fail "the kernel does not compile: $(head -5 "$logs/compile.txt")"
mpiexec -np "$np" -genv LD_PRELOAD "$preload" -genv RECORDER_TRACES_DIR "$work/kernel-trace" \
  "$work/kernel" "$work/kernel-out" > "$logs/kernel.txt" 2>&1 || fail "the kernel failed: $(tail -3 "$logs/kernel.txt")"
"$build/analysis/recorder-diff" "$work/trace" "$work/kernel-trace" > "$logs/kernel-diff.txt" 2>&1 ||
  fail "the kernel's trace differs: $(grep -v '^  ' "$logs/kernel-diff.txt" | head -4)"

# 3. The replay.
mpiexec -np "$np" -genv LD_PRELOAD "$preload" -genv RECORDER_TRACES_DIR "$work/replay-trace" \
  "$build/replayer/recorder-replay" --prefix "$work/replay-out" "$work/trace" > "$logs/replay.txt" 2>&1 ||
  fail "the replay failed: $(tail -3 "$logs/replay.txt")"
"$build/analysis/recorder-diff" "$work/trace" "$work/replay-trace" > "$logs/replay-diff.txt" 2>&1 ||
  fail "the replay's trace differs: $(grep -v '^  ' "$logs/replay-diff.txt" | head -4)"

# 4. The files: each the original left (but its inputs) at the same size.
for f in $(cd "$work/orig" && find . -type f | sort); do
  [ -n "$producer" ] && [ -f "$work/inputs/$f" ] && continue
  want=$(stat -c %s "$work/orig/$f")
  for copy in kernel-out replay-out; do
    got=$(find "$work/$copy" -path "*/${f#./}" -type f -printf '%s\n' | head -1)
    [ "$got" = "$want" ] || fail "$copy: ${f#./} has ${got:-no file} bytes, the original $want"
  done
done
echo "ok: $example: $(wc -l < "$logs/trace.txt") records; kernel and replay equivalent"
