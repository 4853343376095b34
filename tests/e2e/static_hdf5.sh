#!/usr/bin/env bash
# static_hdf5.sh BUILD_DIR SOURCE_DIR: a kernel linked with HDF5 statically
# (Debian's plain h5pcc) through recorder-cc is traced as completely as a
# shared-HDF5 one (same calls and bytes as its --expect), and runs untraced too.
set -euo pipefail
build=$1 src=$2
work=$build/e2e-runs/static-hdf5
rm -rf "$work" && mkdir -p "$work"
"$build/tools/recorder-cc" h5pcc -O2 "$src/kernels/vpic-like.c" "$src/kernels/kernel_h5.c" \
  "$src/kernels/kernel_common.c" -I"$src/kernels" -o "$work/vpic-static"
if grep -q libhdf5 <<<"$(ldd "$work/vpic-static")"; then # no SIGPIPE under pipefail
  echo "static_hdf5: h5pcc linked HDF5 dynamically: the test proves nothing" >&2
  exit 1
fi
mpiexec -np 2 -genv LD_PRELOAD "$build/tests/support/liboversubscribe.so" "$work/vpic-static" "$work/plain-out" >/dev/null
mpiexec -np 2 -genv LD_PRELOAD "$build/tests/support/liboversubscribe.so:$build/tracer/librecorder.so" \
  -genv RECORDER_TRACES_DIR "$work/trace" "$work/vpic-static" --expect "$work/out" > "$work/kernel.txt" 2> "$work/stderr.txt" ||
  { cat "$work/stderr.txt" >&2; exit 1; }
# Every HDF5 function the tracer calls is found in the static copy: its
# initialiser and its own queries too (the shim registers them), not only
# the traced ones (before, H5Eauto_is_v2 was not).
if grep "is in no loaded library" "$work/stderr.txt" >&2; then
  echo "static_hdf5: the tracer missed functions of the static copy" >&2; exit 1
fi
grep '^expect ' "$work/kernel.txt" > "$work/want.txt"
"$build/tests/support/trace_expect" "$work/trace" > "$work/got.txt"
diff -u "$work/want.txt" "$work/got.txt"
grep -q 'function=H5Dwrite' "$work/got.txt"
echo "static_hdf5: $(wc -l < "$work/want.txt") (rank, function) counts match"
# The tracer reads the predefined ids the application's own copy set (the
# shim registers them): its types are named, never rebuilt as copies.
text=$("$build/analysis/recorder2text" "$work/trace")
grep -q ' H5Dcreate2(.*type_id=H5T_NATIVE_FLOAT,' <<<"$text" ||
  { echo "static_hdf5: H5Dcreate2's type is not H5T_NATIVE_FLOAT: $(grep -m1 ' H5Dcreate2(' <<<"$text")" >&2; exit 1; }
if grep -q rebuilt <<<"$text"; then
  echo "static_hdf5: a predefined type was rebuilt: $(grep -m1 rebuilt <<<"$text")" >&2; exit 1
fi
