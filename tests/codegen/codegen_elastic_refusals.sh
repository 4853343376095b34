#!/usr/bin/env bash
# codegen_elastic_refusals.sh BUILD_DIR: what recorder-codegen --elastic and
# recorder-extrap refuse, and how they say it.
#   - fewer than three traces, two traces at one rank count, a missing trace;
#   - n-to-m with groups of 3 (a short last group at 2, 4 and 8 ranks): the
#     kernels differ in structure, named with each rank count's kernel line;
#   - recorder-extrap without --ranks, or into an existing directory.
set -euo pipefail
build=$(cd "$1" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$src/tests/support/testlib.sh"
begin_test codegen_elastic_refusals "$build/codegen-runs/elastic-refusals"
preload=$build/tests/support/liboversubscribe.so:$build/tracer/librecorder.so
cg=$build/codegen/recorder-codegen
expect() { # STATUS PATTERN COMMAND...: the command exits with STATUS, its stderr matches PATTERN
  local want=$1 pattern=$2
  shift 2
  local got=0
  "$@" > /dev/null 2> "$work/err.txt" || got=$?
  [ "$got" = "$want" ] || fail "$*: exit status $got, expected $want ($(head -3 "$work/err.txt"))"
  grep -qE -- "$pattern" "$work/err.txt" || fail "$*: stderr does not match '$pattern': $(head -3 "$work/err.txt")"
  echo "codegen_elastic_refusals: ok: $(head -1 "$work/err.txt" | cut -c1-160)"
}
for np in 2 4 8; do
  bash "$src/kernels/run_kernel.sh" "$work/out" mpiexec -np "$np" -genv LD_PRELOAD "$preload" \
    -genv RECORDER_TRACES_DIR "$work/t$np" "$build/kernels/n-to-m" --group-size 3 > /dev/null 2>&1 ||
    fail "n-to-m failed at $np ranks"
done
cp -r "$work/t4" "$work/t4copy"
cd "$work"
expect 2 'needs three or more trace directories' "$cg" --elastic t2 t4
expect 1 '^recorder-codegen: --elastic: t4 and t4copy were both traced at 4 ranks$' "$cg" --elastic t2 t4 t4copy
expect 1 '^recorder-codegen: .*nowhere' "$cg" --elastic t2 t4 nowhere
expect 1 '^recorder-codegen: --elastic: the kernels differ in structure .*: 2 ranks, line [0-9]+: .*; 4 ranks, line [0-9]+: .*; 8 ranks, line [0-9]+: ' \
  "$cg" --elastic t2 t4 t8
expect 2 'needs three or more trace directories, --ranks N and -o TRACE_N' "$build/codegen/recorder-extrap" t2 t4 t8 -o x
mkdir -p exists
expect 1 '^recorder-extrap: exists: already exists' "$build/codegen/recorder-extrap" t2 t4 t8 --ranks 6 -o exists

# n-to-m with groups of 2, traced at 2, 4 and 8 ranks: its elastic kernel
# runs at 6 but stops at 3, where the last group would be short.
for np in 2 4 8; do
  bash "$src/kernels/run_kernel.sh" "$work/out2" mpiexec -np "$np" -genv LD_PRELOAD "$preload" \
    -genv RECORDER_TRACES_DIR "$work/g$np" "$build/kernels/n-to-m" > /dev/null 2>&1 ||
    fail "n-to-m failed at $np ranks"
done
"$cg" --elastic g2 g4 g8 -o pairs.c 2> "$work/err.txt" || fail "recorder-codegen --elastic: $(cat "$work/err.txt")"
h5pcc -shlib pairs.c -o pairs > "$work/cc.txt" 2>&1 || fail "pairs.c does not compile: $(head -5 "$work/cc.txt")"
run() { mpiexec -np "$1" -genv LD_PRELOAD "$build/tests/support/liboversubscribe.so" ./pairs "$work/pairs$1"; }
run 6 > /dev/null 2>&1 || fail "the elastic n-to-m kernel failed at 6 ranks"
# MPI_Abort races the launcher's forwarding of the aborting rank's stderr,
# which can lose the message: it must come in one of three runs.
for attempt in 1 2 3; do
  got=0
  run 3 > /dev/null 2> "$work/err.txt" || got=$?
  [ "$got" = 1 ] || fail "run 3: exit status $got, expected 1 ($(head -3 "$work/err.txt"))"
  grep -qE 'kernel: rank [0-9]+: no rank set 0, 0 \+ 2, \.\.\., 1 here' "$work/err.txt" && break
  [ "$attempt" = 3 ] && fail "run 3: stderr never said which rank set is missing: $(head -3 "$work/err.txt")"
done
echo "codegen_elastic_refusals: ok: $(grep -m 1 'no rank set' "$work/err.txt" | cut -c1-160)"

# ior-like whose run at 8 ranks has bigger blocks (another input, not another
# rank count): no exact model, named with the call's argument.
for np in 2 4 8; do
  extra=()
  [ "$np" = 8 ] && extra=(--block-size 147456)
  bash "$src/kernels/run_kernel.sh" "$work/out3" mpiexec -np "$np" -genv LD_PRELOAD "$preload" \
    -genv RECORDER_TRACES_DIR "$work/i$np" "$build/kernels/ior-like" "${extra[@]}" > /dev/null 2>&1 ||
    fail "ior-like failed at $np ranks"
done
expect 1 '^recorder-codegen: --elastic: no exact model in the rank count for the value at `4718592` \(argument 2, size, of MPI_File_set_size\) in `MPI_File_set_size\(fh, 4718592\);` \(line [0-9]+ of the 8-rank kernel\); 2 ranks: 524288, 4 ranks: 1048576, 8 ranks: 4718592$' \
  "$cg" --elastic i2 i4 i8
