#!/usr/bin/env bash
# codegen_ranks.sh BUILD_DIR KERNEL [KERNEL OPTIONS...]
# Traces one kernel at 4 and at 8 ranks and generates a kernel from each
# trace: their sizes must be within 5 % of each other (code size follows the
# calls' shapes, not the rank count).
set -euo pipefail
build=$(cd "$1" && pwd) kernel=$2
shift 2
src=$(cd "$(dirname "$0")/../.." && pwd)
work=$build/codegen-runs/$kernel.ranks
rm -rf "$work" && mkdir -p "$work"
sizes=()
for np in 4 8; do
  mkdir -p "$work/np$np"
  bash "$src/kernels/run_kernel.sh" "$work/np$np/out" mpiexec -np "$np" -genv LD_PRELOAD \
    "$build/tests/support/liboversubscribe.so:$build/tracer/librecorder.so" \
    -genv RECORDER_TRACES_DIR "$work/np$np/trace" "$build/kernels/$kernel" "$@" > "$work/np$np/original.txt" ||
    { echo "codegen_ranks: $kernel: the traced kernel failed at $np ranks" >&2; exit 1; }
  (cd "$work/np$np" && "$build/codegen/recorder-codegen" trace -o kernel.c)
  sizes+=("$(wc -c < "$work/np$np/kernel.c")")
done
a=${sizes[0]} b=${sizes[1]}
echo "codegen_ranks: $kernel: $a bytes at 4 ranks, $b bytes at 8 ranks"
diff=$((a > b ? a - b : b - a))
if [ $((diff * 100)) -gt $((a * 5)) ]; then
  echo "codegen_ranks: $kernel: the sizes differ by more than 5 %" >&2
  diff "$work/np4/kernel.c" "$work/np8/kernel.c" >&2 || true
  exit 1
fi
