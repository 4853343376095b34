#!/bin/bash
# librecorder.so names no HDF5 symbol: a process that does not use HDF5 never
# loads it, and one whose HDF5 was dlopen'ed RTLD_LOCAL (as Python loads
# h5py's) is traced through that very library, predefined types included.
#   run_h5_binding.sh H5_LOCAL H5_LOCAL_USER_LIB LIBRECORDER RECORDER2TEXT WORKDIR
set -u
prog=$1 user=$2 lib=$3 r2t=$4 work=$5
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work"

needed=$(readelf -d "$lib") || fail "readelf $lib"
if grep -qi hdf5 <<<"$needed"; then fail "librecorder.so depends on HDF5: $(grep -i hdf5 <<<"$needed")"; fi

maps=$(LD_PRELOAD="$lib" RECORDER_TRACES_DIR="$work/cat-trace" cat /proc/self/maps) || fail "traced cat failed"
grep -q librecorder <<<"$maps" || fail "the tracer was not loaded into cat"
if grep -q hdf5 <<<"$maps"; then fail "a process that does not use HDF5 loaded it: $(grep -m1 hdf5 <<<"$maps")"; fi

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
echo "h5_binding: no HDF5 in a non-HDF5 process; an RTLD_LOCAL HDF5 traced with its own types"
