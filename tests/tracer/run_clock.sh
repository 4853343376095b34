#!/bin/bash
# The trace's clock against CLOCK_MONOTONIC, with the time-stamp counter
# (the default where it is invariant) and without it (RECORDER_TSC=0).
#   run_clock.sh PROGRAM LIBRECORDER RECORDER2TEXT WORKDIR
# PROGRAM (clock_gaps) makes 8 pwrite calls 10 to 80 ms apart and prints,
# for each, CLOCK_MONOTONIC just before and just after it. Each traced call
# must lie inside its own bracket, once the two clocks' origins are lined up
# on the first call: within 20 us, at the default resolution of 0.1 us.
set -u
prog=$1 lib=$2 r2t=$3 work=$4
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work"
for tsc in 1 0; do
    dir=$work/trace-tsc$tsc
    LD_PRELOAD=$lib RECORDER_TRACES_DIR=$dir RECORDER_TSC=$tsc "$prog" "$work/data" >"$work/brackets-tsc$tsc" ||
        fail "the traced program failed (RECORDER_TSC=$tsc)"
    "$r2t" "$dir" | awk '$6 ~ /^pwrite\(/ { print $2 }' >"$work/starts-tsc$tsc" || fail "recorder2text failed"
    [ "$(wc -l <"$work/starts-tsc$tsc")" = 8 ] || fail "8 pwrite records expected (RECORDER_TSC=$tsc)"
    # Seconds in the trace, ns in the brackets; the first call lines them up.
    paste "$work/starts-tsc$tsc" "$work/brackets-tsc$tsc" | awk -v tsc=$tsc '
        NR == 1 { t0 = $1 * 1e9 - $2 }
        { t = $1 * 1e9 - t0; lo = $2 - 20000; hi = $3 + 20000
          if (t < lo || t > hi) { printf "call %d at %.0f ns, outside [%d, %d] (RECORDER_TSC=%s)\n", NR, t, $2, $3, tsc; bad = 1 }
          if (NR > 1 && (t - prev) < 9.9e6) { printf "call %d only %.0f ns after the last (RECORDER_TSC=%s)\n", NR, t - prev, tsc; bad = 1 }
          prev = t }
        END { exit bad }' || fail "the trace's times do not follow CLOCK_MONOTONIC (RECORDER_TSC=$tsc)"
done
echo "8 calls 10-80 ms apart: the traced times follow CLOCK_MONOTONIC within 20 us, with and without the TSC"
