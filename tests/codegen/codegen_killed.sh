#!/usr/bin/env bash
# codegen_killed.sh BUILD_DIR NP: the kernel of a run killed mid-way (a job
# at its time limit: SIGTERM, no MPI_Finalize, each rank's trace ending at
# its last full block, in a different place). The ranks' last barriers then
# differ: a kernel making each rank's calls to its own end would wait
# forever in a barrier the others never reached. It must stop where the
# first rank's trace ends, say so in its header, and finish; so must
# recorder-replay of the same trace.
set -euo pipefail
build=$(cd "$1" && pwd) np=$2
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$src/tests/support/testlib.sh"
begin_test "codegen_killed.np$np" "$build/codegen-runs/killed.np$np" out logs
logs=$work/logs
preload=$build/tests/support/liboversubscribe.so:$build/tracer/librecorder.so
# Small blocks: many reach the files before the kill, each rank's last at another place.
status=0
timeout -s TERM 3 mpiexec -np "$np" -genv LD_PRELOAD "$preload" -genv RECORDER_TRACES_DIR "$work/trace" \
  -genv RECORDER_BUFFER_SIZE 4096 "$build/tests/codegen/endless" "$work/out" > "$logs/original.txt" 2>&1 || status=$?
[ "$status" = 124 ] || fail "the endless run ended with status $status, not killed by timeout (124)"
"$build/analysis/recorder-summary" "$work/trace" > "$logs/summary.txt" 2>&1 || fail "recorder-summary failed on the killed run's trace"
grep -q "did not close their trace" "$logs/summary.txt" || fail "the killed run's trace looks finished: $(sed -n 2,3p "$logs/summary.txt")"
(cd "$work" && "$build/codegen/recorder-codegen" trace -o kernel.c) 2> "$logs/codegen.err" ||
  { cat "$logs/codegen.err" >&2; fail "recorder-codegen failed"; }
header=$(sed -n '/^ \*\//q; p' "$work/kernel.c" | tr -d '*\n' | tr -s ' ')
grep -q "after the end of a trace cut short ($np ranks never closed theirs" <<< "$header" ||
  fail "the kernel's header does not say where the trace was cut short: $(sed -n 2,3p "$work/kernel.c")"
(cd "$work" && h5pcc -shlib -Wall -Wextra -Werror kernel.c -o kernel) > "$logs/compile.txt" 2>&1 ||
  { cat "$logs/compile.txt" >&2; fail "kernel.c does not compile cleanly"; }
status=0
timeout 60 mpiexec -np "$np" -genv LD_PRELOAD "$build/tests/support/liboversubscribe.so" \
  "$work/kernel" "$work/kout" > "$logs/kernel.txt" 2>&1 || status=$?
[ "$status" = 0 ] || { cat "$logs/kernel.txt" >&2; fail "the kernel did not finish (status $status; 124: it hung)"; }
echo "codegen_killed.np$np: the kernel of the killed run stops where its trace does and finishes"
# The replay of the same trace stops at the same place and finishes too.
status=0
timeout 60 mpiexec -np "$np" -genv LD_PRELOAD "$build/tests/support/liboversubscribe.so" \
  "$build/replayer/recorder-replay" --prefix "$work/rout" "$work/trace" > "$logs/replay.txt" 2>&1 || status=$?
[ "$status" = 0 ] || { cat "$logs/replay.txt" >&2; fail "the replay did not finish (status $status; 124: it hung)"; }
grep -q "cut short: $np ranks never closed their trace" "$logs/replay.txt" ||
  { cat "$logs/replay.txt" >&2; fail "the replay's summary does not say where the trace was cut short"; }
echo "codegen_killed.np$np: its replay stops there too and finishes"
