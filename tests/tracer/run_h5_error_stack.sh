#!/bin/bash
# tracer.h5_error_stack_kept: after an HDF5 call fails, the application sees
# the same error stack traced as untraced (run h5_error_stack both ways and
# compare), and the trace holds the failed calls.
#   run_h5_error_stack.sh PROGRAM LIBRECORDER RECORDER2TEXT WORKDIR
set -u
prog=$1 lib=$2 r2t=$3 work=$4
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work/u" "$work/t" || fail "cannot create $work"
"$prog" "$work/u.results" "$work/u" || fail "the untraced run exited with $?"
LD_PRELOAD=$lib RECORDER_TRACES_DIR=$work/trace "$prog" "$work/t.results" "$work/t" 2>"$work/t.stderr" ||
    fail "the traced run exited with $?"
[ -s "$work/t.stderr" ] && fail "the traced run wrote to stderr: $(cat "$work/t.stderr")"
grep -q "on the stack" "$work/u.results" || fail "no results from the untraced run"
grep -q "H5Dwrite, a file space that is no id: -1, [1-9][0-9]* on the stack" "$work/u.results" ||
    fail "the untraced H5Dwrite left no error on the stack: $(head -3 "$work/u.results")"
# HDF5's "unable to open file" message names the time of the open: the two
# runs may fall in different seconds.
sed -e "s|$work/t|DIR|g" -e 's/time = [A-Z][a-z][a-z] [A-Z][a-z][a-z] [ 0-9]*[0-9] [0-9:]* [0-9]*/time = TIME/' \
    "$work/t.results" >"$work/t.cmp"
sed -e "s|$work/u|DIR|g" -e 's/time = [A-Z][a-z][a-z] [A-Z][a-z][a-z] [ 0-9]*[0-9] [0-9:]* [0-9]*/time = TIME/' \
    "$work/u.results" >"$work/u.cmp"
diff "$work/u.cmp" "$work/t.cmp" >"$work/diff" ||
    fail "the error stacks differ under the tracer (< untraced, > traced): $(head -20 "$work/diff")"
"$r2t" "$work/trace" >"$work/trace.txt" || fail "recorder2text failed"
failed=$(grep -c 'H5Dwrite(.*) = -1' "$work/trace.txt")
[ "$failed" = 3 ] || fail "3 failed H5Dwrite records expected, found $failed"
# the strings' lengths, of the write that succeeded alone (none of the failed ones, which record none)
lengths=$(grep -oE 'H5Dwrite\(.*lengths=\[[-0-9,]*\]\) = -?[0-9]+' "$work/trace.txt" | grep -oE 'lengths=.*')
[ "$lengths" = "lengths=[3,0,5]) = 0" ] || fail "the strings' H5Dwrite records: $lengths"
echo "ok: $(grep -c 'on the stack' "$work/u.results") calls, the same error stacks traced and untraced"
