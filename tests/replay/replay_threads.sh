#!/usr/bin/env bash
# replay_threads.sh BUILD_DIR -- a crafted 1-rank trace with threads
# (craft_trace threads): the thread the main one starts runs on a thread of
# the replay's (its records before its pthread_create's wait for it; it
# writes to the main thread's fd after their barrier, the main thread
# joins it), and the records of a thread nobody started in the trace and of
# one a call started are skipped, each with its reason.
set -euo pipefail
build=$1
. "$(dirname "$0")/../support/testlib.sh"
begin_test replay_threads "$build/replay-runs/threads"
"$build/tests/replay/craft_trace" threads "$work/trace"
mpiexec -np 1 -genv LD_PRELOAD "$build/tests/support/liboversubscribe.so" "$build/replayer/recorder-replay" \
  --prefix "$work/prefix" "$work/trace" > "$work/summary.txt" || { cat "$work/summary.txt"; fail "the replay failed"; }
cat "$work/summary.txt"
grep -Eq "^  POSIX +14 +6 +1 +0 +0 +170$" "$work/summary.txt" ||
  fail "not 14 POSIX calls replayed, 6 skipped, 1 outside (the pthread_create inside fsync), 170 bytes written"
for call in open write close; do
  grep -qxF "    $call: 1 (of a thread a library started inside a call (which starts it again))" "$work/summary.txt" ||
    fail "thread 3's $call is not skipped as a library's thread's"
  grep -qxF "    $call: 1 (of a thread no replayed call started (started before tracing, or out of its sight))" \
    "$work/summary.txt" || fail "thread 2's $call is not skipped as a thread nobody started"
done
[ "$(stat -c %s "$work/prefix/data/a.1")" = 100 ] || fail "thread 1's file is not 100 bytes"
[ "$(stat -c %s "$work/prefix/data/shared")" = 70 ] || fail "the shared file is not 70 bytes (50 from thread 1, 20 from the main thread)"
[ ! -e "$work/prefix/data/b.2" ] && [ ! -e "$work/prefix/data/c.3" ] || fail "a skipped thread's file was made"
echo "replay_threads: the started thread ran, the others' records were skipped with their reasons"
