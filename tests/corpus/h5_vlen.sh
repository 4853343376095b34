#!/usr/bin/env bash
# h5_vlen.sh BUILD_DIR: the variable-length data of h5_vlen (tests/corpus/h5_vlen.c) by its lengths, in
# the runs corpus.h5_vlen.codegen.np4 and corpus.h5_vlen.replay.np4 left (this test's fixture):
#   - rank 0's H5Dwrite of the strings records their lengths at their places in the buffer, the element
#     its memory selection leaves out -1: lengths=[-1,25,0,26,36,1]; of the sequences (H5S_ALL), the
#     ints' size and their lengths: vlens=[4,3,0,7,1]; no other rank's, no other write, records any;
#   - the kernel writes pattern strings and hvl_t of those lengths, each at its place;
#   - the kernel's and the replay's rank 0 make those writes with the same lengths.
# (The files' sizes and h5dump -H: codegen_kernel.sh and replay_kernel.sh.)
set -euo pipefail
build=$(cd "$1" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$src/tests/support/testlib.sh"
begin_test "h5_vlen" "$build/h5-vlen-runs" logs
logs=$work/logs
runs=${TEST_RUNS_DIR:-$build}
cg=$runs/codegen-runs/h5_vlen.np4 rp=$runs/replay-runs/h5_vlen.np4
for dir in "$cg/trace" "$cg/ktrace" "$rp/t2"; do
  [ -d "$dir" ] || fail "no trace $dir: run corpus.h5_vlen.codegen.np4 and corpus.h5_vlen.replay.np4 first" \
    "(TEST_RUNS_DIR removes them when they pass)"
done
# Each rank's H5Dwrite calls with lengths: "rank mem_type lengths", one a line.
writes() {
  "$build/analysis/recorder2text" "$1" | awk '$4 == 0 && $6 ~ /^H5Dwrite\(/ && match($0, /(lengths|vlens)=\[[-0-9,]*\]/) {
    print $1, substr($0, RSTART, RLENGTH) }'
}
want='0 lengths=[-1,25,0,26,36,1]
0 vlens=[4,3,0,7,1]'
for t in "$cg/trace" "$cg/ktrace" "$rp/t2"; do
  writes "$t" > "$logs/writes.txt"
  [ "$(cat "$logs/writes.txt")" = "$want" ] || fail "$t: the H5Dwrite calls with lengths: $(tr '\n' ';' < "$logs/writes.txt")"
done
grep -qF '(const char *[]){NULL, TEXT(25), TEXT(0), TEXT(26), TEXT(36), TEXT(1)}' "$cg/kernel.c" ||
  fail "the kernel writes no strings of the traced lengths: $(grep -A1 -m1 'H5Dwrite(dset_4' "$cg/kernel.c")"
grep -qF '(const hvl_t[]){HVL(3), HVL(0), HVL(7), HVL(1)}' "$cg/kernel.c" ||
  fail "the kernel writes no sequences of the traced lengths: $(grep -m1 'HVL(' "$cg/kernel.c")"
echo "h5_vlen: the strings' and the sequences' lengths traced, written by the kernel and the replay"
