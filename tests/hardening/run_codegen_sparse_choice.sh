#!/bin/bash
# A 4 KB merged trace whose calls are made by ranks 0 and 1 but which claims
# 6,011,018 ranks (found by fuzz_codegen as a 10 s slow unit:
# fuzz/regressions/codegen/choice-over-6011018-claimed-ranks-slow). Each
# value the two ranks differ in is a choice by rank over the claimed ranks;
# the code generator sorted one entry per rank for each (2.3 s and 284 MB
# uninstrumented, out of memory in 250 MB of address space); it now takes
# the table as runs of equal values (0.5 s, 96 MB). In 200 MB of address
# space (not under ASan) and 20 s, the kernel comes out with its choices.
#   run_codegen_sparse_choice.sh SEED_TOOL RECORDER_CODEGEN CONTAINER WORKDIR
set -u
tool=$1 codegen=$2 container=$3 work=$4
. "$(dirname "$0")/unpack_limited.sh"
unpack_limited "$tool" "$container" "$work"
generate_limited 200000 "$codegen" "$work"
choices=$(grep -c '(rank == 1 ? ' "$work/kernel.c")
[ "$choices" -eq 4 ] || fail "expected 4 choices (rank == 1 ? ...), found $choices"
echo "PASS"
