#!/usr/bin/env bash
# replay_kernel.sh BUILD_DIR NP KERNEL [KERNEL OPTIONS...]
# Traces one kernel at NP ranks (T1), replays T1 under the tracer (T2) into a
# fresh prefix, and checks that the replay is faithful:
#   - the replay prints no HDF5 error stack the original did not;
#   - recorder-diff T1 T2 exits 0 (when the build has recorder-diff);
#   - per rank and function, the application-level calls and bytes of T2
#     equal T1's (trace_expect, always);
#   - every regular file the kernel left in its OUTDIR has a counterpart of
#     the same size under the prefix, and HDF5 files the same h5dump -H;
#   - the replay created nothing beside the prefix and its own trace.
# REPLAY_ARGS adds options to recorder-replay; REPLAY_SUFFIX names the run;
# REPLAY_MERGED=1 replays the merged trace (recorder-merge) instead of T1;
# REPLAY_EXPECT=REGEX must match a line of the replay's summary; TEST_RUNS_DIR
# puts the run under TEST_RUNS_DIR/replay-runs instead of BUILD_DIR/replay-runs (under
# /dev/shm, say), removed when the test passes.
set -euo pipefail
build=$1 np=$2 kernel=$3
shift 3
. "$(dirname "$0")/../support/testlib.sh"
name=$kernel.np$np${REPLAY_SUFFIX:-}
begin_test "replay_kernel: $name" "${TEST_RUNS_DIR:-$build}/replay-runs/$name" logs
logs=$work/logs
preload=$build/tests/support/liboversubscribe.so:$build/tracer/librecorder.so
# REPLAY_GENV: more "-genv NAME VALUE" for both runs (word-split on purpose).
read -r -a genv <<< "${REPLAY_GENV:-}"
# A kernel, or a test program of this folder or of the corpus (tests/corpus).
prog=$build/kernels/$kernel
[ -x "$prog" ] || prog=$build/tests/replay/$kernel
[ -x "$prog" ] || prog=$build/tests/corpus/$kernel
[ -x "$prog" ] || fail "no program $kernel in $build/kernels, $build/tests/replay or $build/tests/corpus"

# 1. The original run, traced (run_kernel.sh does serial-io's setup step).
bash "$(dirname "$0")/../../kernels/run_kernel.sh" "$work/out" \
  mpiexec -np "$np" "${genv[@]}" -genv LD_PRELOAD "$preload" -genv RECORDER_TRACES_DIR "$work/t1" \
  "$prog" "$@" > "$logs/kernel.txt" 2> "$logs/kernel.err" || status=$?
skip_if_refused "${status:-0}" "$logs/kernel.txt"
[ "${status:-0}" = 0 ] || { cat "$logs/kernel.err" >&2; fail "the traced kernel failed"; }

# With REPLAY_MERGED=1 the replay reads the merged trace instead.
source_trace=$work/t1
if [ "${REPLAY_MERGED:-0}" = 1 ]; then
  "$build/merger/recorder-merge" "$work/t1" -o "$work/merged" --quiet || fail "recorder-merge failed"
  source_trace=$work/merged
fi

# 2. The replay, traced. Nothing but the prefix and T2 may appear in $work.
ls -A "$work" | sort > "$logs/before.txt"
# shellcheck disable=SC2086
mpiexec -np "$np" "${genv[@]}" -genv LD_PRELOAD "$preload" -genv RECORDER_TRACES_DIR "$work/t2" \
  "$build/replayer/recorder-replay" ${REPLAY_ARGS:-} --prefix "$work/prefix" "$source_trace" \
  > "$logs/replay.txt" 2> "$logs/replay.err" || { cat "$logs/replay.err" >&2; fail "recorder-replay failed"; }
cat "$logs/replay.txt"
if [ -n "${REPLAY_EXPECT:-}" ]; then
  grep -Eq "$REPLAY_EXPECT" "$logs/replay.txt" || fail "the replay's summary has no line matching /$REPLAY_EXPECT/"
fi
no_new_hdf5_errors "$logs/kernel.err" "$logs/replay.err" "from the replay"
ls -A "$work" | sort > "$logs/after.txt"
printf 'prefix\nt2\n' | cat - "$logs/before.txt" | sort > "$logs/allowed.txt"
diff -u "$logs/allowed.txt" "$logs/after.txt" || fail "the replay wrote outside its prefix"

# 3. The same calls and bytes.
if [ -x "$build/analysis/recorder-diff" ]; then
  "$build/analysis/recorder-diff" ${DIFF_OPTIONS:-} "$work/t1" "$work/t2" > "$logs/diff.txt" 2>&1 ||
    { cat "$logs/diff.txt" >&2; fail "recorder-diff finds the replay different"; }
  echo "replay_kernel: $name: recorder-diff: equivalent"
fi
"$build/tests/support/trace_expect" "$work/t1" > "$logs/want.txt"
"$build/tests/support/trace_expect" "$work/t2" > "$logs/got.txt"
diff -u "$logs/want.txt" "$logs/got.txt" ||
  fail "the replay's calls differ from the original's (want: original, got: replay)"

# 4. The same output files.
SAME_FILES_FILTERED=$work/t1 same_output_files --headers "$work/out" "$work/prefix" "in the replay"
filtered_write_bytes "$build/analysis/recorder-summary" "$work/t1" "$work/t2" "in the replay"
echo "replay_kernel: $name: $(wc -l < "$logs/want.txt") (rank, function) counts and $files output files match"
[ -z "${TEST_RUNS_DIR:-}" ] || rm -rf "$work"
