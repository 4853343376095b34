#!/usr/bin/env bash
# build_config.sh MODE BUILD_DIR SOURCE_DIR CMAKE HDF5_LIBDIR HDF5_INCLUDEDIR
# (tests/build/CMakeLists.txt says what each MODE checks).
set -euo pipefail
mode=$1 build=$2 src=$3 cmake=$4 hdf5_libdir=$5 hdf5_includedir=$6
fail() { echo "build_config: $mode: $*" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/build-config.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
configure() { # LOG CMAKE_ARGS...: configure the source tree in $tmp/b
  local log=$1
  shift
  "$cmake" -S "$src" -B "$tmp/b" -DBUILD_TESTING=OFF "$@" > "$log" 2>&1
}

case $mode in
hdf5_root)
  # A parallel HDF5 in a prefix of its own, as a cluster's module or Spack gives it.
  mkdir -p "$tmp/hdf5/include" "$tmp/hdf5/lib"
  ln -s "$hdf5_includedir"/* "$tmp/hdf5/include/"
  ln -s "$hdf5_libdir"/libhdf5.so* "$tmp/hdf5/lib/"
  configure "$tmp/configure.log" -DHDF5_ROOT="$tmp/hdf5" || fail "configure failed: $(tail -n 5 "$tmp/configure.log")"
  grep -F -- "-- recorder-kit: parallel HDF5" "$tmp/configure.log"
  grep -qF "(FindHDF5): $tmp/hdf5/lib/libhdf5.so" "$tmp/configure.log" ||
    fail "the configure summary does not name the HDF5 of HDF5_ROOT"
  nice make -C "$tmp/b" h5-chunked > "$tmp/make.log" 2>&1 || fail "h5-chunked does not build: $(tail -n 5 "$tmp/make.log")"
  grep -qF "$tmp/hdf5/lib/libhdf5.so" "$tmp/b/kernels/CMakeFiles/h5-chunked.dir/link.txt" ||
    fail "h5-chunked is not linked with HDF5_ROOT's libhdf5.so"
  LD_PRELOAD="$build/tests/support/liboversubscribe.so" mpiexec -np 2 "$tmp/b/kernels/h5-chunked" "$tmp/out" > "$tmp/run.log" 2>&1 ||
    fail "h5-chunked built against HDF5_ROOT fails: $(tail -n 5 "$tmp/run.log")"
  [ -n "$(find "$tmp/out" -name '*.h5' -size +0)" ] || fail "h5-chunked wrote no HDF5 file"
  ;;
hdf5_root_wrong)
  if configure "$tmp/configure.log" -DHDF5_ROOT="$tmp/nothing"; then fail "configure succeeded without an HDF5"; fi
  cat "$tmp/configure.log"
  # CMake wraps the message: compare it unwrapped.
  tr -s ' \n' '  ' < "$tmp/configure.log" | grep -qF "no HDF5 where HDF5_ROOT ($tmp/nothing) or HDF5_DIR points" ||
    fail "the error does not say where it looked"
  ;;
hdf5_pkg_config)
  configure "$tmp/configure.log" -DCMAKE_DISABLE_FIND_PACKAGE_HDF5=TRUE ||
    fail "configure failed: $(tail -n 5 "$tmp/configure.log")"
  grep -F -- "-- recorder-kit: parallel HDF5" "$tmp/configure.log"
  grep -qE -- "-- recorder-kit: parallel HDF5 [0-9.]+ \(pkg-config module hdf5[a-z-]*\): $hdf5_libdir/libhdf5.so" \
    "$tmp/configure.log" || fail "pkg-config did not find the build's HDF5"
  ;;
hdf5_of_the_mpi)
  # Debian's h5pcc alternative points at one flavour's HDF5; given the other
  # flavour's MPI (and no HDF5), the build takes the HDF5 built on that MPI.
  for pair in "openmpi mpich" "mpich openmpi"; do
    read -r flavour other <<< "$pair"
    command -v "mpicc.$flavour" > /dev/null && command -v "h5pcc.$other" > /dev/null &&
      command -v "h5pcc.$flavour" > /dev/null || { echo "build_config: $mode: no $flavour and $other HDF5"; exit 77; }
    mkdir -p "$tmp/$other-first"
    ln -sf "$(command -v "h5pcc.$other")" "$tmp/$other-first/h5pcc"
    rm -rf "$tmp/b"
    PATH="$tmp/$other-first:$PATH" configure "$tmp/$flavour.log" -DMPI_C_COMPILER="mpicc.$flavour" ||
      fail "MPI_C_COMPILER=mpicc.$flavour with h5pcc -> h5pcc.$other: configure failed: $(tail -n 5 "$tmp/$flavour.log")"
    grep -F -- "-- recorder-kit: HDF5 of the MPI found" "$tmp/$flavour.log"
    grep -qF -- "-- recorder-kit: HDF5 of the MPI found: $(command -v "h5pcc.$flavour")" "$tmp/$flavour.log" ||
      fail "mpicc.$flavour: the configure summary does not name h5pcc.$flavour"
    grep -qE -- "-- recorder-kit: parallel HDF5 [0-9.]+ \(FindHDF5\): .*/hdf5/$flavour/libhdf5.so" "$tmp/$flavour.log" ||
      fail "mpicc.$flavour: the HDF5 found is not $flavour's: $(grep -F 'parallel HDF5' "$tmp/$flavour.log")"
  done
  ;;
find_package)
  "$cmake" --install "$build" --prefix "$tmp/prefix" > "$tmp/install.log" || fail "install failed"
  mkdir "$tmp/user"
  cp "$src/tests/build/count_records.c" "$tmp/user/"
  cat > "$tmp/user/CMakeLists.txt" << 'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(user-of-recorder-kit C)
find_package(RecorderKit 0 REQUIRED)
add_executable(count_records count_records.c)
target_link_libraries(count_records PRIVATE RecorderKit::recorder-format)
message(STATUS "tracer: ${RecorderKit_TRACER}")
CMAKE
  "$cmake" -S "$tmp/user" -B "$tmp/user/b" -DCMAKE_PREFIX_PATH="$tmp/prefix" > "$tmp/user.log" 2>&1 ||
    fail "find_package(RecorderKit) failed: $(tail -n 8 "$tmp/user.log")"
  grep -qF -- "-- tracer: $tmp/prefix/" "$tmp/user.log" || fail "RecorderKit_TRACER is not in the prefix"
  make -C "$tmp/user/b" > "$tmp/user-make.log" 2>&1 || fail "the user's program does not build: $(tail -n 5 "$tmp/user-make.log")"
  # A trace made with the installed tracer, read by the user's program.
  tracer=$(sed -n 's/^-- tracer: //p' "$tmp/user.log")
  mpiexec -np 2 -genv LD_PRELOAD "$build/tests/support/liboversubscribe.so:$tracer" \
    -genv RECORDER_TRACES_DIR "$tmp/trace" "$build/kernels/ior-like" "$tmp/out" > "$tmp/run.log" 2>&1 ||
    fail "the traced kernel failed: $(tail -n 5 "$tmp/run.log")"
  got=$("$tmp/user/b/count_records" "$tmp/trace") || fail "count_records failed"
  echo "count_records: $got"
  want=$("$build/analysis/recorder2text" "$tmp/trace" | wc -l) # a line a record
  [ "$got" = "ranks 2 records $want" ] || fail "count_records printed '$got', not 'ranks 2 records $want'"
  "$tmp/user/b/count_records" "$tmp/nothing" 2> "$tmp/err.txt" && fail "count_records read a missing trace"
  grep -q "count_records: .*$tmp/nothing" "$tmp/err.txt" || fail "the reader's error does not name the trace: $(cat "$tmp/err.txt")"
  ;;
*) fail "unknown mode" ;;
esac
echo "build_config: $mode: ok"
