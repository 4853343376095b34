#!/usr/bin/env bash
# build.sh SOURCE_DIR OPENMPI_BUILD_DIR BUILD_TYPE MPICC H5PCC TARGET...: configures
# the tree with Open MPI's compiler wrappers in OPENMPI_BUILD_DIR and builds
# the targets the Open MPI tests run; prints the configure summary.
set -euo pipefail
src=$1 out=$2 type=$3 mpicc=$4 h5pcc=$5
shift 5
log=$out.log
# Ninja builds the targets as one graph on both cores (make builds them one
# after the other: CMake's top-level Makefile is .NOTPARALLEL).
generator=()
command -v ninja > /dev/null && [ ! -f "$out/Makefile" ] && generator=(-G Ninja)
# RelWithDebInfo at -O1 -g1 rather than -O2 -g: the generated wrappers and
# replay functions compile in half the time, and these tests are about what
# the programs do under Open MPI (the main build is the -O2 one).
flags=()
[ "$type" = RelWithDebInfo ] && flags=(-DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG")
{ cmake -S "$src" -B "$out" "${generator[@]}" "${flags[@]}" -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE="$type" -DMPI_C_COMPILER="$mpicc" \
    -DHDF5_C_COMPILER_EXECUTABLE="$h5pcc" && nice cmake --build "$out" -j 2 --target "$@"; } > "$log" 2>&1 ||
  { tail -n 30 "$log"; echo "openmpi.build: the Open MPI build failed ($log)" >&2; exit 1; }
grep 'recorder-kit:' "$log"
