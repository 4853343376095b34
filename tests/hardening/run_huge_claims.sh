#!/bin/bash
# A 100-byte recorder.meta that claims 2^24 ranks (the format's maximum)
# next to two real ranks (fuzz/regressions/*/claims-16777216-ranks) costs
# the reader and the merger nothing: once they allocated per-rank state for
# every claimed rank first (18 GB and 90 s for the reader, 20 GB and 60 s
# for the merger, before the merger failed on the missing 2.rec).
#   run_huge_claims.sh SEED_TOOL READER_REPLAY RECORDER_MERGE CONTAINER WORKDIR
# Under 2 GB of address space (not under ASan, which reserves terabytes)
# and 20 s: the reader reads both real ranks, 60 records each, and the
# merger fails at once, naming the last claimed rank's missing stream.
set -u
tool=$1 replay=$2 merge=$3 container=$4 work=$5
. "$(dirname "$0")/unpack_limited.sh"
unpack_limited "$tool" "$container" "$work"
FUZZ_VERBOSE=1 limit 2000000 "$replay" "$container" 2>"$work/reader.txt"
rc=$?
cat "$work/reader.txt"
[ $rc -eq 0 ] || fail "the reader exited with $rc"
for r in 0 1; do
    grep -qx "rank $r: 60 records" "$work/reader.txt" || fail "rank $r was not read in full"
done
limit 2000000 "$merge" "$work/trace" -o "$work/merged" 2>"$work/merge.txt"
rc=$?
cat "$work/merge.txt"
[ $rc -eq 1 ] || fail "recorder-merge exited with $rc, expected 1"
grep -q "16777215.rec: cannot open" "$work/merge.txt" || fail "recorder-merge did not name the missing 16777215.rec"
echo "PASS"
