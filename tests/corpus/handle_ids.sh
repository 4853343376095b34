#!/usr/bin/env bash
# handle_ids.sh BUILD_DIR PROGRAM
# Handle ids follow objects, not calls (tracer/handles.c): the runs that
# corpus.PROGRAM.codegen.np4 and corpus.PROGRAM.replay.np4 left (this test's
# fixture) number PROGRAM's handles as the original did, exactly:
#   ga_groups   on every rank both MPI_Comm_group records of the dup'd
#               communicator name one group, which MPI_Group_excl still uses
#               after the first MPI_Group_free; no other MPI_Comm_group record
#               (none rebuilt); the kernel's and the replay's MPI group and
#               communicator calls are the original's, ids included;
#   proc_reads  the program's own files take the first ids (fd#64, FILE#64)
#               though /proc/self/status was opened before them, as in a run
#               without those reads (PROC_READS_SKIP=1, traced here); the
#               kernel's and the replay's POSIX calls are the original's;
#   h5_inc_ref  the kernel names no stale hid (STALE_HID), the replay skips
#               nothing, recorder-summary gives each rank's file its 16 H5Dread
#               through the kept id, and every H5Dread, H5Idec_ref,
#               H5Iget_file_id and H5Fclose of the kernel and of the replay is
#               the original's.
set -euo pipefail
build=$(cd "$1" && pwd) program=$2
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$src/tests/support/testlib.sh"
begin_test "handle_ids: $program" "$build/handle-ids-runs/$program" logs
logs=$work/logs
runs=${TEST_RUNS_DIR:-$build}
cg=$runs/codegen-runs/$program.np4 rp=$runs/replay-runs/$program.np4
for dir in "$cg/trace" "$cg/ktrace" "$rp/t1" "$rp/t2"; do
  [ -d "$dir" ] || fail "no trace $dir: run corpus.$program.codegen.np4 and corpus.$program.replay.np4 first" \
    "(TEST_RUNS_DIR removes them when they pass)"
done
text=$build/analysis/recorder2text
np=4

# The application's own calls of rank R (depth 0) whose function matches
# REGEX, without times, paths as their last component: "call(args) = ret".
calls() {
  "$text" --rank "$2" "$1" | awk -v re="$3" '$4 == 0 && $6 ~ "^(" re ")\\(" {
      line = ""; for (i = 6; i <= NF; i++) line = line (i > 6 ? " " : "") $i
      gsub(/pathname="[^"]*\//, "pathname=\"", line); gsub(/filename="[^"]*\//, "filename=\"", line)
      print line }'
}

# Every rank's REGEX calls of the kernel and of the replay are the original's.
same_calls() {
  local regex=$1 r
  for ((r = 0; r < np; r++)); do
    calls "$cg/trace" "$r" "$regex" > "$logs/original.$r.txt"
    [ -s "$logs/original.$r.txt" ] || fail "rank $r: the original has no call matching /$regex/"
    calls "$cg/ktrace" "$r" "$regex" > "$logs/kernel.$r.txt"
    diff -u "$logs/original.$r.txt" "$logs/kernel.$r.txt" ||
      fail "rank $r: the kernel's /$regex/ calls differ from the original's (want: original, got: kernel)"
    calls "$rp/t1" "$r" "$regex" > "$logs/replayed.$r.txt"
    calls "$rp/t2" "$r" "$regex" > "$logs/replay.$r.txt"
    diff -u "$logs/replayed.$r.txt" "$logs/replay.$r.txt" ||
      fail "rank $r: the replay's /$regex/ calls differ from the original's (want: original, got: replay)"
  done
  echo "handle_ids: $program: $(cat "$logs"/original.*.txt | wc -l) /$regex/ calls the same, ids included," \
    "in the kernel and the replay"
}

case $program in
ga_groups)
  for ((r = 0; r < np; r++)); do
    calls "$cg/trace" "$r" MPI_Comm_group > "$logs/groups.$r.txt"
    want="MPI_Comm_group(comm=comm#64, group=mpigroup#64) = MPI_SUCCESS"
    [ "$(sed -n 1,2p "$logs/groups.$r.txt" | sort -u)" = "$want" ] ||
      { cat "$logs/groups.$r.txt" >&2; fail "rank $r: the two MPI_Comm_group records are not both '$want'"; }
    [ "$(wc -l < "$logs/groups.$r.txt")" = 3 ] ||
      { cat "$logs/groups.$r.txt" >&2; fail "rank $r: not 3 MPI_Comm_group records (2 of the program's dup, 1 of its side): one was rebuilt"; }
    calls "$cg/trace" "$r" MPI_Group_excl | grep -q "^MPI_Group_excl(group=mpigroup#64," ||
      fail "rank $r: MPI_Group_excl does not use the group still live after the first MPI_Group_free (mpigroup#64)"
  done
  echo "handle_ids: ga_groups: on every rank both MPI_Comm_group calls give mpigroup#64, none rebuilt"
  same_calls 'MPI_Comm_group|MPI_Group_[a-z]*|MPI_Comm_create|MPI_Comm_dup|MPI_Comm_free|MPI_File_get_group'
  ;;
proc_reads)
  calls "$cg/trace" 0 open > "$logs/open.txt"
  grep -q '^open(pathname="data.0", .*) = fd#64$' "$logs/open.txt" ||
    { cat "$logs/open.txt" >&2; fail "rank 0: the program's own file is not fd#64 after the excluded /proc opens"; }
  # The same program without its /proc reads, traced: the same calls, ids included.
  mpiexec -np "$np" -genv LD_PRELOAD "$build/tests/support/liboversubscribe.so:$build/tracer/librecorder.so" \
    -genv RECORDER_TRACES_DIR "$work/no-proc" -genv PROC_READS_SKIP 1 "$build/tests/corpus/proc_reads" "$work/out" \
    > "$logs/no-proc.txt" 2>&1 || { cat "$logs/no-proc.txt" >&2; fail "proc_reads without its /proc reads failed"; }
  for ((r = 0; r < np; r++)); do
    calls "$cg/trace" "$r" 'open|write|close|fopen|fread|fclose' > "$logs/with.$r.txt"
    calls "$work/no-proc" "$r" 'open|write|close|fopen|fread|fclose' > "$logs/without.$r.txt"
    diff -u "$logs/without.$r.txt" "$logs/with.$r.txt" ||
      fail "rank $r: the /proc reads shift the ids of the program's own files (want: without them, got: with)"
  done
  echo "handle_ids: proc_reads: the own files' ids are those of a run without the /proc reads"
  same_calls 'open|write|close|fopen|fread|fclose'
  ;;
h5_inc_ref)
  stale=$(grep -c 'STALE_HID(' "$cg/kernel.c" || true)
  [ "$stale" = 0 ] || fail "the kernel names $stale stale hids (STALE_HID): a kept handle was retired at its close"
  # the console (the program's printf of its result) is never replayed; nothing else is skipped
  skips=$(awk '/^  skipped:/ {on = 1; next} on && /^  [^ ]/ {on = 0} on' "$rp/logs/replay.txt" |
    grep -v 'console I/O (stdin, stdout, stderr) is not replayed' || true)
  grep -Eq '^  skipped: ' "$rp/logs/replay.txt" && [ -z "$skips" ] ||
    { cat "$rp/logs/replay.txt" >&2; fail "the replay skipped calls other than the console's"; }
  for ((r = 0; r < np; r++)); do
    n=$(calls "$rp/t2" "$r" H5Dread | grep -c ') = 0$' || true)
    [ "$n" = 16 ] || fail "rank $r: $n of the replay's H5Dread calls succeed, not 16"
  done
  # The reads through the kept id are the file's (recorder-summary counts references too).
  for ((r = 0; r < np; r++)); do
    "$build/analysis/recorder-summary" --csv --top --rank "$r" "$cg/trace" > "$logs/summary.$r.csv" ||
      fail "recorder-summary failed"
    grep -q "^$r,HDF5,H5Dread,.*/vars\.$r\.h5,16,4096," "$logs/summary.$r.csv" ||
      { grep H5Dread "$logs/summary.$r.csv" >&2; fail "rank $r: recorder-summary does not give vars.$r.h5 its 16 H5Dread"; }
  done
  echo "handle_ids: h5_inc_ref: no STALE_HID in the kernel, the replay skips 0 calls, 16 H5Dread a rank succeed" \
    "and are their file's"
  same_calls 'H5Dread|H5Iinc_ref|H5Idec_ref|H5Oclose|H5Gclose|H5Gget_info|H5Iget_file_id|H5Fclose'
  ;;
*)
  fail "no handle id checks for $program"
  ;;
esac
rm -rf "$work"
