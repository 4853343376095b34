#!/bin/bash
# tracer.rebuilt_types_survive_mpi: datatypes made out of the tracer's sight
# whose decoding MPI makes fatal if done naively (large counts, a member
# that is predefined but unnamed in the table, a Fortran 90 type, and one
# MPI_Type_get_contents handed back that the program frees) run
# traced as untraced, and each traced call that uses one finds it rebuilt.
#   run_rebuilt_types.sh PROGRAM LIBRECORDER RECORDER2TEXT WORKDIR MPIEXEC
set -u
prog=$1 lib=$2 r2t=$3 work=$4 mpiexec=$5
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work" || fail "cannot create $work"
timeout 25 "$mpiexec" -n 1 "$prog" > "$work/untraced.txt" || fail "untraced run exited with $?"
timeout 25 "$mpiexec" -n 1 -genv LD_PRELOAD "$lib" -genv RECORDER_TRACES_DIR "$work/trace" "$prog" \
  > "$work/traced.txt" 2> "$work/traced.err"
rc=$?
[ "$rc" = 0 ] || { cat "$work/traced.err" >&2; fail "traced run exited with $rc"; }
diff -u "$work/untraced.txt" "$work/traced.txt" || fail "the program printed otherwise under the tracer"
"$r2t" "$work/trace" > "$work/text.txt" || fail "recorder2text failed"
types=$(grep ' MPI_Bcast(' "$work/text.txt" | sed 's/.*datatype=\(type#[0-9]*\).*/\1/')
[ "$(echo "$types" | sort -u | grep -c 'type#')" = 3 ] || fail "3 MPI_Bcast calls with 3 types wanted: $types"
for t in $types; do
  grep -q "newtype=$t) = MPI_SUCCESS \[rebuilt\]" "$work/text.txt" || fail "$t is not rebuilt before its use"
done
echo "3 types rebuilt: $(grep -c '\[rebuilt\]' "$work/text.txt") rebuilt records"
