#!/bin/bash
# Processes that fork, and that end without a goodbye call.
#   run_fork_exit.sh fork|exit|exec PROGRAM LIBRECORDER RECORDER2TEXT WORKDIR
#   run_fork_exit.sh mpi PROGRAM LIBRECORDER RECORDER2TEXT WORKDIR MPIEXEC OVERSUBSCRIBE_LIB
# fork: the children's I/O is not traced and the parent's trace holds exactly
#       the parent's records (its open, pwrites, fstat, close and the printf of
#       its results) (small blocks: the parent writes blocks before
#       and after the fork). exec: the same with a child that execs /bin/true.
# exit: exit() from deep inside the program leaves a complete trace.
# mpi:  2 ranks exit(0) without MPI_Finalize: mpiexec may report a failure,
#       the trace must still read, every rank flagged as incomplete, with all
#       its records.
set -u
mode=$1 prog=$2 lib=$3 r2t=$4 work=$5
N=30000

fail() { echo "FAIL: $*" >&2; exit 1; }
# Records per "rank function" in $work/trace.txt.
tally() {
    awk '{ f = $6; sub(/\(.*/, "", f); n[$1 " " f]++ } END { for (k in n) print k, n[k] }' "$work/trace.txt" |
        sort >"$work/tally"
    cat "$work/tally"
}
records() { awk -v r="$1" -v f="$2" '$1 == r && $2 == f { print $3 }' "$work/tally"; }
expect() { # expect RANK FUNCTION COUNT
    local got
    got=$(records "$1" "$2")
    [ "${got:-0}" = "$3" ] || fail "rank $1: $3 $2 records expected, the trace has ${got:-0}"
}

rm -rf "$work"
mkdir -p "$work/data" || fail "cannot create $work"

case $mode in
fork | exec | exit)
    env LD_PRELOAD="$lib" RECORDER_TRACES_DIR="$work/trace" RECORDER_BUFFER_SIZE=4096 \
        "$prog" "$mode" "$work/data" $N >"$work/out"
    rc=$?
    cat "$work/out"
    [ $rc -eq 0 ] || fail "the traced program exited with $rc"
    grep -qx "ok 1" "$work/out" || fail "the program's results are wrong"
    [ -f "$work/trace/0.meta" ] || fail "no 0.meta: the trace was not closed"
    "$r2t" "$work/trace" >"$work/trace.txt" 2>"$work/r2t.stderr"
    rc=$?
    cat "$work/r2t.stderr" >&2
    [ $rc -eq 0 ] || fail "recorder2text exited with $rc"
    [ -s "$work/r2t.stderr" ] && fail "recorder2text warned (incomplete trace?)"
    tally
    parent=$(awk '$1 == "parent_pwrite" { print $2 }' "$work/out")
    expect 0 pwrite "$parent"
    expect 0 open 1
    expect 0 printf 1 # its results, on stdout
    if [ "$mode" = exit ]; then
        [ "$parent" = $N ] || fail "the program made $parent pwrite calls, expected $N"
        [ "$(wc -l <"$work/tally")" = 4 ] || fail "unexpected functions in the trace" # open pwrite printf fflush
    else
        [ "$parent" = $((2 * N)) ] || fail "the parent made $parent pwrite calls, expected $((2 * N))"
        expect 0 fstat 1
        expect 0 close 1
        expect 0 fsync 0
        grep -q 'child' "$work/trace.txt" && fail "the children's files show in the parent's trace"
        total=$(wc -l <"$work/trace.txt")
        fflushes=$(records 0 fflush)
        [ "$total" = $((parent + 4 + ${fflushes:-0})) ] || fail "$total records, the parent made $((parent + 4 + fflushes))"
        [ "$(ls "$work/trace")" = "$(printf '0.meta\n0.rec\nrecorder.meta')" ] ||
            fail "unexpected files in the trace directory: $(ls "$work/trace" | tr '\n' ' ')"
    fi
    ;;
mpi)
    mpiexec=$6 oversubscribe=$7
    # A race of the launcher: when the first rank ends without MPI_Finalize,
    # hydra SIGKILLs the others' process groups, and a rank still writing its
    # trace then keeps the header only (mpiexec still reports success). The
    # tracer writes at exit() before the MPI library's exit handlers, which
    # made this rare (3 in 20 runs before, 1 in 30 after); SIGKILL cannot be
    # caught, so the run is repeated up to 5 times then, and says so (also
    # when a rank was killed before printing its result: a fresh clone's
    # suite failed so on 2026-11-25; next to two fuzzers, 13 runs in 100
    # needed a second attempt, one a fourth). Every other check is strict.
    for attempt in 1 2 3 4 5; do
    rm -rf "$work/trace" "$work/data" && mkdir -p "$work/data"
    timeout 90 "$mpiexec" -np 2 -genv LD_PRELOAD "$oversubscribe:$lib" -genv RECORDER_TRACES_DIR "$work/trace" \
        "$prog" "$work/data" $N >"$work/out" 2>"$work/mpiexec.stderr"
    rc=$?
    cat "$work/out"
    [ $rc -eq 124 ] && fail "mpiexec hung"
    echo "mpiexec exited with $rc (any status is accepted: the ranks never called MPI_Finalize)"
    # The same race can kill a rank between the barrier and its "ok" line.
    if [ "$(grep -c "ok 1" "$work/out")" != 2 ] && [ $rc -eq 0 ] && [ $attempt -lt 5 ]; then
        echo "attempt $attempt: a rank was killed before its \"ok\" line (the known exit race): again"
        continue
    fi
    [ "$(grep -c "ok 1" "$work/out")" = 2 ] || { cat "$work/mpiexec.stderr" >&2; fail "a rank did not finish its I/O"; }
    [ -f "$work/trace/recorder.meta" ] && [ -f "$work/trace/0.rec" ] && [ -f "$work/trace/1.rec" ] ||
        fail "trace files missing: $(ls "$work/trace" 2>&1 | tr '\n' ' ')"
    [ -e "$work/trace/0.meta" ] || [ -e "$work/trace/1.meta" ] && fail "a rank wrote N.meta without MPI_Finalize"
    "$r2t" "$work/trace" >"$work/trace.txt" 2>"$work/r2t.stderr"
    rc=$?
    cat "$work/r2t.stderr"
    [ $rc -eq 0 ] || fail "recorder2text exited with $rc"
    # A rank killed while writing its block leaves a header, or a torn
    # block: its records are gone, every one (they fit one block).
    lost=0
    tally >/dev/null
    for r in 0 1; do
        [ "$(records $r pwrite)" = $N ] || lost=1
    done
    [ $lost = 1 ] && [ $attempt -lt 5 ] && { echo "attempt $attempt: a rank's trace lost its block (the known exit race): again"; continue; }
    break
    done
    for r in 0 1; do
        grep -q "rank $r did not close its trace" "$work/r2t.stderr" ||
            fail "recorder2text did not report rank $r as incomplete"
    done
    tally
    for r in 0 1; do
        expect $r pwrite $N
        expect $r open 1
        expect $r MPI_Init 1
        expect $r MPI_Barrier 1
        expect $r MPI_Finalize 0
    done
    ;;
*) fail "unknown mode $mode" ;;
esac
echo "PASS"
