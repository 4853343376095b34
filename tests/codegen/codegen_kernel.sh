#!/usr/bin/env bash
# codegen_kernel.sh BUILD_DIR NP KERNEL [KERNEL OPTIONS...]
# Traces one kernel at NP ranks (KERNEL: a reference kernel of BUILD_DIR/kernels
# or a corpus program of BUILD_DIR/tests/corpus), generates a C kernel from the trace
# (recorder-codegen merges it first), and checks that the kernel
#   - compiles with h5pcc -shlib -Wall -Wextra -Werror and is clang-format clean;
#   - runs at NP ranks, traced, printing no HDF5 error stack the original did
#     not, and recorder-diff finds its trace equal to the original (it infers
#     the OUTDIR re-rooting);
#   - leaves every output file of the original, re-rooted under its OUTDIR, with
#     the same size (and for HDF5 files the same h5dump -H), and writes nothing
#     beside its OUTDIR and its trace;
#   - refuses another rank count with a clear message and a non-zero status.
# CODEGEN_MAX_BYTES=N also fails a kernel larger than N bytes (an integer, or a
# file whose size is the bound), not counting its path helpers and the wait
# for the setup (refuse() to enter_outdir(), the same in every kernel);
# CODEGEN_SUFFIX names the run; TEST_RUNS_DIR puts it under TEST_RUNS_DIR/codegen-runs
# instead of BUILD_DIR/codegen-runs (under /dev/shm, say), removed when the test passes.
set -euo pipefail
build=$(cd "$1" && pwd) np=$2 kernel=$3
shift 3
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$src/tests/support/testlib.sh"
name=$kernel.np$np${CODEGEN_SUFFIX:-}
begin_test "codegen_kernel: $name" "${TEST_RUNS_DIR:-$build}/codegen-runs/$name" logs
logs=$work/logs
preload=$build/tests/support/liboversubscribe.so:$build/tracer/librecorder.so
# A reference kernel, or a program of the corpus (tests/corpus).
prog=$build/kernels/$kernel
[ -x "$prog" ] || prog=$build/tests/corpus/$kernel
[ -x "$prog" ] || fail "no program $kernel in $build/kernels or $build/tests/corpus"

# 1. The original run, traced (run_kernel.sh does serial-io's setup step).
bash "$src/kernels/run_kernel.sh" "$work/out" \
  mpiexec -np "$np" -genv LD_PRELOAD "$preload" -genv RECORDER_TRACES_DIR "$work/trace" \
  "$prog" "$@" > "$logs/original.txt" 2> "$logs/original.err" || status=$?
skip_if_refused "${status:-0}" "$logs/original.txt"
[ "${status:-0}" = 0 ] || { cat "$logs/original.err" >&2; fail "the traced kernel failed"; }

# 2. The kernel, generated from the per-rank trace (a relative path, as a user types it).
(cd "$work" && "$build/codegen/recorder-codegen" trace -o kernel.c) 2> "$logs/codegen.err" ||
  { cat "$logs/codegen.err" >&2; fail "recorder-codegen failed"; }
bytes=$(wc -c < "$work/kernel.c")
# The path helpers that keep the kernel below OUTDIR (kernel.c.tmpl) do not grow with the trace.
# Nor does ROOT's definition, the traced run's directory, grow with anything but its length.
# (their prototypes before main too)
helpers=$(LC_ALL=C awk '/^\/\* What keeps every path below OUTDIR/ {pro = 1} pro && /^int main/ {pro = 0}
  pro {n += length($0) + 1} /^\/\* Stops every rank/ {on = 1} on {n += length($0) + 1}
  on && /^static void enter_outdir/ {last = 1} last && /^}$/ {exit} END {print n + 0}' "$work/kernel.c")
root=$(LC_ALL=C awk '/^#define ROOT/ {on = 1} on {n += length($0) + 1} on && !/\\$/ {on = 0} END {print n + 0}' \
  "$work/kernel.c")
# Nor does h5_value(), the code that makes recorded HDF5 values again (templates/h5value.c.tmpl).
values=$(LC_ALL=C awk '/^\/\* An HDF5 value the traced call wrote/ {on = 1} on {n += length($0) + 1}
  on && /^static const void \*h5_value/ {last = 1} last && /^}$/ {exit} END {print n + 0}' "$work/kernel.c")
helpers=$((helpers + root + values))
echo "codegen_kernel: $name: kernel.c is $bytes bytes, $((bytes - helpers)) without its path helpers, ROOT and h5_value()"
if [ -n "${CODEGEN_MAX_BYTES:-}" ]; then
  max=$CODEGEN_MAX_BYTES
  [ -f "$max" ] && max=$(wc -c < "$max")
  [ "$((bytes - helpers))" -le "$max" ] ||
    fail "kernel.c is $((bytes - helpers)) bytes without its path helpers, ROOT and h5_value(), more than the $max allowed"
fi
(cd "$work" && h5pcc -shlib -Wall -Wextra -Werror kernel.c -o kernel) > "$logs/compile.txt" 2>&1 ||
  { cat "$logs/compile.txt" >&2; fail "kernel.c does not compile cleanly"; }
if command -v clang-format > /dev/null; then
  clang-format --style="file:$src/.clang-format" --dry-run -Werror "$work/kernel.c" 2> "$logs/format.txt" ||
    { head -20 "$logs/format.txt" >&2; fail "kernel.c is not clang-format clean"; }
fi

# 3. The kernel, traced, into a fresh OUTDIR: nothing may appear beside it and its trace.
ls -A "$work" | sort > "$logs/before.txt"
run_kernel() {
  rm -rf "$work/kout" "$work/ktrace"
  mpiexec -np "$np" -genv LD_PRELOAD "$preload" -genv RECORDER_TRACES_DIR "$work/ktrace" \
    "$work/kernel" "$work/kout" > "$logs/kernel.txt" 2>&1 || { cat "$logs/kernel.txt" >&2; fail "the kernel failed"; }
}
run_kernel
ls -A "$work" | sort > "$logs/after.txt"
printf 'kout\nktrace\n' | cat - "$logs/before.txt" | sort > "$logs/allowed.txt"
diff -u "$logs/allowed.txt" "$logs/after.txt" || fail "the kernel wrote outside its OUTDIR"

no_new_hdf5_errors "$logs/original.err" "$logs/kernel.txt" "from the kernel"

# 4. The same I/O.
# CODEGEN_RACY_RUNS=N: a trace without the calls that ordered its ranks (the
# MPI layer off) gives a kernel whose ranks may race (a rank opening a file
# in a directory another has not made yet); up to N runs, each said.
for attempt in $(seq 2 "${CODEGEN_RACY_RUNS:-1}") last; do
  "$build/analysis/recorder-diff" ${DIFF_OPTIONS:-} "$work/trace" "$work/ktrace" > "$logs/diff.txt" 2>&1 && break
  [ "$attempt" != last ] ||
    { cat "$logs/diff.txt" >&2; fail "recorder-diff finds the kernel's I/O different"; }
  echo "codegen_kernel: $name: run $((attempt - 1)) raced (nothing in the trace orders its ranks): $(tail -1 "$logs/diff.txt")"
  run_kernel
done
echo "codegen_kernel: $name: recorder-diff: $(tail -1 "$logs/diff.txt")"

# 5. The same files.
SAME_FILES_FILTERED=$work/trace same_output_files --headers "$work/out" "$work/kout" "from the kernel"
filtered_write_bytes "$build/analysis/recorder-summary" "$work/trace" "$work/ktrace" "from the kernel"

# 6. Another rank count is refused, clearly.
other=$((np + 1))
if mpiexec -np "$other" -genv LD_PRELOAD "$build/tests/support/liboversubscribe.so" "$work/kernel" "$work/kout2" \
  > "$logs/wrong-np.txt" 2>&1; then
  fail "the kernel ran at $other ranks"
fi
grep -q "traced at $np ranks" "$logs/wrong-np.txt" || { cat "$logs/wrong-np.txt" >&2; fail "no clear message at $other ranks"; }
[ ! -e "$work/kout2" ] || fail "the kernel wrote at $other ranks"
echo "codegen_kernel: $name: $files output files match"

# 7. CODEGEN_PLANTED_LINK=1: a kernel whose calls and setup make no symbolic link refuses one it finds
# below OUTDIR (planted on the first directory of its paths, leading out), and writes nothing through it.
if [ -n "${CODEGEN_PLANTED_LINK:-}" ]; then
  grep -q "a symbolic link below OUTDIR" "$work/kernel.c" || fail "the kernel of a run without links does not refuse them"
  first=$(cd "$work" && pwd -P | cut -d/ -f2)
  rm -rf "$work/kout3" "$work/planted" && mkdir -p "$work/kout3" "$work/planted"
  ln -s "$work/planted" "$work/kout3/$first"
  if mpiexec -np "$np" -genv LD_PRELOAD "$build/tests/support/liboversubscribe.so" "$work/kernel" "$work/kout3" \
    > "$logs/planted.txt" 2>&1; then
    fail "the kernel ran through a symbolic link planted below its OUTDIR"
  fi
  grep -q "a symbolic link below OUTDIR: refused, the kernel stays below $(cd "$work/kout3" && pwd -P)" "$logs/planted.txt" ||
    { cat "$logs/planted.txt" >&2; fail "no clear message for the planted link"; }
  [ -z "$(ls -A "$work/planted")" ] || fail "the kernel wrote through the planted link: $(ls -A "$work/planted")"
  echo "codegen_kernel: $name: a link planted below OUTDIR is refused"
fi
[ -z "${TEST_RUNS_DIR:-}" ] || rm -rf "$work"
