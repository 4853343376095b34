#!/usr/bin/env bash
# export_vpic.sh BUILD_DIR: recorder-export --chrome on vpic-like (4 ranks) is
# JSON (jq parses it) with one complete event per record, one track per rank,
# POSIX calls nested inside the top-level calls that made them, and the
# recorded arguments attached.
test_name=analysis.export.vpic-like
source "$(dirname "$0")/common.sh"
command -v jq > /dev/null || fail "jq is not installed (Debian package jq)"
dir=$runs/vpic-like.fixture
json=$dir/trace.json
"$tools/recorder-export" --chrome "$dir/trace" -o "$json"
jq -e '.traceEvents | length > 0' "$json" > /dev/null || fail "not JSON with traceEvents"
records=$("$tools/recorder-summary" --csv "$dir/trace" | awk -F, 'NR > 1 { s += $(NF - 2) } END { print s }')
events=$(jq '[.traceEvents[] | select(.ph == "X")] | length' "$json")
[ "$events" = "$records" ] || fail "$events complete events for $records records"
tracks=$(jq -c '[.traceEvents[] | select(.ph == "X") | .tid] | unique' "$json")
[ "$tracks" = "[0,1,2,3]" ] || fail "tracks $tracks, want one per rank"
names=$(jq -c '[.traceEvents[] | select(.name == "thread_name") | .args.name]' "$json")
[ "$names" = '["rank 0","rank 1","rank 2","rank 3"]' ] || fail "track names $names"
jq -e '[.traceEvents[] | select(.ph == "X") | (.ts | type) == "number" and (.dur | type) == "number" and .dur >= 0] | all' \
  "$json" > /dev/null || fail "an event without numeric ts/dur"
nested=$(jq '[.traceEvents[] | select(.ph == "X")] as $e | [range(0; 4) as $t |
  ([$e[] | select(.tid == $t and .args.depth == 0)]) as $top |
  ($e[] | select(.tid == $t and .args.depth == 2) | . as $c |
   any($top[]; .ts <= $c.ts + 0.002 and .ts + .dur + 0.002 >= $c.ts + $c.dur))] | [length, all]' "$json" | tr -d ' \n')
case $nested in
  \[0,*) fail "no depth-2 calls exported" ;;
  *,true\]) ;;
  *) fail "a depth-2 call lies outside every top-level call of its rank: $nested" ;;
esac
jq -e '[.traceEvents[] | select(.name == "pwrite" and (.args.fd | startswith("fd#")) and (.args.count | test("^[0-9]+$"))
        and (.args["io.file"] | endswith("/vpic.h5")))] | length > 0' "$json" > /dev/null ||
  fail "pwrite events lack their rendered arguments"
echo "$test_name: $events events on 4 tracks, nested, with arguments"
