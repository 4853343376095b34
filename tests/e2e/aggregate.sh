#!/usr/bin/env bash
# aggregate.sh BUILD_DIR NP KERNEL [KERNEL OPTIONS...]
# The trace written as aggregate files (RECORDER_AGGREGATE; the format's
# section 14) instead of a file per rank:
#   1. KERNEL traced at NP ranks with RECORDER_AGGREGATE=node leaves
#      aggregate.0 and recorder.meta, no per-rank file, no stage directory;
#   2. recorder-aggregate --split gives the same run as a file per rank, and
#      both layouts merge to the same bytes and generate the same kernel;
#   3. that kernel, compiled and run traced (aggregated too), and the replay
#      of the aggregated trace are recorder-diff equivalent to it;
#   4. at 4 ranks: RECORDER_AGGREGATE=3 makes 3 files; a trace directory
#      used again holds the last run alone, in either layout; a stage directory
#      that cannot be made falls back to a file per rank, said once; a rank
#      that never calls MPI_Finalize leaves its files where readers find
#      them; corrupt aggregates are refused with the file and the reason.
set -euo pipefail
build=$(cd "$1" && pwd) np=$2 kernel=$3
shift 3
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$src/tests/support/testlib.sh"
begin_test "aggregate: $kernel.np$np" "$build/aggregate-runs/$kernel.np$np" logs stage
logs=$work/logs
preload=$build/tests/support/liboversubscribe.so:$build/tracer/librecorder.so
aggregate=$build/aggregate/recorder-aggregate
prog=$build/kernels/$kernel
export TMPDIR=$work/stage # where the ranks keep their files until MPI_Finalize

# traced TRACE_DIR AGGREGATE NP PROGRAM ARGS...: a traced run.
traced() {
  local trace=$1 mode=$2 n=$3
  shift 3
  RECORDER_AGGREGATE=$mode mpiexec -np "$n" -genv LD_PRELOAD "$preload" -genv RECORDER_TRACES_DIR "$trace" "$@"
}
# layout_of DIR: the trace's files, one line, per-rank files counted.
layout_of() {
  local per_rank
  per_rank=$(find "$1" -maxdepth 1 -regextype posix-extended -regex '.*/[0-9]+\.(rec|meta|h5store)' | wc -l)
  echo "$(cd "$1" && ls | grep -Ev '^[0-9]+\.(rec|meta|h5store)$' | tr '\n' ' ')+ $per_rank per-rank files"
}

# 1. The aggregated trace.
RECORDER_AGGREGATE=node bash "$src/kernels/run_kernel.sh" "$work/out" \
  mpiexec -np "$np" -genv LD_PRELOAD "$preload" -genv RECORDER_TRACES_DIR "$work/t" "$prog" "$@" \
  > "$logs/original.txt" 2> "$logs/original.err" || { cat "$logs/original.err" >&2; fail "the traced kernel failed"; }
got=$(layout_of "$work/t")
[ "$got" = "aggregate.0 recorder.meta + 0 per-rank files" ] || fail "the trace holds: $got"
[ -z "$(ls -A "$work/stage")" ] || fail "stage directories are left: $(ls "$work/stage" | head -3)"
echo "aggregate: $kernel.np$np: the trace is $got ($(wc -c < "$work/t/aggregate.0") bytes in aggregate.0)"

# 2. The same run as a file per rank: the same merge, the same kernel.
"$aggregate" "$work/t" -o "$work/split" --split > "$logs/split.txt" || fail "recorder-aggregate --split failed"
got=$(layout_of "$work/split")
[ "$got" = "recorder.meta + $((2 * np)) per-rank files" ] || fail "the split trace holds: $got"
for layout in t split; do
  "$build/merger/recorder-merge" "$work/$layout" -o "$work/merged-$layout" --quiet || fail "recorder-merge $layout failed"
  (cd "$work" && "$build/codegen/recorder-codegen" "$layout" -o "kernel-$layout.c") 2> "$logs/codegen-$layout.err" ||
    { cat "$logs/codegen-$layout.err" >&2; fail "recorder-codegen $layout failed"; }
done
for file in merged.rec merged.meta; do
  cmp "$work/merged-t/$file" "$work/merged-split/$file" || fail "the two layouts merge to different $file"
done
# The kernel names the trace it came from on its first line: the rest is the same.
diff <(sed 1d "$work/kernel-t.c") <(sed 1d "$work/kernel-split.c") > "$logs/kernels.diff" ||
  { head -20 "$logs/kernels.diff" >&2; fail "the two layouts generate different kernels"; }
echo "aggregate: $kernel.np$np: both layouts merge to the same bytes and generate the same kernel"

# 3. The kernel and the replay, traced with aggregation, do the same I/O.
# With the build's own flags: under the sanitizers the kernel runs beside the instrumented tracer.
read -r -a cflags <<< "$(sed -n 's/^CMAKE_C_FLAGS:STRING=//p' "$build/CMakeCache.txt")"
(cd "$work" && h5pcc -shlib -Wall -Wextra -Werror "${cflags[@]}" kernel-t.c -o kernel) > "$logs/compile.txt" 2>&1 ||
  { cat "$logs/compile.txt" >&2; fail "the kernel does not compile"; }
traced "$work/ktrace" node "$np" "$work/kernel" "$work/kout" > "$logs/kernel.txt" 2>&1 ||
  { cat "$logs/kernel.txt" >&2; fail "the kernel failed"; }
traced "$work/rtrace" node "$np" "$build/replayer/recorder-replay" --prefix "$work/prefix" "$work/t" \
  > "$logs/replay.txt" 2>&1 || { cat "$logs/replay.txt" >&2; fail "the replay failed"; }
for copy in ktrace rtrace; do
  [ -e "$work/$copy/aggregate.0" ] || fail "$copy is not aggregated: $(layout_of "$work/$copy")"
  "$build/analysis/recorder-diff" "$work/t" "$work/$copy" > "$logs/diff-$copy.txt" 2>&1 ||
    { cat "$logs/diff-$copy.txt" >&2; fail "recorder-diff finds $copy different"; }
  echo "aggregate: $kernel.np$np: $copy: $(tail -1 "$logs/diff-$copy.txt")"
done

# 4. At 4 ranks.
small=$((np < 4 ? np : 4))
traced "$work/t3" 3 "$small" "$prog" "$work/out3" > "$logs/three.txt" 2>&1 || fail "the run with 3 aggregates failed"
got=$(layout_of "$work/t3")
[ "$got" = "aggregate.0 aggregate.1 aggregate.2 recorder.meta + 0 per-rank files" ] ||
  fail "RECORDER_AGGREGATE=3: the trace holds $got"

RECORDER_STAGE_DIR=/proc/no-such-stage traced "$work/tf" node "$small" "$prog" "$work/outf" \
  > "$logs/fallback.txt" 2>&1 || fail "the run without a stage directory failed"
got=$(layout_of "$work/tf")
[ "$got" = "recorder.meta + $((2 * small)) per-rank files" ] || fail "without a stage directory the trace holds $got"
[ "$(grep -c "cannot create the stage directory: No such file or directory ($small ranks failed)" \
  "$logs/fallback.txt")" = 1 ] || fail "not one warning about the stage directory: $(cat "$logs/fallback.txt")"
"$build/analysis/recorder-diff" "$work/tf" "$work/t3" > "$logs/diff-t3.txt" 2>&1 ||
  { cat "$logs/diff-t3.txt" >&2; fail "the run in 3 aggregates and the run with a file per rank differ"; }

# The same trace directory again: nothing of the earlier run's aggregates is left to be read.
rm -rf "$work/out3"
traced "$work/t3" 2 "$small" "$prog" "$work/out3" > "$logs/again.txt" 2>&1 || fail "the run again, in 2 aggregates, failed"
got=$(layout_of "$work/t3")
[ "$got" = "aggregate.0 aggregate.1 recorder.meta + 0 per-rank files" ] || fail "again in 2 aggregates: the trace holds $got"
rm -rf "$work/out3"
traced "$work/t3" off "$small" "$prog" "$work/out3" > "$logs/again.txt" 2>&1 || fail "the run again, per rank, failed"
got=$(layout_of "$work/t3")
[ "$got" = "recorder.meta + $((2 * small)) per-rank files" ] || fail "again with a file per rank: the trace holds $got"
"$build/analysis/recorder-diff" "$work/tf" "$work/t3" > "$logs/diff-again.txt" 2>&1 ||
  { cat "$logs/diff-again.txt" >&2; fail "the trace written again in the same directory differs"; }
rm -rf "$work/out3"
traced "$work/t3" 3 "$small" "$prog" "$work/out3" > "$logs/again.txt" 2>&1 || fail "the run again, in 3 aggregates, failed"

mkdir -p "$work/outn"
traced "$work/tn" node 2 "$build/tests/tracer/tracer-mpi-no-finalize" "$work/outn" 3 > "$logs/no-finalize.txt" 2>&1 ||
  fail "the run without MPI_Finalize failed"
got=$(layout_of "$work/tn")
[ "$got" = "recorder.meta + 2 per-rank files" ] || fail "without MPI_Finalize the trace holds $got"
"$build/analysis/recorder2text" "$work/tn" > "$logs/no-finalize-text.txt" 2>&1 || true
[ "$(grep -c pwrite "$logs/no-finalize-text.txt")" -ge 6 ] ||
  fail "the ranks that never called MPI_Finalize lost records: $(head -3 "$logs/no-finalize-text.txt")"

# expect_refusal NAME MESSAGE: recorder2text fails on the copy $work/bad, naming it.
expect_refusal() {
  if "$build/analysis/recorder2text" "$work/bad" > /dev/null 2> "$logs/bad-$1.txt"; then
    fail "$1: recorder2text read a corrupt aggregate"
  fi
  grep -qF "$2" "$logs/bad-$1.txt" || fail "$1: the message is not '$2': $(cat "$logs/bad-$1.txt")"
}
fresh_copy() { rm -rf "$work/bad" && cp -r "$work/t3" "$work/bad"; }
fresh_copy
printf '\xff' | dd of="$work/bad/aggregate.1" bs=1 seek=40 conv=notrunc status=none
expect_refusal checksum "$work/bad/aggregate.1: member table checksum mismatch"
fresh_copy
truncate -s 20 "$work/bad/aggregate.0"
expect_refusal header "$work/bad/aggregate.0: truncated header at byte 20"
fresh_copy
truncate -s -10 "$work/bad/aggregate.2"
expect_refusal tail "part ends past the end of the file"
fresh_copy
rm "$work/bad/aggregate.1"
expect_refusal missing "$work/bad/aggregate.1: cannot open: No such file or directory"
echo "aggregate: $kernel.np$np: 3 aggregates, the fallbacks and 4 corrupt copies behave"
