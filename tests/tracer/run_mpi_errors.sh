#!/bin/bash
# tracer.mpi_error_classes: failed MPI calls are recorded as their error
# class by name (MPI_ERR_NO_SUCH_FILE), the same for two failures of the
# same kind whatever their codes, and the program sees the same classes
# traced and untraced.
#   run_mpi_errors.sh PROGRAM LIBRECORDER RECORDER2TEXT WORKDIR MPIEXEC
set -u
prog=$1 lib=$2 r2t=$3 work=$4 mpiexec=$5
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work/u" "$work/t" || fail "cannot create $work"
"$mpiexec" -n 1 "$prog" "$work/u" > "$work/untraced.txt" || fail "untraced run exited with $?"
"$mpiexec" -n 1 -genv LD_PRELOAD "$lib" -genv RECORDER_TRACES_DIR "$work/trace" "$prog" "$work/t" \
  > "$work/traced.txt" || fail "traced run exited with $?"
diff -u "$work/untraced.txt" "$work/traced.txt" || fail "the program saw other classes under the tracer"
"$r2t" --function MPI_File_open "$work/trace" | sed 's/.* = //' > "$work/recorded.txt" || fail "recorder2text failed"
printf 'MPI_ERR_NO_SUCH_FILE\nMPI_ERR_NO_SUCH_FILE\nMPI_SUCCESS\nMPI_ERR_FILE_EXISTS\n' > "$work/want.txt"
diff -u "$work/want.txt" "$work/recorded.txt" || fail "the trace does not hold the error classes"
# The classes the program saw are the ones recorded (ids follow MPICH's numbers).
[ "$(awk '{ print $2 }' "$work/traced.txt" | tr '\n' ' ')" = "37 37 0 25 " ] ||
  fail "unexpected classes: $(cat "$work/traced.txt")"
echo "4 MPI_File_open results recorded by class: $(tr '\n' ' ' < "$work/recorded.txt")"
