#!/usr/bin/env bash
# tune_search.sh BUILD_DIR: recorder-tune --repeat 1 on ior-like (independent
# 4 KiB transfers) traced at 2 ranks. The structure of its table, never its
# times: the grid of a 2 x 3 space (6 rows in the order of the grid, the
# trace's own settings first and not run, every other set applied), a best
# set that is one of the rows; the coordinate search within a budget of 3;
# and the errors of a bad space or usage, exactly.
set -euo pipefail
build=$1
. "$(dirname "$0")/../support/testlib.sh"
begin_test "advise: recorder-tune" "$build/advise-runs/tune" logs scratch
logs=$work/logs out=$work/out
over=$build/tests/support/liboversubscribe.so
tune=$build/analysis/recorder-tune
export RECORDER_ADVISE_PRELOAD=$over
. "$(dirname "$0")/advise_lib.sh"
trace_ior_like "$out"
cat > "$work/space.txt" << 'SPACE'
# the form of the data calls x collective buffering
mpiio.data = traced | collective
mpiio.romio_cb_write = traced | enable | disable   # ROMIO's hint
SPACE

# The grid: 6 candidates, the last key fastest.
(cd "$work" && "$tune" --space space.txt --repeat 1 --scratch "$work/scratch" --best best.set t1) \
  > "$logs/grid.txt" 2> "$logs/grid.err" || { cat "$logs/grid.err" "$logs/grid.txt" >&2; fail "recorder-tune failed"; }
cat "$logs/grid.txt"
[ -z "$(ls -A "$work/scratch")" ] || fail "the scratch root is not empty after"
[ "$(head -1 "$logs/grid.txt")" = "recorder-tune: t1 at 2 ranks: grid search, 6 candidates of 6 (budget 16), 1 replay of each kind" ] ||
  fail "the first line differs"
sets=$(sed -n 's/^ *[0-9]\+  .* \(mpiio\.data=[a-z]* mpiio\.romio_cb_write=[a-z]*\)$/\1/p' "$logs/grid.txt")
want="mpiio.data=traced mpiio.romio_cb_write=traced
mpiio.data=traced mpiio.romio_cb_write=enable
mpiio.data=traced mpiio.romio_cb_write=disable
mpiio.data=collective mpiio.romio_cb_write=traced
mpiio.data=collective mpiio.romio_cb_write=enable
mpiio.data=collective mpiio.romio_cb_write=disable"
[ "$sets" = "$want" ] || { diff -u <(echo "$want") <(echo "$sets") >&2; fail "the grid's rows differ"; }
grep -qE '^  1   1\.000  the trace.s settings +- +- +- +- mpiio\.data=traced mpiio\.romio_cb_write=traced$' \
  "$logs/grid.txt" || fail "the trace's own settings are not row 1 with ratio 1"
# the bandwidth columns: the trace's bytes of each layer it has, top down
# (the POSIX layer: the 1 MiB of data, and a few bytes of the kernel's own small writes)
sed -n 2p "$logs/grid.txt" | grep -qE "^  MiB/s: the trace's bytes per layer \(MPI-IO 1048576, POSIX 10(48[6-9]|49)[0-9]{2}\) over the tuned median$" &&
  sed -n 3p "$logs/grid.txt" | grep -qE ' applied +MPI-IO +POSIX set$' || fail "no MPI-IO and POSIX bandwidth columns"
[ "$(grep -cE '^  [2-6]   [0-9]+\.[0-9]{3} +[0-9.]+ \([0-9.]+\.\.[0-9.]+\) +[0-9.]+ \([0-9.]+\.\.[0-9.]+\)  yes +[0-9]+\.[0-9] +[0-9]+\.[0-9] mpiio' "$logs/grid.txt")" = 5 ] ||
  fail "not 5 measured rows, each applied"
best=$(sed -n 's/^best: #\([0-9]\), .*: best.set.*/\1/p' "$logs/grid.txt")
[ -n "$best" ] || fail "no best: line"
row=$(sed -n "s/^  $best  .* \(mpiio\.data=.*\)$/\1/p" "$logs/grid.txt" | tr ' ' '\n' | grep -v '=traced$' || true)
[ "$row" = "$(cat "$work/best.set")" ] || fail "best.set is not row $best's set: $(cat "$work/best.set")"

# The coordinate search within a budget of 3: the first values, then data's other value, then cb_write's first other.
status=0
(cd "$work" && "$tune" --space space.txt --repeat 1 --budget 3 --best best2.set t1) > "$logs/coord.txt" 2>&1 || status=$?
[ $status = 0 ] && [ "$(head -1 "$logs/coord.txt")" = "recorder-tune: t1 at 2 ranks: coordinate search, 3 candidates of 6 (budget 3), 1 replay of each kind" ] &&
  [ "$(grep -c '^  [1-3]  ' "$logs/coord.txt")" = 3 ] && [ -f "$work/best2.set" ] ||
  { cat "$logs/coord.txt" >&2; fail "--budget 3: not a coordinate search of 3 candidates"; }

# Errors: exit 2 and the reason.
printf 'mpiio.data = traced | sideways\n' > "$work/bad.txt"
usage_error 2 "recorder-tune: $(cd "$work" && "$build/replayer/recorder-replay" --set mpiio.data=sideways t1 2>&1 >/dev/null |
  sed -n 's/^recorder-replay: --set: //p' | sed "s#^#$work/bad.txt:1: #")" "$tune" --space "$work/bad.txt" "$work/t1"
printf 'mpiio.data\n' > "$work/bad.txt"
usage_error 2 "recorder-tune: $work/bad.txt:1: mpiio.data: not KEY = V1 | V2 ..." "$tune" --space "$work/bad.txt" "$work/t1"
usage_error 2 "recorder-tune: --space FILE is needed" "$tune" "$work/t1"
usage_error 2 "recorder-tune: --search: random: not grid or coordinate" "$tune" --space "$work/space.txt" --search random "$work/t1"
usage_error 2 "recorder-tune: the grid has 6 candidates, more than --budget 4: raise it or --search coordinate" \
  "$tune" --space "$work/space.txt" --search grid --budget 4 "$work/t1"
usage_error 2 "recorder-tune: --budget: 0: not a whole number from 1 to 100000" "$tune" --space "$work/space.txt" --budget 0 "$work/t1"
echo "advise: recorder-tune: a grid of 6 candidates and a coordinate search of 3, the best set written, errors said"
