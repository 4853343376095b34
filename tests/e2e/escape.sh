#!/usr/bin/env bash
# escape.sh BUILD_DIR NP -- the kernel generated from, and the replay of, a
# program whose files all lie outside its working directory (tests/e2e/escape.c:
# ".." chains, one past "/", absolute paths, renames, links, unlinks, mkdirs,
# symbolic links leading out, /dev/null and /proc/self/stat, traced with no
# path excluded) change nothing outside their OUTDIR and prefix:
#   - the original writes into sentinel/, a scratch directory of this test;
#     victims for the unlinks and renames are put back there afterwards;
#   - the kernel compiles with -Wall -Wextra -Werror, is clang-format clean,
#     has no call on /dev or /proc, runs, and leaves every other file of the
#     test directory (names, types, sizes, times, link targets) as it was,
#     with the files re-rooted under its OUTDIR; recorder-diff finds its I/O
#     equal to the original's;
#   - the kernel of a run whose link leads out only once renamed stops, with a
#     message naming the kernel and the path, and changes nothing either;
#   - recorder-replay of both traces changes nothing outside its prefix.
# OUTDIR and the prefix are as deep as the original's working directory, so a
# ".." that climbed out of them would land in sentinel/ or beside it.
set -euo pipefail
build=$(cd "$1" && pwd) np=$2
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$src/tests/support/testlib.sh"
begin_test "escape.np$np" "$build/e2e-runs/escape.np$np" sentinel run/a/b/c run/a/x k/a/b/c k/a/x r/a/b/c r/a/x \
  logs gen
logs=$work/logs gen=$work/gen
kout=$work/k/a/b/c prefix=$work/r/a/b/c
preload=$build/tests/support/liboversubscribe.so:$build/tracer/librecorder.so
prog=$build/tests/e2e/escape
: > "$gen/no-exclusions" # /dev and /proc are traced too

# 1. The original runs, traced: everything in sentinel/, or in run/a/x through the renamed link.
echo "the victim" > "$work/sentinel/victim"
for t in main renamed; do
  args=()
  [ "$t" = renamed ] && args=(--renamed-link)
  (cd "$work/run/a/b/c" && mpiexec -np "$np" -genv LD_PRELOAD "$preload" -genv RECORDER_TRACES_DIR "$gen/$t.trace" \
    -genv RECORDER_EXCLUSION_FILE "$gen/no-exclusions" "$prog" "$work/sentinel" ../../../../sentinel "${args[@]}") \
    > "$logs/original.$t.txt" 2>&1 || { cat "$logs/original.$t.txt" >&2; fail "the traced program failed ($t)"; }
done
[ -f "$work/sentinel/through_rel.0" ] && [ -f "$work/run/a/x/through_renamed.0" ] ||
  fail "the original did not write where the test expects"

# What an escaping unlink, rename or mkdir would change, put back.
echo "the victim" > "$work/sentinel/victim"
for ((r = 0; r < np; r++)); do
  echo "gone" > "$work/sentinel/gone.$r"
  echo "moved" > "$work/sentinel/moved.$r"
  rm -rf "$work/sentinel/dir.$r"
done
# Every file of the test but OUTDIR, the prefix, the logs and the generated files.
snapshot() {
  find "$work" \( -path "$kout" -o -path "$prefix" -o -path "$logs" -o -path "$gen" \) -prune -o \
    -printf '%p %y %s %T@ %l\n' | sort
}
snapshot > "$logs/before.txt"
unchanged() {
  snapshot > "$logs/after.txt"
  diff -u "$logs/before.txt" "$logs/after.txt" || fail "$1 changed files outside its own directory"
}

# 2. The kernel: clean, without /dev or /proc, the files below OUTDIR only.
kernel() { # NAME: generates, checks and builds gen/NAME from gen/NAME.trace
  "$build/codegen/recorder-codegen" --name "$1" "$gen/$1.trace" -o "$gen/$1.c" 2> "$logs/$1.codegen.txt" ||
    { cat "$logs/$1.codegen.txt" >&2; fail "recorder-codegen failed ($1)"; }
  h5pcc -shlib -Wall -Wextra -Werror "$gen/$1.c" -o "$gen/$1" > "$logs/$1.compile.txt" 2>&1 ||
    { cat "$logs/$1.compile.txt" >&2; fail "$1.c does not compile cleanly"; }
  if command -v clang-format > /dev/null; then
    clang-format --style="file:$src/.clang-format" --dry-run -Werror "$gen/$1.c" 2> "$logs/$1.format.txt" ||
      { head -20 "$logs/$1.format.txt" >&2; fail "$1.c is not clang-format clean"; }
  fi
}
kernel main
! grep -nE '"/(dev|proc)/' "$gen/main.c" || fail "the kernel calls on /dev or /proc"
grep -q "calls on /dev, /proc or /sys" "$gen/main.c" || fail "the kernel's header does not say it left out /dev and /proc"
(cd "$work/k" && mpiexec -np "$np" -genv LD_PRELOAD "$preload" -genv RECORDER_TRACES_DIR "$gen/ktrace" \
  -genv RECORDER_EXCLUSION_FILE "$gen/no-exclusions" "$gen/main" "$kout") > "$logs/kernel.txt" 2>&1 ||
  { cat "$logs/kernel.txt" >&2; fail "the kernel failed"; }
unchanged "the kernel"
size() { stat -c %s "$1" 2> /dev/null || echo missing; }
expect_size() { # FILE BYTES WHAT
  [ "$(size "$1")" = "$2" ] || fail "$3: ${1#"$work"/} is $(size "$1"), not $2 bytes"
}
re_rooted() { # ROOT WHOSE: the original's files, re-rooted
  expect_size "$1/sentinel/climb.0" 100 "$2: the .. chain"
  expect_size "$1$work/sentinel/past_root.1" 110 "$2: the chain past /"
  expect_size "$1$work/sentinel/through_abs.0" 150 "$2: the absolute link"
  expect_size "$1/sentinel/through_rel.1" 160 "$2: the relative link leading out"
  expect_size "$1/here.0/through_in.0" 170 "$2: the relative link inside"
  [ "$(readlink "$1/in_rel.0")" = here.0 ] || fail "$2: the link inside is not kept as it was"
}
re_rooted "$kout" kernel
"$build/analysis/recorder-diff" "$gen/main.trace" "$gen/ktrace" > "$logs/diff.txt" 2>&1 ||
  { cat "$logs/diff.txt" >&2; fail "recorder-diff finds the kernel's I/O different"; }

# 3. A link that leads out once renamed: the kernel stops when it would follow it.
kernel renamed
# MPI_Abort races the launcher's forwarding of the aborting rank's stderr,
# which can lose the message: it must come in one of three runs.
for attempt in 1 2 3; do
  if (cd "$work/k" && mpiexec -np "$np" -genv LD_PRELOAD "$build/tests/support/liboversubscribe.so" \
    "$gen/renamed" "$kout") > "$logs/renamed.txt" 2>&1; then
    fail "the kernel followed a renamed link out of OUTDIR"
  fi
  # The refusal names the link itself (up.N) or the file reached through it,
  # whichever the aborting rank checked first.
  grep -Eq "^renamed: up\.[0-9]+(/through_renamed\.[0-9]+)?: a symbolic link leads out of OUTDIR: refused" \
    "$logs/renamed.txt" && break
  [ "$attempt" = 3 ] && { cat "$logs/renamed.txt" >&2; fail "no clear refusal of the renamed link"; }
done
unchanged "the kernel of the renamed link"

# 4. recorder-replay of both: the same files below the prefix, nothing beside it.
for t in main renamed; do
  mpiexec -np "$np" -genv LD_PRELOAD "$build/tests/support/liboversubscribe.so" \
    "$build/replayer/recorder-replay" -v --prefix "$prefix" "$gen/$t.trace" > "$logs/replay.$t.txt" 2>&1 ||
    { cat "$logs/replay.$t.txt" >&2; fail "recorder-replay failed ($t)"; }
  unchanged "recorder-replay ($t)"
done
re_rooted "$prefix" replay
grep -q "a /dev, /proc or /sys path: never touched" "$logs/replay.main.txt" ||
  fail "the replay does not say it left /dev and /proc alone"
grep -q "a symbolic link under the prefix leads outside it" "$logs/replay.renamed.txt" ||
  fail "the replay does not say it refused the renamed link"
echo "escape.np$np: the kernel and the replay changed nothing outside their directories"
