#!/usr/bin/env bash
# import_e2e.sh BUILD_DIR NAME: a Darshan log of tests/data/darshan through
# the whole toolchain, against the figures Darshan read in it (NAME.figures,
# bench/real-apps/darshan.sh):
#   1. recorder-import darshan NAME.darshan -o trace: recorder2text shows, per
#      rank, file and layer, the reads and writes of every DXT segment with
#      its offset and length, in DXT's order, and as many [inferred] records
#      as the import said;
#   2. recorder-merge merges it; recorder-codegen makes a kernel that compiles
#      (-Wall -Wextra -Werror) and runs at the log's 4 ranks under
#      mpirun.mpich, traced by our tracer; recorder-replay replays it, traced;
#   3. recorder-summary of the kernel's and of the replay's traces gives, per
#      file, the opens, reads, writes and bytes the log's counters give: the
#      MPI-IO layer's for a file Darshan saw through MPI-IO, the POSIX
#      layer's for the others; the import's, the kernel's and the replay's
#      collective reads and writes (MPI_File_read_at_all, write_at_all) per
#      file are the log's MPIIO_COLL_READS and _WRITES, and recorder-diff
#      finds the kernel's and the replay's traces equivalent to the import
#      (--ignore-handles: the import numbers its fds file by file, not in
#      the order the opens come).
set -euo pipefail
build=$(cd "$1" && pwd) name=$2
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$src/tests/importer/import_common.sh"
import_begin import_e2e

# 1. The import, and the DXT segments in its records.
"$build/importer/recorder-import" darshan "$log" -o "$work/trace" > "$logs/import.txt" 2>&1 ||
  { cat "$logs/import.txt" >&2; fail "recorder-import failed"; }
cat "$logs/import.txt"
"$build/analysis/recorder2text" "$work/trace" > "$logs/trace.txt" || fail "recorder2text cannot read the import"
# rank layer op path offset length, one line a data call, in the trace's order
awk '
  function field(name,   m) { return match($0, "[(, ]" name "=[^,)]*") ? substr($0, RSTART + length(name) + 2, RLENGTH - length(name) - 2) : "" }
  function made(   m) { return match($0, /(fd|mpifile)#[0-9]+/) ? substr($0, RSTART, RLENGTH) : "" }
  $6 ~ /^open\(/ { path = field("pathname"); gsub(/"/, "", path); h = $NF == "[inferred]" ? $(NF - 1) : $NF; file[$1 " " h] = path }
  $6 ~ /^MPI_File_open\(/ { path = field("filename"); gsub(/"/, "", path); file[$1 " " field("fh")] = path }
  $6 ~ /^p(read|write)\(/ { op = $6 ~ /^pread/ ? "read" : "write"; print $1, "POSIX", op, file[$1 " " field("fd")], field("offset"), field("count") }
  $6 ~ /^MPI_File_(read|write)_at/ { op = $6 ~ /read/ ? "read" : "write"; print $1, "MPIIO", op, file[$1 " " field("fh")], field("offset"), field("count") }
' "$logs/trace.txt" | sort -s -k1,1n -k2,4 > "$logs/trace-segments.txt"
awk '
  $1 == "record" { path[$4] = $5 }
  $1 == "segment" { layer = $2 == "DXT_MPIIO" ? "MPIIO" : "POSIX"; print $3, layer, $5, path[$4], $7, $8 }
' "$figures" | sort -s -k1,1n -k2,4 > "$logs/log-segments.txt"
segments=$(wc -l < "$logs/log-segments.txt")
[ "$segments" -gt 0 ] || fail "$figures lists no DXT segment"
diff -u "$logs/log-segments.txt" "$logs/trace-segments.txt" > "$logs/segments.diff" ||
  { head -20 "$logs/segments.diff" >&2; fail "the trace's reads and writes are not the log's DXT segments"; }
inferred=$(grep -c ' \[inferred\]$' "$logs/trace.txt" || true)
said=$(sed -n 's/.*records (\([0-9]*\) inferred[,)].*/\1/p' "$logs/import.txt")
[ "$inferred" = "$said" ] || fail "recorder2text shows $inferred inferred records, the import said $said"
grep -q ' \[inferred\]$' "$logs/trace.txt" || fail "no record is marked inferred"
echo "import_e2e: $name: $segments DXT segments are the trace's reads and writes, $inferred records inferred"

# The log's figures per file: "layer path opens reads writes bytes_read bytes_written".
awk '
  $1 == "record" && ($2 == "POSIX" || $2 == "MPI-IO") { path[$4] = $5; if ($2 == "MPI-IO") mpi[$4] = 1 }
  $1 == "counter" && $2 == "POSIX" {
    if ($5 == "POSIX_OPENS") po[$4] += $6; if ($5 == "POSIX_READS") pr[$4] += $6; if ($5 == "POSIX_WRITES") pw[$4] += $6
    if ($5 == "POSIX_BYTES_READ") pbr[$4] += $6; if ($5 == "POSIX_BYTES_WRITTEN") pbw[$4] += $6 }
  $1 == "counter" && $2 == "MPI-IO" {
    if ($5 ~ /^MPIIO_(INDEP|COLL)_OPENS$/) mo[$4] += $6
    if ($5 ~ /^MPIIO_(INDEP|COLL|SPLIT|NB)_READS$/) mr[$4] += $6; if ($5 ~ /^MPIIO_(INDEP|COLL|SPLIT|NB)_WRITES$/) mw[$4] += $6
    if ($5 == "MPIIO_BYTES_READ") mbr[$4] += $6; if ($5 == "MPIIO_BYTES_WRITTEN") mbw[$4] += $6 }
  END {
    for (id in path) {
      if (path[id] ~ /^</) continue
      if (id in mpi) print "MPI-IO", path[id], mo[id] + 0, mr[id] + 0, mw[id] + 0, mbr[id] + 0, mbw[id] + 0
      else print "POSIX", path[id], po[id] + 0, pr[id] + 0, pw[id] + 0, pbr[id] + 0, pbw[id] + 0
    }
  }' "$figures" | sort > "$logs/log-files.txt"

# summary_files SUMMARY ROOT: the same figures of a trace whose paths are ROOT + the log's.
summary_files() {
  awk -v root="$2" -v want="$logs/log-files.txt" '
    BEGIN { while ((getline l < want) > 0) { split(l, w, " "); layer[w[2]] = w[1] } }
    /^Files/ { on = 1; next }
    on && NF == 0 { on = 0 }
    on && $1 != "layer" {
      p = $8; gsub(/"/, "", p)
      if (substr(p, 1, length(root)) != root) next
      p = substr(p, length(root) + 1)
      if ((p in layer) && layer[p] == $1) print $1, p, $2, $3, $4, $5, $6
    }' "$1" | sort
}

# collectives TEXT ROOT: "path coll_reads coll_writes" of each file of ROOT + a log's path that
# recorder2text's TEXT reads or writes collectively.
collectives() {
  awk -v root="$2" '
    function field(name) { return match($0, "[(, ]" name "=[^,)]*") ? substr($0, RSTART + length(name) + 2, RLENGTH - length(name) - 2) : "" }
    $6 ~ /^MPI_File_open\(/ { path = field("filename"); gsub(/"/, "", path); file[$1 " " field("fh")] = path }
    $6 ~ /^MPI_File_(read|write)_at_all\(/ {
      p = file[$1 " " field("fh")]
      if (substr(p, 1, length(root)) != root) next
      p = substr(p, length(root) + 1)
      if ($6 ~ /^MPI_File_read/) r[p]++; else w[p]++; seen[p] = 1 }
    END { for (p in seen) print p, r[p] + 0, w[p] + 0 }' "$1" | sort
}
awk '
  $1 == "record" && $2 == "MPI-IO" { path[$4] = $5 }
  $1 == "counter" && $2 == "MPI-IO" && $5 == "MPIIO_COLL_READS" { r[$4] += $6 }
  $1 == "counter" && $2 == "MPI-IO" && $5 == "MPIIO_COLL_WRITES" { w[$4] += $6 }
  END { for (id in path) if (r[id] + w[id] > 0) print path[id], r[id] + 0, w[id] + 0 }' "$figures" | sort > "$logs/log-coll.txt"
collectives "$logs/trace.txt" "" > "$logs/trace-coll.txt"
diff -u "$logs/log-coll.txt" "$logs/trace-coll.txt" > "$logs/coll.diff" ||
  { cat "$logs/coll.diff" >&2; fail "the trace's collective reads and writes per file are not the log's MPIIO_COLL_READS and _WRITES"; }

# 2. Merge, kernel, replay.
kernel_and_replay

# 3. What each did to each file, against the log.
for run in kernel:ktrace:kout replay:rtrace:rout; do
  IFS=: read -r who trace root <<< "$run"
  "$build/analysis/recorder-summary" "$work/$trace" > "$logs/$who-summary.txt" || fail "recorder-summary of the $who's trace failed"
  summary_files "$logs/$who-summary.txt" "$work/$root" > "$logs/$who-files.txt"
  diff -u "$logs/log-files.txt" "$logs/$who-files.txt" > "$logs/$who-files.diff" ||
    { cat "$logs/$who-files.diff" >&2; fail "the $who's opens, reads, writes and bytes per file are not the log's"; }
  "$build/analysis/recorder2text" "$work/$trace" > "$logs/$who-trace.txt" || fail "recorder2text cannot read the $who's trace"
  collectives "$logs/$who-trace.txt" "$work/$root" > "$logs/$who-coll.txt"
  diff -u "$logs/log-coll.txt" "$logs/$who-coll.txt" > "$logs/$who-coll.diff" ||
    { cat "$logs/$who-coll.diff" >&2; fail "the $who's collective reads and writes per file are not the log's"; }
  # (a log with H5F records: the import's top calls are HDF5's, these runs the MPI-IO layer's; the
  # HDF5 layer's equivalence is import_upper.sh's)
  grep -q '^record H5F ' "$figures" && continue
  "$build/analysis/recorder-diff" --ignore-handles "$work/trace" "$work/$trace" > "$logs/$who-diff.txt" 2>&1 ||
    { cat "$logs/$who-diff.txt" >&2; fail "recorder-diff: the $who's trace is not equivalent to the import"; }
done
said=equivalent
grep -q '^record H5F ' "$figures" && said="equivalent at the HDF5 layer in import_upper.sh"
echo "import_e2e: $name: the kernel and the replay make the log's opens, reads, writes and bytes on its" \
  "$(wc -l < "$logs/log-files.txt") files ($(awk '{o += $3; r += $4; w += $5} END {print o " opens, " r " reads, " w " writes"}' "$logs/log-files.txt")," \
  "$(awk '{r += $2; w += $3} END {print r + 0 " collective reads, " w + 0 " collective writes"}' "$logs/log-coll.txt")), $said"
