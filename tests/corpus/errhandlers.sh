#!/usr/bin/env bash
# errhandlers.sh BUILD_DIR WAY: mpi_errhandlers through one way, codegen or
# replay, at 4 ranks (tests/codegen/codegen_kernel.sh,
# tests/replay/replay_kernel.sh, which prove the copy's I/O equivalent and
# that it ran to its end), then what its error handlers must be:
#   - each rank's trace has its error handler calls: MPI_ERRORS_RETURN set on
#     MPI_COMM_WORLD, a handler of its 1st function set on a communicator,
#     one of its 2nd on MPI_FILE_NULL (then MPI_ERRORS_RETURN again), the
#     gets that hand them back and the frees; and its three failing calls,
#     each with its error class;
#   - the copy's trace has the same records (but their times);
#   - codegen: the kernel makes the handlers of the stand-ins for functions 1
#     and 2 and sets the predefined ones by name;
#   - replay: the summary says it skipped 0 calls.
set -euo pipefail
build=$(cd "$1" && pwd) way=$2
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$src/tests/support/testlib.sh"
program=mpi_errhandlers
test_name="errhandlers: $program.$way"
ranks=4
case $way in
codegen)
  TEST_RUNS_DIR='' CODEGEN_SUFFIX=.handlers bash "$src/tests/codegen/codegen_kernel.sh" "$build" $ranks "$program"
  work=$build/codegen-runs/$program.np$ranks.handlers original=$work/trace copy=$work/ktrace ;;
replay)
  # the one call skipped is the program's report on stdout: the console is never replayed
  TEST_RUNS_DIR='' REPLAY_SUFFIX=.handlers REPLAY_EXPECT='^  skipped: 1 call$' \
    bash "$src/tests/replay/replay_kernel.sh" "$build" $ranks "$program"
  work=$build/replay-runs/$program.np$ranks.handlers original=$work/t1 copy=$work/t2
  grep -Eq '^    printf: 1 \(console I/O \(stdin, stdout, stderr\) is not replayed\)$' "$work/logs/replay.txt" ||
    fail "the replay skipped a call that is not the console's printf" ;;
*) fail "unknown way $way (codegen or replay)" ;;
esac

# The error handler calls and the failing calls, by rank, without their times and paths' directories.
records() {
  "$build/analysis/recorder2text" "$1" |
    awk '$5 ~ /^MPI/ && (/[Ee]rrhandler(_free)?\(/ || / = MPI_ERR_/) {$2 = $3 = ""; gsub(/"[^"]*\//, "\""); print}' |
    sort -s -k1,1n
}
records "$original" > "$work/logs/errhandlers-original.txt"
records "$copy" > "$work/logs/errhandlers-copy.txt"
# Rank 0's, as the program makes them (every rank's are alike).
cat > "$work/logs/errhandlers-want.txt" <<'WANT'
MPI_Comm_set_errhandler(comm=MPI_COMM_WORLD, errhandler=MPI_ERRORS_RETURN) = MPI_SUCCESS
MPI_Comm_create_errhandler(comm_errhandler_fn=function#1, errhandler=errhandler#64) = MPI_SUCCESS
MPI_Comm_set_errhandler(comm=comm#64, errhandler=errhandler#64) = MPI_SUCCESS
MPI_File_create_errhandler(file_errhandler_fn=function#2, errhandler=errhandler#65) = MPI_SUCCESS
MPI_File_set_errhandler(file=MPI_FILE_NULL, errhandler=errhandler#65) = MPI_SUCCESS
MPI_File_open(comm=comm#64, filename="no-such-input.dat", amode=MPI_MODE_RDONLY, info=MPI_INFO_NULL, fh=invalid(-1)) = MPI_ERR_NO_SUCH_FILE
MPI_File_get_errhandler(file=mpifile#64, errhandler=errhandler#65) = MPI_SUCCESS
MPI_File_read_at(fh=mpifile#64, offset=0, count=64, datatype=MPI_INT, status={bytes=-1}, bytes=256) = MPI_ERR_ACCESS
MPI_Bcast(count=1, datatype=MPI_INT, root=4, comm=comm#64) = MPI_ERR_ROOT
MPI_Comm_get_errhandler(comm=comm#64, errhandler=errhandler#64) = MPI_SUCCESS
MPI_Errhandler_free(errhandler=errhandler#64) = MPI_SUCCESS
MPI_Comm_get_errhandler(comm=MPI_COMM_WORLD, errhandler=MPI_ERRORS_RETURN) = MPI_SUCCESS
MPI_Errhandler_free(errhandler=MPI_ERRORS_RETURN) = MPI_SUCCESS
MPI_File_set_errhandler(file=MPI_FILE_NULL, errhandler=MPI_ERRORS_RETURN) = MPI_SUCCESS
MPI_Errhandler_free(errhandler=errhandler#65) = MPI_SUCCESS
MPI_Errhandler_free(errhandler=errhandler#64) = MPI_SUCCESS
WANT
for rank in $(seq 0 $((ranks - 1))); do
  awk -v r=$rank '$1 == r' "$work/logs/errhandlers-original.txt" | cut -d' ' -f6- |
    diff -u "$work/logs/errhandlers-want.txt" - || fail "rank $rank's error handler records are not the program's"
done
diff -u "$work/logs/errhandlers-original.txt" "$work/logs/errhandlers-copy.txt" ||
  fail "the $way's error handler and failing calls differ from the trace's"

if [ "$way" = codegen ]; then
  kernel=$work/kernel.c
  for call in 'MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);' \
    'MPI_Comm_create_errhandler(errhandler_MPI_Comm_errhandler_function_1, &' \
    'MPI_File_create_errhandler(errhandler_MPI_File_errhandler_function_2, &' \
    'MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN);' \
    'errhandler_returns(handle, code);'; do
    grep -qF "$call" "$kernel" || fail "the kernel has no $call"
  done
fi
echo "errhandlers: $program.$way: $(grep -c . "$work/logs/errhandlers-want.txt") records a rank, the same in the $way's trace"
