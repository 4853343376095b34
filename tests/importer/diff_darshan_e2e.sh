#!/usr/bin/env bash
# diff_darshan_e2e.sh BUILD_DIR: recorder-diff --darshan LOG TRACE against
# the committed logs of tests/data/darshan (made by bench/real-apps/darshan.sh:
# the kernels below at 4 ranks under Darshan 3.5):
#   1. the program that made a log, run traced by our tracer (in a directory
#      of the log's name, as the log's run was): every compared POSIX,
#      MPI-IO and STDIO counter equal, exit 0 (serial-io, ior-like
#      independent and collective, vpic-like through HDF5, checkpoint-fpp:
#      rank -1 records and per-rank ones, DXT or not);
#   2. the kernel made from an imported log (recorder-import, -merge,
#      -codegen), run traced: serial-nodxt equal on every counter; a file
#      Darshan saw through MPI-IO (ior-coll-nodxt) equal on the counters the
#      import promises (opens, reads, writes, bytes, histograms), and on
#      every counter, its POSIX seeks too (ROMIO's own, beneath the MPI-IO
#      calls: for the MPI_File_get_size calls the import makes of them);
#   3. ior-coll's log against ior-indep's trace (another program): the
#      collective counters differ, exit 1, the lines exact;
#   4. a log with one figure changed (darshan_tamper): that counter alone
#      differs, "52 of 53 counters equal";
#   5. a log cut short, a missing trace, an unknown --counters name: one
#      line naming the file or the name, exit 2.
set -euo pipefail
build=$(cd "$1" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$src/tests/support/testlib.sh"
begin_test diff_darshan "${TEST_RUNS_DIR:-$build}/import-runs/diff-darshan" logs
data=$src/tests/data/darshan
diff=$build/analysis/recorder-diff
preload=$build/tests/support/liboversubscribe.so:$build/tracer/librecorder.so
export PATH=$build/mpi-bin:$PATH
logs=$work/logs

# traced NAME KERNEL ARGS...: the kernel run at 4 ranks on $work/NAME, traced into $work/NAME.trace.
traced() {
  local name=$1 kernel=$2
  shift 2
  (cd "$work" && mpirun.mpich -np 4 -genv LD_PRELOAD "$preload" -genv RECORDER_TRACES_DIR "$work/$name.trace" \
    "$build/kernels/$kernel" "$@" "$work/$name") > "$logs/$name.run.txt" 2>&1 ||
    { cat "$logs/$name.run.txt" >&2; fail "$kernel ($name) failed"; }
}

# darshan_diff WANT OUT ARGS...: recorder-diff --darshan ARGS exits WANT, its stdout in OUT.
darshan_diff() {
  local want=$1 out=$2 status=0
  shift 2
  "$diff" --darshan "$@" > "$out" 2> "$out.err" || status=$?
  [ "$status" = "$want" ] || { cat "$out" "$out.err" >&2; fail "recorder-diff --darshan $*: exit $status, not $want"; }
}

# all_equal OUT FILES: the summary says every counter is equal, of FILES files.
all_equal() {
  grep -qE "^recorder-diff: darshan: ([0-9]+) of \1 counters equal, $2 files\$" "$1" ||
    { cat "$1" >&2; fail "$1: not every counter equal over $2 files"; }
  ! grep -q ": log -\?[0-9]*, trace " "$1" || fail "$1: lists differences"
}

# 1. The programs that made the logs.
mpirun.mpich -np 4 "$build/kernels/serial-io" --setup --size 20000 "$work/serial-nodxt" > "$logs/setup.txt" 2>&1 ||
  { cat "$logs/setup.txt" >&2; fail "serial-io --setup failed"; }
traced serial-nodxt serial-io --chunk 3000 --block 4096
traced ior-coll ior-like --collective 1 --segments 2 --block-size 32768
traced ior-indep-nodxt ior-like --collective 0 --segments 1 --block-size 32768
traced vpic-nodxt vpic-like --particles 1024 --steps 2
traced fpp checkpoint-fpp --steps 2 --size 32768 --chunk 16384
for case in serial-nodxt:2 ior-coll:2 ior-indep-nodxt:2 vpic-nodxt:2 fpp:16; do
  name=${case%:*}
  darshan_diff 0 "$logs/$name.diff.txt" "$data/$name.darshan" "$work/$name.trace"
  all_equal "$logs/$name.diff.txt" "${case#*:}"
  grep -q "^recorder-diff: paths: \"/tmp/darshan-logs\.[A-Za-z0-9]*\" -> \"$work\" (inferred from " "$logs/$name.diff.txt" ||
    fail "$name: the mapping to $work was not inferred: $(head -1 "$logs/$name.diff.txt")"
done
grep -q "^recorder-diff: darshan: 1 rank -1 record (a file every rank opened) compared with the trace's ranks reduced" \
  "$logs/serial-nodxt.diff.txt" || fail "serial-nodxt: its shared record is not said to be compared with a reduction"

# 2. Kernels made from imported logs.
promised='POSIX_OPENS,POSIX_READS,POSIX_WRITES,POSIX_BYTES_*,POSIX_SIZE_*,MPIIO_*_OPENS,MPIIO_*_READS,MPIIO_*_WRITES,MPIIO_BYTES_*,MPIIO_SIZE_*,STDIO_*'
for name in serial-nodxt ior-coll-nodxt; do
  "$build/importer/recorder-import" darshan "$data/$name.darshan" -o "$work/$name.import" > "$logs/$name.import.txt" 2>&1 ||
    { cat "$logs/$name.import.txt" >&2; fail "recorder-import $name failed"; }
  "$build/merger/recorder-merge" "$work/$name.import" > "$logs/$name.merge.txt" 2>&1 || fail "recorder-merge $name failed"
  (cd "$work" && "$build/codegen/recorder-codegen" "$name.import" -o "$name.kernel.c" && h5pcc -shlib "$name.kernel.c" -o "$name.kernel") \
    > "$logs/$name.codegen.txt" 2>&1 || { cat "$logs/$name.codegen.txt" >&2; fail "the kernel of $name does not build"; }
  mpirun.mpich -np 4 -genv LD_PRELOAD "$preload" -genv RECORDER_TRACES_DIR "$work/$name.ktrace" "$work/$name.kernel" \
    "$work/$name.kout" > "$logs/$name.kernel.txt" 2>&1 || { cat "$logs/$name.kernel.txt" >&2; fail "the kernel of $name failed"; }
  darshan_diff 0 "$logs/$name.kdiff.txt" --counters "$promised" "$data/$name.darshan" "$work/$name.ktrace"
  all_equal "$logs/$name.kdiff.txt" 2
done
darshan_diff 0 "$logs/serial-nodxt.kdiff-all.txt" "$data/serial-nodxt.darshan" "$work/serial-nodxt.ktrace"
grep -qx "recorder-diff: darshan: 53 of 53 counters equal, 2 files" "$logs/serial-nodxt.kdiff-all.txt" ||
  fail "serial-nodxt's kernel: $(tail -1 "$logs/serial-nodxt.kdiff-all.txt")"
# ROMIO's seeks below MPI-IO too: the import's MPI_File_get_size calls (2 a rank after its accesses) make them
darshan_diff 0 "$logs/ior-coll-nodxt.kdiff-all.txt" "$data/ior-coll-nodxt.darshan" "$work/ior-coll-nodxt.ktrace"
grep -qx "recorder-diff: darshan: 86 of 86 counters equal, 2 files" "$logs/ior-coll-nodxt.kdiff-all.txt" ||
  fail "ior-coll-nodxt's kernel: $(tail -1 "$logs/ior-coll-nodxt.kdiff-all.txt")"

# 3. Another program's trace: ior-coll's log against ior-indep's run.
darshan_diff 1 "$logs/other.txt" "$data/ior-coll.darshan" "$work/ior-indep-nodxt.trace"
m="^recorder-diff: darshan: MPI-IO /tmp/darshan-logs\.[A-Za-z0-9]*/ior-coll/ior\.dat, rank -1 (the trace's 4 ranks reduced): "
for want in "MPIIO_COLL_WRITES: log 16, trace 0" "MPIIO_INDEP_WRITES: log 0, trace 8" "MPIIO_BYTES_WRITTEN: log 262144, trace 131072"; do
  grep -q "$m$want\$" "$logs/other.txt" || { cat "$logs/other.txt" >&2; fail "ior-coll against ior-indep: no line '$want'"; }
done
grep -qE "^recorder-diff: darshan: [0-9]+ of 86 counters equal, 2 files\$" "$logs/other.txt" || fail "other: $(tail -1 "$logs/other.txt")"

# 4. One figure changed: POSIX_READS of serial-nodxt's input file, 32 -> 33.
input=$(awk '$1 == "record" && $2 == "POSIX" {print $5; exit}' "$data/serial-nodxt.figures")
"$build/tests/importer/darshan_tamper" "$data/serial-nodxt.darshan" "$work/tampered.darshan" POSIX "$input" -1 POSIX_READS 33 ||
  fail "darshan_tamper failed"
darshan_diff 1 "$logs/tampered.txt" "$work/tampered.darshan" "$work/serial-nodxt.trace"
[ "$(grep -c ": log -\?[0-9]*, trace " "$logs/tampered.txt")" = 1 ] &&
  grep -qx "recorder-diff: darshan: POSIX $input, rank -1 (the trace's 4 ranks reduced): POSIX_READS: log 33, trace 32" "$logs/tampered.txt" &&
  grep -qx "recorder-diff: darshan: 52 of 53 counters equal, 2 files" "$logs/tampered.txt" ||
  { cat "$logs/tampered.txt" >&2; fail "the tampered log: not POSIX_READS alone"; }
darshan_diff 0 "$logs/tampered-restricted.txt" --counters 'POSIX_SIZE_*,POSIX_BYTES_READ' "$work/tampered.darshan" "$work/serial-nodxt.trace"
grep -qx "recorder-diff: darshan: 21 of 21 counters equal, 2 files" "$logs/tampered-restricted.txt" ||
  fail "--counters: $(tail -1 "$logs/tampered-restricted.txt")"

# 5. Errors: one line on stderr, exit 2.
head -c 2000 "$data/serial-nodxt.darshan" > "$work/cut.darshan"
refused() {
  local pattern=$1 status=0
  shift
  "$diff" "$@" > "$work/stdout" 2> "$work/stderr" || status=$?
  [ "$status" = 2 ] || fail "recorder-diff $*: exit $status, not 2"
  [ "$(wc -l < "$work/stderr")" = 1 ] && grep -qE "^$pattern\$" "$work/stderr" ||
    fail "recorder-diff $*: said '$(cat "$work/stderr")', not /$pattern/"
}
refused "recorder-diff: $work/cut.darshan: truncated region at byte 2000: .+" --darshan "$work/cut.darshan" "$work/serial-nodxt.trace"
refused "recorder-diff: $work/none\.trace.*" --darshan "$data/serial-nodxt.darshan" "$work/none.trace"
refused "recorder-diff: --counters: POSIX_BOGUS names none of the counters --darshan compares .*" \
  --darshan --counters POSIX_BOGUS "$data/serial-nodxt.darshan" "$work/serial-nodxt.trace"
refused "recorder-diff: --counters is --darshan's: .*" --counters POSIX_READS "$work/serial-nodxt.trace" "$work/serial-nodxt.trace"
echo "diff_darshan: 5 programs equal to their logs, 2 kernels of imports on the promised counters, another program and a tampered figure told apart, errors exit 2"
