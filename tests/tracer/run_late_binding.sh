#!/bin/bash
# librecorder.so names no MPI or HDF5 symbol: a process that uses neither
# never loads them, and one whose HDF5 was dlopen'ed RTLD_LOCAL (as Python
# loads h5py's) is traced through that very library, predefined types included.
#   run_late_binding.sh H5_LOCAL H5_LOCAL_USER_LIB LIBRECORDER RECORDER2TEXT WORKDIR
set -u
prog=$1 user=$2 lib=$3 r2t=$4 work=$5
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work"

needed=$(readelf -d "$lib") || fail "readelf $lib"
if grep -Eqi "hdf5|mpi" <<<"$needed"; then fail "librecorder.so depends on MPI or HDF5: $(grep -Ei "hdf5|mpi" <<<"$needed")"; fi

maps=$(LD_PRELOAD="$lib" RECORDER_TRACES_DIR="$work/maps-trace" "$prog" --maps) || fail "the traced program failed to list its maps"
grep -q librecorder <<<"$maps" || fail "the tracer was not loaded"
if grep -Eq "hdf5|libmpi" <<<"$maps"; then fail "a process that uses neither MPI nor HDF5 loaded one: $(grep -Em1 "hdf5|libmpi" <<<"$maps")"; fi

out=$(LD_PRELOAD="$lib" RECORDER_TRACES_DIR="$work/trace" "$prog" "$user" "$work/local.h5" 2>&1) ||
    fail "the traced program failed: $out"
[ "$out" = "round trip ok" ] || fail "traced output: '$out'"
text=$("$r2t" "$work/trace") || fail "recorder2text $work/trace"
count() { grep -c "$1" <<<"$text"; }
[ "$(count ' H5Fcreate(')" = 1 ] || fail "H5Fcreate records: $(count ' H5Fcreate(')"
grep -q ' H5Dcreate2(.*name="values", type_id=H5T_NATIVE_INT,' <<<"$text" ||
    fail "H5Dcreate2's type is not recorded as H5T_NATIVE_INT: $(grep ' H5Dcreate2(' <<<"$text")"
grep -q ' H5Dwrite(.*mem_type_id=H5T_NATIVE_INT,.*bytes=64)' <<<"$text" ||
    fail "H5Dwrite's 64 bytes: $(grep ' H5Dwrite(' <<<"$text")"
grep -q ' H5Dread(.*bytes=64)' <<<"$text" || fail "H5Dread's 64 bytes: $(grep ' H5Dread(' <<<"$text")"
if grep -q 'rebuilt' <<<"$text"; then fail "a predefined type was rebuilt: $(grep -m1 rebuilt <<<"$text")"; fi
echo "late_binding: neither MPI nor HDF5 in a process that uses neither; an RTLD_LOCAL HDF5 traced with its own types"
