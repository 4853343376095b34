#!/usr/bin/env bash
# replay_safety.sh BUILD_DIR -- a crafted trace names files outside the
# prefix every way it can (absolute paths, "..", symlinks to outside, a
# relative link target climbing out, a link planted in the prefix, /dev,
# /proc, unlink and rename of outside files). The replay must leave every
# file outside its prefix exactly as it was, skip the calls it must not
# make (saying why), and do the rest under the prefix.
set -euo pipefail
build=$1
. "$(dirname "$0")/../support/testlib.sh"
begin_test replay_safety "$build/replay-runs/safety" sandbox/prefix
sandbox=$work/sandbox
prefix=$sandbox/prefix
for f in victim victim2 victim3 victim5 victim6; do
  echo "the original $f" > "$sandbox/$f"
done
ln -s "$sandbox" "$prefix/evil" # a link in the prefix that leads out of it
"$build/tests/replay/craft_trace" safety "$sandbox" "$work/trace"
# Everything outside the prefix: names, types, sizes, times, link targets, contents.
snapshot() {
  (cd "$sandbox" && find . -path ./prefix -prune -o -printf '%p %y %s %T@ %l\n' | sort &&
    find . -path ./prefix -prune -o -type f -exec md5sum {} + | sort)
  stat -c '%n %s %Y' /etc/passwd
}
snapshot > "$work/before.txt"
mpiexec -np 1 -genv LD_PRELOAD "$build/tests/support/liboversubscribe.so" \
  "$build/replayer/recorder-replay" -v --prefix "$prefix" "$work/trace" > "$work/replay.txt" 2> "$work/replay.err" ||
  { cat "$work/replay.err" >&2; fail "recorder-replay failed"; }
cat "$work/replay.txt"
snapshot > "$work/after.txt"
diff -u "$work/before.txt" "$work/after.txt" || fail "the replay changed something outside its prefix"

expect() { grep -qF -- "$1" "$work/replay.txt" || fail "the summary lacks: $1"; }
expect "open: 1 (a /dev, /proc or /sys path: never touched)"
expect "results that differ from the trace: 0 calls"
expect "mkdir: 1 (a /dev, /proc or /sys path: never touched)"
expect "symlink: 1 (a /dev, /proc or /sys path: never touched)"
expect "open: 1 (a symbolic link under the prefix leads outside it)"
[ "$(stat -c %s "$prefix/etc/passwd")" = 1234 ] || fail "the input /etc/passwd was not pre-created with its traced size"
[ "$(stat -c %s "$prefix$sandbox/victim2")" = 50 ] || fail "the climbing path was not re-rooted"
[ "$(stat -c %s "$prefix$sandbox/victim3")" = 10 ] || fail "the write through the symlink was not re-rooted"
[ "$(readlink "$prefix/link")" = "$prefix$sandbox" ] || fail "the symlink's target was not re-rooted"
[ "$(readlink "$prefix/up")" = "$prefix" ] || fail "the climbing relative link target was not clamped"
[ ! -e "$prefix$sandbox/victim5" ] || fail "unlink did not act under the prefix"
[ -f "$prefix$sandbox/victim6.renamed" ] || fail "rename did not act under the prefix"
echo "replay_safety: nothing outside the prefix changed"
