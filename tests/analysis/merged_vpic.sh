#!/usr/bin/env bash
# merged_vpic.sh BUILD_DIR: the analyses read a merged trace (recorder-merge's
# one stream for all ranks) as they read the per-rank trace it came from:
# the same summary rows, overlaps, layer view and report sections.
test_name=analysis.merged.vpic-like
source "$(dirname "$0")/common.sh"
dir=$runs/vpic-like.fixture
merged=$dir/merged
rm -rf "$merged"
"$build/merger/recorder-merge" --quiet "$dir/trace" -o "$merged"
same() { # same WHAT CMD...: CMD on the per-rank and on the merged trace prints the same
  local what=$1
  shift
  "$@" "$dir/trace" > "$dir/per-rank.txt"
  "$@" "$merged" > "$dir/merged.txt"
  diff -u "$dir/per-rank.txt" "$dir/merged.txt" || fail "$what differs on the merged trace"
}
same "summary --csv" "$tools/recorder-summary" --csv
same "overlap --all" "$tools/recorder-overlap" --all
same "overlap" "$tools/recorder-overlap"
same "layers" "$tools/recorder-layers" --limit 0
# The text summary differs only in its first line (the trace's directory) and
# in the compression section, which describes the merged stream.
"$tools/recorder-summary" "$merged" > "$dir/merged-summary.txt"
grep -q '^Compression (of the merged stream):' "$dir/merged-summary.txt" ||
  fail "the merged trace's compression is not labelled as the merged stream's"
echo "$test_name: summary, overlap and layers identical"
