#!/bin/bash
# tracer.attr_values_switch: what the trace keeps of HDF5 values (H5Awrite's
# buffer, H5Pset_fill_value's), with RECORDER_COMPRESSION_LEVEL=0 so that the
# trace's bytes can be searched, of h5_netcdf_like at 4 ranks (13 H5Awrite
# and 1 H5Pset_fill_value per rank):
#   default                        every value recorded, _NCProperties' text in the trace;
#   RECORDER_ATTR_VALUE_MAX=16     only the values of at most 16 bytes: the 3 ints, "K" and the fill value;
#   RECORDER_ATTR_VALUES=0         none, and no attribute's text in the trace.
#   run_attr_values.sh PROGRAM LIBRECORDER RECORDER2TEXT WORKDIR MPIEXEC OVERSUBSCRIBE
set -u
prog=$1 lib=$2 r2t=$3 work=$4 mpiexec=$5 oversubscribe=$6
fail() { echo "FAIL: tracer.attr_values_switch: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work" || fail "cannot create $work"

# trace NAME [VAR=VALUE]: a traced run into $work/NAME; its values recorded and not, and its text.
trace() {
    local name=$1
    shift
    env "$@" RECORDER_COMPRESSION_LEVEL=0 timeout 90 "$mpiexec" -np 4 -genv LD_PRELOAD "$oversubscribe:$lib" \
        -genv RECORDER_TRACES_DIR "$work/$name/trace" "$prog" "$work/$name/out" >"$work/$name.log" 2>&1 ||
        fail "the $name run failed: $(tail -5 "$work/$name.log")"
    "$r2t" "$work/$name/trace" >"$work/$name.txt" || fail "recorder2text $work/$name/trace failed"
    recorded=$(grep -Ec 'H5(Awrite|Pset_fill_value)\(.*(buf|value)=\{[0-9]+ bytes' "$work/$name.txt")
    empty=$(grep -Ec 'H5(Awrite|Pset_fill_value)\(.*(buf|value)=\{not kept\}' "$work/$name.txt")
    text=$(cat "$work/$name/trace"/*.rec | grep -c 'netcdf=4\.9\.2' || true)
}

trace all
[ "$recorded" = 56 ] && [ "$empty" = 0 ] || fail "default: $recorded values recorded and $empty not, not 56 and 0"
[ "$text" -gt 0 ] || fail "default: _NCProperties' text is not in the trace"
trace small RECORDER_ATTR_VALUE_MAX=16
[ "$recorded" = 20 ] && [ "$empty" = 36 ] ||
    fail "RECORDER_ATTR_VALUE_MAX=16: $recorded values recorded and $empty not, not 20 and 36"
trace none RECORDER_ATTR_VALUES=0
[ "$recorded" = 0 ] && [ "$empty" = 56 ] ||
    fail "RECORDER_ATTR_VALUES=0: $recorded values recorded and $empty not, not 0 and 56"
[ "$text" = 0 ] || fail "RECORDER_ATTR_VALUES=0: _NCProperties' text is in the trace"
"$r2t" --info "$work/none/trace" | grep -qx 'option: RECORDER_ATTR_VALUES=0' ||
    fail "RECORDER_ATTR_VALUES=0 is not among the trace's options (recorder2text --info)"
echo "ok: 56 values recorded, 20 of at most 16 bytes, none with RECORDER_ATTR_VALUES=0"
