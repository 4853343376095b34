#!/usr/bin/env bash
# threads.sh BUILD_DIR: what corpus.threaded_files.codegen.np4 left (this
# test's fixture) of a program that does its I/O from threads it starts:
#   - the original trace: on every rank, each top-level pthread_create names
#     a thread (THREAD_ID) whose records follow, 3 a rank, each opening 2
#     files and reading 1; pthread_join names the same 3; one barrier of
#     count 3, waited at once by each of the 3 threads;
#   - the kernel: MPI_Init_thread at MPI_THREAD_MULTIPLE, the 3 threads
#     started in one loop and joined in another, a function each
#     (thread_<id>) holding its own calls, the barrier a file-scope object;
#   - the kernel's trace: the same thread ids, each thread the same calls.
set -euo pipefail
build=$(cd "$1" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$src/tests/support/testlib.sh"
begin_test "threads: threaded_files" "$build/threads-runs" logs
runs=${TEST_RUNS_DIR:-$build}
cg=$runs/codegen-runs/threaded_files.np4
for dir in "$cg/trace" "$cg/ktrace"; do
  [ -d "$dir" ] || fail "no trace $dir: run corpus.threaded_files.codegen.np4 first (TEST_RUNS_DIR removes it when it passes)"
done
text=$build/analysis/recorder2text

# check TRACE WHAT: the threads' structure, rank by rank.
check() {
  for rank in 0 1 2 3; do
    "$text" --rank "$rank" "$1" > "$work/logs/$2.$rank.txt"
    local msg
    msg=$(awk -v what="$2 rank $rank" '
      $4 != 0 { next }
      { t = "0"; if (match($0, / thread=[0-9]+$/)) t = substr($0, RSTART + 8, RLENGTH - 8) }
      $6 ~ /^pthread_create\(/ { if (t != "0") bad = bad " create on thread " t; match($6, /thread=[0-9]+/); started[substr($6, RSTART + 7, RLENGTH - 7)] = 1; nstart++ }
      $6 ~ /^pthread_join\(/ { match($6, /thread=[0-9]+/); joined[substr($6, RSTART + 7, RLENGTH - 7)] = 1; njoin++ }
      $6 ~ /^pthread_barrier_init\(/ && $0 !~ /count=3\)/ { bad = bad " barrier count" }
      $6 ~ /^pthread_barrier_wait\(/ { waits[t]++ }
      t != "0" && $6 ~ /^open\(/ { opens[t]++ }
      t != "0" && $6 ~ /^MPI_File_open\(/ { opens[t]++ }
      t != "0" && $6 ~ /^read\(/ { reads[t]++ }
      t != "0" { seen[t] = 1 }
      END {
        if (nstart != 3 || njoin != 3) bad = bad " " nstart " creates, " njoin " joins"
        for (s in seen) {
          if (!(s in started)) bad = bad " thread " s " started by no create"
          if (!(s in joined)) bad = bad " thread " s " never joined"
          if (opens[s] != 3 || reads[s] != 3 || waits[s] != 1) bad = bad " thread " s ": " opens[s] " opens, " reads[s] " reads, " waits[s] " waits"
        }
        for (s in started) if (!(s in seen)) bad = bad " thread " s " started, no calls"
        if (bad != "") { print what ":" bad; exit 1 }
      }' "$work/logs/$2.$rank.txt") || fail "the threads are not as the program made them: $msg"
  done
}
check "$cg/trace" original
check "$cg/ktrace" kernel
# the kernel's structure
k=$cg/kernel.c
grep -q 'MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);' "$k" || fail "the kernel does not ask for MPI_THREAD_MULTIPLE"
[ "$(grep -c '^static void \*thread_[0-9]*(void \*arg)$' "$k")" -eq 3 ] || fail "the kernel has not 3 thread functions: $(grep -c '^static void \*thread_' "$k")"
grep -qE 'pthread_create\(&threads\[i \+ [0-9]+\], NULL, thread_mains\[i \+ [0-9]+\], NULL\);' "$k" ||
  fail "the kernel does not start its threads in a loop: $(grep -m1 pthread_create "$k")"
grep -qE 'pthread_join\(threads\[i \+ [0-9]+\], ' "$k" || fail "the kernel does not join its threads in a loop: $(grep -m1 pthread_join "$k")"
grep -q '^static pthread_barrier_t barrier;$' "$k" || fail "the barrier is no object every thread sees: $(grep -m1 pthread_barrier_t "$k")"
! sed -n '/^int main(/,/^}$/p' "$k" | grep -qE '\b(pwrite|read)\(' || fail "main makes calls of the threads"
# --elastic refuses, saying why, rather than fit threads it cannot
for n in 2 3; do
  mpiexec -np $n -genv LD_PRELOAD "$build/tests/support/liboversubscribe.so:$build/tracer/librecorder.so" \
    -genv RECORDER_TRACES_DIR "$work/trace$n" "$build/tests/corpus/threaded_files" "$work/out$n" > "$work/logs/run$n.txt" 2>&1 ||
    fail "threaded_files at $n ranks failed: $(tail -n 3 "$work/logs/run$n.txt")"
done
if "$build/codegen/recorder-codegen" --elastic "$work/trace2" "$work/trace3" "$cg/trace" > /dev/null 2> "$work/logs/elastic.err"; then
  fail "recorder-codegen --elastic made a kernel of a threaded program"
fi
grep -q "^recorder-codegen: .*: --elastic: the program's calls are made by 3 threads of its own" "$work/logs/elastic.err" ||
  fail "recorder-codegen --elastic: $(cat "$work/logs/elastic.err")"
echo "threads: threaded_files: 3 threads a rank, started, joined and at one barrier, in the trace, the kernel and its trace"
