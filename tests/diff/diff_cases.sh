#!/usr/bin/env bash
# diff_cases.sh BUILD_DIR CASE
# Mutation, counter and error cases for recorder-diff, on the traces
# diff_kernel.sh left in BUILD_DIR/diff-runs/KERNEL (trace1 and trace2: two
# runs at 4 ranks into out1 and out2): checkpoint-fpp's, or the kernel a case
# names below. Each case copies trace2 with one change (trace_mutate; the
# synth-* cases write their own pair with trace_synth instead) and checks
# that recorder-diff, comparing trace1 with the copy, exits as it should and
# that its first difference line is exactly the expected one.
# Expected positions and values come from recorder2text, independently of
# recorder-diff's own filtering: the compared calls are the depth-0 calls off
# the console, minus MPI calls other than those the case lists as shaping
# I/O (checkpoint-fpp and metadata-storm have none).
set -euo pipefail
build=$1 case=$2
kernel=checkpoint-fpp
# The MPI calls of the kernel that shape I/O (recorder-diff compares them).
shaping=''
case $case in
readdir-*) kernel=metadata-storm ;;
counters-shared) kernel=ior-like ;;
synth-*) kernel=synth ;; # two small traces of trace_synth: no kernel
waitall) kernel=nonblocking shaping='^MPI_(Waitall|Type_create_subarray|Type_commit|Type_free)[(]' ;;
esac
base=$build/diff-runs/$kernel
work=$base/case-$case
diff=$build/analysis/recorder-diff
mutate=$build/tests/diff/trace_mutate
r2t=$build/analysis/recorder2text
a=$base/trace1 b=$base/trace2
rm -rf "$work" && mkdir -p "$work"

fail() { echo "diff_cases: $case: $*" >&2; exit 1; }
# run_diff WANT_STATUS ARGS...: output in $work/out.txt, stderr in $work/err.txt
run_diff() {
  local want=$1 rc=0
  shift
  "$diff" "$@" > "$work/out.txt" 2> "$work/err.txt" || rc=$?
  cat "$work/out.txt" "$work/err.txt"
  [ "$rc" = "$want" ] || fail "recorder-diff $* exited $rc, not $want"
}
# first_difference: the first line that is neither an indented call nor a recorder-diff note
first_difference() { awk '!/^  / && !/^recorder-diff: / && !seen++' "$work/out.txt"; }
expect_first() {
  local got
  got=$(first_difference)
  [ "$got" = "$1" ] || fail "first difference is
  $got
not
  $1"
}
# calls RANK: rank's compared calls, one per line (position = line number)
calls() { "$r2t" --rank "$1" "$a" | awk -v re="$shaping" '$4 == 0 && ($5 != "MPI" || (re != "" && $6 ~ re))' |
          grep -v -e 'stream=std\(in\|out\|err\)' -e 'fd=STD\(IN\|OUT\|ERR\)_FILENO' | cut -d' ' -f6-; }
# position RANK FUNC N: position of the Nth call of FUNC
position() { calls "$1" | awk -v f="$2(" -v n="$3" 'index($0, f) == 1 && ++seen == n { print NR }'; }
# call_at RANK POS: that call's text
call_at() { calls "$1" | sed -n "$2p"; }
# arg TEXT NAME: NAME's value in a call's text
arg() { sed -n "s/.*[(, ]$2=\([^,)]*\).*/\1/p" <<< "$1"; }
ret() { sed -n 's/.*) = \([^ ]*\).*/\1/p' <<< "$1"; }
mutated() { "$mutate" "$b" "$work/b" "$@" > "$work/mutate.txt"; }

case $case in
pwrite-count) # size of rank 2's 3rd pwrite
  mutated --rank 2 --func pwrite --nth 3 --set count=1000 --set return=1000
  pos=$(position 2 pwrite 3) text=$(call_at 2 "$pos")
  run_diff 1 "$a" "$work/b"
  expect_first "rank 2, call $pos: pwrite: count differs: $(arg "$text" count) (A) vs 1000 (B); return value differs: $(ret "$text") (A) vs 1000 (B)"
  ;;
pwrite-offset) # offset of rank 1's 6th pwrite
  mutated --rank 1 --func pwrite --nth 6 --set offset=12345
  pos=$(position 1 pwrite 6) text=$(call_at 1 "$pos")
  run_diff 1 "$a" "$work/b"
  expect_first "rank 1, call $pos: pwrite: offset differs: $(arg "$text" offset) (A) vs 12345 (B)"
  ;;
drop-call) # rank 3's 4th pwrite is missing: B is one call short from there on
  mutated --rank 3 --func pwrite --nth 4 --drop
  pos=$(position 3 pwrite 4) next=$(call_at 3 $((pos + 1)))
  total=$(calls 3 | wc -l)
  run_diff 1 "$a" "$work/b"
  expect_first "rank 3, call $pos: A has pwrite(...), B has ${next%%(*}(...)"
  grep -qxF "rank 3: A has $total top-level I/O calls, B has $((total - 1))" "$work/out.txt" ||
    fail "no line giving both call counts"
  ;;
replace-call) # rank 1's 2nd pwrite became a pread
  mutated --rank 1 --func pwrite --nth 2 --replace pread
  pos=$(position 1 pwrite 2)
  run_diff 1 "$a" "$work/b"
  expect_first "rank 1, call $pos: A has pwrite(...), B has pread(...)"
  ;;
path) # rank 2's 2nd open names another file
  mutated --rank 2 --func open --nth 2 --set-path "pathname=$base/elsewhere/ckpt"
  pos=$(position 2 open 2) text=$(call_at 2 "$pos")
  path=$(arg "$text" pathname)
  run_diff 1 "$a" "$work/b"
  expect_first "rank 2, call $pos: open: pathname differs: $path (A) vs \"$base/elsewhere/ckpt\" (B), expected ${path/$base\/out1/$base/out2}"
  ;;
handle) # rank 1's 1st fsync on another fd; --ignore-handles still sees the file's counts change
  mutated --rank 1 --func fsync --nth 1 --set fd=99
  pos=$(position 1 fsync 1) text=$(call_at 1 "$pos")
  run_diff 1 "$a" "$work/b"
  expect_first "rank 1, call $pos: fsync: fd differs: $(arg "$text" fd) (A) vs fd#99 (B)"
  run_diff 1 --ignore-handles "$a" "$work/b"
  file=$(calls 1 | awk 'index($0, "open(") == 1 && !found++' | sed 's/^open(pathname=\([^,]*\),.*/\1/')
  expect_first "rank 1: file $file: other calls differ: 2 (A) vs 1 (B)"
  ;;
reroot) # every path re-rooted as the replayer does: inferred, and given with --map =DIR
  "$mutate" "$a" "$work/b" --reroot "$work/replay-root" > "$work/mutate.txt"
  run_diff 0 "$a" "$work/b"
  grep -qF "recorder-diff: paths: re-rooted under \"$work/replay-root\"" "$work/out.txt" || fail "no re-rooting inferred"
  run_diff 0 --map "=$work/replay-root" "$a" "$work/b"
  run_diff 1 --no-map "$a" "$work/b"
  ;;
map) # explicit prefix mappings, and raw names
  run_diff 0 --map "$base/out1=$base/out2" "$a" "$b"
  grep -q "^recorder-diff: equivalent: 4 ranks" "$work/out.txt" || fail "no summary line"
  run_diff 1 --map "$base/out1=$base/out3" "$a" "$b"
  run_diff 1 --no-map "$a" "$b"
  pos=$(calls 0 | awk -v m="mkdir(pathname=\"$base/out1\"," 'index($0, m) == 1 && !found++ { print NR }')
  expect_first "rank 0, call $pos: mkdir: pathname differs: \"$base/out1\" (A) vs \"$base/out2\" (B)"
  ;;
counters-equal)
  run_diff 0 --counters-only "$a" "$b"
  grep -q "^recorder-diff: equivalent (per-file counters only): 4 ranks, [0-9]* top-level I/O calls, [1-9][0-9]* files$" \
    "$work/out.txt" || fail "no counters-only summary line"
  ;;
counters-bytes) # rank 2's 3rd pwrite moved 1000 bytes instead of its count
  mutated --rank 2 --func pwrite --nth 3 --set return=1000
  pos=$(position 2 pwrite 3)
  file=$(calls 2 | sed -n "1,${pos}p" | grep '^open(' | tail -n 1 | sed 's/^open(pathname=\([^,]*\),.*/\1/')
  run_diff 1 --counters-only "$a" "$work/b"
  line=$(first_difference)
  [[ "$line" =~ ^"rank 2: file $file: bytes written differ: "([0-9]+)" (A) vs "([0-9]+)" (B)"$ ]] ||
    fail "first difference is not about the bytes written to $file: $line"
  [ $((BASH_REMATCH[1] - BASH_REMATCH[2])) = $((65536 - 1000)) ] ||
    fail "A and B differ by $((BASH_REMATCH[1] - BASH_REMATCH[2])) bytes, not $((65536 - 1000))"
  [ "$(grep -c '^rank ' "$work/out.txt")" = 1 ] || fail "more than the one file's bytes differ"
  run_diff 1 "$a" "$work/b"
  expect_first "rank 2, call $pos: pwrite: return value differs: 65536 (A) vs 1000 (B)"
  ;;
swap-pwrite) # rank 0's 1st and 2nd pwrite in the other order: offsets differ
  mutated --rank 0 --func pwrite --nth 1 --swap
  pos=$(position 0 pwrite 1) first=$(call_at 0 "$pos") second=$(call_at 0 $((pos + 1)))
  run_diff 1 "$a" "$work/b"
  expect_first "rank 0, call $pos: pwrite: offset differs: $(arg "$first" offset) (A) vs $(arg "$second" offset) (B)"
  ;;
readdir-order) # the file system's entry order is not the application's: equivalent
  mutated --rank 1 --func readdir --nth 3 --swap
  [ "$(call_at 1 "$(position 1 readdir 3)")" != "$(call_at 1 "$(position 1 readdir 4)")" ] ||
    fail "the swapped entries are the same"
  run_diff 0 "$a" "$work/b"
  ;;
readdir-name) # one entry renamed: reported when its stream is closed
  mutated --rank 1 --func readdir --nth 5 --set-str return=zzz-renamed
  # B's 5th entry, which the copy renames (A lists the names in another order)
  pos=$(position 1 readdir 5)
  name=$("$r2t" --rank 1 "$b" | awk '$4 == 0 && $6 ~ /^readdir\(/' | sed -n 5p | sed 's/.*) = //')
  close=$(calls 1 | awk -v pos="$pos" 'NR > pos && index($0, "closedir(") == 1 && !found++ { print NR }')
  run_diff 1 "$a" "$work/b"
  expect_first "rank 1, call $close: closedir: the entries readdir returned differ (compared as a set): $name only in A"
  ;;
waitall) # MPI_Waitall completes nonblocking MPI-IO: it is compared
  mutated --rank 1 --func MPI_Waitall --nth 2 --set count=3
  pos=$(position 1 MPI_Waitall 2)
  run_diff 1 "$a" "$work/b"
  expect_first "rank 1, call $pos: MPI_Waitall: count differs: 4 (A) vs 3 (B)"
  run_diff 0 --counters-only "$a" "$work/b"
  ;;
counters-shared) # one rank wrote less to the file all ranks share: its counts and the totals
  mutated --rank 1 --func MPI_File_write_at_all --nth 2 --set bytes=100
  file=\"$base/out1/ior.dat\"
  run_diff 1 --counters-only "$a" "$work/b"
  for where in "rank 1" "all ranks"; do
    line=$(grep "^$where: " "$work/out.txt") || fail "no line for $where"
    [[ "$line" =~ ^"$where: file $file: bytes written differ: "([0-9]+)" (A) vs "([0-9]+)" (B)"$ ]] ||
      fail "unexpected line for $where: $line"
    [ $((BASH_REMATCH[1] - BASH_REMATCH[2])) = $((16384 - 100)) ] || fail "$where: wrong difference: $line"
  done
  [ "$(first_difference)" = "$(grep "^rank 1: " "$work/out.txt")" ] || fail "the rank's line is not first"
  ;;
synth-equal) # a replay under /R: dirfd paths made absolute, ".." resolved, links kept, readdir reordered
  "$build/tests/diff/trace_synth" "$work/a" "$work/b"
  run_diff 0 "$work/a" "$work/b"
  grep -qxF "recorder-diff: paths: re-rooted under \"/R\" (inferred from rank 0: \"/data\" vs \"/R/data\")" "$work/out.txt" ||
    fail "no re-rooting under /R inferred"
  run_diff 1 --no-map "$work/a" "$work/b"
  ;;
synth-*) # one call of that replay changed
  "$build/tests/diff/trace_synth" "$work/a" "$work/b" "${case#synth-}"
  run_diff 1 "$work/a" "$work/b"
  case $case in
  synth-dirfd-path) want='rank 0, call 4: openat: pathname differs: "f" (A) vs "/R/data/d/g" (B), expected "/R/data/d/f"' ;;
  synth-dotdot-path) want='rank 0, call 7: open: pathname differs: "sub/../data/x" (A) vs "/R/sub/data/x" (B), expected "/R/data/x"' ;;
  synth-link-target) want='rank 0, call 11: symlink: target differs: "/data/d/f" (A) vs "/data/d/f" (B), expected "/R/data/d/f"' ;;
  synth-readdir-name) want='rank 0, call 18: closedir: the entries readdir returned differ (compared as a set): "f" only in A' ;;
  synth-mkdir-result) want='rank 0, call 2: mkdir: return value differs: -1 (A) vs 0 (B); errno differs: EEXIST (A) vs 0 (B)' ;;
  *) fail "no such case" ;;
  esac
  expect_first "$want"
  ;;
ranks) # B has fewer ranks
  mutated --ranks 2
  run_diff 1 "$a" "$work/b"
  expect_first "A has 4 ranks, B has 2"
  ;;
corrupt) # a damaged rank stream is an error naming the file, not a difference
  cp -r "$b" "$work/b"
  size=$(stat -c %s "$work/b/2.rec")
  printf 'recorder-diff test garbage' | dd of="$work/b/2.rec" bs=1 seek=$((size / 2)) conv=notrunc 2> /dev/null
  run_diff 2 "$a" "$work/b"
  grep -q "^recorder-diff: $work/b/2.rec: " "$work/err.txt" || fail "the error does not name 2.rec"
  run_diff 2 "$a" "$work/missing"
  grep -q "^recorder-diff: $work/missing" "$work/err.txt" || fail "the error does not name the missing trace"
  run_diff 2 --max x "$a" "$b"
  ;;
*) fail "no such case" ;;
esac
echo "diff_cases: $case: ok"
