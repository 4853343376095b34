#!/usr/bin/env bash
# import_upper_pnc.sh BUILD_DIR NAME: a log of Darshan's PnetCDF module
# (tests/data/darshan/NAME.darshan, PNETCDF_FILE and PNETCDF_VAR records)
# imported:
#   1. the trace's top calls are PnetCDF's: per variable, as many
#      collective (ncmpi_put_vara_all, get_vara_all), independent
#      (put_vara, get_vara) and nonblocking (iput_vara, iget_vara) writes and
#      reads, and bytes, as its PNETCDF_VAR record counts; per file as many
#      ncmpi_create and ncmpi_open as PNETCDF_FILE_CREATES and _OPENS, each
#      closed, as many ncmpi_wait_all as PNETCDF_FILE_COLL_WAITS (at least
#      one where a variable counts nonblocking calls), every nonblocking
#      request in one, every independent call between an
#      ncmpi_begin_indep_data and an end_indep_data; every PnetCDF record
#      inferred; no MPI-IO call of the file left at the top;
#   2. given an Open MPI build with the PnetCDF layer (OPENMPI_BUILD_DIR,
#      tests/openmpi's: Debian builds PnetCDF on Open MPI), its kernel at
#      the top layer (ncmpi_ calls, none of the MPI-IO calls beneath)
#      compiles -Wall -Wextra -Werror with PnetCDF's flags, and it and the
#      replay run at the log's ranks under Open MPI, recorder-diff
#      equivalent to the trace; 77 (skipped) without the layer. (The MPI-IO
#      layer's kernel and replay of a PnetCDF log, in any build, are
#      import_stat_e2e.sh's and import_e2e.sh's.)
# Usage: import_upper_pnc.sh BUILD_DIR NAME [OPENMPI_BUILD_DIR]
set -euo pipefail
build=$(cd "$1" && pwd) name=$2 ompi=${3:+$(cd "$3" && pwd)}
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$src/tests/importer/import_common.sh"
import_begin import_upper_pnc "pnc-${ompi:+ompi-}" # the Open MPI run in a directory of its own

"$build/importer/recorder-import" darshan "$log" -o "$work/trace" > "$logs/import.txt" 2>&1 ||
  { cat "$logs/import.txt" >&2; fail "recorder-import failed"; }
grep -q ' PnetCDF calls with [0-9]* calls beneath' "$logs/import.txt" ||
  { cat "$logs/import.txt" >&2; fail "recorder-import does not say how many PnetCDF calls it placed"; }
"$build/analysis/recorder2text" "$work/trace" > "$logs/trace.txt" || fail "recorder2text cannot read the import"

# "variable PATH:NAME coll_w indep_w nb_w bytes_w coll_r indep_r nb_r bytes_r", and
# "file PATH creates opens waits", from the log
awk '
  $1 == "record" && $2 == "PNETCDF_VAR" { name[$4] = $5 }
  $1 == "record" && $2 == "PNETCDF_FILE" { fname[$4] = $5 }
  $1 == "counter" && ($2 == "PNETCDF_VAR" || $2 == "PNETCDF_FILE") { c[$4, $5] += $6 }
  END {
    for (id in name) {
      p = "PNETCDF_VAR_"
      print "variable", name[id], c[id, p "COLL_WRITES"] + 0, c[id, p "INDEP_WRITES"] + 0, c[id, p "NB_WRITES"] + 0,
            c[id, p "BYTES_WRITTEN"] + 0, c[id, p "COLL_READS"] + 0, c[id, p "INDEP_READS"] + 0,
            c[id, p "NB_READS"] + 0, c[id, p "BYTES_READ"] + 0
      nb[substr(name[id], 1, index(name[id], ":") - 1)] += c[id, p "NB_WRITES"] + c[id, p "NB_READS"]
    }
    for (id in fname) {
      w = c[id, "PNETCDF_FILE_COLL_WAITS"] + 0
      if (w == 0 && nb[fname[id]] > 0) w = c[id, "PNETCDF_FILE_CREATES"] + c[id, "PNETCDF_FILE_OPENS"]
      print "file", fname[id], c[id, "PNETCDF_FILE_CREATES"] + 0, c[id, "PNETCDF_FILE_OPENS"] + 0, w
    }
  }' "$figures" | sort > "$logs/log-pnc.txt"
# the same of the trace: files by the ncid their create or open made, variables by their definition
awk '
  function field(name) { return match($0, "[(, ]" name "=[^,)]*") ? substr($0, RSTART + length(name) + 2, RLENGTH - length(name) - 2) : "" }
  $5 != "PnetCDF" { next }
  $NF != "[inferred]" { bad++ }
  $6 ~ /^ncmpi_(create|open)\(/ { p = field("path"); gsub(/"/, "", p); nc[$1 " " field("ncidp")] = p
    if ($6 ~ /^ncmpi_create/) cr[p]++; else op[p]++; open[$1 " " field("ncidp")] = 1; next }
  $6 ~ /^ncmpi_def_var\(/ { n = field("name"); gsub(/"/, "", n); v[$1 " " field("ncid") " " field("varidp")] = n; next }
  $6 ~ /^ncmpi_close\(/ { delete open[$1 " " field("ncid")]; next }
  $6 ~ /^ncmpi_wait_all\(/ { wt[nc[$1 " " field("ncid")]]++; pending[$1 " " field("ncid")] -= field("count"); next }
  $6 ~ /^ncmpi_begin_indep_data\(/ { indep[$1 " " field("ncid")] = 1; next }
  $6 ~ /^ncmpi_end_indep_data\(/ { indep[$1 " " field("ncid")] = 0; next }
  $6 ~ /^ncmpi_i?(put|get)_vara(_all)?\(/ {
    f = $1 " " field("ncid"); k = nc[f] ":" v[f " " field("varid")]; seen[k] = 1; b = field("bytes")
    i = $6 ~ /^ncmpi_(put|get)_vara\(/; nb = $6 ~ /^ncmpi_i/; all = $6 ~ /_all\(/; w = $6 ~ /put/
    if (i && !indep[f]) outside++
    if (all && indep[f]) inside++
    if (nb) pending[f]++
    x = w ? 0 : 4; m[k, x + (all ? 0 : nb ? 2 : 1)]++; m[k, x + 3] += b
  }
  END {
    for (k in seen) print "variable", k, m[k, 0] + 0, m[k, 1] + 0, m[k, 2] + 0, m[k, 3] + 0, m[k, 4] + 0, m[k, 5] + 0, m[k, 6] + 0, m[k, 7] + 0
    for (p in cr) files[p] = 1
    for (p in op) files[p] = 1
    for (p in files) print "file", p, cr[p] + 0, op[p] + 0, wt[p] + 0
    for (x in open) unclosed++
    for (x in pending) if (pending[x]) waitless += pending[x]
    if (unclosed) print unclosed, "files left open"
    if (waitless) print waitless, "nonblocking requests no wait completes"
    if (outside) print outside, "independent calls outside independent data mode"
    if (inside) print inside, "collective calls inside independent data mode"
    if (bad) print bad, "PnetCDF records not inferred"
  }' "$logs/trace.txt" > "$logs/trace-pnc.unsorted"
# a variable no call reads or writes: all zero on the log side, absent from the trace's
awk '$1 == "variable" && $3 + $4 + $5 + $7 + $8 + $9 == 0 { next } { print }' "$logs/log-pnc.txt" > "$logs/log-pnc.cmp"
sort "$logs/trace-pnc.unsorted" > "$logs/trace-pnc.txt"
[ -s "$logs/log-pnc.cmp" ] || fail "$figures has no PNETCDF_FILE or PNETCDF_VAR record"
diff -u "$logs/log-pnc.cmp" "$logs/trace-pnc.txt" ||
  fail "the trace's PnetCDF creates, opens, waits, reads, writes and bytes are not what the log's PNETCDF_FILE and PNETCDF_VAR records count"
top=$(awk '$4 == 0 && $5 == "MPI-IO"' "$logs/trace.txt" | wc -l)
[ "$top" = 0 ] || fail "$top MPI-IO calls are left at the top, above no PnetCDF call"
nested=$(awk '$4 == 1 && $5 == "MPI-IO"' "$logs/trace.txt" | wc -l)
[ "$nested" -gt 0 ] || fail "no MPI-IO call is nested beneath a PnetCDF call"
echo "import_upper_pnc: $name: the trace's PnetCDF calls are the log's PNETCDF_FILE/_VAR counts" \
  "($(awk '$1 == "variable" {v++; w += $3 + $4 + $5; r += $7 + $8 + $9} END {print v " variables: " w " writes, " r " reads"}' "$logs/log-pnc.cmp")), $nested MPI-IO calls beneath"

# 2. With an Open MPI build of the PnetCDF layer (OPENMPI_BUILD_DIR, tests/openmpi: Debian builds
# PnetCDF on Open MPI), the kernel at the top layer and the replay, under Open MPI.
[ -n "$ompi" ] || exit 0
[ "$(nm -D --defined-only "$ompi/tracer/librecorder.so" 2>/dev/null | grep -c ' ncmpi_create$')" -gt 0 ] ||
  { echo "import_upper_pnc: $name: skipped: the Open MPI build has no PnetCDF layer"; exit 77; }
pkg-config --exists pnetcdf || { echo "import_upper_pnc: $name: skipped: no pkg-config module pnetcdf"; exit 77; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_sharedfp=^lockedfile
ompi_tmp=$(mktemp -d /tmp/ompi-test.XXXXXX)
trap 'rm -rf "$ompi_tmp"' EXIT
export OMPI_MCA_orte_tmpdir_base=$ompi_tmp
"$build/merger/recorder-merge" "$work/trace" > "$logs/merge.txt" 2>&1 || { cat "$logs/merge.txt" >&2; fail "recorder-merge failed"; }
(cd "$work" && "$build/codegen/recorder-codegen" trace -o kernel.c) > "$logs/codegen.txt" 2>&1 ||
  { cat "$logs/codegen.txt" >&2; fail "recorder-codegen failed"; }
grep -q 'ncmpi_put_vara_all(' "$work/kernel.c" || fail "the kernel makes no ncmpi_put_vara_all"
sed -n '/^int main(/,/^}$/p' "$work/kernel.c" | grep -qE '\bMPI_File_[a-z_]+\(' && fail "the kernel makes the MPI-IO calls PnetCDF made"
# shellcheck disable=SC2046 # the flags are words
(cd "$work" && "$ompi/mpi-bin/h5pcc" -shlib -Wall -Wextra -Werror kernel.c -o kernel $(pkg-config --cflags --libs pnetcdf)) \
  > "$logs/compile.txt" 2>&1 || { cat "$logs/compile.txt" >&2; fail "kernel.c does not compile"; }
for run in kernel:ktrace replay:rtrace; do
  IFS=: read -r who trace <<< "$run"
  cmd=("$work/kernel" "$work/kout")
  [ "$who" = replay ] && cmd=("$ompi/replayer/recorder-replay" --prefix "$work/rout" "$work/trace")
  (cd "$work" && timeout "${IMPORT_RUN_LIMIT:-120}" "$ompi/mpi-bin/mpiexec" -np "$np" -x LD_PRELOAD="$ompi/tracer/librecorder.so" \
    -x RECORDER_TRACES_DIR="$work/$trace" "${cmd[@]}") > "$logs/$who.txt" 2>&1 ||
    { tail -n 20 "$logs/$who.txt" >&2; fail "the $who failed under Open MPI"; }
  "$build/analysis/recorder-diff" "$work/trace" "$work/$trace" > "$logs/diff-$who.txt" 2>&1 ||
    { cat "$logs/diff-$who.txt" >&2; fail "the $who is not recorder-diff equivalent to the imported trace"; }
done
echo "import_upper_pnc: $name: the PnetCDF kernel ($(wc -l < "$work/kernel.c") lines) and the replay are equivalent to" \
  "the trace: $(tail -1 "$logs/diff-kernel.txt" | sed 's/^recorder-diff: //')"
