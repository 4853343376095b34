#!/usr/bin/env bash
# replay_layers.sh BUILD_DIR LAYER KERNEL -- replays one layer of a traced
# kernel (--layers posix|mpiio) under the tracer and checks that the replay
# issued, per rank and function, exactly the calls of that layer the
# original made at every depth (the ones HDF5 and MPI-IO made included),
# moving the same bytes, and that the output files have the same sizes.
set -euo pipefail
build=$1 layer=$2 kernel=$3
. "$(dirname "$0")/../support/testlib.sh"
np=4
name=$kernel.np$np.$layer
begin_test "replay_layers: $name" "$build/replay-runs/layers/$name" logs
logs=$work/logs
preload=$build/tests/support/liboversubscribe.so:$build/tracer/librecorder.so
case $layer in
  posix) table_layer=POSIX ;;
  mpiio) table_layer=MPI-IO ;;
  *) fail "unknown layer $layer" ;;
esac
bash "$(dirname "$0")/../../kernels/run_kernel.sh" "$work/out" \
  mpiexec -np "$np" -genv LD_PRELOAD "$preload" -genv RECORDER_TRACES_DIR "$work/t1" \
  "$build/kernels/$kernel" > "$logs/kernel.txt" || fail "the traced kernel failed"
mpiexec -np "$np" -genv LD_PRELOAD "$preload" -genv RECORDER_TRACES_DIR "$work/t2" \
  "$build/replayer/recorder-replay" --layers "$layer" --prefix "$work/prefix" "$work/t1" \
  > "$logs/replay.txt" 2> "$logs/replay.err" || { cat "$logs/replay.err" >&2; fail "recorder-replay failed"; }
cat "$logs/replay.txt"
grep -q "layers $table_layer," "$logs/replay.txt" || fail "the summary does not name the layer"
"$build/tests/replay/layer_calls" "$table_layer" all "$work/t1" > "$logs/want.txt"
"$build/tests/replay/layer_calls" "$table_layer" top "$work/t2" > "$logs/got.txt"
[ -s "$logs/want.txt" ] || fail "the kernel made no $table_layer calls"
diff -u "$logs/want.txt" "$logs/got.txt" ||
  fail "the replay's $table_layer calls differ from the original's (want: original, every depth; got: replay)"
# No HDF5 call is issued when a lower layer is replayed.
[ -z "$("$build/tests/replay/layer_calls" HDF5 all "$work/t2")" ] || fail "HDF5 calls were replayed"
# Every file ends up written through POSIX, so a POSIX replay remakes them
# all; an MPI-IO replay only those the application wrote through MPI-IO.
files=0
while IFS= read -r -d '' f; do
  copy=$work/prefix$f
  if [ ! -f "$copy" ]; then
    [ "$layer" = posix ] && fail "no replayed counterpart of $f"
    continue
  fi
  [ "$(stat -c %s "$f")" = "$(stat -c %s "$copy")" ] || fail "$f: sizes differ"
  files=$((files + 1))
done < <(find "$work/out" -type f -print0)
[ "$files" -gt 0 ] || fail "the replay made none of the output files"
echo "replay_layers: $name: $(wc -l < "$logs/want.txt") (rank, function) counts of $table_layer calls and $files file sizes match"
