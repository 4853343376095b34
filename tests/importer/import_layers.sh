#!/usr/bin/env bash
# import_layers.sh BUILD_DIR NAME: a log of Darshan's HDF5 or PnetCDF module
# (tests/data/darshan/NAME.darshan) imported: the trace's
# RECORDER_IMPORT_UPPER_LAYERS says, file by file, what the log's H5F and
# H5D (or PNETCDF_FILE and PNETCDF_VAR) records count, as darshan-parser
# read them (NAME.figures): a file's opens (PnetCDF: creates and opens), its
# datasets (variables: the records naming it as their file) and their opens,
# writes, reads and bytes (PnetCDF: collective, independent and
# non-blocking), and that both layers' calls were placed.
set -euo pipefail
build=$(cd "$1" && pwd) name=$2
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$src/tests/importer/import_common.sh"
import_begin import_layers layers-

"$build/importer/recorder-import" darshan "$log" -o "$work/trace" > "$logs/import.txt" 2>&1 ||
  { cat "$logs/import.txt" >&2; fail "recorder-import failed"; }
"$build/analysis/recorder2text" --info "$work/trace" |
  sed -n 's/^option: RECORDER_IMPORT_UPPER_LAYERS=//p' > "$logs/said.txt"
awk '
  $1 == "record" && ($2 == "H5F" || $2 == "PNETCDF_FILE") && !($4 in path) { path[$4] = $5; order[n++] = $4; mod[$4] = $2 }
  $1 == "record" && ($2 == "H5D" || $2 == "PNETCDF_VAR") { kind[$4] = $2 }
  $1 == "counter" { c[$4, $5] += $6 }
  $1 == "counter" && $5 ~ /_FILE_REC_ID$/ { if (!(($6, $4) in member)) { member[$6, $4] = 1; members[$6] = members[$6] " " $4 } }
  function sum(file, name,   k, ids, t, i) { t = 0; k = split(members[file], ids, " "); for (i = 1; i <= k; i++) t += c[ids[i], name]; return t }
  function count(file,   ids) { return split(members[file], ids, " ") }
  END {
    out = ""
    for (i = 0; i < n; i++) {
      f = order[i]
      if (mod[f] == "H5F") h5 = 1; else pnc = 1
      if (mod[f] == "H5F")
        s = sprintf("HDF5 %s: %d opens, %d datasets (%d opens, %d writes of %d bytes, %d reads of %d bytes%s)",
                    path[f], c[f, "H5F_OPENS"], count(f), sum(f, "H5D_OPENS"), sum(f, "H5D_WRITES"),
                    sum(f, "H5D_BYTES_WRITTEN"), sum(f, "H5D_READS"), sum(f, "H5D_BYTES_READ"),
                    sum(f, "H5D_USE_MPIIO_COLLECTIVE") > 0 ? ", MPI-IO collective" : "")
      else
        s = sprintf("PnetCDF %s: %d creates, %d opens, %d variables (%d collective and %d independent writes of %d bytes, %d collective and %d independent reads of %d bytes, %d and %d non-blocking)",
                    path[f], c[f, "PNETCDF_FILE_CREATES"], c[f, "PNETCDF_FILE_OPENS"], count(f),
                    sum(f, "PNETCDF_VAR_COLL_WRITES"), sum(f, "PNETCDF_VAR_INDEP_WRITES"), sum(f, "PNETCDF_VAR_BYTES_WRITTEN"),
                    sum(f, "PNETCDF_VAR_COLL_READS"), sum(f, "PNETCDF_VAR_INDEP_READS"), sum(f, "PNETCDF_VAR_BYTES_READ"),
                    sum(f, "PNETCDF_VAR_NB_WRITES"), sum(f, "PNETCDF_VAR_NB_READS"))
      out = out (i ? "; " : "") s
    }
    if (h5) out = out "; HDF5 calls placed, the MPI-IO and POSIX ones Darshan saw nested beneath"
    if (pnc) out = out "; PnetCDF calls placed, the MPI-IO and POSIX ones Darshan saw nested beneath"
    print out
  }' "$figures" > "$logs/log.txt"
diff -u "$logs/log.txt" "$logs/said.txt" || fail "RECORDER_IMPORT_UPPER_LAYERS is not what the log's upper-layer records count"
files=$(awk '$1 == "record" && ($2 == "H5F" || $2 == "PNETCDF_FILE") {print $4}' "$figures" | sort -u | wc -l)
[ "$files" -gt 0 ] || fail "the log has no H5F or PNETCDF_FILE record"
echo "import_layers: $name: RECORDER_IMPORT_UPPER_LAYERS gives the log's upper-layer counts and bytes on its $files files"
