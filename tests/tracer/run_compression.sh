#!/bin/bash
# RECORDER_COMPRESSION_LEVEL: 0 writes blocks uncompressed, other values are
# zstd's levels (negative: faster); every level reads back the same records,
# and a bad value is named in a warning and replaced by the default.
#   run_compression.sh MANY_CALLS LIBRECORDER RECORDER2TEXT WORKDIR
set -u
prog=$1 lib=$2 r2t=$3 work=$4
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work"
: > "$work/file"
calls=100000
# traced LEVEL: the records without their times, one per line.
traced() {
    local dir=$work/trace$1
    env RECORDER_COMPRESSION_LEVEL="$1" LD_PRELOAD="$lib" RECORDER_TRACES_DIR="$dir" "$prog" "$work/file" "$calls" \
        > /dev/null 2> "$work/stderr$1" || fail "level $1: the traced program failed"
    "$r2t" "$dir" | cut -d' ' -f1,4- > "$work/text$1" || fail "level $1: recorder2text"
    [ "$(grep -c ' lseek(' "$work/text$1")" = "$calls" ] || fail "level $1: $(grep -c ' lseek(' "$work/text$1") lseek records, want $calls"
}
size() { stat -c %s "$work/trace$1/0.rec"; }
for level in 1 0 -5 12 abc; do traced "$level"; done
for level in 0 -5 12 abc; do
    cmp -s "$work/text1" "$work/text$level" || fail "level $level reads back other records than level 1"
done
# Uncompressed, each record is its encoding (a few bytes); zstd leaves about
# a byte a record of time-stamp jitter at most.
[ "$(size 0)" -gt "$(size 1)" ] || fail "level 0 ($(size 0) B) is not larger than level 1 ($(size 1) B)"
[ "$(size 0)" -gt $((2 * calls)) ] || fail "level 0: $(size 0) B for $calls records: compressed?"
[ "$(size 1)" -lt "$calls" ] || fail "level 1: $(size 1) B for $calls records"
grep -q 'RECORDER_COMPRESSION_LEVEL=abc: not an integer' "$work/stderrabc" ||
    fail "no warning for a bad level: $(cat "$work/stderrabc")"
[ ! -s "$work/stderr12" ] || fail "level 12 warned: $(cat "$work/stderr12")"
echo "compression: levels 0, 1, -5 and 12 read back the same $calls records; 0: $(size 0) B, 1: $(size 1) B, -5: $(size -5) B, 12: $(size 12) B"
