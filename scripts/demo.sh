#!/usr/bin/env bash
# demo.sh: the main job, end to end, on a bundled kernel. Installs what is
# missing, builds, then traces the VPIC-IO-like kernel (HDF5 -> MPI-IO ->
# POSIX) at 4 ranks and reads the trace back.
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
ensure_packages
build_tree

DEMO_DIR=${DEMO_DIR:-$BUILD_DIR/demo}
NP=${NP:-4}
rm -rf "$DEMO_DIR" && mkdir -p "$DEMO_DIR"
TRACE=$DEMO_DIR/trace
BIN=$BUILD_DIR

say "1. trace: vpic-like at $NP ranks under librecorder.so (LD_PRELOAD, no recompiling)"
EXTRA_PRELOAD=$BUILD_DIR/tracer/librecorder.so mpirun_cmd "$NP" -genv RECORDER_TRACES_DIR "$TRACE" \
  "$BIN/kernels/vpic-like" --expect "$DEMO_DIR/vpic-output" > "$DEMO_DIR/kernel.txt"
tail -n 1 "$DEMO_DIR/kernel.txt"
ls -l "$TRACE"

say "2. the trace's metadata and compression (recorder2text --info)"
"$BIN/analysis/recorder2text" --info "$TRACE"

say "3. rank 1's first HDF5 calls, by meaning (recorder2text --rank 1 --function ...)"
"$BIN/analysis/recorder2text" --rank 1 --function H5Fcreate --function H5Dcreate2 --function H5Sselect_hyperslab \
  --function H5Dwrite --function MPI_File_write_at_all "$TRACE" | awk 'NR <= 12'

say "4. one H5Dwrite with what it called below it (depth 1: MPI-IO, depth 2: POSIX)"
"$BIN/analysis/recorder2text" -o "$DEMO_DIR/text" "$TRACE"
# Records come in exit order: a call's children are printed just before it.
awk '$4 > 0  { kids = kids $0 "\n"; next }
     / HDF5 H5Dwrite\(/ { printf "%s%s\n", kids, $0; exit }
     { kids = "" }' "$DEMO_DIR/text/0.txt" | tail -n 8
echo "(every rank as text: $DEMO_DIR/text/RANK.txt)"

say "5. the trace against the kernel's own ground truth (calls and bytes per rank and function)"
grep '^expect ' "$DEMO_DIR/kernel.txt" > "$DEMO_DIR/want.txt"
"$BIN/tests/support/trace_expect" "$TRACE" > "$DEMO_DIR/got.txt"
if diff -q "$DEMO_DIR/want.txt" "$DEMO_DIR/got.txt" >/dev/null; then
  echo "identical: $(wc -l < "$DEMO_DIR/want.txt") (rank, function) lines of calls and bytes"
else
  diff -u "$DEMO_DIR/want.txt" "$DEMO_DIR/got.txt" | head -n 20
  echo "demo: the trace disagrees with the kernel's ground truth" >&2
  exit 1
fi
"$BIN/tests/support/trace_expect" --nesting "$TRACE"

say "6. merge the 4 ranks into one trace (recorder-merge), and read one merged write back"
"$BIN/merger/recorder-merge" "$TRACE" -o "$DEMO_DIR/merged"
"$BIN/analysis/recorder2text" --merged "$DEMO_DIR/merged" > "$DEMO_DIR/merged.txt"
grep -m 3 -E "ranks=0-3 .* (H5Sselect_hyperslab|POSIX pwrite)" "$DEMO_DIR/merged.txt" || true
for r in $(seq 0 $((NP - 1))); do
  # Each rank's own calls come back out of the merged trace (times aside).
  if ! diff -q <("$BIN/analysis/recorder2text" --rank "$r" "$TRACE" | cut -d' ' -f1,4-) \
               <("$BIN/analysis/recorder2text" --rank "$r" "$DEMO_DIR/merged" | cut -d' ' -f1,4-) >/dev/null; then
    echo "demo: rank $r does not round-trip through the merged trace" >&2
    exit 1
  fi
done
echo "every rank round-trips through the merged trace"

say "7. replay the trace under the tracer (recorder-replay), and prove it faithful (recorder-diff)"
EXTRA_PRELOAD=$BUILD_DIR/tracer/librecorder.so mpirun_cmd "$NP" -genv RECORDER_TRACES_DIR "$DEMO_DIR/replay-trace" \
  "$BIN/replayer/recorder-replay" --prefix "$DEMO_DIR/replay" "$TRACE"
"$BIN/analysis/recorder-diff" "$TRACE" "$DEMO_DIR/replay-trace"

say "8. generate an SPMD C kernel from the trace (recorder-codegen), build it, run it traced, prove it faithful"
(cd "$DEMO_DIR" && "$BIN/codegen/recorder-codegen" trace -o kernel.c)
sed -n '1,/^ \*\//p' "$DEMO_DIR/kernel.c" # its header: what was inferred, and how
echo "kernel.c: $(wc -c < "$DEMO_DIR/kernel.c") bytes (kernels/vpic-like.c: $(wc -c < "$ROOT_DIR/kernels/vpic-like.c"))"
(cd "$DEMO_DIR" && h5pcc -shlib kernel.c -o kernel)
EXTRA_PRELOAD=$BUILD_DIR/tracer/librecorder.so mpirun_cmd "$NP" -genv RECORDER_TRACES_DIR "$DEMO_DIR/kernel-trace" \
  "$DEMO_DIR/kernel" "$DEMO_DIR/kernel-output"
"$BIN/analysis/recorder-diff" "$TRACE" "$DEMO_DIR/kernel-trace"

say "9. elastic: vpic-like traced at 2, 4 and 8 ranks -> one kernel for any rank count (recorder-codegen --elastic), run at 6 and compared with vpic-like traced at 6; the trace extrapolated to 6 (recorder-extrap)"
for np in 2 4 8 6; do # without --expect, whose gather is rank-count specific
  rm -rf "$DEMO_DIR/vpic-output"
  EXTRA_PRELOAD=$BUILD_DIR/tracer/librecorder.so mpirun_cmd "$np" -genv RECORDER_TRACES_DIR "$DEMO_DIR/trace$np" \
    "$BIN/kernels/vpic-like" "$DEMO_DIR/vpic-output" > /dev/null
done
(cd "$DEMO_DIR" && "$BIN/codegen/recorder-codegen" --elastic trace2 trace4 trace8 -o elastic.c)
sed -n '1,/^ \*\//p' "$DEMO_DIR/elastic.c"
(cd "$DEMO_DIR" && h5pcc -shlib elastic.c -o elastic)
EXTRA_PRELOAD=$BUILD_DIR/tracer/librecorder.so mpirun_cmd 6 -genv RECORDER_TRACES_DIR "$DEMO_DIR/elastic-trace" \
  "$DEMO_DIR/elastic" "$DEMO_DIR/elastic-output"
"$BIN/analysis/recorder-diff" "$DEMO_DIR/trace6" "$DEMO_DIR/elastic-trace"
RECORDER_EXTRAP_PRELOAD=$BUILD_DIR/tests/support/liboversubscribe.so \
  "$BIN/codegen/recorder-extrap" "$DEMO_DIR/trace2" "$DEMO_DIR/trace4" "$DEMO_DIR/trace8" --ranks 6 -o "$DEMO_DIR/extrap6"
"$BIN/analysis/recorder-diff" "$DEMO_DIR/trace6" "$DEMO_DIR/extrap6"

say "done: trace $TRACE, merged $DEMO_DIR/merged, replay $DEMO_DIR/replay, kernel $DEMO_DIR/kernel.c, elastic kernel $DEMO_DIR/elastic.c"
