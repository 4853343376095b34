#!/usr/bin/env bash
# codegen_elastic.sh BUILD_DIR NAME KERNEL [KERNEL OPTIONS...]
# Elastic kernels (recorder-codegen --elastic): traces KERNEL at the rank
# counts of ELASTIC_FROM (default "2 4 8"), generates one kernel from the
# three traces, and checks that it
#   - compiles with h5pcc -shlib -Wall -Wextra -Werror and is clang-format clean;
#   - runs at each rank count of ELASTIC_AT (default "3 6 16"), none of them
#     traced, and recorder-diff finds its trace equal to KERNEL's own trace
#     at that rank count, with the same output files and sizes.
set -euo pipefail
build=$(cd "$1" && pwd) name=$2 kernel=$3
shift 3
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$src/tests/support/testlib.sh"
begin_test "codegen_elastic: $name" "$build/codegen-runs/elastic.$name" logs
logs=$work/logs
preload=$build/tests/support/liboversubscribe.so:$build/tracer/librecorder.so
traced_run() { # NP TRACE [OPTIONS]: the original kernel, traced, into $work/out
  local np=$1 trace=$2
  shift 2
  bash "$src/kernels/run_kernel.sh" "$work/out" \
    mpiexec -np "$np" -genv LD_PRELOAD "$preload" -genv RECORDER_TRACES_DIR "$trace" \
    "$build/kernels/$kernel" "$@" > "$logs/original.$np.txt" 2>&1 ||
    { cat "$logs/original.$np.txt" >&2; fail "$kernel failed at $np ranks"; }
}

traces=()
for np in ${ELASTIC_FROM:-2 4 8}; do
  traced_run "$np" "$work/t$np" "$@"
  traces+=("t$np")
done
(cd "$work" && "$build/codegen/recorder-codegen" --elastic "${traces[@]}" -o kernel.c) 2> "$logs/codegen.err" ||
  { cat "$logs/codegen.err" >&2; fail "recorder-codegen --elastic failed"; }
echo "codegen_elastic: $name: kernel.c is $(wc -c < "$work/kernel.c") bytes; $(grep -m1 "It runs at" "$work/kernel.c" | sed "s/^ \* //")"
(cd "$work" && h5pcc -shlib -Wall -Wextra -Werror kernel.c -o kernel) > "$logs/compile.txt" 2>&1 ||
  { cat "$logs/compile.txt" >&2; fail "kernel.c does not compile cleanly"; }
if command -v clang-format > /dev/null; then
  clang-format --style="file:$src/.clang-format" --dry-run -Werror "$work/kernel.c" 2> "$logs/format.txt" ||
    { head -20 "$logs/format.txt" >&2; fail "kernel.c is not clang-format clean"; }
fi

for np in ${ELASTIC_AT:-3 6 16}; do
  traced_run "$np" "$work/r$np" "$@"
  timeout 120 mpiexec -np "$np" -genv LD_PRELOAD "$preload" -genv RECORDER_TRACES_DIR "$work/k$np" \
    "$work/kernel" "$work/kout$np" > "$logs/kernel.$np.txt" 2>&1 ||
    { cat "$logs/kernel.$np.txt" >&2; fail "the elastic kernel failed at $np ranks"; }
  "$build/analysis/recorder-diff" "$work/r$np" "$work/k$np" > "$logs/diff.$np.txt" 2>&1 ||
    { tail -20 "$logs/diff.$np.txt" >&2; fail "at $np ranks, recorder-diff finds the elastic kernel's I/O different"; }
  same_output_files "$work/out" "$work/kout$np" "from the elastic kernel at $np ranks"
  echo "codegen_elastic: $name: at $np ranks: $(tail -1 "$logs/diff.$np.txt" | sed 's/^recorder-diff: //'), $files files of equal sizes"
done

# The extrapolated trace (recorder-extrap) at the last rank count equals the real one.
np=${np:?}
RECORDER_EXTRAP_PRELOAD=$build/tests/support/liboversubscribe.so \
  "$build/codegen/recorder-extrap" "${traces[@]/#/$work/}" --ranks "$np" -o "$work/x$np" > "$logs/extrap.txt" 2>&1 ||
  { cat "$logs/extrap.txt" >&2; fail "recorder-extrap failed at $np ranks"; }
"$build/analysis/recorder-diff" "$work/r$np" "$work/x$np" > "$logs/diff.x$np.txt" 2>&1 ||
  { tail -20 "$logs/diff.x$np.txt" >&2; fail "recorder-diff finds the trace extrapolated to $np ranks different"; }
echo "codegen_elastic: $name: recorder-extrap to $np ranks: $(tail -1 "$logs/diff.x$np.txt" | sed 's/^recorder-diff: //')"
