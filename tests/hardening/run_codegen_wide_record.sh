#!/bin/bash
# A 2 KB merged trace whose one record spans 4,373,234 ranks (found by
# fuzz_codegen as an out-of-memory: fuzz/regressions/codegen/
# read-over-4373234-ranks-out-of-memory). The code generator rebuilt a whole
# record per rank of the set (2.8 GB, 7 s); now it keeps 8 bytes a field and
# rank. Under 1 GB of address space (not under ASan, which reserves
# terabytes) and 20 s, a kernel comes out; with --max-values below what the
# record needs, recorder-codegen stops with an error naming the record.
#   run_codegen_wide_record.sh SEED_TOOL RECORDER_CODEGEN CONTAINER WORKDIR
set -u
tool=$1 codegen=$2 container=$3 work=$4
. "$(dirname "$0")/unpack_limited.sh"
unpack_limited "$tool" "$container" "$work"
generate_limited 1000000 "$codegen" "$work"
limit 1000000 "$codegen" --max-values 1000000 "$work/trace" >"$work/kernel2.c" 2>"$work/err2.txt"
rc=$?
cat "$work/err2.txt"
[ $rc -eq 1 ] || fail "recorder-codegen --max-values 1000000 exited with $rc, expected 1"
expected="recorder-codegen: $work/trace: merged record 18 (read over 4373234 ranks) takes the kernel's per-rank values past 1000000, the code generator's limit (--max-values raises it)"
[ "$(cat "$work/err2.txt")" = "$expected" ] || fail "expected the error: $expected"
[ ! -s "$work/kernel2.c" ] || fail "a kernel was written although the generator failed"
for bad in 0 -5 12x; do
    "$codegen" --max-values "$bad" "$work/trace" >/dev/null 2>"$work/err3.txt"
    rc=$?
    [ $rc -eq 2 ] || fail "--max-values $bad exited with $rc, expected 2"
    [ "$(cat "$work/err3.txt")" = "recorder-codegen: --max-values expects a positive number, got '$bad'" ] ||
        fail "--max-values $bad: $(cat "$work/err3.txt")"
done
echo "PASS"
