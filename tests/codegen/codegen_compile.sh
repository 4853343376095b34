#!/usr/bin/env bash
# codegen_compile.sh BUILD_DIR "HDF5 KERNELS" "OTHER KERNELS"
# Kernels compile, whatever the trace: traces every reference kernel at 2
# ranks with each layer turned off in turn (RECORDER_<LAYER>_TRACING=0; the
# HDF5 layer only where the kernel has one), then runs recorder-codegen on
# each of those and on every other trace the test tree left under BUILD_DIR
# (a directory with a recorder.meta), and checks each kernel with
#   mpicc -fsyntax-only -Wall -Wextra -Werror -I<HDF5's include directories>
# once per shape (a kernel the codegen and h5examples tests compiled already
# is not compiled again).
# Every kernel that does not compile is named with its trace; a trace
# recorder-codegen refuses with a message (a damaged or partial trace of the
# hardening tests) is counted, a crash of recorder-codegen is a failure.
set -euo pipefail
build=$(cd "$1" && pwd) h5_kernels=${2//;/ } plain_kernels=${3//;/ } # CMake lists
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$src/tests/support/testlib.sh"
begin_test codegen_compile "$build/codegen-compile" traces kernels logs seen
preload=$build/tests/support/liboversubscribe.so:$build/tracer/librecorder.so
hdf5_flags=$(h5pcc -show | tr ' ' '\n' | grep '^-I' | tr '\n' ' ')
# netCDF's headers, for the kernels of netCDF programs (Debian's netcdf-mpi.pc names /usr/include, not them)
netcdf_flags=$(pkg-config --exists netcdf-mpi 2> /dev/null && echo "-I$(pkg-config --variable=prefix netcdf-mpi)/include" || true)

# 1. The kernels' traces, one layer off at a time, two runs at once.
trace_one() { # KERNEL LAYER
  local out=$work/traces/$1.$2-off
  env "RECORDER_$2_TRACING=0" bash "$src/kernels/run_kernel.sh" "$out.out" \
    mpiexec -np 2 -genv LD_PRELOAD "$preload" -genv RECORDER_TRACES_DIR "$out" \
    "$build/kernels/$1" > "$work/logs/$1.$2-off.txt" 2>&1 ||
    echo "codegen_compile: $1 with $2 off did not run (see $work/logs/$1.$2-off.txt)"
  rm -rf "$out.out"
}
export -f trace_one
export work src build preload
{
  for k in $h5_kernels $plain_kernels; do
    for layer in MPI MPIIO POSIX; do echo "$k $layer"; done
  done
  for k in $h5_kernels; do echo "$k HDF5"; done
} | xargs -P 2 -L 1 bash -c 'trace_one "$0" "$1"' > "$work/logs/runs.txt"
if [ -s "$work/logs/runs.txt" ]; then cat "$work/logs/runs.txt" >&2; fail "a kernel did not run traced"; fi

# 3. Every other trace under the build directory: a kernel, checked.
# A kernel's text but for its comments, strings and numbers: many traces give the same.
shape() {
  sed -e '/^\/\*/,/\*\//d' -e 's/"\([^"\\]\|\\.\)*"/""/g' -e 's/[0-9][0-9]*/0/g' "$1" | md5sum | cut -c1-32
}
# 2. Kernels their own tests compiled already (codegen_kernel.sh,
# run_h5example.sh: DIR/kernel.c from DIR/trace, built with this build's h5pcc
# -Wall -Wextra -Werror into DIR/kernel): their shapes count as checked and
# DIR/trace is not generated again; the traces of those kernels (DIR/ktrace)
# mostly give the same shape, so most of them need no compiler either.
: > "$work/logs/compiled.txt"
for dir in "$build"/codegen-runs/*/ "$build"/h5examples-runs/*/; do
  dir=${dir%/}
  [ -f "$dir/trace/recorder.meta" ] && [ -f "$dir/kernel.c" ] && [ -x "$dir/kernel" ] && [ "$dir/kernel" -nt "$dir/kernel.c" ] ||
    continue
  mkdir -p "$work/seen/$(shape "$dir/kernel.c")"
  echo "$dir/trace" >> "$work/logs/compiled.txt"
done
check_one() { # TRACE_DIR
  local k=$work/kernels/$(echo "${1#"$build"/}" | tr / _).c status=0
  "$build/codegen/recorder-codegen" "$1" -o "$k" > "$k.err" 2>&1 || status=$?
  if [ "$status" -gt 128 ]; then
    echo "FAIL $1: recorder-codegen died (status $status): $(head -c 300 "$k.err")"
  elif [ "$status" -ne 0 ]; then
    echo "REFUSED $1"
  elif ! mkdir "$work/seen/$(shape "$k")" 2> /dev/null; then
    echo "SAME $1" # as a kernel checked already, but for its comments, strings and numbers
  elif grep -q '^#include <netcdf.h>' "$k" && [ -z "$netcdf_flags" ]; then
    echo "REFUSED $1" # a netCDF program's kernel, without netCDF here
  elif ! mpicc -fsyntax-only -Wall -Wextra -Werror $hdf5_flags $netcdf_flags "$k" > "$k.cc" 2>&1; then
    echo "FAIL $1: $k does not compile: $(grep -m 3 -E 'error|warning' "$k.cc" | tr '\n' ' ')"
  else
    echo "OK $1"
  fi
}
export -f shape check_one
export hdf5_flags netcdf_flags
find "$build" -name recorder.meta -printf '%h\n' | sort -u | grep -vxFf "$work/logs/compiled.txt" |
  xargs -P 2 -d '\n' -n 1 bash -c 'check_one "$0"' > "$work/logs/checks.txt"
ok=$(grep -c '^OK ' "$work/logs/checks.txt" || true)
same=$(grep -c '^SAME ' "$work/logs/checks.txt" || true)
refused=$(grep -c '^REFUSED ' "$work/logs/checks.txt" || true)
failed=$(grep -c '^FAIL ' "$work/logs/checks.txt" || true)
grep '^FAIL ' "$work/logs/checks.txt" >&2 || true
echo "codegen_compile: $ok kernels compile, $failed do not, $same are one of these or of the" \
  "$(wc -l < "$work/logs/compiled.txt") their tests compiled but for comments, strings and numbers," \
  "$refused traces refused by recorder-codegen"
[ "$ok" -gt 0 ] || fail "no kernel was checked"
[ "$failed" -eq 0 ] || fail "$failed kernels do not compile"
