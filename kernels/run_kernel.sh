#!/bin/bash
# run_kernel.sh OUTDIR LAUNCHER... KERNEL [KERNEL OPTIONS...]
#
# Runs one I/O kernel on a fresh OUTDIR, as the ctest cases do:
#   1. removes OUTDIR, so every run starts from an empty directory;
#   2. for serial-io, first runs "LAUNCHER... serial-io [OPTIONS] --setup
#      OUTDIR" to create its input file, with the same options except
#      --expect (so the expect lines printed are the real run's only);
#      skipped when RUN_KERNEL_SKIP_SETUP=1, which the missing-input test uses;
#   3. runs "LAUNCHER... KERNEL [KERNEL OPTIONS...] OUTDIR" and exits with its
#      status; with RUN_KERNEL_SHOW_STATUS=1 it also prints
#      "run_kernel.sh: exit status N" on stderr, which the tests of runs that
#      must be refused match on (ctest ignores the exit status of a test that
#      has a PASS_REGULAR_EXPRESSION).
# Example:
#   run_kernel.sh /tmp/out mpiexec -np 4 -genv LD_PRELOAD liboversubscribe.so \
#       build/kernels/ior-like --mode strided
set -u
if [ $# -lt 2 ]; then
    echo "usage: $0 OUTDIR LAUNCHER... KERNEL [KERNEL OPTIONS...]" >&2
    exit 2
fi
outdir=$1
shift
rm -rf -- "$outdir"

if [ "${RUN_KERNEL_SKIP_SETUP:-0}" != 1 ]; then
    setup=()
    is_serial_io=0
    for arg in "$@"; do
        if [ "$(basename -- "$arg")" = serial-io ]; then
            is_serial_io=1
        elif [ "$is_serial_io" = 1 ] && [ "$arg" = --expect ]; then
            continue
        fi
        setup+=("$arg")
    done
    if [ "$is_serial_io" = 1 ]; then
        "${setup[@]}" --setup "$outdir" >/dev/null || {
            echo "run_kernel.sh: serial-io --setup failed" >&2
            exit 1
        }
    fi
fi

if [ "${RUN_KERNEL_SHOW_STATUS:-0}" = 1 ]; then
    "$@" "$outdir"
    status=$?
    echo "run_kernel.sh: exit status $status" >&2
    exit "$status"
fi
"$@" "$outdir"
