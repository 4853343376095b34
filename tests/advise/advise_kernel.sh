#!/usr/bin/env bash
# advise_kernel.sh BUILD_DIR CASE: a kernel traced at 4 ranks, recorder-advise's
# findings checked exactly (their titles in order and the evidence's counts),
# the merged trace's the same, and where it suggests a set: recorder-replay --tune SET replays the trace
# under the tracer and recorder-diff --tuned SET finds the replay's trace
# equivalent to the original.
#   ior-indep  ior-like --collective 0 --transfer-size 4096: small accesses, independent I/O
#   ior-coll   ior-like (collective, 16 KiB): small accesses only, no independent I/O
#   vpic       vpic-like: small accesses, default alignment (collective metadata set)
#   vorpal     vorpal-like: alignment and collective metadata off on both files
#   n-to-m     n-to-m: the group leaders write, the others not: unbalanced bytes, no set
#   loops      advise_loops at 2 ranks: small POSIX writes (no set), opens and seeks in a loop
set -euo pipefail
build=$1 case=$2
. "$(dirname "$0")/../support/testlib.sh"
begin_test "advise: $case" "$build/advise-runs/$case" logs
logs=$work/logs
preload=$build/tests/support/liboversubscribe.so:$build/tracer/librecorder.so
advise=$build/analysis/recorder-advise diff=$build/analysis/recorder-diff
case $case in
  ior-indep) kernel=ior-like kargs=(--collective 0 --transfer-size 4096) ;;
  ior-coll) kernel=ior-like kargs=() ;;
  vpic) kernel=vpic-like kargs=() ;;
  vorpal) kernel=vorpal-like kargs=() ;;
  n-to-m) kernel=n-to-m kargs=() ;;
  loops) kernel=advise_loops kargs=() np=2 program=$build/tests/advise/advise_loops ;;
  *) fail "no case $case" ;;
esac
bash "$(dirname "$0")/../../kernels/run_kernel.sh" "$work/out" \
  mpirun.mpich -np "${np:-4}" -genv LD_PRELOAD "$preload" -genv RECORDER_TRACES_DIR "$work/t1" \
  "${program:-$build/kernels/$kernel}" "${kargs[@]}" > "$logs/kernel.txt" 2> "$logs/kernel.err" ||
  { cat "$logs/kernel.err" >&2; fail "the traced kernel failed"; }
"$advise" --set-file "$work/set.txt" "$work/t1" > "$logs/advise.txt" 2> "$logs/advise.err" ||
  { cat "$logs/advise.err" >&2; fail "recorder-advise failed"; }
cat "$logs/advise.txt"

out=$work/out
case $case in
  ior-indep)
    want="4 ranks, 2 findings
[1] small accesses: $out/ior.dat
evidence:  512 MPI-IO data calls by 4 ranks (256 writes, 256 reads), median 4.0 KiB, 512 (100%) under 64 KiB
[2] independent I/O to a shared file: $out/ior.dat
evidence:  512 independent MPI-IO data calls by 4 ranks, 2.0 MiB, each with a collective twin"
    set='mpiio.data=collective
mpiio.romio_cb_write=enable
mpiio.romio_cb_read=enable' ;;
  ior-coll)
    want="4 ranks, 1 finding
[1] small accesses: $out/ior.dat
evidence:  128 MPI-IO data calls by 4 ranks (64 writes, 64 reads), median 16.0 KiB, 128 (100%) under 64 KiB"
    set='mpiio.romio_cb_write=enable
mpiio.romio_cb_read=enable' ;;
  vpic)
    want="4 ranks, 2 findings
[1] small accesses: $out/vpic.h5
evidence:  128 HDF5 data calls by 4 ranks (64 writes, 64 reads), median 16.0 KiB, 128 (100%) under 64 KiB
[2] HDF5 default alignment on a parallel file: $out/vpic.h5
evidence:  datasets written by 4 ranks; no H5Pset_alignment call in the trace: objects at any byte"
    set='mpiio.romio_cb_write=enable
mpiio.romio_cb_read=enable
hdf5.alignment=1M' ;;
  vorpal)
    want="4 ranks, 6 findings"
    for f in vorpal_0000.h5 vorpal_0001.h5; do want+="
[small] small accesses: $out/$f
evidence:  24 HDF5 data calls by 4 ranks (12 writes, 12 reads), median 12.0 KiB, 24 (100%) under 64 KiB"; done
    for f in vorpal_0000.h5 vorpal_0001.h5; do want+="
[align] HDF5 default alignment on a parallel file: $out/$f
evidence:  datasets written by 4 ranks; no H5Pset_alignment call in the trace: objects at any byte"; done
    for f in vorpal_0000.h5 vorpal_0001.h5; do want+="
[md] HDF5 collective metadata off: $out/$f
evidence:  opened by 4 ranks; no H5Pset_all_coll_metadata_ops or H5Pset_coll_metadata_write call in the trace"; done
    want=$(printf '%s\n' "$want" | awk '/^\[/ { sub(/^\[[a-z]*\]/, "[" ++n "]") } 1')
    set='mpiio.romio_cb_write=enable
mpiio.romio_cb_read=enable
hdf5.alignment=1M
hdf5.coll_metadata_read=true
hdf5.coll_metadata_write=true' ;;
  n-to-m)
    want="4 ranks, 1 finding
[1] unbalanced bytes per rank
evidence:  the most: rank 0, 256.0 KiB; the least: rank 1, 0 B; the mean of 4 ranks: 128.0 KiB; 2 ranks move none"
    set= ;;
  loops)
    want="2 ranks, 3 findings
[1] small accesses: $out/loop.dat
evidence:  40 POSIX data calls by 2 ranks (40 writes, 0 reads), median 100 B, 40 (100%) under 64 KiB
[2] opens in a loop: $out/loop.dat
evidence:  20 opens of the file by rank 0; 2 ranks with 16 or more
[3] seeks in a loop: $out/loop.dat
evidence:  20 seeks of the file by rank 0; 2 ranks with 16 or more"
    set= ;;
esac
got=$(sed -n 's/^recorder-advise: [^:]*: \(.* finding.*\)/\1/p; /^\[/p; s/^    \(evidence: .*\)/\1/p' "$logs/advise.txt")
[ "$got" = "$want" ] || { diff -u <(printf '%s\n' "$want") <(printf '%s\n' "$got") >&2; fail "the findings differ"; }
# every finding states its threshold and its advice
[ "$(grep -c '^    threshold: ' "$logs/advise.txt")" = "$(grep -c '^\[' "$logs/advise.txt")" ] || fail "a finding without its threshold"
[ "$(grep -c '^    advice: ' "$logs/advise.txt")" = "$(grep -c '^\[' "$logs/advise.txt")" ] || fail "a finding without its advice"
[ "$(grep -v '^#' "$work/set.txt")" = "$set" ] || { cat "$work/set.txt" >&2; fail "the written set differs"; }
# The merged trace gets the same findings.
"$build/merger/recorder-merge" "$work/t1" -o "$work/merged" --quiet > "$logs/merge.txt" 2>&1 ||
  { cat "$logs/merge.txt" >&2; fail "recorder-merge failed"; }
"$advise" "$work/merged" > "$logs/advise-merged.txt" 2>&1 || { cat "$logs/advise-merged.txt" >&2; fail "recorder-advise failed on the merged trace"; }
diff -u <(sed 1d "$logs/advise.txt") <(sed 1d "$logs/advise-merged.txt") || fail "the merged trace's findings differ"
if [ -z "$set" ]; then
  grep -q '^combined tuning set' "$logs/advise.txt" && fail "a combined set without suggestions"
  # --prove has nothing to replay: the report and one line more
  "$advise" --prove "$work/t1" > "$logs/prove.txt" 2>&1 || { cat "$logs/prove.txt" >&2; fail "--prove failed without a set"; }
  diff -u <(sed '1a prove: no finding with a set: nothing to replay' "$logs/advise.txt") "$logs/prove.txt" ||
    fail "--prove without a set: not the report and its prove: line"
  echo "advise: $case: the findings, no set"
  exit 0
fi

# The set applies: the replay under it, traced, differs from the original by the set alone.
(cd "$work" && mpirun.mpich -np 4 -genv LD_PRELOAD "$preload" -genv RECORDER_TRACES_DIR "$work/t2" \
  "$build/replayer/recorder-replay" --tune "$work/set.txt" --prefix "$work/prefix" "$work/t1") \
  > "$logs/replay.txt" 2> "$logs/replay.err" || { cat "$logs/replay.err" >&2; fail "recorder-replay --tune failed"; }
grep -q "not applied" "$logs/replay.txt" && { cat "$logs/replay.txt" >&2; fail "an override of the set was not applied"; }
"$diff" --tuned "$work/set.txt" "$work/t1" "$work/t2" > "$logs/diff-tuned.txt" 2>&1 ||
  { cat "$logs/diff-tuned.txt" >&2; fail "recorder-diff --tuned finds the replay of the advised set different"; }
grep -q '^recorder-diff: equivalent: 4 ranks' "$logs/diff-tuned.txt" || fail "recorder-diff --tuned: no equivalence line"
echo "advise: $case: the findings, and the set applied"
