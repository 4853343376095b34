#!/bin/bash
# make_seeds.sh BUILD_DIR [SEED_DIR]: the fuzz seed corpora, from real traces.
#
# Traces every kernel at 2 ranks (and one threaded serial program), cuts each
# trace down with fuzz-seed-tool (first 60 records per rank, a function table
# of the functions used, uncompressed blocks of 16 records, recorder.meta
# uncompressed), merges it with recorder-merge (then decompressed the same
# way), and packs the results:
#   SEED_DIR/reader/  per-rank traces (complete and with rank 0 cut short)
#                     and merged traces, as containers with checksum repair
#   SEED_DIR/merger/  the per-rank traces
#   SEED_DIR/codec/   the first block's payload of each stream
# SEED_DIR defaults to fuzz/seeds next to this script. Needs the main build
# (tracer, kernels, recorder-merge, fuzz-seed-tool).
set -euo pipefail
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
seeds=${2:-$here/seeds}
tool=$build/fuzz/fuzz-seed-tool
merge=$build/merger/recorder-merge
preload=$build/tests/support/liboversubscribe.so:$build/tracer/librecorder.so
for f in "$tool" "$merge" "$build/tracer/librecorder.so"; do
    [ -e "$f" ] || { echo "make_seeds.sh: $f missing: build first" >&2; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$seeds/reader" "$seeds/merger" "$seeds/codec"

# seeds_from NAME TRACE_DIR: every seed of one real trace.
seeds_from() {
    local name=$1 trace=$2 w=$work/$1
    mkdir -p "$w"
    "$tool" reduce "$trace" "$w/small" --ranks 2 --records 60 --flush 16
    "$tool" reduce "$trace" "$w/cut" --ranks 2 --records 60 --flush 16 --incomplete
    "$tool" raw "$w/small"
    "$tool" raw "$w/cut"
    "$tool" pack "$w/small" "$seeds/reader/$name" 1
    "$tool" pack "$w/cut" "$seeds/reader/$name.incomplete" 1
    "$tool" pack "$w/small" "$seeds/merger/$name" 1
    "$tool" codec "$w/small/0.rec" "$seeds/codec/$name"
    if [ -e "$w/small/1.rec" ]; then
        "$merge" "$w/small" -o "$w/merged" >/dev/null
        "$tool" raw "$w/merged"
        "$tool" pack "$w/merged" "$seeds/reader/$name.merged" 1
        "$tool" pack "$w/merged" "$seeds/reader/$name.merged.filter" 3
        "$tool" codec "$w/merged/merged.rec" "$seeds/codec/$name.merged"
    fi
}

for kernel in $(ls "$build/kernels"); do
    [ -x "$build/kernels/$kernel" ] && [ -f "$build/kernels/$kernel" ] || continue
    bash "$here/../kernels/run_kernel.sh" "$work/out-$kernel" \
        mpiexec -np 2 -genv LD_PRELOAD "$preload" -genv RECORDER_TRACES_DIR "$work/trace-$kernel" \
        "$build/kernels/$kernel" >/dev/null
    seeds_from "$kernel" "$work/trace-$kernel"
done
# Threads (thread ids in records) and no MPI at all.
mkdir -p "$work/threads-data"
env LD_PRELOAD="$build/tracer/librecorder.so" RECORDER_TRACES_DIR="$work/trace-threads" \
    "$build/tests/tracer/tracer-threads" "$work/threads-data" 3 10 >/dev/null
seeds_from threads "$work/trace-threads"
echo "make_seeds.sh: $(ls "$seeds/reader" | wc -l) reader, $(ls "$seeds/merger" | wc -l) merger," \
    "$(ls "$seeds/codec" | wc -l) codec seeds in $seeds ($(du -sh "$seeds" | cut -f1))"
