#!/usr/bin/env bash
# replay_cut_short.sh BUILD_DIR: a per-rank trace whose rank 1 never closed
# its stream (no N.meta, the end marker cut off, as after a kill) replays up
# to where that stream ends, on every rank, and the summary says so.
set -euo pipefail
build=$1
. "$(dirname "$0")/../support/testlib.sh"
begin_test "replay_cut_short" "$build/replay-runs/cut-short"
"$build/tests/replay/craft_trace" ranks 2 "$work/trace"
rm "$work/trace/1.meta"
size=$(stat -c %s "$work/trace/1.rec")
truncate -s $((size - 4)) "$work/trace/1.rec"
mpiexec -np 2 -genv LD_PRELOAD "$build/tests/support/liboversubscribe.so" \
  "$build/replayer/recorder-replay" --prefix "$work/prefix" "$work/trace" > "$work/out.txt" 2> "$work/err.txt" ||
  { cat "$work/err.txt" "$work/out.txt" >&2; fail "the replay of a trace cut short failed"; }
grep -q "cut short: 1 rank never closed its trace (a crash or kill)" "$work/out.txt" ||
  { cat "$work/out.txt" >&2; fail "the summary does not say the trace was cut short"; }
echo "replay_cut_short: replayed up to the cut"
