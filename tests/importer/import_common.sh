#!/usr/bin/env bash
# import_common.sh: what the end-to-end tests of recorder-import share
# (import_e2e.sh, import_stat_e2e.sh), sourced after build, name and src
# are set.
#   import_begin TEST [PREFIX]: the test's run directory ($work, $logs:
#     import-runs/PREFIX$name, a test of its own for the log's name), the log of
#     tests/data/darshan ($log, $figures, $np: its ranks), the tracer to
#     preload ($preload), MPICH's wrappers on PATH;
#   kernel_and_replay: the trace $work/trace merged (recorder-merge), its
#     kernel made (recorder-codegen), compiled -Wall -Wextra -Werror and run
#     at $np ranks under mpirun.mpich, traced into $work/ktrace (files under
#     $work/kout), and replayed by recorder-replay, traced into
#     $work/rtrace (files under $work/rout); for a log with H5F or
#     PNETCDF_FILE records (whose trace's top calls are HDF5's or
#     PnetCDF's) both at the MPI-IO layer; each
#     run stopped after $IMPORT_RUN_LIMIT seconds (120: these kernels take a
#     few), as a hang (collective calls the ranks do not match) would never end.
. "$src/tests/support/testlib.sh"

import_begin() {
  begin_test "$1: $name" "${TEST_RUNS_DIR:-$build}/import-runs/${2:-}$name" logs
  data=$src/tests/data/darshan
  log=$data/$name.darshan figures=$data/$name.figures
  logs=$work/logs
  np=$(awk '$1 == "nprocs" {print $2}' "$figures")
  preload=$build/tests/support/liboversubscribe.so:$build/tracer/librecorder.so
  export PATH=$build/mpi-bin:$PATH
}

kernel_and_replay() {
  # A log of Darshan's HDF5 or PnetCDF module: the trace's top calls are that layer's; the log's MPI-IO
  # figures are the kernel's and the replay's at the MPI-IO layer (import_upper.sh and import_upper_pnc.sh
  # check the upper layer).
  local cg=() rp=()
  if grep -q '^record \(H5F\|PNETCDF_FILE\) ' "$figures"; then cg=(--layer mpiio) rp=(--layers mpiio); fi
  "$build/merger/recorder-merge" "$work/trace" > "$logs/merge.txt" 2>&1 || { cat "$logs/merge.txt" >&2; fail "recorder-merge failed"; }
  (cd "$work" && "$build/codegen/recorder-codegen" "${cg[@]}" trace -o kernel.c) > "$logs/codegen.txt" 2>&1 ||
    { cat "$logs/codegen.txt" >&2; fail "recorder-codegen failed"; }
  (cd "$work" && h5pcc -shlib -Wall -Wextra -Werror kernel.c -o kernel) > "$logs/compile.txt" 2>&1 ||
    { cat "$logs/compile.txt" >&2; fail "kernel.c does not compile cleanly"; }
  local limit=${IMPORT_RUN_LIMIT:-120} status=0
  timeout "$limit" mpirun.mpich -np "$np" -genv LD_PRELOAD "$preload" -genv RECORDER_TRACES_DIR "$work/ktrace" \
    "$work/kernel" "$work/kout" > "$logs/kernel.txt" 2>&1 || status=$?
  [ "$status" != 124 ] || fail "the kernel did not end in $limit s (collective calls the ranks do not match?)"
  [ "$status" = 0 ] || { cat "$logs/kernel.txt" >&2; fail "the kernel failed"; }
  (cd "$work" && timeout "$limit" mpirun.mpich -np "$np" -genv LD_PRELOAD "$preload" -genv RECORDER_TRACES_DIR "$work/rtrace" \
    "$build/replayer/recorder-replay" "${rp[@]}" --prefix "$work/rout" trace) > "$logs/replay.txt" 2>&1 || status=$?
  [ "$status" != 124 ] || fail "recorder-replay did not end in $limit s (collective calls the ranks do not match?)"
  [ "$status" = 0 ] || { cat "$logs/replay.txt" >&2; fail "recorder-replay failed"; }
}
