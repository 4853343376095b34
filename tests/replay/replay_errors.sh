#!/usr/bin/env bash
# replay_errors.sh BUILD_DIR CASE -- a replay that cannot be done must say
# why, exit non-zero and create nothing (not even its prefix).
#   nranks: a 2-rank trace replayed on 1 rank
#   missing: no such trace directory
#   corrupt: a rank's stream damaged in the middle
#   incomplete: a merged trace whose stream never ended (no end marker)
#   usage: a bad option
set -euo pipefail
build=$1 case=$2
. "$(dirname "$0")/../support/testlib.sh"
extra=()
begin_test "replay_errors: $case" "$build/replay-runs/errors/$case"
craft=$build/tests/replay/craft_trace
np=1
case $case in
  nranks)
    "$craft" ranks 2 "$work/trace"
    want="the trace has 2 ranks but the replay runs on 1: run it with mpirun -np 2" ;;
  missing)
    want="recorder-replay: $work/trace" ;;
  corrupt)
    "$craft" ranks 2 "$work/trace"
    np=2
    size=$(stat -c %s "$work/trace/1.rec")
    printf '\xff\xff\xff\xff\xff\xff\xff\xff' | dd of="$work/trace/1.rec" bs=1 seek=$((size / 2)) conv=notrunc status=none
    want="$work/trace/1.rec" ;;
  incomplete)
    # A per-rank trace cut short replays up to the cut (replay_cut_short.sh);
    # a merged one cannot be cut: its single stream is refused.
    "$craft" ranks 2 "$work/ranks"
    np=2
    "$build/merger/recorder-merge" --quiet "$work/ranks" -o "$work/trace" > /dev/null || fail "recorder-merge failed"
    size=$(stat -c %s "$work/trace/merged.rec")
    truncate -s $((size - 4)) "$work/trace/merged.rec"
    want="$work/trace/merged.rec" ;;
  usage)
    "$craft" ranks 1 "$work/trace"
    extra=(--timing sometimes)
    want="recorder-replay: --timing sometimes: not asap, faithful or a non-negative number" ;;
  *) fail "unknown case" ;;
esac
rc=0
mpiexec -np "$np" -genv LD_PRELOAD "$build/tests/support/liboversubscribe.so" \
  "$build/replayer/recorder-replay" "${extra[@]}" --prefix "$work/prefix" "$work/trace" > "$work/out.txt" 2> "$work/err.txt" || rc=$?
cat "$work/err.txt"
[ "$rc" != 0 ] || fail "recorder-replay exited 0"
grep -qF -- "$want" "$work/err.txt" || fail "the error does not say: $want"
[ "$(grep -c . "$work/err.txt")" -le 2 ] || fail "the error is repeated by every rank"
[ ! -e "$work/prefix" ] || fail "the failed replay created its prefix"
echo "replay_errors: $case: exit $rc, clear error, nothing written"
