#!/usr/bin/env bash
# overlap_vpic.sh BUILD_DIR: recorder-overlap finds nothing on vpic-like, whose
# ranks write disjoint slabs and read each its own back after reopening the
# file. The accesses are there: with --all (HDF5 metadata flushes, ROMIO's
# read-modify-write at H5Fclose, and pairs across the close and reopen) the
# same trace has overlaps, so "nothing" is a finding, not a blind spot.
test_name=analysis.overlap.vpic-like
source "$(dirname "$0")/common.sh"
trace=$runs/vpic-like.fixture/trace
got=$("$tools/recorder-overlap" --verbose "$trace" 2> "$runs/vpic-like.fixture/overlap-notes.txt")
[ "$got" = "no overlapping accesses" ] || fail "want no overlaps, got: $got"
grep -q ' [1-9][0-9]* POSIX accesses' "$runs/vpic-like.fixture/overlap-notes.txt" || fail "no POSIX accesses were checked"
all=$("$tools/recorder-overlap" --all "$trace")
# Here-strings, not `echo "$all" | grep -q`: under pipefail, grep quitting at
# its first match made echo die of SIGPIPE and the test fail now and then.
grep -q '^WAW rank' <<<"$all" || fail "--all: want the metadata rewrites as WAW, got: $all"
grep -q '^RAW rank' <<<"$all" || fail "--all: want the read-back as RAW, got: $all"
[ "$("$tools/recorder-overlap" --layer MPI-IO "$trace")" = "no overlapping accesses" ] || fail "--layer MPI-IO: want none"
# Sorting on disk (runs of 21 intervals, merged) finds the same.
spilled=$("$tools/recorder-overlap" --all --memory 1K --verbose "$trace" 2> "$runs/vpic-like.fixture/overlap-spill.txt")
[ "$spilled" = "$all" ] || fail "--memory 1K: different results when the sort spills to disk"
grep -Eq '\(([2-9]|[1-9][0-9]+) spills\)' "$runs/vpic-like.fixture/overlap-spill.txt" || fail "--memory 1K did not spill"
echo "$test_name: none by default, $(echo "$all" | wc -l) with --all"
