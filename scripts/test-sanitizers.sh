#!/bin/bash
# test-sanitizers.sh [BUILD_DIR] [CTEST_ARGS...]: the test suite under
# AddressSanitizer + LeakSanitizer + UndefinedBehaviorSanitizer.
#
# Configures BUILD_DIR (default: build-asan next to the source tree) with
#   -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
# for every target (tools, tracer, kernels, tests), builds it, and runs
# ctest on a selection (scripts/test.sh runs it after the normal suite):
# the units, the tracer and hardening tests (every kernel traced at 4 ranks,
# crashes, full disk, every fuzz regression ...), the merge tests at 4
# ranks, every diff test, and the analysis, replay and codegen tests, each
# test once (SANITIZER_LABELS and SANITIZER_TESTS override the labels and the
# regular expression of test names, SANITIZER_EXCLUDE what is left out;
# CTEST_ARGS are passed on; the label "long" is left out unless
# RECORDER_TESTS=full). -O1 -g1, as ASan advises: the reports keep their
# lines, the build takes less time. On the shared 2-core development
# machine, under load, 2026-12-02: build 211 s from scratch at -O2 -g
# (before), tests 249 s; see docs/dev/testing.md for the figures since.
#
# Any sanitizer report fails the run, even in a process whose exit status a
# test ignores: after ctest, the script looks for reports in the output of
# every test (Testing/Temporary/LastTest.log) and in every file the tests
# wrote (their saved stderr), prints them and exits non-zero.
#
# The tracer under ASan: librecorder.so is instrumented, so the ASan runtime
# must be in the process before it. The instrumented programs (kernels,
# tests) link it themselves, but LD_PRELOAD libraries come first in the
# search order, which ASan refuses by default; verify_asan_link_order=0
# accepts that order, which works because neither preloaded library defines
# an allocator; with MPICH, mpiexec -genv LD_PRELOAD liboversubscribe.so:librecorder.so
# is then used as in the normal build. What does not work: an uninstrumented
# program (/bin/true, a kernel of the normal build) under the instrumented
# tracer, even with LD_PRELOAD=$(gcc -print-file-name=libasan.so):... first:
# it hangs in setlocale at start-up; the selection has no such case. ASan
# options cannot point log_path anywhere either (ASan calls mkdir while it
# initialises, and the tracer's wrapper, instrumented, crashes before ASan
# is ready). MPICH's hwloc plugins (libxml2, OpenCL, X11) are dlclose'd at
# MPI_Finalize with unattributable leaks: HWLOC_PLUGINS_PATH points nowhere
# so that none is loaded.
set -uo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$src/build-asan}
[ $# -gt 0 ] && shift
flags="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
start=$(date +%s)
mkdir -p "$build" || exit 2
flavour=()
command -v mpicc.mpich > /dev/null && flavour+=(-DMPI_C_COMPILER=mpicc.mpich)
command -v h5pcc.mpich > /dev/null && flavour+=(-DHDF5_C_COMPILER_EXECUTABLE="$(command -v h5pcc.mpich)")
cmake -S "$src" -B "$build" -DCMAKE_C_COMPILER=gcc -DCMAKE_BUILD_TYPE=RelWithDebInfo "${flavour[@]}" \
    -DCMAKE_C_FLAGS="$flags" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" >"$build/sanitizer-configure.log" 2>&1 || { cat "$build/sanitizer-configure.log"; exit 2; }
cmake --build "$build" -j2 >"$build/sanitizer-build.log" 2>&1 || { tail -50 "$build/sanitizer-build.log"; exit 2; }
built=$(date +%s)

export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1:verify_asan_link_order=0"
export LSAN_OPTIONS="suppressions=$src/scripts/sanitizers/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
export HWLOC_PLUGINS_PATH=/nonexistent
stamp=$build/sanitizer-start
touch "$stamp"

labels=${SANITIZER_LABELS:-unit|tracer|hardening|analysis|replay|codegen}
# Left out: the bad-inputs tests pass invalid arguments on purpose (UBSan's
# nonnull check stops the untraced program); the exec'd child of the
# fork-exec test is /bin/true, uninstrumented, with the instrumented tracer;
# the static-HDF5 test compiles a program with h5pcc, without the sanitizers,
# against the instrumented archive; so do the codegen tests that build and
# run the generated kernel (codegen.KERNEL.npN, codegen.elastic.*: h5pcc,
# then the uninstrumented kernel under the instrumented tracer segfaults).
# (codegen.KERNEL.LAYER-off.npN and e2e.escape.np2 run generated kernels
# too.) codegen_template.one_long_line_of_tags_parses_in_linear_time is a
# time test (a 6 MB line of tags within 120 s): ASan makes it miss the limit
# without any fault; the normal suite runs it. replay.vpic-like.HDF5-off.np4
# replays HDF5's own MPI memory datatypes, whose displacements are the
# distances between HDF5's buffers: ASan's allocator puts them terabytes
# apart, more than any replay buffer, so they go as MPI_BYTE and the replay's
# trace differs by design. codegen.kernels-compile (recorder-codegen on every
# trace the suite leaves, each kernel compiled) is mostly gcc's time, three
# minutes under the instrumented build: the normal suite runs it, and
# recorder-codegen meets the sanitizers in the other codegen tests.
# Repeats at other rank counts of the same code paths: trace.KERNEL.np1 (the
# tracer; trace.KERNEL.np4 stays) and merge.*.np8 (the merger; np4 stays).
# The kernels alone (kernel.*: test programs, not tools) are left out: they
# run instrumented, traced, in trace.KERNEL.np4 and the replay tests.
# codegen.layer.* compile and run kernels as codegen.KERNEL.npN do, and their
# mpiexec preload puts the tracer before the sanitizer runtime: left out too.
exclude=${SANITIZER_EXCLUDE:-^(tracer\.(same_results_on_bad_inputs|bad_inputs_known_bugs|fork_exec_child_keeps_parent_trace)|trace\.static-hdf5\.np2|codegen\.[A-Za-z0-9.-]+\.np[0-9]+|codegen\.elastic\..*|codegen\.layer\..*|codegen\.kernels-compile|e2e\.escape\..*|replay\.vpic-like\.HDF5-off\.np4|codegen_template\.one_long_line_of_tags_parses_in_linear_time|trace\.[A-Za-z0-9-]+\.np1|merge\.[A-Za-z0-9.-]+\.np8)$}
tests=${SANITIZER_TESTS:-^(merge|diff|reader|codec|format)\.}
long=long
[ "${RECORDER_TESTS:-}" = full ] && long='^$'
status=0
pattern='ERROR: (AddressSanitizer|LeakSanitizer)|runtime error: |SUMMARY: UndefinedBehaviorSanitizer'
found=$build/sanitizer-reports.txt
: >"$found"
# The second run leaves out what the first took (a test with one of its labels).
for run in "-L $labels -LE $long" "-R $tests -LE $labels|$long"; do
    # shellcheck disable=SC2086
    ctest --test-dir "$build" -j2 --output-on-failure $run -E "$exclude" "$@" || status=1
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
