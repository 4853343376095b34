#!/usr/bin/env bash
# test.sh: installs what is missing, builds, runs every test (units and
# end-to-end cases under mpirun, the Open MPI build and its pipelines,
# valgrind memcheck of the tracer over three kernels), then the sanitizer
# configuration: scripts/test-sanitizers.sh (ASan + LSan + UBSan build in
# build-asan, its selection of tests). The tests labelled "long" (full-scale
# versions of tests the default run takes smaller) only with
# RECORDER_TESTS=full. About 12 minutes on an idle 2-core machine from scratch (estimated from
# CPU time, 2026-12-02), packages installed (docs/dev/testing.md,
# "Time"). RECORDER_SANITIZERS=0 skips the sanitizer run. Exit status: 0
# when both pass.
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
ensure_packages
build_tree
say "running the tests"
cd "$BUILD_DIR"
status=0
# The tests labelled "long" are the full-scale versions of tests the default
# run takes at a smaller scale (docs/dev/testing.md); RECORDER_TESTS=full runs them too.
long=(-LE long)
[ "${RECORDER_TESTS:-}" = full ] && long=()
ctest --output-on-failure -j "$JOBS" "${long[@]}" "$@" || status=1
if [ "${RECORDER_SANITIZERS:-1}" != 0 ]; then
  say "running the tests under AddressSanitizer and UndefinedBehaviorSanitizer"
  bash "$ROOT_DIR/scripts/test-sanitizers.sh" "${SANITIZER_BUILD_DIR:-$ROOT_DIR/build-asan}" || status=1
fi
exit $status
