#!/usr/bin/env bash
# coverage_audit_catches.sh SRC_DIR LIBC: the audit fails, naming the entry
# point, on a table without an I/O checking or C99 entry point (here
# __isoc99_fscanf and __fgetws_chk taken out of a copy of functions/), and on
# a UN line that names no such entry point; the real table passes.
set -euo pipefail
src=$1 libc=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() {
  echo "coverage_audit_catches: $*" >&2
  exit 1
}
audit=$src/tests/functions/coverage_audit.sh
bash "$audit" "$src" "$libc" >"$work/real.txt" || fail "the real table fails the audit: $(cat "$work/real.txt")"
grep -q ', 0 I/O entry points untraced$' "$work/real.txt" || fail "no '0 I/O entry points untraced' in: $(cat "$work/real.txt")"

# A copy without two entries: each FN line up to the next FN or blank line.
mkdir -p "$work/lost/functions"
cp "$src"/functions/*.def "$work/lost/functions/"
awk '/^FN\([0-9]+, (__isoc99_fscanf|__fgetws_chk),/ {skip = 1; next} skip && /^(FN\(|$|\/\*)/ {skip = 0} !skip' \
  "$src/functions/posix.def" >"$work/lost/functions/posix.def"
! grep -qE '^FN\([0-9]+, (__isoc99_fscanf|__fgetws_chk),' "$work/lost/functions/posix.def" || fail "the copy kept the entries"
if bash "$audit" "$work/lost" "$libc" >"$work/lost.txt"; then
  fail "the audit passed a table without __isoc99_fscanf and __fgetws_chk"
fi
for e in __isoc99_fscanf __fgetws_chk; do
  grep -q "untraced I/O entry point .*: $e\$" "$work/lost.txt" || fail "the audit did not name $e as an untraced I/O entry point"
  grep -q "untraced, its plain twin traced: $e\$" "$work/lost.txt" || fail "the audit did not name $e's traced twin"
done
grep -q ', 2 I/O entry points untraced$' "$work/lost.txt" || fail "the row does not count 2: $(grep checking "$work/lost.txt")"

# UN is for checking and C99 entry points only.
mkdir -p "$work/bad/functions"
cp "$src"/functions/*.def "$work/bad/functions/"
echo 'UN(memcpy, "copies bytes in memory")' >>"$work/bad/functions/untraced_posix.def"
if bash "$audit" "$work/bad" "$libc" >"$work/bad.txt"; then
  fail "the audit passed UN(memcpy)"
fi
grep -q 'UN lists only checking and C99 entry points .*: memcpy' "$work/bad.txt" || fail "no message naming memcpy: $(cat "$work/bad.txt")"
echo "coverage_audit_catches: 2 untraced I/O entry points and a UN of a plain function caught"
