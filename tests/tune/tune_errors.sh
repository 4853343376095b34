#!/usr/bin/env bash
# tune_errors.sh BUILD_DIR: recorder-replay and recorder-diff refuse a tuning
# set they cannot apply, before anything runs, with exactly this message on
# stderr (the tool, the file and line or --set, the key, what is valid) and
# exit status 2.
set -euo pipefail
build=$1
. "$(dirname "$0")/../support/testlib.sh"
begin_test "tune_errors" "$build/tune-runs/errors"
replay=$build/replayer/recorder-replay diff=$build/analysis/recorder-diff
printf 'mpiio.cb_nodes=2\n# collective buffering\nmpiio.romio_cb_write = yes\n' > "$work/bad.txt"
mkdir -p "$work/trace"

expect() { # WANT COMMAND...: the command exits 2 saying exactly WANT on stderr
  local want=$1 status=0
  shift
  "$@" > "$work/out.txt" 2> "$work/err.txt" || status=$?
  [ "$status" = 2 ] || fail "$*: exit status $status, expected 2"
  [ "$(cat "$work/err.txt")" = "$want" ] ||
    fail "$*: said \"$(cat "$work/err.txt")\", expected \"$want\""
}
expect "recorder-replay: $work/bad.txt:3: mpiio.romio_cb_write=yes: not enable, disable or automatic" \
  "$replay" --tune "$work/bad.txt" "$work/trace"
expect "recorder-replay: --set: unknown key mpiio.cb_node (mpiio's keys: data, romio_cb_write, romio_cb_read, romio_ds_write, romio_ds_read, romio_no_indep_rw, romio_cb_fr_types, romio_cb_pfr, romio_cb_ds_threshold, romio_lustre_co_ratio, romio_lustre_coll_threshold, cb_nodes, cb_buffer_size, cb_config_list, ind_wr_buffer_size, ind_rd_buffer_size, striping_factor, striping_unit, start_iodevice, direct_read, direct_write)" \
  "$replay" --set mpiio.cb_node=2 "$work/trace"
expect "recorder-replay: $work/missing.txt: cannot read the tuning set: No such file or directory" \
  "$replay" --tune "$work/missing.txt" "$work/trace"
expect "recorder-diff: $work/bad.txt:3: mpiio.romio_cb_write=yes: not enable, disable or automatic" \
  "$diff" --tuned "$work/bad.txt" "$work/trace" "$work/trace"
expect "recorder-diff: --set: unknown layer posix in posix.o_direct=1 (the layers: mpiio, hdf5)" \
  "$diff" --set posix.o_direct=1 "$work/trace" "$work/trace"
expect "recorder-diff: $work/missing.txt: cannot open the tuning set: No such file or directory" \
  "$diff" --tuned "$work/missing.txt" "$work/trace" "$work/trace"
echo "tune_errors: every refusal says exactly why"
