#!/usr/bin/env bash
# replay_timing.sh BUILD_DIR -- a crafted 2-rank trace: MPI_Init, a barrier
# 0.3 s later, MPI_Finalize at 0.6 s. The faithful replay takes the traced
# 0.6 s (within 5 %), --timing 0.5 half of it, asap almost nothing.
set -euo pipefail
build=$1
. "$(dirname "$0")/../support/testlib.sh"
begin_test replay_timing "$build/replay-runs/timing"
"$build/tests/replay/craft_trace" timing "$work/trace"
check() { # TIMING LOW HIGH
  mpiexec -np 2 -genv LD_PRELOAD "$build/tests/support/liboversubscribe.so" "$build/replayer/recorder-replay" \
    --timing "$1" --prefix "$work/prefix-$1" "$work/trace" > "$work/$1.txt"
  local line replay traced
  line=$(grep '  time: replay' "$work/$1.txt") || fail "$1: no time in the summary"
  echo "--timing $1: $line"
  replay=$(echo "$line" | sed 's/.*replay \([0-9.]*\) s.*/\1/')
  traced=$(echo "$line" | sed 's/.*traced \([0-9.]*\) s.*/\1/')
  [ "$traced" = 0.600 ] || fail "$1: the traced time is $traced s, not 0.600 s"
  awk -v t="$replay" -v lo="$2" -v hi="$3" 'BEGIN { exit !(t >= lo && t <= hi) }' ||
    fail "$1: the replay took $replay s, outside [$2, $3] s"
}
check faithful 0.570 0.630
check 0.5 0.285 0.330
check asap 0 0.100
grep -Eq "^  MPI +6 +0 +0 +0 " "$work/asap.txt" || fail "asap: not 6 MPI calls (Init, Barrier, Finalize on 2 ranks) replayed"
echo "replay_timing: faithful, scaled and asap replays take the expected times"
