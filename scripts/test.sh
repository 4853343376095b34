#!/usr/bin/env bash
# test.sh: installs what is missing, builds, runs every test (units and
# end-to-end cases under mpirun). Exit status: ctest's.
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
ensure_packages
build_tree
say "running the tests"
cd "$BUILD_DIR"
ctest --output-on-failure -j "$JOBS" "$@"
