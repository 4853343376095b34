#!/usr/bin/env bash
# trace_kernel.sh BUILD_DIR NP KERNEL [KERNEL OPTIONS...]
# Traces one kernel at NP ranks and checks the trace against the kernel's own
# ground truth: per rank and function, the calls the kernel made and the
# bytes they moved (its --expect lines) must equal what the trace says; for
# HDF5 kernels every call must nest inside its parent (HDF5 -> MPI-IO -> POSIX);
# no record is marked inferred (a mark only recorder-import writes).
# E2E_JOB_SCRIPT=1 starts the kernel from a job script (job_script.sh), whose
# own commands are traced around it.
set -euo pipefail
build=$1 np=$2 kernel=$3
shift 3
name=$kernel.np$np${E2E_SUFFIX:-}
work=$build/e2e-runs/$name
rm -rf "$work" && mkdir -p "$work"
preload=$build/tests/support/liboversubscribe.so:$build/tracer/librecorder.so
launch=()
[ "${E2E_JOB_SCRIPT:-0}" = 1 ] && launch=(bash "$(dirname "$0")/job_script.sh")
bash "$(dirname "$0")/../../kernels/run_kernel.sh" "$work/out" \
  mpiexec -np "$np" -genv LD_PRELOAD "$preload" -genv RECORDER_TRACES_DIR "$work/trace" \
  "${launch[@]}" "$build/kernels/$kernel" --expect "$@" > "$work/kernel.txt"
grep '^expect ' "$work/kernel.txt" > "$work/want.txt"
"$build/tests/support/trace_expect" "$work/trace" > "$work/got.txt"
if ! diff -u "$work/want.txt" "$work/got.txt"; then
  echo "trace_kernel: $name: the trace disagrees with the kernel's --expect (want: kernel, got: trace)" >&2
  exit 1
fi
"$build/tests/support/trace_expect" --nesting "$work/trace" | tee "$work/nesting.txt"
if grep -q 'H5' "$work/want.txt" && [ "$np" -gt 1 ] && grep -q '^nesting: 0 ' "$work/nesting.txt"; then
  echo "trace_kernel: $name: no HDF5 -> MPI-IO -> POSIX call chain was recorded" >&2
  exit 1
fi
if "$build/analysis/recorder2text" "$work/trace" | grep -q ' \[inferred\]$'; then
  echo "trace_kernel: $name: the tracer marked records inferred" >&2
  exit 1
fi
echo "trace_kernel: $name: $(wc -l < "$work/want.txt") (rank, function) counts match"
