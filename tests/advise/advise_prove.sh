#!/usr/bin/env bash
# advise_prove.sh BUILD_DIR: recorder-advise --prove --repeat 1 on ior-like
# (independent 4 KiB transfers) traced at 2 ranks. The structure of the
# report, never its times: each finding's set gets one untuned and one tuned
# timing (min <= median <= max), a ratio, and "applied: yes" (recorder-diff
# --tuned on the traced tuned replay); the scratch root is left empty. Then
# what goes wrong is said: a replay at the wrong rank count (its exit status
# and stderr, exit 1), a tuned replay whose trace does not show the set (a
# library that is not the tracer: "applied: no", exit 1); and recorder-report
# --prove puts the figures beside the findings and refuses another trace's.
set -euo pipefail
build=$1
. "$(dirname "$0")/../support/testlib.sh"
begin_test "advise: prove" "$build/advise-runs/prove" logs scratch
logs=$work/logs out=$work/out
over=$build/tests/support/liboversubscribe.so
advise=$build/analysis/recorder-advise
export RECORDER_ADVISE_PRELOAD=$over
bash "$(dirname "$0")/../../kernels/run_kernel.sh" "$out" \
  mpirun.mpich -np 2 -genv LD_PRELOAD "$over:$build/tracer/librecorder.so" -genv RECORDER_TRACES_DIR "$work/t1" \
  "$build/kernels/ior-like" --collective 0 --transfer-size 4096 > "$logs/kernel.txt" 2> "$logs/kernel.err" ||
  { cat "$logs/kernel.err" >&2; fail "the traced kernel failed"; }

# the default launcher: the mpiexec of the build's MPI (BUILD/mpi-bin/mpiexec runs it)
launcher=$(sed -n 's/^exec \([^ ]*\) .*/\1/p' "$build/mpi-bin/mpiexec")
env -u MPIEXEC "$advise" --prove --repeat 1 --scratch "$work/scratch" --output "$work/proved.txt" "$work/t1" \
  > "$logs/prove.txt" 2> "$logs/prove.err" || { cat "$logs/prove.err" "$work/proved.txt" >&2; fail "--prove failed"; }
cat "$work/proved.txt"
[ -s "$logs/prove.txt" ] && fail "--output FILE: the report went to standard output too"
[ -z "$(ls -A "$work/scratch")" ] || { ls -lR "$work/scratch" >&2; fail "the scratch root is not empty after"; }
grep -qxF "prove: 1 untuned and 1 tuned replay of each finding's set, alternated, at 2 ranks under $launcher; each replay's own time" \
  "$work/proved.txt" || fail "no prove: line, or another"
timing='median T s, min..max T..T s, 1 replay'
ratio='T (the tuned median over the untuned; under 1: faster)'
applied='yes: recorder-diff --tuned: the traced tuned replay differs from the trace by the set alone'
want="[1] small accesses: $out/ior.dat
    set:       mpiio.data=collective
    set:       mpiio.romio_cb_write=enable
    set:       mpiio.romio_cb_read=enable
    untuned:   $timing
    tuned:     $timing
    ratio:     $ratio
    applied:   $applied
[2] independent I/O to a shared file: $out/ior.dat
    set:       mpiio.data=collective
    untuned:   $timing
    tuned:     $timing
    ratio:     $ratio
    applied:   $applied"
got=$(grep -E '^\[|^    (set|untuned|tuned|ratio|applied|stderr|diff):' "$work/proved.txt" | sed -E 's/[0-9]+\.[0-9]{3}/T/g')
[ "$got" = "$want" ] || { diff -u <(printf '%s\n' "$want") <(printf '%s\n' "$got") >&2; fail "the --prove lines differ"; }
# a median is within its range (one replay: all three the same)
awk '/^    (un)?tuned: / { m = $3; split($6, r, /\.\./); if (!(r[1] + 0 <= m + 0 && m + 0 <= r[2] + 0 && r[1] == m)) bad = 1 }
  END { exit bad }' "$work/proved.txt" || fail "a median outside its min..max"
# the report without --prove is the same but for those lines
"$advise" "$work/t1" > "$logs/advise.txt"
diff -u "$logs/advise.txt" <(grep -vE '^prove: |^    (untuned|tuned|ratio|applied):' "$work/proved.txt") ||
  fail "--prove changed the rest of the report"

# Bad usage: exit 2 (1 for an empty launcher), with the reason.
usage_error() { # usage_error CODE MESSAGE ARGS...
  local code=$1 message=$2 status=0
  shift 2
  "$@" > "$logs/usage.txt" 2> "$logs/usage.err" || status=$?
  [ "$status" = "$code" ] && [ "$(head -1 "$logs/usage.err")" = "$message" ] ||
    { cat "$logs/usage.err" >&2; fail "$*: exit $status (want $code) or another message"; }
}
usage_error 2 "recorder-advise: --repeat, --np, --mpirun and --scratch go with --prove" "$advise" --repeat 2 "$work/t1"
usage_error 2 "recorder-advise: --repeat: between 1 and 100000, not 0" "$advise" --prove --repeat 0 "$work/t1"
usage_error 2 "recorder-advise: --np: not a whole number: two" "$advise" --prove --np two "$work/t1"
usage_error 2 "recorder-advise: --prove replays the whole trace: no --rank" "$advise" --prove --rank 0 "$work/t1"
usage_error 1 "recorder-advise: --mpirun: no command" "$advise" --prove --mpirun " " "$work/t1"
usage_error 2 "recorder-report: --prove: the findings of the whole trace: no --rank" \
  "$build/analysis/recorder-report" --rank 0 --prove "$work/proved.txt" "$work/t1"

# A replay that fails: its exit status and the end of its stderr, and exit 1.
status=0
"$advise" --prove --repeat 1 --np 3 "$work/t1" > "$logs/np3.txt" 2> "$logs/np3.err" || status=$?
[ "$status" = 1 ] || fail "--np 3 on a trace of 2 ranks: exit $status, want 1"
[ "$(cat "$logs/np3.err")" = "recorder-advise: --prove: 2 findings with a failed replay or a set not seen applied (the report says which)" ] ||
  { cat "$logs/np3.err" >&2; fail "--np 3: the message on stderr differs"; }
want="    untuned:   failed: replay 1 of 1 exited with status 1
    stderr:    recorder-replay: $work/t1: the trace has 2 ranks but the replay runs on 3: run it with mpirun -np 2
    tuned:     not measured: a replay failed
    ratio:     none: a replay failed
    applied:   not checked: a replay failed"
[ "$(grep -cxF -- "$(echo "$want" | head -1)" "$logs/np3.txt")" = 2 ] || { cat "$logs/np3.txt" >&2; fail "--np 3: not two failed series"; }
[ "$(sed -n '/^\[2\]/,/^$/p' "$logs/np3.txt" | grep -E '^    (untuned|tuned|ratio|applied|stderr):')" = "$want" ] ||
  { cat "$logs/np3.txt" >&2; fail "--np 3: the failure lines differ"; }

# The launcher: --mpirun, else MPIEXEC; one that cannot start is a failed replay (127).
status=0
MPIEXEC=/nonexistent/mpiexec "$advise" --prove --repeat 1 "$work/t1" > "$logs/launcher.txt" 2> "$logs/launcher.err" || status=$?
[ "$status" = 1 ] && grep -q '^prove: .* at 2 ranks under /nonexistent/mpiexec; ' "$logs/launcher.txt" &&
  [ "$(grep -cx '    untuned:   failed: replay 1 of 1 exited with status 127' "$logs/launcher.txt")" = 2 ] &&
  [ "$(grep -cx '    stderr:    recorder-advise: /nonexistent/mpiexec: No such file or directory' "$logs/launcher.txt")" = 2 ] ||
  { cat "$logs/launcher.txt" >&2; fail "MPIEXEC=/nonexistent/mpiexec: exit $status, or not two replays failed with 127"; }
status=0
MPIEXEC=/nonexistent/mpiexec "$advise" --prove --repeat 1 --mpirun "/nonexistent/other -v" "$work/t1" > "$logs/launcher.txt" 2>&1 || status=$?
[ "$status" = 1 ] && grep -q '^prove: .* under /nonexistent/other -v; ' "$logs/launcher.txt" &&
  grep -qx '    stderr:    recorder-advise: /nonexistent/other: No such file or directory' "$logs/launcher.txt" ||
  { cat "$logs/launcher.txt" >&2; fail "--mpirun does not win over MPIEXEC"; }

# A tuned replay whose trace does not show the set: no trace at all here.
status=0
RECORDER_LIB=$over "$advise" --prove --repeat 1 "$work/t1" > "$logs/untraced.txt" 2> "$logs/untraced.err" || status=$?
[ "$status" = 1 ] || fail "no trace of the tuned replay: exit $status, want 1"
[ "$(grep -cxF "    applied:   no: the traced tuned replay left no trace (is $over the tracer? RECORDER_LIB names it)" "$logs/untraced.txt")" = 2 ] ||
  { cat "$logs/untraced.txt" >&2; fail "no trace of the tuned replay: not two 'applied: no' lines"; }

# recorder-report: the findings with their figures; another trace's report refused.
report=$build/analysis/recorder-report
"$report" "$work/t1" -o "$work/report.html" --prove "$work/proved.txt" 2> "$logs/report.err" ||
  { cat "$logs/report.err" >&2; fail "recorder-report --prove failed"; }
[ "$(grep -c '^<tr class="finding"><td>[12]</td>' "$work/report.html")" = 2 ] || fail "the report: not two findings"
timing='[0-9]*\.[0-9]\{3\} s<br><span class="note">[0-9]*\.[0-9]\{3\}\.\.[0-9]*\.[0-9]\{3\} s, 1 replay</span>'
[ "$(grep -o "<td class=\"l untuned\">$timing</td><td class=\"l tuned\">$timing</td><td class=\"ratio\">[0-9]*\.[0-9]\{3\}</td><td class=\"l applied\">yes</td>" "$work/report.html" | wc -l)" = 2 ] ||
  fail "the report: not two findings with their before and after figures"
"$report" "$work/t1" -o "$work/np3.html" --prove "$logs/np3.txt" 2> "$logs/report.err" ||
  { cat "$logs/report.err" >&2; fail "recorder-report --prove on a report with failed replays failed"; }
[ "$(grep -c '<td class="l untuned">failed: replay 1 of 1 exited with status 1</td><td class="l tuned">not measured: a replay failed</td><td class="ratio">none</td><td class="l applied">not checked: a replay failed</td>' "$work/np3.html")" = 2 ] ||
  fail "the report: not two findings with their failures"
"$report" "$work/t1" -o "$work/plain.html" && grep -q '<th class="l">set</th></tr>' "$work/plain.html" ||
  fail "the report without --prove: no findings table without figures"
sed 's/^\[2\] independent I\/O/[2] something else/' "$work/proved.txt" > "$work/other.txt"
status=0
"$report" "$work/t1" -o "$work/other.html" --prove "$work/other.txt" 2> "$logs/other.err" || status=$?
[ "$status" = 1 ] && [ "$(cat "$logs/other.err")" = "recorder-report: --prove: $work/other.txt: finding [2] is \"something else to a shared file: $out/ior.dat\" there, \"independent I/O to a shared file: $out/ior.dat\" in the trace: a --prove result of another trace" ] ||
  { cat "$logs/other.err" >&2; fail "recorder-report --prove: another trace's report: exit $status or the message differs"; }
"$report" "$work/t1" -o "$work/other.html" --prove "$logs/advise.txt" 2> "$logs/noprove.err" && fail "a report without --prove accepted"
[ "$(cat "$logs/noprove.err")" = "recorder-report: --prove: $logs/advise.txt: a report of recorder-advise without --prove (no \"prove:\" line)" ] ||
  { cat "$logs/noprove.err" >&2; fail "recorder-report --prove: a report without --prove: the message differs"; }
echo "advise: prove: two findings, each timed untuned and tuned, the sets applied; failures said"
