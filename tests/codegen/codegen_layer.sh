#!/usr/bin/env bash
# codegen_layer.sh BUILD_DIR KERNEL
# recorder-codegen --layer: traces an HDF5 program at 4 ranks (a reference
# kernel of BUILD_DIR/kernels or a corpus program of BUILD_DIR/tests/corpus)
# and checks that
#   - --layer top is the default kernel, byte for byte, and --layer hdf5
#     (HDF5 too) the same but for the header's line naming the layer;
#   - --layer mpiio gives a kernel of MPI-IO calls and no HDF5 call (nor
#     hdf5.h, also where it reads an HDF5 file that existed before: a file of
#     its size), which compiles with plain mpicc -Wall -Wextra -Werror;
#   - that kernel, run traced at 4 ranks, makes every MPI-IO call of the
#     original on every rank and file (the same count and bytes of each
#     function: recorder-summary, which counts calls at every depth), makes
#     them itself (at depth 0) and makes no HDF5 call, and leaves the same
#     files of the same sizes;
#   - a layer it does not know is refused with a message and status 2.
set -euo pipefail
build=$(cd "$1" && pwd) kernel=$2
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$src/tests/support/testlib.sh"
begin_test "codegen_layer: $kernel" "$build/codegen-runs/$kernel.layer-mpiio" logs
logs=$work/logs
codegen=$build/codegen/recorder-codegen summary=$build/analysis/recorder-summary
preload=$build/tests/support/liboversubscribe.so:$build/tracer/librecorder.so
prog=$build/kernels/$kernel
[ -x "$prog" ] || prog=$build/tests/corpus/$kernel
[ -x "$prog" ] || fail "no program $kernel in $build/kernels or $build/tests/corpus"

bash "$src/kernels/run_kernel.sh" "$work/out" \
  mpiexec -np 4 -genv LD_PRELOAD "$preload" -genv RECORDER_TRACES_DIR "$work/trace" \
  "$prog" > "$logs/original.txt" 2>&1 || { cat "$logs/original.txt" >&2; fail "the traced kernel failed"; }

# 1. The default and the top layers.
for layer in default top hdf5 HDF5 mpiio; do
  opt=(--layer "$layer")
  [ "$layer" != default ] || opt=()
  "$codegen" "${opt[@]}" "$work/trace" -o "$work/$layer.c" 2> "$logs/codegen-$layer.err" ||
    { cat "$logs/codegen-$layer.err" >&2; fail "recorder-codegen --layer $layer failed"; }
done
cmp -s "$work/default.c" "$work/top.c" || fail "--layer top differs from the default kernel"
# but for the header's sentence that says which calls ("Its N top-level calls ...", wrapped)
without_layer_line() { awk '!seen && /^ \* Its / {seen = skip = 1; next} skip && /^ \*   / {next} {skip = 0; print}' "$1"; }
diff -u <(without_layer_line "$work/default.c") <(without_layer_line "$work/hdf5.c") > "$logs/hdf5.diff" ||
  { head -20 "$logs/hdf5.diff" >&2; fail "--layer hdf5 makes other calls than the default kernel"; }
cmp -s "$work/hdf5.c" "$work/HDF5.c" || fail "--layer HDF5 differs from --layer hdf5"
grep -q "calls at the HDF5 layer and below" "$work/hdf5.c" || fail "the --layer hdf5 kernel's header does not name its layer"

# 2. The MPI-IO kernel's text.
k=$work/mpiio.c
grep -q "calls at the MPI-IO layer and below" "$k" || fail "the MPI-IO kernel's header does not name its layer"
for call in 'MPI_File_open(' 'MPI_File_set_view(' 'MPI_File_\(write\|read\)' 'MPI_File_close('; do
  grep -q "$call" "$k" || fail "the MPI-IO kernel makes no $call call"
done
if grep -nE '\bH5[A-Za-z_]*\(|hdf5\.h' "$k" > "$logs/h5-in-kernel.txt"; then
  head -5 "$logs/h5-in-kernel.txt" >&2
  fail "the MPI-IO kernel calls HDF5"
fi
grep -q "H5D\(write\|read\)(" "$work/default.c" || fail "the default kernel makes no H5Dwrite or H5Dread call: the test proves nothing"
(cd "$work" && mpicc -Wall -Wextra -Werror mpiio.c -o mpiio) > "$logs/compile.txt" 2>&1 ||
  { cat "$logs/compile.txt" >&2; fail "the MPI-IO kernel does not compile with mpicc alone"; }

# 3. Its run: the original's MPI-IO calls, made by the kernel itself.
mpiexec -np 4 -genv LD_PRELOAD "$preload" -genv RECORDER_TRACES_DIR "$work/ktrace" \
  "$work/mpiio" "$work/kout" > "$logs/kernel.txt" 2>&1 || { cat "$logs/kernel.txt" >&2; fail "the MPI-IO kernel failed"; }
# rank, function, file (base name: the kernel's is re-rooted), calls, bytes of one layer's rows
layer_rows() { # TRACE LAYER [--top]
  "$summary" --csv ${3:-} "$1" | awk -F, -v layer="$2" 'NR > 1 && $2 == layer {
    n = split($4, p, "/"); print $1, $3, p[n], $5, $6 }' | sort
}
layer_rows "$work/trace" MPI-IO > "$logs/original-mpiio.txt"
layer_rows "$work/ktrace" MPI-IO > "$logs/kernel-mpiio.txt"
layer_rows "$work/ktrace" MPI-IO --top > "$logs/kernel-mpiio-top.txt"
[ "$(grep -E ' MPI_File_(write|read)' "$logs/original-mpiio.txt" | cut -d' ' -f1 | sort -u | wc -l)" = 4 ] ||
  fail "the original made no MPI-IO read or write on some of its 4 ranks: the test proves nothing (see $logs/original-mpiio.txt)"
diff -u "$logs/original-mpiio.txt" "$logs/kernel-mpiio.txt" > "$logs/mpiio.diff" ||
  { head -20 "$logs/mpiio.diff" >&2; fail "the MPI-IO kernel's MPI-IO calls or bytes differ from the original's"; }
diff -u "$logs/kernel-mpiio.txt" "$logs/kernel-mpiio-top.txt" > "$logs/mpiio-top.diff" ||
  { head -20 "$logs/mpiio-top.diff" >&2; fail "some MPI-IO calls of the MPI-IO kernel are not its own (depth 0)"; }
[ -z "$(layer_rows "$work/ktrace" HDF5)" ] || fail "the MPI-IO kernel's run made HDF5 calls"
calls=$(awk '{n += $4} END {print n + 0}' "$logs/kernel-mpiio.txt")
echo "codegen_layer: $kernel: the MPI-IO kernel made the original's $calls MPI-IO calls on $(cut -d' ' -f1 "$logs/kernel-mpiio.txt" | sort -u | wc -l) ranks"

# 4. The same files, of the same sizes (not HDF5 files: pattern bytes where HDF5 wrote its metadata).
same_output_files "$work/out" "$work/kout" "from the MPI-IO kernel"
[ "$files" -gt 0 ] || fail "the original wrote no file"
echo "codegen_layer: $kernel: $files output files of the same sizes"

# 5. A layer it does not know.
status=0
"$codegen" --layer adios "$work/trace" > /dev/null 2> "$logs/bad-layer.err" || status=$?
[ "$status" = 2 ] || fail "--layer adios: status $status, not 2"
grep -q "expects top, netcdf, pnetcdf, hdf5, mpiio or posix, got 'adios'" "$logs/bad-layer.err" ||
  { cat "$logs/bad-layer.err" >&2; fail "--layer adios: no clear message"; }
