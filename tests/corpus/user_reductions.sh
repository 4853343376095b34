#!/usr/bin/env bash
# user_reductions.sh BUILD_DIR WAY PROGRAM COMMUTES [FUNCTIONS]
# A corpus program that reduces with its own functions (MPI_Op_create, as
# Global Arrays does) through one way, codegen or replay, at 4 ranks
# (tests/codegen/codegen_kernel.sh, tests/replay/replay_kernel.sh, which
# prove the copy's I/O equivalent), then what the reductions must be:
#   - the trace has one MPI_Op_create(_c) record per rank and letter of COMMUTES
#     (1 commutative, 0 not, in program order; "none": the program made its
#     reductions out of the tracer's sight) and as many MPI_Op_free; rank 0's
#     are of the functions FUNCTIONS names (the rank's 1st, 2nd, ... distinct);
#   - the copy's trace has the same MPI_Op_create and MPI_Op_free records,
#     functions and commutativity included;
#   - codegen: the kernel makes them of the stand-in with that commutativity,
#     in that order, passes untraced_op() where the trace knows no making,
#     and never MPI_OP_NULL;
#   - replay: the summary says it skipped 0 calls, or 1, the console's printf.
set -euo pipefail
build=$(cd "$1" && pwd) way=$2 program=$3 commutes=$4 functions=${5:-}
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$src/tests/support/testlib.sh"
test_name="user_reductions: $program.$way"
ranks=4
# The run stays under BUILD_DIR, where its trace and kernel are read below.
case $way in
codegen)
  TEST_RUNS_DIR='' CODEGEN_SUFFIX='' bash "$src/tests/codegen/codegen_kernel.sh" "$build" $ranks "$program"
  work=$build/codegen-runs/$program.np$ranks original=$work/trace copy=$work/ktrace ;;
replay)
  TEST_RUNS_DIR='' REPLAY_SUFFIX='' REPLAY_EXPECT='^  skipped: (0 calls|1 call)$' \
    bash "$src/tests/replay/replay_kernel.sh" "$build" $ranks "$program"
  work=$build/replay-runs/$program.np$ranks original=$work/t1 copy=$work/t2
  # a skip is the program's one report on stdout, the console, which is never replayed
  if grep -q '^  skipped: 1 call$' "$work/logs/replay.txt"; then
    grep -Eq '^    printf: 1 \(console I/O \(stdin, stdout, stderr\) is not replayed\)$' "$work/logs/replay.txt" ||
      fail "the replay skipped a call that is not the console's printf"
  fi ;;
*) fail "unknown way $way (codegen or replay)" ;;
esac

# The reductions' records, by rank, without their times.
op_records() {
  "$build/analysis/recorder2text" "$1" | awk '/ MPI_Op_(create|create_c|free)\(/ {$2 = $3 = ""; print}' | sort -s -k1,1n
}
op_records "$original" > "$work/logs/ops-original.txt"
op_records "$copy" > "$work/logs/ops-copy.txt"
if [ "$commutes" = none ]; then want=0; else want=$(( ${#commutes} * ranks )); fi
for call in 'create(_c)?' free; do
  got=$(grep -cE " MPI_Op_$call\(" "$work/logs/ops-original.txt" || true)
  [ "$got" = "$want" ] || fail "the trace has $got MPI_Op_$call records, not $want"
done
diff -u "$work/logs/ops-original.txt" "$work/logs/ops-copy.txt" ||
  fail "the $way's MPI_Op_create and MPI_Op_free records differ from the trace's"
if [ "$commutes" != none ]; then
  got=$(grep -E "^0 .* MPI_Op_create(_c)?\(" "$work/logs/ops-original.txt" | sed 's/.*commute=\(true\|false\).*/\1/' |
    sed 's/true/1/;s/false/0/' | tr -d '\n')
  [ "$got" = "$commutes" ] || fail "rank 0's MPI_Op_create records commute as $got, not $commutes"
  got=$(grep -E "^0 .* MPI_Op_create(_c)?\(" "$work/logs/ops-original.txt" | sed 's/.*user_fn=function#\([0-9]*\),.*/\1/' |
    tr -d '\n')
  [ "$got" = "$functions" ] || fail "rank 0's MPI_Op_create records are of functions $got, not $functions"
fi

if [ "$way" = codegen ]; then
  kernel=$work/kernel.c
  ! grep -n MPI_OP_NULL "$kernel" || fail "the kernel passes MPI_OP_NULL"
  got=$({ grep -oE '\bMPI_Op_create(_c)?\(reduce_MPI_User_function(_c)?_[0-9]+, [01], ' "$kernel" || true; } |
    sed 's/.*, \([01]\), /\1/' | tr -d '\n')
  if [ "$commutes" = none ]; then
    [ -z "$got" ] || fail "the kernel makes reductions ($got) the trace does not"
    grep -q 'untraced_op()' "$kernel" || fail "the kernel reduces with no untraced_op() where the trace knows no making"
    grep -q 'PMPI_Op_create(reduce_MPI_User_function_untraced, 1, &op);' "$kernel" ||
      fail "untraced_op() makes no commutative reduction of the stand-in"
  else
    [ "$got" = "$commutes" ] || fail "the kernel's MPI_Op_create calls commute as ${got:-nothing}, not $commutes"
    ! grep -q 'untraced_op' "$kernel" || fail "the kernel stands in for a reduction the trace made"
  fi
fi
echo "user_reductions: $program.$way: $want MPI_Op_create records, commute ${commutes}, the same in the $way's trace"
