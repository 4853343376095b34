#!/bin/bash
# The trace's clock against CLOCK_MONOTONIC, with the time-stamp counter
# (the default where it is invariant) and without it (RECORDER_TSC=0).
#   run_clock.sh PROGRAM LIBRECORDER RECORDER2TEXT WORKDIR
# PROGRAM (clock_gaps) makes 8 pwrite calls 10 to 80 ms apart and prints,
# for each, CLOCK_MONOTONIC just before and just after it. One offset
# between the clocks must put each traced call inside its own bracket,
# within 5 us, at the default resolution of 0.1 us.
set -u
prog=$1 lib=$2 r2t=$3 work=$4
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work"
for tsc in 1 0; do
    dir=$work/trace-tsc$tsc
    LD_PRELOAD=$lib RECORDER_TRACES_DIR=$dir RECORDER_TSC=$tsc "$prog" "$work/data" >"$work/brackets-tsc$tsc" 2>"$work/stderr-tsc$tsc" ||
        { rc=$?; cat "$work/stderr-tsc$tsc" >&2; fail "the traced program failed, status $rc (RECORDER_TSC=$tsc)"; }
    "$r2t" "$dir" | awk '$6 ~ /^pwrite\(/ { print $2 }' >"$work/starts-tsc$tsc" || fail "recorder2text failed"
    [ "$(wc -l <"$work/starts-tsc$tsc")" = 8 ] || fail "8 pwrite records expected (RECORDER_TSC=$tsc)"
    # Seconds in the trace, ns since the first call in the brackets. The two
    # clocks' origins differ by one unknown offset: some offset must put every
    # traced call inside its own bracket, give or take 5 us. A preemption
    # inside a bracket only widens it (aligning on the first call alone failed
    # when that call was preempted between the program's and the tracer's reads).
    paste "$work/starts-tsc$tsc" "$work/brackets-tsc$tsc" | awk -v tsc=$tsc '
        { t = $1 * 1e9; lo = $2 - t - 5000; hi = $3 - t + 5000
          if (NR == 1 || lo > maxlo) { maxlo = lo; at_lo = NR }
          if (NR == 1 || hi < minhi) { minhi = hi; at_hi = NR }
          if (NR > 1 && (t - prev) < 9.9e6) { printf "call %d only %.0f ns after the last (RECORDER_TSC=%s)\n", NR, t - prev, tsc; bad = 1 }
          prev = t }
        END { if (maxlo > minhi) { printf "calls %d and %d are %.0f ns further apart or closer in the trace than the program saw them (RECORDER_TSC=%s)\n", at_lo < at_hi ? at_lo : at_hi, at_lo < at_hi ? at_hi : at_lo, maxlo - minhi + 10000, tsc; bad = 1 }
              exit bad }' || fail "the trace's times do not follow CLOCK_MONOTONIC (RECORDER_TSC=$tsc)"
done
echo "8 calls 10-80 ms apart: the traced times follow CLOCK_MONOTONIC within 5 us, with and without the TSC"
