#!/usr/bin/env bash
# replay_tuned.sh BUILD_DIR CASE: a kernel traced at 4 ranks (T1), replayed
# under the tracer with a tuning set (T2), and what the set changed checked
# exactly: the summary's tuning lines, the calls T2 has that T1 has not (or
# has otherwise), recorder-diff --tuned equivalent, plain recorder-diff
# finding exactly the set's differences, recorder-diff --tuned reporting an
# override B does not show and a difference the set does not explain.
#   hints  ior-like, --set mpiio.romio_cb_write=enable --set mpiio.cb_nodes=2
#   data   ior-like --collective 0, --tune FILE: mpiio.data=collective
#   hdf5   vpic-like, --set hdf5.alignment=1M: H5Pset_alignment added on the fapl
#   hdf5-lists  vpic-like, --tune FILE: setter values changed (dxpl, fapl) and an fcpl made for
#          H5Fcreate's H5P_DEFAULT with the file space setters added (the file paged)
set -euo pipefail
build=$1 case=$2
. "$(dirname "$0")/../support/testlib.sh"
begin_test "replay_tuned: $case" "$build/tune-runs/$case" logs
logs=$work/logs
preload=$build/tests/support/liboversubscribe.so:$build/tracer/librecorder.so
text=$build/analysis/recorder2text diff=$build/analysis/recorder-diff
case $case in
  hints) kernel=ior-like kargs=() tune=(--set mpiio.romio_cb_write=enable --set mpiio.cb_nodes=2) ;;
  data)
    kernel=ior-like kargs=(--collective 0)
    printf '# ior-like, independent in the trace\nmpiio.data = collective   # the _all twins\n' > "$work/set.txt"
    tune=(--tune "$work/set.txt") ;;
  hdf5) kernel=vpic-like kargs=() tune=(--set hdf5.alignment=1M) ;;
  hdf5-lists)
    kernel=vpic-like kargs=()
    printf 'hdf5.transfer=independent\nhdf5.coll_metadata_write=false\nhdf5.fspace_strategy=page\nhdf5.fspace_page_size=64K\n' \
      > "$work/set.txt"
    tune=(--tune "$work/set.txt") ;;
  *) fail "no case $case" ;;
esac

bash "$(dirname "$0")/../../kernels/run_kernel.sh" "$work/out" \
  mpirun.mpich -np 4 -genv LD_PRELOAD "$preload" -genv RECORDER_TRACES_DIR "$work/t1" \
  "$build/kernels/$kernel" "${kargs[@]}" > "$logs/kernel.txt" 2> "$logs/kernel.err" ||
  { cat "$logs/kernel.err" >&2; fail "the traced kernel failed"; }
(cd "$work" && mpirun.mpich -np 4 -genv LD_PRELOAD "$preload" -genv RECORDER_TRACES_DIR "$work/t2" \
  "$build/replayer/recorder-replay" "${tune[@]}" --prefix "$work/prefix" "$work/t1") \
  > "$logs/replay.txt" 2> "$logs/replay.err" || { cat "$logs/replay.err" >&2; fail "recorder-replay failed"; }
cat "$logs/replay.txt"

# The top-level calls of a trace, one "rank function(arguments)" a line.
calls() { "$text" "$1" | awk '$4 == 0 { $2 = $3 = $4 = ""; print }' | sed 's/   */ /'; }
calls "$work/t1" > "$logs/t1.txt"
calls "$work/t2" > "$logs/t2.txt"
count() { grep -c -- "$2" "$1" || true; }
expect_count() { # FILE PATTERN N WHAT
  local n
  n=$(count "$1" "$2")
  [ "$n" = "$3" ] || fail "$4: $n, expected $3 (/$2/ in $1)"
}
tuning_lines() { sed -n '/^  tuning:/,$p' "$logs/replay.txt"; }

case $case in
  hints)
    printf '  tuning: 2 overrides\n    mpiio.romio_cb_write=enable: on the info of 8 calls\n    mpiio.cb_nodes=2: on the info of 8 calls\n' > "$logs/want-summary.txt"
    # T2: on each rank, one info made (the opens passed MPI_INFO_NULL) with exactly those two hints, on both opens.
    expect_count "$logs/t1.txt" "MPI_Info_" 0 "MPI_Info calls in the original"
    expect_count "$logs/t2.txt" "MPI_Info_create(info=info#64)" 4 "infos made by the replay"
    expect_count "$logs/t2.txt" 'MPI_Info_set(info=info#64, key="romio_cb_write", value="enable")' 4 "romio_cb_write set"
    expect_count "$logs/t2.txt" 'MPI_Info_set(info=info#64, key="cb_nodes", value="2")' 4 "cb_nodes set"
    expect_count "$logs/t2.txt" "MPI_Info_set" 8 "hints set in all"
    expect_count "$logs/t1.txt" "MPI_File_open(.*info=MPI_INFO_NULL" 8 "the original's opens without hints"
    expect_count "$logs/t2.txt" "MPI_File_open(.*info=info#64" 8 "the replay's opens with the hints"
    plain_want=4 plain_pattern="A has MPI_File_open(...), B has MPI_Info_create(...)"
    tuned_want='recorder-diff: tuned: mpiio.romio_cb_write=enable: 4 calls of B
recorder-diff: tuned: mpiio.cb_nodes=2: 4 calls of B'
    unapplied=(--set mpiio.striping_factor=4) unapplied_key="mpiio.striping_factor=4"
    other=(--set mpiio.romio_cb_write=enable --set mpiio.cb_nodes=4) ;;
  data)
    printf '  tuning: 1 override\n    mpiio.data=collective: 128 calls switched\n' > "$logs/want-summary.txt"
    expect_count "$logs/t1.txt" "MPI_File_write_at(" 64 "independent writes in the original"
    expect_count "$logs/t1.txt" "MPI_File_read_at(" 64 "independent reads in the original"
    expect_count "$logs/t2.txt" "MPI_File_write_at(" 0 "independent writes in the replay"
    expect_count "$logs/t2.txt" "MPI_File_read_at(" 0 "independent reads in the replay"
    expect_count "$logs/t2.txt" "MPI_File_write_at_all(" 64 "collective writes in the replay"
    expect_count "$logs/t2.txt" "MPI_File_read_at_all(" 64 "collective reads in the replay"
    # Everything else as it was: per rank and function the same calls and bytes, the twins named alike.
    "$build/tests/support/trace_expect" "$work/t1" > "$logs/want.txt"
    "$build/tests/support/trace_expect" "$work/t2" | sed 's/_at_all /_at /' | sort > "$logs/got.txt"
    sort "$logs/want.txt" | diff -u - "$logs/got.txt" || fail "the replay differs from the original beyond the twins"
    plain_want=4 plain_pattern="MPI_File_write_at(...), B has MPI_File_write_at_all(...)"
    tuned_want='recorder-diff: tuned: mpiio.data=collective: 128 calls of B'
    unapplied=(--set hdf5.alignment=4K) unapplied_key="hdf5.alignment=4K"
    other=(--set mpiio.data=independent) ;;
  hdf5)
    printf '  tuning: 1 override\n    hdf5.alignment=1M: 0 H5Pset_alignment calls changed, 4 added on a fapl\n' > "$logs/want-summary.txt"
    expect_count "$logs/t1.txt" "H5Pset_alignment" 0 "alignments set in the original"
    expect_count "$logs/t2.txt" "H5Pset_alignment(fapl_id=plist#64, threshold=1, alignment=1048576) = 0" 4 \
      "alignments the replay added on the fapl"
    # each right before the file's creation with that fapl
    grep -A1 "H5Pset_alignment" "$logs/t2.txt" | grep -c "H5Fcreate(.*fapl_id=plist#64" | grep -qx 4 ||
      fail "the added H5Pset_alignment calls are not right before H5Fcreate"
    # and HDF5 applied it: every dataset of the replay's file starts at a multiple of 1 MiB, not so the original's
    offsets() { h5dump -p -H "$1" | awk '$1 == "OFFSET" { print $2 }'; }
    h5=$(find "$work/prefix" -name vpic.h5)
    [ -n "$(offsets "$h5")" ] || fail "no dataset offsets in the replay's file"
    [ -z "$(offsets "$h5" | awk '$1 % 1048576')" ] || fail "a dataset of the replay's file is not aligned to 1 MiB"
    [ -n "$(offsets "$work/out/vpic.h5" | awk '$1 % 1048576')" ] || fail "the original's datasets are aligned already"
    plain_want=4 plain_pattern="A has H5Fcreate(...), B has H5Pset_alignment(...)"
    tuned_want='recorder-diff: tuned: hdf5.alignment=1M: 4 calls of B'
    unapplied=(--set hdf5.meta_block_size=4096) unapplied_key="hdf5.meta_block_size=4096"
    other=(--set hdf5.alignment=2M) ;;
  hdf5-lists)
    printf '%s\n' '  tuning: 4 overrides' \
      '    hdf5.transfer=independent: 4 H5Pset_dxpl_mpio calls changed, 0 added on a dxpl' \
      '    hdf5.coll_metadata_write=false: 4 H5Pset_coll_metadata_write calls changed, 0 added on a fapl' \
      '    hdf5.fspace_strategy=page: 0 H5Pset_file_space_strategy calls changed, 4 added on a fcpl' \
      '    hdf5.fspace_page_size=64K: 0 H5Pset_file_space_page_size calls changed, 4 added on a fcpl' \
      > "$logs/want-summary.txt"
    expect_count "$logs/t1.txt" "H5Pset_dxpl_mpio(.*xfer_mode=H5FD_MPIO_COLLECTIVE) = 0" 4 "collective transfers in the original"
    expect_count "$logs/t2.txt" "H5Pset_dxpl_mpio(.*xfer_mode=H5FD_MPIO_INDEPENDENT) = 0" 4 "independent transfers in the replay"
    expect_count "$logs/t2.txt" "H5Pset_dxpl_mpio(.*COLLECTIVE" 0 "collective transfers in the replay"
    expect_count "$logs/t2.txt" "H5Pset_coll_metadata_write(plist_id=plist#64, is_collective=false) = 0" 4 \
      "collective metadata writes turned off"
    expect_count "$logs/t1.txt" "H5Pcreate(cls_id=H5P_FILE_CREATE)" 0 "fcpls in the original"
    expect_count "$logs/t1.txt" "H5Fcreate(.*fcpl_id=H5P_DEFAULT" 4 "the original's H5Fcreate with H5P_DEFAULT"
    expect_count "$logs/t2.txt" "H5Pcreate(cls_id=H5P_FILE_CREATE) = plist#68" 4 "fcpls the replay made"
    expect_count "$logs/t2.txt" "H5Pset_file_space_strategy(plist_id=plist#68, strategy=1, persist=false, threshold=1) = 0" 4 \
      "file space strategies added"
    expect_count "$logs/t2.txt" "H5Pset_file_space_page_size(plist_id=plist#68, fsp_size=65536) = 0" 4 "page sizes added"
    expect_count "$logs/t2.txt" "H5Fcreate(.*fcpl_id=plist#68, fapl_id=plist#64)" 4 "H5Fcreate with the replay's fcpl"
    h5=$(find "$work/prefix" -name vpic.h5)
    h5dump -B -H "$h5" | grep -q "FILE_SPACE_STRATEGY H5F_FSPACE_STRATEGY_PAGE" || fail "the replay's file is not paged"
    h5dump -B -H "$h5" | grep -q "FILE_SPACE_PAGE_SIZE 65536" || fail "the replay's file has not 64 KiB pages"
    plain_calls=12 plain_want=4 plain_pattern="A has H5Fcreate(...), B has H5Pcreate(...)"
    tuned_want='recorder-diff: tuned: hdf5.transfer=independent: 4 calls of B
recorder-diff: tuned: hdf5.coll_metadata_write=false: 4 calls of B
recorder-diff: tuned: hdf5.fspace_strategy=page: 4 calls of B
recorder-diff: tuned: hdf5.fspace_page_size=64K: 4 calls of B'
    unapplied=(--set hdf5.sieve_buf_size=1M) unapplied_key="hdf5.sieve_buf_size=1M"
    other=(--set hdf5.transfer=collective) ;;
esac

tuning_lines > "$logs/got-summary.txt"
diff -u "$logs/want-summary.txt" "$logs/got-summary.txt" || fail "the replay's summary of the tuning differs"

# recorder-diff --tuned: equivalent, and it says what B shows of each override.
"$diff" "${tune[@]/--tune/--tuned}" "$work/t1" "$work/t2" > "$logs/diff-tuned.txt" 2>&1 ||
  { cat "$logs/diff-tuned.txt" >&2; fail "recorder-diff --tuned finds the tuned replay different"; }
[ "$(grep '^recorder-diff: tuned:' "$logs/diff-tuned.txt")" = "$tuned_want" ] ||
  { cat "$logs/diff-tuned.txt" >&2; fail "recorder-diff --tuned does not count the overrides as expected"; }
grep -q '^recorder-diff: equivalent: 4 ranks' "$logs/diff-tuned.txt" || fail "recorder-diff --tuned: no equivalence line"

# Plain recorder-diff: exactly the set's differences (after a call more or less, a rank is out of step).
status=0
"$diff" --max 0 "$work/t1" "$work/t2" > "$logs/diff-plain.txt" 2>&1 || status=$?
[ "$status" = 1 ] || { cat "$logs/diff-plain.txt" >&2; fail "plain recorder-diff exits $status, expected 1"; }
expect_count "$logs/diff-plain.txt" "^rank [0-3], call [0-9]*: " "${plain_calls:-4}" "plain recorder-diff's differing calls"
expect_count "$logs/diff-plain.txt" "^rank [0-3], call [0-9]*: .*$plain_pattern" "$plain_want" \
  "plain recorder-diff's differences that are the set's"

# An override B does not show is reported, and the run differs.
status=0
"$diff" "${tune[@]/--tune/--tuned}" "${unapplied[@]}" "$work/t1" "$work/t2" > "$logs/diff-unapplied.txt" 2>&1 || status=$?
[ "$status" = 1 ] || fail "recorder-diff --tuned with an override B does not show exits $status, expected 1"
grep -qx "tuning: $unapplied_key (--set) was not applied: no call of B shows it" "$logs/diff-unapplied.txt" ||
  { cat "$logs/diff-unapplied.txt" >&2; fail "recorder-diff does not report the override B does not show"; }

# A set that does not explain B: a difference as without --tuned.
status=0
"$diff" "${other[@]}" "$work/t1" "$work/t2" > "$logs/diff-other.txt" 2>&1 || status=$?
[ "$status" = 1 ] || { cat "$logs/diff-other.txt" >&2; fail "recorder-diff under another set exits $status, expected 1"; }
echo "replay_tuned: $case: the set's changes and nothing else"
