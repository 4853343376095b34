# advise_lib.sh: what advise_prove.sh and tune_search.sh share, sourced after
# testlib.sh's begin_test (work, logs, build set).
# trace_ior_like OUT: ior-like with independent 4 KiB transfers traced at 2 ranks into $work/t1.
trace_ior_like() {
  bash "$(dirname "${BASH_SOURCE[0]}")/../../kernels/run_kernel.sh" "$1" \
    mpirun.mpich -np 2 -genv LD_PRELOAD "$over:$build/tracer/librecorder.so" -genv RECORDER_TRACES_DIR "$work/t1" \
    "$build/kernels/ior-like" --collective 0 --transfer-size 4096 > "$logs/kernel.txt" 2> "$logs/kernel.err" ||
    { cat "$logs/kernel.err" >&2; fail "the traced kernel failed"; }
}
# usage_error CODE MESSAGE ARGS...: ARGS exit with CODE, MESSAGE the first line on stderr.
usage_error() {
  local code=$1 message=$2 status=0
  shift 2
  "$@" > "$logs/usage.txt" 2> "$logs/usage.err" || status=$?
  [ "$status" = "$code" ] && [ "$(head -1 "$logs/usage.err")" = "$message" ] ||
    { cat "$logs/usage.err" >&2; fail "$*: exit $status (want $code) or another message"; }
}
