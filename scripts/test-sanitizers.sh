#!/bin/bash
# test-sanitizers.sh [BUILD_DIR] [CTEST_ARGS...]: the test suite under
# AddressSanitizer + LeakSanitizer + UndefinedBehaviorSanitizer.
#
# Configures BUILD_DIR (default: build-asan next to the source tree) with
#   -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
# for every target (tools, tracer, kernels, tests), builds it, and runs
# ctest on a selection that takes a few minutes on 2 cores: the units, the
# tracer and hardening tests, every kernel traced at 1 and 4 ranks, and a
# few merges and diffs (SANITIZER_TESTS overrides the regular expression,
# SANITIZER_LABELS the labels; CTEST_ARGS are passed on).
#
# Any sanitizer report fails the run, even in a process whose exit status a
# test ignores: after ctest, the script looks for reports in the output of
# every test (Testing/Temporary/LastTest.log) and in every file the tests
# wrote (their saved stderr), prints them and exits non-zero. (ASan's
# log_path cannot be used: it calls mkdir while ASan initialises, which
# the preloaded tracer's wrapper answers before ASan is ready.)
#
# The tracer under ASan: librecorder.so is instrumented, so the ASan runtime
# must be in the process before it. The instrumented programs (kernels,
# tests) link it themselves, but LD_PRELOAD libraries come first in the
# search order, which ASan refuses by default; verify_asan_link_order=0
# accepts that order, which works because neither preloaded library defines
# an allocator. (Preloading an uninstrumented program, like /bin/true, with
# the instrumented tracer would need LD_PRELOAD=$(gcc -print-file-name=libasan.so):...
# first; the selection has no such case.) MPICH's hwloc plugins
# (libxml2, OpenCL, X11) are dlclose'd at MPI_Finalize with unattributable
# leaks: HWLOC_PLUGINS_PATH points nowhere so that none is loaded.
set -uo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$src/build-asan}
[ $# -gt 0 ] && shift
flags="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
start=$(date +%s)
cmake -S "$src" -B "$build" -DCMAKE_C_COMPILER=gcc -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_FLAGS="$flags" >"$build.configure.log" 2>&1 || { cat "$build.configure.log"; exit 2; }
cmake --build "$build" -j2 >"$build.build.log" 2>&1 || { tail -50 "$build.build.log"; exit 2; }
built=$(date +%s)

export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1:verify_asan_link_order=0"
export LSAN_OPTIONS="suppressions=$src/scripts/sanitizers/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
export HWLOC_PLUGINS_PATH=/nonexistent
stamp=$build/sanitizer-start
touch "$stamp"

labels=${SANITIZER_LABELS:-unit|tracer|hardening}
# Left out: the bad-inputs tests pass invalid arguments on purpose (UBSan's
# nonnull check stops the untraced program); the exec'd child of the
# fork-exec test is /bin/true, uninstrumented, with the instrumented tracer;
# the static-HDF5 test compiles a program with h5pcc, without the sanitizers,
# against the instrumented archive.
exclude=${SANITIZER_EXCLUDE:-^(tracer\.(same_results_on_bad_inputs|bad_inputs_known_bugs|fork_exec_child_keeps_parent_trace)|trace\.static-hdf5\.np2)$}
tests=${SANITIZER_TESTS:-^(merge\.(ior-like|vpic-like|h5-chunked|nonblocking)\.np4|diff\.kernel\.(ior-like|vpic-like)|diff\.case\..*|reader\..*|codec\..*|format\..*)$}
status=0
pattern='ERROR: (AddressSanitizer|LeakSanitizer)|runtime error: |SUMMARY: UndefinedBehaviorSanitizer'
found=$build/sanitizer-reports.txt
: >"$found"
for run in "-L $labels" "-R $tests"; do
    # shellcheck disable=SC2086
    ctest --test-dir "$build" -j2 --output-on-failure ${run%% *} "${run#* }" -E "$exclude" "$@" || status=1
    grep -E "$pattern" "$build/Testing/Temporary/LastTest.log" >>"$found"
done
find "$build" -type f -newer "$stamp" -size -20M ! -name 'LastTest*.log' ! -name '*.rec' ! -name "${found##*/}" \
    -exec grep -lE "$pattern" {} + >>"$found"
reports=$(wc -l <"$found")
if [ "$reports" -gt 0 ]; then
    echo "test-sanitizers.sh: sanitizer reports (lines or files, also in $found):" >&2
    head -40 "$found" >&2
    status=1
fi
echo "test-sanitizers.sh: build $((built - start)) s, tests $(($(date +%s) - built)) s," \
    "$reports sanitizer reports, $([ $status = 0 ] && echo PASS || echo FAIL)"
exit $status
