#!/usr/bin/env bash
# import_errors.sh BUILD_DIR: recorder-import refuses what it cannot import
# with one line "recorder-import: LOG: reason" on stderr and exit status 1
# (2 for a wrong command line), writing no trace: a log cut short and one
# corrupted (copies made here of a committed log), a file that is no log, a
# missing one, a TRACE_DIR that holds a trace; of several logs, the good
# ones are still imported. A log without DXT (its DXT regions dropped from
# the header) is imported from its counters.
set -euo pipefail
build=$(cd "$1" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$src/tests/support/testlib.sh"
begin_test import_errors "${TEST_RUNS_DIR:-$build}/import-runs/errors"
import=$build/importer/recorder-import
good=$src/tests/data/darshan/ior-indep.darshan
size=$(stat -c %s "$good")

# refused STATUS PATTERN LOG... : the import fails with STATUS, its stderr one line matching PATTERN.
refused() {
  local want=$1 pattern=$2 status=0
  shift 2
  rm -rf "$work/out"
  "$import" darshan "$@" -o "$work/out" > "$work/stdout" 2> "$work/stderr" || status=$?
  [ "$status" = "$want" ] || fail "recorder-import $*: exit $status, not $want: $(cat "$work/stderr")"
  [ "$(wc -l < "$work/stderr")" = 1 ] || fail "recorder-import $*: not one line on stderr: $(cat "$work/stderr")"
  grep -qE "^$pattern\$" "$work/stderr" || fail "recorder-import $*: said '$(cat "$work/stderr")', not /$pattern/"
  [ ! -e "$work/out/recorder.meta" ] || [ "$want" != 1 ] || [ $# -gt 1 ] || fail "recorder-import $*: wrote a trace"
}

head -c 2000 "$good" > "$work/cut.darshan"
refused 1 "recorder-import: $work/cut.darshan: truncated region at byte 2000: the [A-Z_-]+ module region ends at byte [0-9]+" \
  "$work/cut.darshan"
head -c 1000 "$good" > "$work/head.darshan"
refused 1 "recorder-import: $work/head.darshan: truncated header at byte 1000: a 3.41 header is 1328 bytes" "$work/head.darshan"
# Bytes 1400 to 1463 (inside the compressed regions after the header) overwritten.
cp "$good" "$work/bad.darshan"
chmod u+w "$work/bad.darshan"
head -c 64 /dev/zero | dd of="$work/bad.darshan" bs=1 seek=1400 conv=notrunc status=none
refused 1 "recorder-import: $work/bad.darshan: corrupt [A-Za-z_ -]+ region( at byte [0-9]+)?: .+" "$work/bad.darshan"
printf 'not a log\n' > "$work/text.darshan"
refused 1 "recorder-import: $work/text.darshan: not a Darshan log: it does not start with a format version" "$work/text.darshan"
refused 1 "recorder-import: $work/missing.darshan: No such file or directory" "$work/missing.darshan"
# The DXT_POSIX and DXT_MPIIO regions' lengths (header bytes 48 + 16 m + 8, m = 10, 11) zeroed.
cp "$good" "$work/nodxt.darshan"
chmod u+w "$work/nodxt.darshan"
for m in 10 11; do
  head -c 8 /dev/zero | dd of="$work/nodxt.darshan" bs=1 seek=$((48 + 16 * m + 8)) conv=notrunc status=none
done
# ... is no longer refused: its trace is made of its counters alone.
rm -rf "$work/nodxt"
"$import" darshan "$work/nodxt.darshan" -o "$work/nodxt" > "$work/stdout" 2> "$work/stderr" ||
  fail "recorder-import of a log without DXT failed: $(cat "$work/stderr")"
grep -q "^recorder-import: $work/nodxt.darshan: 4 ranks, 1 file, 0 DXT segments (0 POSIX, 0 MPI-IO), 1 file from counters alone -> [0-9]* records" \
  "$work/stdout" || fail "the summary of a log without DXT: $(cat "$work/stdout")"
grep -q '^option: RECORDER_IMPORT_METHOD=statistical: ' <<< "$("$build/analysis/recorder2text" --info "$work/nodxt")" ||
  fail "the trace of a log without DXT does not say it is statistical"

# Of several logs, each into TRACE_DIR/NAME; a bad one fails the run, not the others.
refused 1 "recorder-import: $work/cut.darshan: truncated region at byte 2000: .*" "$good" "$work/cut.darshan"
[ -f "$work/out/ior-indep/recorder.meta" ] || fail "the good log of two was not imported into out/ior-indep"
grep -q "^recorder-import: $good: 4 ranks, " "$work/stdout" || fail "no summary line for the good log: $(cat "$work/stdout")"
"$build/analysis/recorder2text" --info "$work/out/ior-indep" > /dev/null || fail "the good log's trace does not read"
# A directory holding a trace is left alone.
status=0
"$import" darshan "$good" -o "$work/out/ior-indep" > /dev/null 2> "$work/stderr" || status=$?
[ "$status" = 1 ] && grep -qx "recorder-import: $work/out/ior-indep: holds a trace already (recorder.meta)" "$work/stderr" ||
  fail "importing into a trace: exit $status, $(cat "$work/stderr")"

# The command line.
for args in "darshan $good" "darshan -o $work/x" "darshan" "" "lustre $good -o $work/x"; do
  status=0
  # shellcheck disable=SC2086 # the words are the arguments
  "$import" $args > /dev/null 2> "$work/stderr" || status=$?
  [ "$status" = 2 ] || fail "recorder-import $args: exit $status, not 2"
  grep -q '^usage: recorder-import darshan LOG\.\.\. -o TRACE_DIR' "$work/stderr" || fail "recorder-import $args: no usage line"
done
"$import" --help | grep -q '^usage: recorder-import darshan LOG... -o TRACE_DIR' || fail "--help has no usage line"
echo "import_errors: truncated, corrupt, foreign and missing logs refused, each in one line; a DXT-less one imported from its counters; bad command lines exit 2"
