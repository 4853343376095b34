#!/usr/bin/env bash
# summary_nc_multi.sh BUILD_DIR: recorder-summary's netCDF variables of
# nc_multi_synth's traces: a multi-variable call is a call of each variable
# it names (once, however many of its rows do), each row's bytes its
# variable's; of a trace without ROW_BYTES fields, the bytes of a call over
# several variables go to none, on a line of their own.
test_name=analysis.summary.nc_multi
source "$(dirname "$0")/common.sh"
work=$runs/nc-multi
rm -rf "$work" && mkdir -p "$work"
# expect WHICH WHY: recorder-summary's variables of trace WHICH are those on stdin
expect() {
  cat > "$work/want-$1.txt"
  "$tools/recorder-summary" "$work/$1" | sed -n '/^netCDF variables/,$p' | tr -s ' ' > "$work/got-$1.txt"
  diff -u "$work/want-$1.txt" "$work/got-$1.txt" || fail "$1: wrong variables (want: $2)"
}
for which in new old; do
  "$build/tests/analysis/nc_multi_synth" "$work/$which" $which || fail "nc_multi_synth $which failed"
done
expect new "each row's bytes its variable's" <<'WANT'
netCDF variables (data calls that name them, all ranks):
variable calls collective independ. posted bytes_written bytes_read path
A 1 1 0 0 192 0 "/out/multi.nc"
B 2 1 1 0 128 16 "/out/multi.nc"
C 2 1 1 0 4 8 "/out/multi.nc"
WANT
expect old "a call's bytes its variable's where it names one alone" <<'WANT'
netCDF variables (data calls that name them, all ranks):
variable calls collective independ. posted bytes_written bytes_read path
B 3 2 1 0 40 0 "/out/multi.nc"
C 2 1 1 0 4 0 "/out/multi.nc"
A 1 1 0 0 0 0 "/out/multi.nc"
Multi-variable calls without each variable's bytes (a trace made before they were recorded): 2 calls, 344 bytes, given to no variable
WANT
echo "$test_name: passed"
