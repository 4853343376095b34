#!/bin/bash
# run_kernel.sh OUTDIR LAUNCHER... KERNEL [KERNEL OPTIONS...]
#
# Runs one I/O kernel on a fresh OUTDIR, as the ctest cases do:
#   1. removes OUTDIR, so every run starts from an empty directory;
#   2. for a program with a setup step (PROGRAMS_WITH_SETUP below), first runs
#      "LAUNCHER... PROGRAM [OPTIONS] --setup OUTDIR" to create its inputs,
#      with the same options except --expect (so the expect lines printed are
#      the real run's only) and without the tracer (librecorder.so leaves the
#      launcher's arguments):
#      what the setup makes existed before the traced run; skipped when
#      RUN_KERNEL_SKIP_SETUP=1, which the missing-input test uses;
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

# An argument without the tracer in it: a preload list keeps its other libraries.
untraced() {
    local kept= lib
    case $1 in *librecorder.so*) ;; *) printf "%s" "$1"; return ;; esac
    IFS=: read -ra libs <<< "$1"
    for lib in "${libs[@]}"; do
        case $lib in *librecorder.so) ;; *) kept=${kept:+$kept:}$lib ;; esac
    done
    printf "%s" "$kept"
}

if [ "${RUN_KERNEL_SKIP_SETUP:-0}" != 1 ]; then
    # The programs (kernels or test programs) that take --setup OUTDIR.
    PROGRAMS_WITH_SETUP=" serial-io h5_reader h5_netcdf_reader csv_lines dir_tree fortified_stdio "
    setup=()
    with_setup=
    for arg in "$@"; do
        name=$(basename -- "$arg")
        if [ -z "$with_setup" ] && [[ "$PROGRAMS_WITH_SETUP" == *" $name "* ]]; then
            with_setup=$name
        elif [ -n "$with_setup" ] && [ "$arg" = --expect ]; then
            continue
        fi
        setup+=("$(untraced "$arg")")
    done
    if [ -n "$with_setup" ]; then
        "${setup[@]}" --setup "$outdir" >/dev/null || {
            echo "run_kernel.sh: $with_setup --setup failed" >&2
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
