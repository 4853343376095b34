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
#   (and, for both, frames-lseek: one zstd block of several frames)
#   SEED_DIR/codec/   the first block's payload of each stream
#   SEED_DIR/codegen/ per-rank and merged traces of 24 records per rank
#   SEED_DIR/darshan/ each log of tests/data/darshan as it is and as its
#                     regions (fuzz-darshan-seeds)
#   SEED_DIR/template/ each template of templates/ with a context that
#                     sets every name it uses (fuzz_template.c's format),
#                     and a few constructs on their own
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
mkdir -p "$seeds/reader" "$seeds/merger" "$seeds/codec" "$seeds/codegen" "$seeds/template" "$seeds/darshan"
for log in "$here"/../tests/data/darshan/*.darshan; do
    "$build/fuzz/fuzz-darshan-seeds" "$log" "$seeds/darshan"
done

# Template seeds: context '\0' text (fuzz_template.c). One context serves
# every template: strings, multi-line values, flags on and off, lists.
ctx='args=fd, buf, 4096
assign=ssize_t r = 
decls=int x;\nint y;\n
function=pwrite
body=f(1);\ng(2);
condition=rank == 0
counter=i
count=8
title=/data/out.h5
ctype=int64_t
name=tab
n=4
values=1, 2, 3, 4
static?
nranks=2
program=kernel
wsize=4096
rsize=0
header=/* h */
dirs=
files=
grid!
uses_P?
uses_S!
lines[
prefix=/*
text=first
]
lines[
prefix= *
text=second
]
includes[
file=stdio.h
]
tables[
table=static int t[2];
]
locals[
local=int z;
]
'
for t in "$here"/../templates/*.tmpl; do
    { printf '%s\0' "$ctx"; cat "$t"; } >"$seeds/template/${t##*/}"
done
printf 'v=a\\nb\n\0  {{v}}\n{{#v}}x{{/v}}{{^v}}y{{/v}}{{! c }}\n' >"$seeds/template/indent-and-sections"
printf 'l[\nv=1\n]\nl[\nv=2\n]\n\0{{#l}}\n{{v}}\n{{/l}}\n' >"$seeds/template/list"
printf 'no tags at all\n' >"$seeds/template/plain-text"

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
    # codegen: shorter still (24 records, blocks of 8): a whole generation
    # per input costs more than a read
    "$tool" reduce "$trace" "$w/tiny" --ranks 2 --records 24 --flush 8
    "$tool" raw "$w/tiny"
    "$tool" pack "$w/tiny" "$seeds/codegen/$name" 1
    if [ -e "$w/tiny/1.rec" ]; then
        "$merge" "$w/tiny" -o "$w/tiny-merged" >/dev/null
        "$tool" raw "$w/tiny-merged"
        "$tool" pack "$w/tiny-merged" "$seeds/codegen/$name.merged" 1
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
# A zstd block of several frames: 3000 lseek records of one rank in frames
# of 4 KB raw (the writer's are 64 KB: a seed that size takes 150 ms a run).
env LD_PRELOAD="$build/tracer/librecorder.so" RECORDER_TRACES_DIR="$work/trace-frames" \
    "$build/tests/tracer/tracer-many-calls" "$work/frames-data" 3000 >/dev/null
"$tool" reduce "$work/trace-frames" "$work/frames" --ranks 1 --records 3000 --flush 0 --zstd 4096
"$tool" pack "$work/frames" "$seeds/reader/frames-lseek" 1
"$tool" pack "$work/frames" "$seeds/merger/frames-lseek" 1
echo "make_seeds.sh: $(ls "$seeds/reader" | wc -l) reader, $(ls "$seeds/merger" | wc -l) merger," \
    "$(ls "$seeds/codec" | wc -l) codec, $(ls "$seeds/codegen" | wc -l) codegen," \
    "$(ls "$seeds/template" | wc -l) template seeds in $seeds ($(du -sh "$seeds" | cut -f1))"
