#!/bin/bash
# Volume tests: the tracer keeps up with many calls in bounded memory.
#   run_volume.sh threads PROGRAM LIBRECORDER RECORDER2TEXT WORKDIR
#     tracer.threads_bounded_memory: 8 threads x 100000 pwrite (+ lseek/read)
#   run_volume.sh many PROGRAM LIBRECORDER RECORDER2TEXT WORKDIR
#     tracer.two_million_records: VOLUME_CALLS (default 10000000) lseek calls
#     on one thread; tracer.ten_million_records (label long) the default
# Both: the program's own checks pass, its peak RSS stays under MAXRSS_KB
# (default 65536), and the trace decodes with exactly the calls made.
# REQUIRE_MONOTONIC=1: also no record may start before its thread's previous one.
set -u
mode=$1 prog=$2 lib=$3 r2t=$4 work=$5
limit_kb=${MAXRSS_KB:-65536}

fail() { echo "FAIL: $*" >&2; exit 1; }
value() { awk -v k="$1" '$1 == k { print $2 } $1 == "calls" && $2 == k { print $3 }' "$work/out"; }

rm -rf "$work"
mkdir -p "$work/data" || fail "cannot create $work"
start=$(date +%s.%N)
case $mode in
threads) args=("$work/data" 8 100000) ;;
many) calls=${VOLUME_CALLS:-10000000} && args=("$work/data/file" "$calls") ;;
*) fail "unknown mode $mode" ;;
esac
env LD_PRELOAD="$lib" RECORDER_TRACES_DIR="$work/trace" "$prog" "${args[@]}" >"$work/out"
rc=$?
cat "$work/out"
[ $rc -eq 0 ] || fail "the traced program exited with $rc"
[ "$(value ok)" = 1 ] || fail "the program's results are wrong"
echo "traced run: $(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }') s"
rss=$(value maxrss_kb)
[ -n "$rss" ] && [ "$rss" -lt "$limit_kb" ] || fail "peak RSS ${rss:-?} KB, the bound is $limit_kb KB"
echo "peak RSS $rss KB < $limit_kb KB"

"$r2t" --info "$work/trace" >"$work/info" || fail "recorder2text --info exited with $?"
records=$(awk '$1 == "0" && NF == 8 { print $2 }' "$work/info")
echo "recorder2text --info: $records records"

# Decode every record: "RANK TSTART TEND DEPTH LAYER name(args) = ret ... [thread=N]".
"$r2t" "$work/trace" 2>"$work/r2t.stderr" | awk '
    { f = $6; sub(/\(.*/, "", f); th = 0
      if (match($0, / thread=[0-9]+$/)) th = substr($0, RSTART + 8)
      fd = ""; if (match($6, /fd#[0-9]+/)) fd = substr($6, RSTART, RLENGTH)
      n[f]++; total++
      if (f == "pwrite") { if (!(fd in tid)) tid[fd] = th; else if (tid[fd] != th) mixed++ }
      if (f == "open" && th != 0) notmain++
      if ((th in prev) && $2 < prev[th]) back++
      prev[th] = $2 }
    END { for (f in n) print "records", f, n[f]
          print "total", total + 0
          for (fd in tid) print "pwrite_thread", fd, tid[fd]
          print "mixed", mixed + 0
          print "open_off_main", notmain + 0
          print "backwards", back + 0 }' >"$work/decoded"
rc=${PIPESTATUS[0]}
[ $rc -eq 0 ] || { cat "$work/r2t.stderr" >&2; fail "recorder2text exited with $rc"; }
[ -s "$work/r2t.stderr" ] && { cat "$work/r2t.stderr" >&2; fail "recorder2text warned"; }
echo "decoded: $(awk '$1 == "total" { print $2 }' "$work/decoded") records"
[ "$(awk '$1 == "total" { print $2 }' "$work/decoded")" = "$records" ] ||
    fail "--info says $records records, the stream holds $(awk '$1 == "total" { print $2 }' "$work/decoded")"
# A thread's records start in time order: with REQUIRE_MONOTONIC=1 a record
# that starts before the previous one of its thread fails the test.
back=$(awk '$1 == "backwards" { print $2 }' "$work/decoded")
echo "records starting before their thread's previous record: $back"
[ "${REQUIRE_MONOTONIC:-0}" = 1 ] && [ "$back" != 0 ] && fail "time went backwards $back times"
count() { awk -v f="$1" '$1 == "records" && $2 == f { print $3 }' "$work/decoded"; }

case $mode in
threads)
    for f in pwrite lseek read pread; do
        [ "$(count $f)" = "$(value $f)" ] || fail "$f: $(value $f) calls but $(count $f) records"
        echo "$f: $(value $f) calls, $(count $f) records"
    done
    [ "$(count pwrite)" = 800000 ] || fail "expected 800000 pwrite records"
    [ "$(awk '$1 == "mixed" { print $2 }' "$work/decoded")" = 0 ] ||
        fail "one file's pwrite records carry several thread ids"
    [ "$(awk '$1 == "open_off_main" { print $2 }' "$work/decoded")" = 0 ] ||
        fail "the main thread's open records are not thread 0"
    ids=$(awk '$1 == "pwrite_thread" { print $3 }' "$work/decoded" | sort -n | tr '\n' ' ')
    echo "pwrite thread ids: $ids(main thread: 0)"
    [ "$ids" = "1 2 3 4 5 6 7 8 " ] || fail "expected the worker threads to be 1..8"
    ;;
many)
    [ "$records" -ge "$calls" ] || fail "--info reports $records records, expected $calls or more"
    [ "$(count lseek)" = "$calls" ] || fail "expected $calls lseek records, got $(count lseek)"
    ;;
esac
rm -rf "$work/data"
echo "PASS"
