#!/usr/bin/env bash
# overlap_patterns.sh BUILD_DIR: recorder-overlap on overlap_patterns (2
# ranks), which creates each kind of overlap once within a rank and once
# across ranks: RAR (A across, G within), WAW (B within, H across), RAW (C
# across, I within), WAR (D within, J across);
# appends that overlap nothing (E); and a RAW across ranks that a
# close-to-open ordering separates (F), reported only with --all-sessions.
test_name=analysis.overlap.patterns
source "$(dirname "$0")/common.sh"
trace_program overlap-patterns 2 "$build/tests/analysis/overlap_patterns"
out=$work/out
cat > "$work/want.txt" <<WANT
RAR rank 0 -> rank 1 file "$out/A" bytes [2048, 4096)
WAW rank 0 -> rank 0 file "$out/B" bytes [4096, 8192)
RAW rank 0 -> rank 1 file "$out/C" bytes [1000, 3000)
WAR rank 1 -> rank 1 file "$out/D" bytes [512, 1024)
RAR rank 1 -> rank 1 file "$out/G" bytes [1024, 2048)
WAW rank 0 -> rank 1 file "$out/H" bytes [3000, 4096)
RAW rank 0 -> rank 0 file "$out/I" bytes [9000, 10024)
WAR rank 0 -> rank 1 file "$out/J" bytes [13000, 14000)
WANT
"$tools/recorder-overlap" "$work/trace" > "$work/got.txt"
diff -u "$work/want.txt" "$work/got.txt" || fail "wrong overlaps (want: the eight the program makes)"
{ cat "$work/want.txt"; echo "RAW rank 0 -> rank 1 file \"$out/F\" bytes [0, 4096)"; } |
  sort -t'"' -k2,2 -s > "$work/want-all.txt" # lines come in file order
"$tools/recorder-overlap" --all-sessions "$work/trace" > "$work/got-all.txt"
diff -u "$work/want-all.txt" "$work/got-all.txt" || fail "--all-sessions: wrong overlaps"
"$tools/recorder-overlap" --memory 1 "$work/trace" > "$work/got-small.txt"
diff -u "$work/want.txt" "$work/got-small.txt" || fail "--memory 1: wrong overlaps"
[ "$("$tools/recorder-overlap" --layer MPI-IO "$work/trace")" = "no overlapping accesses" ] ||
  fail "--layer MPI-IO: the program makes no MPI-IO accesses"
[ "$("$tools/recorder-overlap" --rank 0 "$work/trace" | wc -l)" = 2 ] || fail "--rank 0: want only rank 0's WAW (B) and RAW (I)"
echo "$test_name: each pattern within and across ranks, and F only across sessions"
