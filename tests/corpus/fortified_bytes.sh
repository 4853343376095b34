#!/usr/bin/env bash
# fortified_bytes.sh BUILD_DIR NP: fortified_stdio, built as distributions
# build (-O2 -D_FORTIFY_SOURCE=2), imports the C library's checking entry
# points, and its trace holds every byte its files hold:
#   - the program imports each of FORTIFIED below (else the build did not
#     fortify it, and the test would prove nothing);
#   - traced at NP ranks, every file it wrote has, in recorder-summary's
#     POSIX file table, bytes_written equal to its size;
#   - the trace records them as their plain twins: no __*_chk or __open_2
#     record, and fprintf, vfprintf, dprintf, vdprintf, fgets, fread, read,
#     pread and open each at least once.
set -euo pipefail
build=$(cd "$1" && pwd) np=$2
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$src/tests/support/testlib.sh"
begin_test "fortified_bytes" "$build/fortified-runs/np$np" logs
logs=$work/logs
prog=$build/tests/corpus/fortified_stdio
FORTIFIED="__fprintf_chk __vfprintf_chk __dprintf_chk __vdprintf_chk __fgets_chk __fread_chk __read_chk __pread_chk __open_2
  __printf_chk __fwprintf_chk __vfwprintf_chk __fgetws_chk __isoc99_fscanf __isoc99_vfscanf __isoc99_fwscanf"
imports=$(nm -D --undefined-only "$prog" | awk '{print $2}' | sed 's/@.*//')
for symbol in $FORTIFIED; do
  grep -qx "$symbol" <<<"$imports" || fail "$prog does not import $symbol: it was not built fortified"
done

preload=$build/tests/support/liboversubscribe.so:$build/tracer/librecorder.so
bash "$src/kernels/run_kernel.sh" "$work/out" \
  mpiexec -np "$np" -genv LD_PRELOAD "$preload" -genv RECORDER_TRACES_DIR "$work/trace" \
  "$prog" > "$logs/run.txt" 2>&1 || { cat "$logs/run.txt" >&2; fail "the traced program failed"; }

"$build/analysis/recorder-summary" "$work/trace" > "$logs/summary.txt" ||
  fail "recorder-summary failed"
# The POSIX rows of the file table: bytes_written (6th column) by path (8th).
awk '/^Files/ {on = 1; next} on && /^$/ {on = 0} on && $1 == "POSIX" {print $6, $8}' "$logs/summary.txt" |
  tr -d '"' > "$logs/written.txt"
checked=0
for file in "$work"/out/*; do
  case "$(basename "$file")" in in.melt | in.table) continue ;; esac
  size=$(stat -c %s "$file")
  traced=$(awk -v p="$file" '$2 == p {print $1}' "$logs/written.txt")
  [ "${traced:-missing}" = "$size" ] ||
    fail "$(basename "$file"): $size bytes in the file, ${traced:-none} written in the trace"
  checked=$((checked + 1))
done
[ "$checked" = $((3 * np + 1)) ] || fail "$checked files checked, expected $((3 * np + 1))"

"$build/analysis/recorder2text" "$work/trace" > "$logs/text.txt" || fail "recorder2text failed"
awk '{print $6}' "$logs/text.txt" | sed 's/(.*//' | sort | uniq -c > "$logs/functions.txt"
if grep -E ' __([a-z0-9_]+(_chk|_2)|isoc99_[a-z0-9_]+)$' "$logs/functions.txt"; then
  fail "records under a checking entry point's own name, not its plain twin's"
fi
for plain in fprintf vfprintf dprintf vdprintf fgets fread read pread open printf fscanf vfscanf fgetws fwscanf \
  fwprintf vfwprintf getwc fgetwc fputwc putwc; do
  grep -qE " $plain\$" "$logs/functions.txt" || fail "no $plain record in the trace"
done
echo "fortified_bytes: $checked files, every byte in the trace; $(awk '{n += $1} END {print n}' "$logs/functions.txt") records"
