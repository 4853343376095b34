#!/usr/bin/env bash
# summary_mpi.sh BUILD_DIR: recorder-summary under mpiexec (3 processes share
# the 4 ranks of the vpic-like fixture unevenly) prints exactly what it prints
# alone, as CSV and as text; and --mpi without a launcher works too.
test_name=analysis.summary.mpi
source "$(dirname "$0")/common.sh"
dir=$runs/vpic-like.fixture
launch=(mpiexec -np 3 -genv LD_PRELOAD "$build/tests/support/liboversubscribe.so")
for mode in --csv --top ""; do
  # shellcheck disable=SC2086
  "$tools/recorder-summary" $mode "$dir/trace" > "$dir/summary-serial.txt"
  # shellcheck disable=SC2086
  "${launch[@]}" "$tools/recorder-summary" $mode "$dir/trace" > "$dir/summary-mpi.txt"
  diff -u "$dir/summary-serial.txt" "$dir/summary-mpi.txt" || fail "'${mode:-text}' differs under mpiexec -np 3"
done
"$tools/recorder-summary" --mpi --csv "$dir/trace" > "$dir/summary-mpi1.txt"
"$tools/recorder-summary" --csv "$dir/trace" | diff -u - "$dir/summary-mpi1.txt" || fail "--mpi alone differs"
echo "$test_name: the same output with 3 processes"
