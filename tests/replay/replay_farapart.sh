#!/usr/bin/env bash
# replay_farapart.sh BUILD_DIR -- a crafted 2-rank trace writes, with
# MPI_File_write_at_all, one element of an hindexed memory datatype whose
# blocks are 64 GiB apart on rank 0 and close together on rank 1 (as HDF5's
# metadata writes are under some allocators). No buffer of the replay can
# hold rank 0's element, but its 8192 bytes of data fit: the replay must issue
# the collective on both ranks, rank 0's as 8192 MPI_BYTE, instead of
# skipping it on rank 0 only and hanging. Then rank 1 writes one element of a
# type that reaches 4096 bytes below its buffer (rank 0 nothing): issued as
# its 200 MPI_BYTE. The file is rank 0's 8192 bytes at 0, rank 1's 3000 at
# 8192 and 200 at 11192. Last, an MPI_Allreduce (whose op needs the type) of
# a 64 GiB type on both ranks is skipped, and each rank says so on stderr.
set -euo pipefail
build=$1
. "$(dirname "$0")/../support/testlib.sh"
begin_test replay_farapart "$build/replay-runs/farapart"
"$build/tests/replay/craft_trace" farapart "$work/trace"
rc=0
timeout 60 mpiexec -np 2 -genv LD_PRELOAD "$build/tests/support/liboversubscribe.so" \
  "$build/replayer/recorder-replay" -v --prefix "$work/prefix" "$work/trace" > "$work/out.txt" 2> "$work/err.txt" ||
  rc=$?
cat "$work/out.txt"
cat "$work/err.txt" >&2
[ "$rc" != 124 ] || fail "the replay hung (killed after 60 s)"
[ "$rc" = 0 ] || fail "recorder-replay exited $rc"
said() { grep -qF "recorder-replay: rank $1: record $2: MPI_File_write_at_all: memory datatype $3" "$work/err.txt"; }
said 0 4 "spans 68719459840 bytes for 8192 bytes of data: issued as 8192 MPI_BYTE" ||
  fail "-v does not say rank 0's write was issued as 8192 MPI_BYTE"
said 1 8 "reaches 4096 bytes below its buffer for 200 bytes of data: issued as 200 MPI_BYTE" ||
  fail "-v does not say rank 1's second write was issued as 200 MPI_BYTE"
[ "$(grep -c 'MPI_BYTE' "$work/err.txt")" = 2 ] || fail "a write whose type fits was changed"
for rank in 0 1; do
  grep -qF "rank $rank: record $((9 + 3 * rank)): collective MPI_Allreduce skipped on this rank: its buffer would exceed 4 GiB" \
    "$work/err.txt" || fail "rank $rank does not say it skipped the collective MPI_Allreduce"
done
[ "$(grep -c 'skipped' "$work/err.txt")" = 2 ] || fail "a call other than MPI_Allreduce was skipped"
grep -qF "    MPI_Allreduce: 2 (its buffer would exceed 4 GiB)" "$work/out.txt" ||
  fail "the summary does not list the skipped MPI_Allreduce"
grep -Eq "^  MPI-IO +8 +0 +0 +0 +0 +11392$" "$work/out.txt" ||
  fail "not 8 MPI-IO calls replayed, none skipped, 11392 bytes written"
grep -qF "  issued as MPI_BYTE (no buffer fits their memory datatype): 2 calls" "$work/out.txt" ||
  fail "the summary does not count the calls issued as MPI_BYTE"
size=$(stat -c %s "$work/prefix/farapart.dat") || fail "no $work/prefix/farapart.dat"
[ "$size" = 11392 ] || fail "farapart.dat is $size bytes, not 11392"
echo "replay_farapart: the collective writes are issued on both ranks, as MPI_BYTE where no buffer fits the type;" \
  "the file has its 11392 bytes"
