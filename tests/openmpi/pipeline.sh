#!/usr/bin/env bash
# pipeline.sh MODE BUILD_DIR OPENMPI_BUILD_DIR KERNEL NP
# The MPI end-to-end pipeline across the two MPIs (BUILD_DIR: the MPICH
# build; OPENMPI_BUILD_DIR: its tracer, replayer and kernels built with Open
# MPI, by the openmpi.build test). The analysis tools, recorder-merge and
# recorder-codegen are MPI-independent: BUILD_DIR's serve every mode.
#   openmpi     traced under Open MPI; the kernel compiled with Open MPI's h5pcc
#               and run under Open MPI; recorder-replay built with Open MPI
#   to-mpich    traced under Open MPI; kernel and replay under MPICH
#   from-mpich  traced under MPICH; kernel and replay under Open MPI
# Each: trace -> recorder-merge -> recorder-codegen (the merged trace) ->
# compile -Werror -> run traced -> recorder-diff equivalent; recorder-replay
# traced -> recorder-diff equivalent.
set -euo pipefail
mode=$1 build=$(cd "$2" && pwd) ompi=$(cd "$3" && pwd) kernel=$4 np=$5
. "$(dirname "$0")/../support/testlib.sh"
begin_test "openmpi_pipeline: $mode.$kernel.np$np${PIPELINE_SUFFIX:-}" \
  "$build/openmpi-runs/$mode.$kernel.np$np${PIPELINE_SUFFIX:-}" logs
logs=$work/logs
# Open MPI refuses root without these, and more ranks than cores without --oversubscribe.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
# Open MPI 4.1's lockedfile shared-file-pointer component aborts MPI_File_open
# of a path over about 250 bytes (a fixed buffer), untraced too; kernels'
# outputs re-rooted below a long run directory are such paths.
export OMPI_MCA_sharedfp=^lockedfile
# Two mpiruns starting at once race to make the same session directory
# (/tmp/ompi.HOST.UID): each test has its own, short (it holds sockets).
ompi_tmp=$(mktemp -d /tmp/ompi-test.XXXXXX)
trap 'rm -rf "$ompi_tmp"' EXIT
export OMPI_MCA_orte_tmpdir_base=$ompi_tmp

# run_under mpich|openmpi TRACE_DIR PROGRAM ARGS...: PROGRAM at NP ranks, traced into TRACE_DIR.
run_under() {
  local flavour=$1 trace=$2
  shift 2
  if [ "$flavour" = openmpi ]; then
    # Open MPI passes on only the variables named (Hydra passes every one).
    "$ompi/mpi-bin/mpiexec" -np "$np" -x LD_PRELOAD="$ompi/tracer/librecorder.so" -x RECORDER_TRACES_DIR="$trace" \
      ${RECORDER_AGGREGATE:+-x RECORDER_AGGREGATE} "$@"
  else
    "$build/mpi-bin/mpiexec" -np "$np" -genv LD_PRELOAD "$build/tests/support/liboversubscribe.so:$build/tracer/librecorder.so" \
      -genv RECORDER_TRACES_DIR "$trace" "$@"
  fi
}
tree_of() { [ "$1" = openmpi ] && echo "$ompi" || echo "$build"; }
case $mode in
openmpi) traced=openmpi ran=openmpi ;;
to-mpich) traced=openmpi ran=mpich ;;
from-mpich) traced=mpich ran=openmpi ;;
*) fail "unknown mode $mode" ;;
esac
equivalent() { # NAME TRACE: recorder-diff finds TRACE equal to the original
  "$build/analysis/recorder-diff" "$work/trace" "$2" > "$logs/diff-$1.txt" 2>&1 ||
    { cat "$logs/diff-$1.txt" >&2; fail "the $1's trace differs from the original"; }
  echo "openmpi_pipeline: $mode.$kernel: $1: $(tail -n 1 "$logs/diff-$1.txt")"
}

# 1. The original, traced under one MPI.
run_under "$traced" "$work/trace" "$(tree_of "$traced")/kernels/$kernel" "$work/out" > "$logs/original.txt" 2>&1 ||
  { tail -n 20 "$logs/original.txt" >&2; fail "the kernel traced under $traced failed"; }
if [ -n "${RECORDER_AGGREGATE:-}" ]; then
  [ -e "$work/trace/aggregate.0" ] && [ ! -e "$work/trace/0.rec" ] ||
    fail "RECORDER_AGGREGATE=$RECORDER_AGGREGATE: the trace holds $(ls "$work/trace" | head -5 | tr '\n' ' ')"
fi
grep -q "MPI_Init" < <("$build/analysis/recorder2text" --rank 0 "$work/trace" 2> /dev/null) ||
  fail "the trace made under $traced has no MPI_Init"

# 2. Merged, then a kernel from the merged trace, built and run under the other (or same) MPI.
"$build/merger/recorder-merge" --quiet "$work/trace" -o "$work/merged" 2> "$logs/merge.err" ||
  { cat "$logs/merge.err" >&2; fail "recorder-merge failed"; }
if [ "$mode" = openmpi ]; then
  # recorder-merge built with Open MPI, at 2 processes under its mpiexec: the
  # same records for every rank as the serial merge, the same bytes where the
  # blocks merge as the whole trace does.
  "$ompi/mpi-bin/mpiexec" -np 2 "$ompi/merger/recorder-merge" --quiet "$work/trace" -o "$work/merged-np2" \
    > "$logs/merge-np2.txt" 2>&1 || { cat "$logs/merge-np2.txt" >&2; fail "recorder-merge at 2 Open MPI processes failed"; }
  if cmp -s "$work/merged/merged.rec" "$work/merged-np2/merged.rec"; then
    echo "openmpi_pipeline: $mode.$kernel: recorder-merge at 2 Open MPI processes: the serial merge's bytes"
  else
    "$build/analysis/recorder2text" -o "$work/text-serial" "$work/merged" && "$build/analysis/recorder2text" -o "$work/text-np2" "$work/merged-np2" ||
      fail "recorder2text of the merged traces failed"
    diff -r "$work/text-serial" "$work/text-np2" > "$logs/merge-np2.diff" ||
      fail "recorder-merge at 2 Open MPI processes: ranks read back differently: $(head -5 "$logs/merge-np2.diff")"
    echo "openmpi_pipeline: $mode.$kernel: recorder-merge at 2 Open MPI processes: every rank reads back the same"
  fi
fi
"$build/codegen/recorder-codegen" "$work/merged" -o "$work/kernel.c" 2> "$logs/codegen.err" ||
  { cat "$logs/codegen.err" >&2; fail "recorder-codegen failed"; }
(cd "$work" && "$(tree_of "$ran")/mpi-bin/h5pcc" -shlib -Wall -Wextra -Werror kernel.c -o kernel) > "$logs/compile.txt" 2>&1 ||
  { cat "$logs/compile.txt" >&2; fail "the kernel does not compile with $ran's h5pcc"; }
run_under "$ran" "$work/ktrace" "$work/kernel" "$work/kout" > "$logs/kernel.txt" 2>&1 ||
  { tail -n 20 "$logs/kernel.txt" >&2; fail "the kernel failed under $ran"; }
equivalent kernel "$work/ktrace"
same_output_files --headers "$work/out" "$work/kout" "from the kernel"
no_new_hdf5_errors "$logs/original.txt" "$logs/kernel.txt" "from the kernel"

# 3. The replay under the other (or same) MPI.
run_under "$ran" "$work/rtrace" "$(tree_of "$ran")/replayer/recorder-replay" --prefix "$work/rpre" "$work/trace" \
  > "$logs/replay.txt" 2>&1 || { tail -n 20 "$logs/replay.txt" >&2; fail "recorder-replay failed under $ran"; }
equivalent replay "$work/rtrace"
same_output_files --headers "$work/out" "$work/rpre" "from the replay"
no_new_hdf5_errors "$logs/original.txt" "$logs/replay.txt" "from the replay"
echo "openmpi_pipeline: $mode.$kernel.np$np: traced under $traced, kernel and replay under $ran: equivalent, $files files alike"
