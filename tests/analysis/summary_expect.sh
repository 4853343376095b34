#!/usr/bin/env bash
# summary_expect.sh BUILD_DIR KERNEL: traces KERNEL at 4 ranks and checks
# recorder-summary against the kernel's own --expect ground truth. The kernel
# counts the calls its own code makes (depth 0) that are not MPI communication
# and not on stdin/stdout/stderr, so the test sums `recorder-summary --csv
# --top` rows over paths per (rank, function), leaving out the MPI layer and
# the terminal streams, and the result must equal the expect lines exactly.
# The text output must name every expected function too.
test_name=analysis.summary.$2
source "$(dirname "$0")/common.sh"
kernel=$2
trace_kernel "$kernel.np4" 4 "$kernel"
"$tools/recorder-summary" --csv --top "$work/trace" > "$work/summary.csv"
head -n 1 "$work/summary.csv" | grep -qx 'rank,layer,function,path,calls,bytes,seconds' ||
  fail "unexpected CSV header: $(head -n 1 "$work/summary.csv")"
# The path may be a quoted field with commas: rank, layer and function are the
# first three fields, calls, bytes and seconds the last three.
awk -F, 'NR > 1 {
    path = $4; for (i = 5; i <= NF - 3; i++) path = path "," $i
    if ($2 == "MPI" || path == "<stdin>" || path == "<stdout>" || path == "<stderr>") next
    key = $1 " " $3; calls[key] += $(NF - 2); bytes[key] += $(NF - 1)
  }
  END { for (k in calls) { split(k, p, " "); printf "expect rank=%s function=%s calls=%d bytes=%d\n", p[1], p[2], calls[k], bytes[k] } }' \
  "$work/summary.csv" | LC_ALL=C sort -t' ' -k2,2V -k3,3 > "$work/got.txt"
LC_ALL=C sort -t' ' -k2,2V -k3,3 "$work/want.txt" > "$work/want.sorted"
[ -s "$work/want.sorted" ] || fail "the kernel printed no expect lines"
if ! diff -u "$work/want.sorted" "$work/got.txt"; then
  fail "recorder-summary disagrees with the kernel's --expect (want: kernel, got: summary)"
fi
"$tools/recorder-summary" "$work/trace" > "$work/summary.txt"
for f in $(awk '{ sub("function=", "", $3); print $3 }' "$work/want.sorted" | sort -u); do
  grep -q " $f " "$work/summary.txt" || fail "the text summary does not list $f"
done
grep -q '^Bandwidth per layer' "$work/summary.txt" || fail "no bandwidth section"
grep -q '^records: [0-9]*, compressed' "$work/summary.txt" || fail "no compression section"
echo "$test_name: $(wc -l < "$work/want.sorted") (rank, function) counts and bytes match"
