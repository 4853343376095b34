#!/bin/bash
# Tracer robustness: programs that crash, are killed, cannot write their
# trace, or open thousands of files (tests/hardening/CMakeLists.txt).
#   run_robustness.sh MODE VICTIM MPI_VICTIM LIBRECORDER RECORDER2TEXT WORKDIR MPIEXEC OVERSUBSCRIBE
# segv|abort|term: the program dies (SIGSEGV, abort, SIGTERM from this
#     script) after N pwrite calls with 4 KiB blocks: the same exit status
#     as untraced; recorder2text reads the trace (exit 0), warns that rank 0
#     did not close it, and shows the calls up to the last whole block: an
#     unbroken run of the first pwrite calls, at least N/2 of them.
# mpi-segv: rank 1 of 2 crashes, mpiexec ends rank 0: both ranks read the
#     same way.
# unwritable: the trace directory cannot be created (under a regular file)
#     or written (/proc/self), serial and at 2 ranks: the program's exit
#     status and output are those of an untraced run, and stderr holds
#     exactly one line, starting with "recorder:".
# fulldisk: the trace directory is a 64 KiB tmpfs that fills up (mounted in
#     a private mount namespace; skipped, exit 77, where that is not
#     allowed): as unwritable, the warning says "No space left on device",
#     and the trace up to the full disk reads as above.
# files: 5000 files created, written, stat'ed and removed: every call
#     recorded, peak RSS under 64 MB.
set -u
mode=$1 victim=$2 mpi_victim=$3 lib=$4 r2t=$5 work=$6 mpiexec=$7 oversubscribe=$8
N=30000

fail() { echo "FAIL: $*" >&2; exit 1; }

# check_prefix TRACE_TXT RANK MIN MAX: the rank's pwrite records are the
# calls 0, 1, 2, ... (offset 64 k) in order, between MIN and MAX of them.
check_prefix() {
    local got
    got=$(awk -v r="$2" '$1 == r && $6 ~ /^pwrite\(/ {
            if (match($0, /offset=[0-9]+/)) off = substr($0, RSTART + 7, RLENGTH - 7); else off = -1
            if (off != 64 * n) { print "gap at record " n ": offset " off; exit }
            n++ }
        END { print n + 0 }' "$1" | tail -1)
    case $got in *gap*) fail "rank $2: $got" ;; esac
    [ "$got" -ge "$3" ] && [ "$got" -le "$4" ] || fail "rank $2: $got pwrite records, expected $3 to $4"
    echo "rank $2: the first $got pwrite calls are in the trace, in order"
}

# read_incomplete TRACE RANKS...: readable, each rank reported incomplete.
read_incomplete() {
    local trace=$1
    shift
    "$r2t" "$trace" >"$work/trace.txt" 2>"$work/r2t.stderr"
    local rc=$?
    cat "$work/r2t.stderr"
    [ $rc -eq 0 ] || fail "recorder2text exited with $rc"
    for r in "$@"; do
        grep -q "rank $r did not close its trace" "$work/r2t.stderr" ||
            fail "recorder2text did not report rank $r as incomplete"
        [ -e "$trace/$r.meta" ] && fail "rank $r wrote $r.meta"
    done
    return 0
}

# one_warning STDERR_FILE [PATTERN]: exactly one line, a "recorder:" one.
one_warning() {
    cat "$1" >&2
    [ "$(wc -l <"$1")" = 1 ] || fail "$(wc -l <"$1") lines on stderr, expected exactly one warning"
    grep -q '^recorder: ' "$1" || fail "the line on stderr is not a recorder: warning"
    [ -z "${2:-}" ] || grep -q "$2" "$1" || fail "the warning does not say '$2'"
}

traced() { env LD_PRELOAD="$lib" RECORDER_BUFFER_SIZE=4096 RECORDER_TRACES_DIR="$1" "${@:2}"; }
mpi_traced() {
    timeout 90 "$mpiexec" -np 2 -genv LD_PRELOAD "$oversubscribe:$lib" -genv RECORDER_BUFFER_SIZE 4096 \
        -genv RECORDER_TRACES_DIR "$1" "${@:2}"
}

# Under the sanitizers (scripts/test-sanitizers.sh) the crashes are the
# point: ASan must let them be the signals they are, not its reports.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0:handle_abort=0"

rm -rf "$work"
mkdir -p "$work/u" "$work/t" || fail "cannot create $work"
case $mode in
segv | abort | term)
    run() { # run DATA_DIR [TRACE_DIR]: the victim, traced when TRACE_DIR is given
        local pre=()
        [ $# -eq 2 ] && pre=(env LD_PRELOAD="$lib" RECORDER_BUFFER_SIZE=4096 RECORDER_TRACES_DIR="$2")
        if [ "$mode" = term ]; then
            "${pre[@]}" "$victim" term "$1" $N >"$1/out" 2>"$1/err" &
            local pid=$! k
            for k in $(seq 600); do grep -q waiting "$1/out" && break; sleep 0.05; done
            grep -q waiting "$1/out" || { kill -KILL $pid; fail "the program never got to wait"; }
            kill -TERM $pid
            wait $pid
        else
            "${pre[@]}" "$victim" "$mode" "$1" $N >"$1/out" 2>"$1/err"
        fi
    }
    run "$work/u"
    want=$?
    run "$work/t" "$work/trace"
    got=$?
    echo "exit status: untraced $want, traced $got"
    [ $want -gt 128 ] || fail "the untraced program exited with $want, not by a signal"
    [ $got = $want ] || fail "traced, the program exited with $got instead of $want"
    cmp -s "$work/u/out" "$work/t/out" || fail "the traced program printed something else"
    read_incomplete "$work/trace" 0
    check_prefix "$work/trace.txt" 0 $((N / 2)) $N
    ;;
mpi-segv)
    mpi_traced "$work/trace" "$mpi_victim" "$work/t" $N 1 >"$work/t/out" 2>"$work/t/err"
    rc=$?
    [ $rc -eq 124 ] && fail "mpiexec hung"
    [ $rc -ne 0 ] || fail "mpiexec reported success although rank 1 crashed"
    [ "$(grep -c "ok 1" "$work/t/out")" = 2 ] || fail "a rank did not finish its I/O"
    read_incomplete "$work/trace" 0 1
    check_prefix "$work/trace.txt" 0 $((N / 2)) $N
    check_prefix "$work/trace.txt" 1 $((N / 2)) $N
    ;;
unwritable)
    touch "$work/a-file"
    "$victim" exit "$work/u" $N >"$work/u/out" 2>"$work/u/err" || fail "the untraced run failed"
    for dir in "$work/a-file/trace" /proc/self; do
        echo "--- serial, trace directory $dir"
        traced "$dir" "$victim" exit "$work/t" $N >"$work/t/out" 2>"$work/t/err"
        rc=$?
        [ $rc -eq 0 ] || fail "traced, the program exited with $rc"
        cmp -s "$work/u/out" "$work/t/out" || fail "the traced program printed something else"
        one_warning "$work/t/err"
        echo "--- 2 ranks, trace directory $dir"
        mpi_traced "$dir" "$mpi_victim" "$work/t" $N >"$work/t/out" 2>"$work/t/err"
        rc=$?
        [ $rc -eq 0 ] || fail "traced, mpiexec exited with $rc"
        [ "$(grep -c "ok 1" "$work/t/out")" = 2 ] || fail "a rank did not finish its I/O"
        one_warning "$work/t/err"
    done
    ;;
fulldisk)
    # A private mount namespace (a user namespace too when not root):
    # the tmpfs disappears with it, so the trace is copied out inside.
    ns=(unshare -m)
    [ "$(id -u)" = 0 ] || ns=(unshare -Urm)
    "${ns[@]}" true 2>/dev/null || { echo "SKIP: cannot create a mount namespace here"; exit 77; }
    mkdir -p "$work/full"
    "${ns[@]}" bash -c '
        mount -t tmpfs -o size=64k tmpfs "$1/full" || exit 77
        env LD_PRELOAD="$2" RECORDER_BUFFER_SIZE=4096 RECORDER_TRACES_DIR="$1/full/trace" \
            "$3" exit "$1/t" 200000 >"$1/t/out" 2>"$1/t/err"
        rc=$?
        df -k "$1/full" | tail -1
        cp -r "$1/full/trace" "$1/trace"
        exit $rc' fulldisk "$work" "$lib" "$victim"
    rc=$?
    [ $rc -eq 77 ] && { echo "SKIP: cannot mount a tmpfs here"; exit 77; }
    [ $rc -eq 0 ] || fail "traced, the program exited with $rc"
    "$victim" exit "$work/u" 200000 >"$work/u/out" || fail "the untraced run failed"
    cmp -s "$work/u/out" "$work/t/out" || fail "the traced program printed something else"
    one_warning "$work/t/err" "No space left on device"
    read_incomplete "$work/trace" 0
    check_prefix "$work/trace.txt" 0 1 200000
    ;;
files)
    traced "$work/trace" "$victim" files "$work/t" 5000 >"$work/t/out" || fail "the traced program failed"
    cat "$work/t/out"
    grep -qx "ok 1" "$work/t/out" || fail "the program's results are wrong"
    rss=$(awk '$1 == "maxrss_kb" { print $2 }' "$work/t/out")
    [ "$rss" -lt 65536 ] || fail "peak RSS $rss KB, the bound is 65536 KB"
    "$r2t" "$work/trace" >"$work/trace.txt" || fail "recorder2text exited with $?"
    awk '{ f = $6; sub(/\(.*/, "", f); n[f]++ } END { for (f in n) print f, n[f] }' "$work/trace.txt" |
        sort >"$work/tally"
    cat "$work/tally"
    for want in "open 5001" "write 5000" "close 5001" "stat 5000" "unlink 5000" "pwrite 5000"; do
        grep -qx "$want" "$work/tally" || fail "expected $want records"
    done
    paths=$(grep -o 'pathname="[^"]*"' "$work/trace.txt" | sort -u | wc -l)
    [ "$paths" = 5001 ] || fail "$paths distinct paths in the trace, expected 5001"
    echo "peak RSS $rss KB; 5001 distinct paths"
    ;;
*) fail "unknown mode $mode" ;;
esac
echo "PASS"
