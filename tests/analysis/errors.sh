#!/usr/bin/env bash
# errors.sh BUILD_DIR: every analysis tool exits 2 on bad usage and 1, with
# "TOOL: reason", on a directory that is not a trace and on a corrupt trace;
# --help exits 0.
test_name=analysis.errors
source "$(dirname "$0")/common.sh"
work=$runs/errors
rm -rf "$work" && mkdir -p "$work/notrace"
cp -r "$runs/vpic-like.fixture/trace" "$work/corrupt"
# Damage rank 1's stream in the middle: the block CRCs catch it.
size=$(stat -c %s "$work/corrupt/1.rec")
printf '\377\377\377\377\377\377\377\377' | dd of="$work/corrupt/1.rec" bs=1 seek=$((size / 2)) conv=notrunc 2> /dev/null
expect_exit() { # expect_exit CODE PATTERN CMD...: CMD exits CODE, stderr matches PATTERN
  local code=$1 pattern=$2 rc=0
  shift 2
  "$@" > "$work/out.txt" 2> "$work/err.txt" || rc=$?
  [ "$rc" = "$code" ] || fail "$* exited $rc, want $code ($(head -c 300 "$work/err.txt"))"
  grep -Eq "$pattern" "$work/err.txt" || fail "$*: stderr does not match '$pattern': $(head -c 300 "$work/err.txt")"
}
for tool in recorder-summary recorder-overlap recorder-layers recorder-report recorder-export recorder-advise; do
  extra=()
  [ "$tool" = recorder-export ] && extra=(--chrome)
  expect_exit 2 "usage: $tool" "$tools/$tool" "${extra[@]}" --no-such-option "$work/notrace"
  expect_exit 2 "usage: $tool" "$tools/$tool" "${extra[@]}"
  expect_exit 1 "^$tool: $work/notrace" "$tools/$tool" "${extra[@]}" "$work/notrace"
  expect_exit 1 "^$tool: .*1\.rec" "$tools/$tool" "${extra[@]}" "$work/corrupt"
  # Not `tool --help | grep -q`: under pipefail, grep quitting at its first
  # match can make the writer die of SIGPIPE and the pipeline fail.
  grep -q "^usage: $tool" <<<"$("$tools/$tool" --help)" || fail "$tool --help"
done
expect_exit 2 "^recorder-export: say which format" "$tools/recorder-export" "$work/notrace"
expect_exit 2 "^recorder-summary: --rank 9-9: the trace has 4 ranks" "$tools/recorder-summary" --rank 9 \
  "$runs/vpic-like.fixture/trace"
expect_exit 2 "^recorder-overlap: --layer" "$tools/recorder-overlap" --layer HDF5 "$runs/vpic-like.fixture/trace"
echo "$test_name: exit codes and messages as documented"
