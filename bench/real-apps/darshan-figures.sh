# bench/real-apps/darshan-figures.sh: figures LOG, sourced by darshan.sh and
# darshan-apps.sh (needs prefix: the Darshan 3.5.0 install).
# figures LOG: what Darshan reads in LOG, one fact a line:
#   version V | compression C | exe E | nprocs N | jobid J | start_time S | end_time E
#   region MODULE BYTES VERSION        a module's region (compressed bytes)
#   mount PATH TYPE
#   record MODULE RANK ID PATH         (HEATMAP's left out: the reader keeps its region only)
#   counter MODULE RANK ID NAME VALUE  (fcounter for floating-point ones, %f;
#                                       the counters a record does not list are 0)
#                                       (H5D_FILE_REC_ID, PNETCDF_VAR_FILE_REC_ID:
#                                       the record id of a dataset's or variable's file)
#   dxt MODULE RANK ID HOSTNAME WRITES READS
#   segment MODULE RANK ID write|read INDEX OFFSET LENGTH START END   (%.4f seconds)
figures() {
  local log=$1
  echo "# $(basename "$log") as Darshan 3.5.0's darshan-parser and darshan-dxt-parser read it (bench/real-apps/darshan.sh)"
  "$prefix/bin/darshan-parser" --show-incomplete "$log" | awk -F'\t' '
    /^# darshan log version: / { print "version", $0; next }
    /^# compression method: / { sub(/^# compression method: /, ""); print "compression", $0; next }
    /^# exe: / { sub(/^# exe: /, ""); print "exe", $0; next }
    /^# nprocs: / { sub(/^# nprocs: /, ""); print "nprocs", $0; next }
    /^# jobid: / { sub(/^# jobid: /, ""); print "jobid", $0; next }
    /^# start_time: / { sub(/^# start_time: /, ""); print "start_time", $0; next }
    /^# end_time: / { sub(/^# end_time: /, ""); print "end_time", $0; next }
    /^# [A-Z0-9_/-]+ module: [0-9]+ bytes/ { split($0, w, " "); v = w[7]; sub(/^ver=/, "", v); print "region", w[2], w[4], v; next }
    /^# mount entry:/ { print "mount", $2, $3; next }
    /^#/ || NF < 6 || $1 == "HEATMAP" { next }
    {
      key = $1 " " $2 " " $3
      if (!(key in seen)) { seen[key] = 1; print "record", $1, $2, $3, $6 }
      if ($5 + 0 != 0) print ($4 ~ /_F_/ ? "fcounter" : "counter"), $1, $2, $3, $4, $5
    }' | sed 's/^version # darshan log version: /version /'
  "$prefix/bin/darshan-dxt-parser" --show-incomplete "$log" | awk '
    /^# DXT, file_id: / { id = $4; sub(/,$/, "", id); next }
    /^# DXT, rank: / { rank = $4; sub(/,$/, "", rank); host = $6; next }
    /^# DXT, write_count: / { w = $4; sub(/,$/, "", w); r = $6; next }
    /^# Module/ { mod = ""; next }
    /^ *X_(POSIX|MPIIO) / {
      m = ($1 == "X_POSIX") ? "DXT_POSIX" : "DXT_MPIIO"
      if (mod != m) { mod = m; print "dxt", m, rank, id, host, w, r }
      print "segment", m, $2, id, $3, $4, $5, $6, $7, $8
    }'
}
