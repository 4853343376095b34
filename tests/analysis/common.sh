# common.sh: sourced by the analysis tests. Sets $build, $tools, $runs and
# defines how programs are traced: under mpiexec with the oversubscription
# helper first, then the tracer (docs/dev/testing.md), one directory per run
# under $build/analysis-runs/NAME with the program's output in out/ and the
# trace in trace/.
set -euo pipefail
build=$(cd "$1" && pwd)
tools=$build/analysis
runs=$build/analysis-runs
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
preload=$build/tests/support/liboversubscribe.so:$build/tracer/librecorder.so
# The system clock, not the TSC: overlap's read/write order across ranks
# depends on the ranks' clocks agreeing, and these tests should not depend on
# how well the tracer calibrates the TSC on an oversubscribed machine.
tracer_env=(-genv LD_PRELOAD "$preload" -genv RECORDER_TSC 0)

fail() { echo "$test_name: $*" >&2; exit 1; }

# trace_kernel NAME NP KERNEL [OPTIONS...]: the kernel with --expect; its
# expect lines end up in $work/want.txt.
trace_kernel() {
  local name=$1 np=$2 kernel=$3
  shift 3
  work=$runs/$name
  rm -rf "$work" && mkdir -p "$work"
  bash "$src/kernels/run_kernel.sh" "$work/out" mpiexec -np "$np" "${tracer_env[@]}" \
    -genv RECORDER_TRACES_DIR "$work/trace" "$build/kernels/$kernel" --expect "$@" > "$work/kernel.txt"
  grep '^expect ' "$work/kernel.txt" > "$work/want.txt" || true
}

# trace_program NAME NP PROGRAM [ARGS...]: PROGRAM ARGS... $work/out
trace_program() {
  local name=$1 np=$2
  shift 2
  work=$runs/$name
  rm -rf "$work" && mkdir -p "$work"
  mpiexec -np "$np" "${tracer_env[@]}" -genv RECORDER_TRACES_DIR "$work/trace" "$@" "$work/out" > "$work/program.txt"
}
