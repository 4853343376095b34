#!/usr/bin/env bash
# import_stat_e2e.sh BUILD_DIR NAME: a Darshan log without DXT of
# tests/data/darshan (NAME.darshan, its figures NAME.figures made by
# bench/real-apps/darshan.sh) through the whole toolchain, against the
# counters Darshan kept:
#   1. recorder-import darshan NAME.darshan -o trace: every record inferred;
#      per file and layer (POSIX, MPI-IO, STDIO: fopen, fread, fwrite, fseek
#      and fflush) the trace's opens, reads, writes, seeks, stats, syncs,
#      bytes read and written and the access-size histograms of reads and
#      writes are the log's counters (a record reduced to rank -1 over its
#      ranks), and so are the largest bytes read and written of POSIX and
#      STDIO files, and of an MPI-IO file's MPI-IO calls its POSIX record's
#      (no access lies past them);
#   2. recorder-merge, recorder-codegen (a kernel that compiles -Wall
#      -Wextra -Werror and says how the import inferred its calls), run at
#      the log's ranks under mpirun.mpich, traced by our tracer;
#      recorder-replay, traced;
#   3. the kernel's and the replay's traces give the same figures of each
#      file at its top layer (MPI-IO for a file Darshan saw through MPI-IO:
#      below it, MPI-IO's own POSIX calls, which the kernel does not make).
set -euo pipefail
build=$(cd "$1" && pwd) name=$2
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$src/tests/importer/import_common.sh"
import_begin import_stat_e2e
grep -q '^segment ' "$figures" && fail "$figures lists DXT segments: this test is for logs without DXT"

"$build/importer/recorder-import" darshan "$log" -o "$work/trace" > "$logs/import.txt" 2>&1 ||
  { cat "$logs/import.txt" >&2; fail "recorder-import failed"; }
cat "$logs/import.txt"
"$build/analysis/recorder2text" "$work/trace" > "$logs/trace.txt" || fail "recorder2text cannot read the import"
records=$(grep -c . "$logs/trace.txt")
inferred=$(grep -c ' \[inferred\]$' "$logs/trace.txt" || true)
[ "$records" = "$inferred" ] || fail "$((records - inferred)) of the $records records are not marked inferred"
grep -q "^option: RECORDER_IMPORT_METHOD=statistical: " <<< "$("$build/analysis/recorder2text" --info "$work/trace")" ||
  fail "recorder.meta does not say the trace is statistical (RECORDER_IMPORT_METHOD)"

# figures TEXT ROOT: per file and layer, from recorder2text's lines of paths under ROOT:
# "LAYER PATH opens reads writes seeks stats syncs bytes_read bytes_written max_read max_written R:bins W:bins"
figures_of() {
  awk -v root="$2" '
    function field(name) { return match($0, "[(, ]" name "=[^,)]*") ? substr($0, RSTART + length(name) + 2, RLENGTH - length(name) - 2) : "" }
    function made() { return match($0, /= (fd|FILE)#[0-9]+/) ? substr($0, RSTART + 2, RLENGTH - 2) : "" }
    function bin(n) { return n <= 100 ? 0 : n <= 1024 ? 1 : n <= 10240 ? 2 : n <= 102400 ? 3 : n <= 1048576 ? 4 : n <= 4194304 ? 5 : n <= 10485760 ? 6 : n <= 104857600 ? 7 : n <= 1073741824 ? 8 : 9 }
    function path_of(p) { gsub(/"/, "", p); if (substr(p, 1, length(root)) != root) return ""; return substr(p, length(root) + 1) }
    function data(key, w, n, off) {
      if (key == "") return
      k = key; if (w) { wr[k]++; bw[k] += n; wb[k, bin(n)]++; if (off >= 0 && off + n - 1 > mw[k]) mw[k] = off + n - 1 }
      else { rd[k]++; br[k] += n; rb[k, bin(n)]++; if (off >= 0 && off + n - 1 > mr[k]) mr[k] = off + n - 1 }
      seen[k] = 1
    }
    function file_of(h) { return (($1 " " h) in fd) ? fd[$1 " " h] : "" }
    $6 ~ /^(open|open64|openat)\(/ { p = path_of(field("pathname")); if (p == "") next; h = made(); fd[$1 " " h] = "POSIX " p; op["POSIX " p]++; seen["POSIX " p] = 1; next }
    $6 ~ /^fopen\(/ { p = path_of(field("pathname")); if (p == "") next; h = made(); fd[$1 " " h] = "STDIO " p; op["STDIO " p]++; seen["STDIO " p] = 1; sp[$1 " " h] = 0; next }
    $6 ~ /^MPI_File_open\(/ { p = path_of(field("filename")); if (p == "") next; fd[$1 " " field("fh")] = "MPI-IO " p; op["MPI-IO " p]++; seen["MPI-IO " p] = 1; next }
    $6 ~ /^stat\(/ { p = path_of(field("pathname")); if (p == "") next; st["POSIX " p]++; seen["POSIX " p] = 1; next }
    $6 ~ /^p(read|write)(64)?\(/ { data(file_of(field("fd")), $6 ~ /^pwrite/, field("count") + 0, field("offset") + 0); next }
    $6 ~ /^(read|write)\(/ { data(file_of(field("fd")), $6 ~ /^write/, $NF == "[inferred]" ? $(NF - 1) + 0 : $NF + 0, -1); next }
    $6 ~ /^lseek(64)?\(/ { k = file_of(field("fd")); if (k != "") sk[k]++; next }
    $6 ~ /^f(data)?sync\(/ { k = file_of(field("fd")); if (k != "") sy[k]++; next }
    $6 ~ /^f(read|write)\(/ { h = field("stream"); k = file_of(h); if (k == "") next
      n = $NF == "[inferred]" ? $(NF - 1) + 0 : $NF + 0; n *= field("size") + 0
      data(k, $6 ~ /^fwrite/, n, sp[$1 " " h]); sp[$1 " " h] += n; next }
    $6 ~ /^fseeko?\(/ { h = field("stream"); k = file_of(h); if (k != "") { sk[k]++; sp[$1 " " h] = field("offset") + 0 }; next }
    $6 ~ /^fflush\(/ { k = file_of(field("stream")); if (k != "") sy[k]++; next }
    $6 ~ /^MPI_File_(read|write)_at(_all)?\(/ { data(file_of(field("fh")), $6 ~ /write/, field("count") + 0, field("offset") + 0); next }
    $6 ~ /^MPI_File_sync\(/ { k = file_of(field("fh")); if (k != "") sy[k]++; next }
    END {
      for (k in seen) {
        split(k, kp, " "); mpi = kp[1] == "MPI-IO"
        r = ""; w = ""
        for (b = 0; b < 10; b++) { r = r (b ? "," : "") (rb[k, b] + 0); w = w (b ? "," : "") (wb[k, b] + 0) }
        printf "%s %d %d %d %d %d %d %d %d %s %s R:%s W:%s\n", k, op[k], rd[k], wr[k], sk[k], st[k], sy[k], br[k], bw[k],
          !((k) in mr) ? "-" : mr[k], !((k) in mw) ? "-" : mw[k], r, w
      }
    }' "$1" | sort
}

# The same figures of the log's counters (a layer with a record of the file).
awk '
  function bin_of(name) { n = split("0_100 100_1K 1K_10K 10K_100K 100K_1M 1M_4M 4M_10M 10M_100M 100M_1G 1G_PLUS", bins, " "); for (i = 1; i <= n; i++) if (name ~ ("_" bins[i] "$")) return i - 1; return -1 }
  $1 == "record" && ($2 == "POSIX" || $2 == "MPI-IO" || $2 == "STDIO") { if ($5 ~ /^</) next; k = $2 " " $5; key[$2, $4] = k; seen[k] = 1; if ($2 == "MPI-IO") mpi_id[$4] = 1 }
  $1 == "counter" { k = key[$2, $4]; if (k == "") next; c = $5; v = $6 + 0
    if (c == "POSIX_OPENS" || c == "STDIO_OPENS" || c ~ /^MPIIO_(INDEP|COLL)_OPENS$/) op[k] += v
    if (c == "POSIX_FILENOS" || c == "POSIX_DUPS" || c == "STDIO_FDOPENS") op[k] -= v
    if (c == "POSIX_READS" || c == "STDIO_READS" || c ~ /^MPIIO_(INDEP|COLL|SPLIT|NB)_READS$/) rd[k] += v
    if (c == "POSIX_WRITES" || c == "STDIO_WRITES" || c ~ /^MPIIO_(INDEP|COLL|SPLIT|NB)_WRITES$/) wr[k] += v
    if (c == "POSIX_SEEKS" || c == "STDIO_SEEKS") sk[k] += v
    if (c == "POSIX_STATS") st[k] += v
    if (c == "POSIX_FSYNCS" || c == "POSIX_FDSYNCS" || c == "MPIIO_SYNCS" || c == "STDIO_FLUSHES") sy[k] += v
    if (c ~ /_BYTES_READ$/) br[k] += v
    if (c ~ /_BYTES_WRITTEN$/) bw[k] += v
    if (c ~ /^(POSIX|STDIO)_MAX_BYTE_READ$/ && (!((k) in mr) || v > mr[k])) mr[k] = v
    if (c ~ /^(POSIX|STDIO)_MAX_BYTE_WRITTEN$/ && (!((k) in mw) || v > mw[k])) mw[k] = v
    if (c ~ /_SIZE_READ_(AGG_)?[0-9]/) rb[k, bin_of(c)] += v
    if (c ~ /_SIZE_WRITE_(AGG_)?[0-9]/) wb[k, bin_of(c)] += v
  }
  END {
    for (k in seen) {
      split(k, kp, " "); mpi = kp[1] == "MPI-IO"
      r = ""; w = ""
      for (b = 0; b < 10; b++) { r = r (b ? "," : "") (rb[k, b] + 0); w = w (b ? "," : "") (wb[k, b] + 0) }
      if (kp[1] == "STDIO" && rd[k] + wr[k] > 0) { r = "-"; w = "-" }
      p = "POSIX " substr(k, 8) # an MPI-IO file: its POSIX record'\''s largest bytes
      if (mpi && (p in mr)) mr[k] = mr[p]
      if (mpi && (p in mw)) mw[k] = mw[p]
      printf "%s %d %d %d %d %d %d %d %d %s %s R:%s W:%s\n", k, op[k], rd[k], wr[k], sk[k], st[k], sy[k], br[k], bw[k],
        !(k in mr) || rd[k] == 0 ? "-" : mr[k], !(k in mw) || wr[k] == 0 ? "-" : mw[k], r, w
    }
  }' "$figures" | sort > "$logs/log-files.txt"
# STDIO keeps no histogram: its bins are left out of both sides
strip_stdio() { awk '$1 == "STDIO" { $(NF - 1) = "R:-"; $NF = "W:-" } { print }'; }
strip_stdio < "$logs/log-files.txt" > "$logs/log-files.cmp"
figures_of "$logs/trace.txt" "" | strip_stdio > "$logs/trace-files.txt"
diff -u "$logs/log-files.cmp" "$logs/trace-files.txt" > "$logs/trace-files.diff" ||
  { cat "$logs/trace-files.diff" >&2; fail "the trace's counts, bytes and histograms per file are not the log's"; }
echo "import_stat_e2e: $name: the trace's $records records (all inferred) make the log's counts, bytes," \
  "largest bytes and histograms on $(wc -l < "$logs/log-files.txt") file layers"

# 2. Merge, kernel, replay.
kernel_and_replay
grep -q 'statistical:' "$work/kernel.c" || fail "kernel.c's header does not say how the import inferred its calls"

# 3. The top layer of each file, against the log's.
awk '{ print $1, $2 }' "$logs/log-files.txt" | awk '
  { layer[$2] = layer[$2] == "" ? $1 : layer[$2] " " $1 }
  END { for (p in layer) { n = split(layer[p], l, " "); top = ""; for (i = 1; i <= n; i++) if (l[i] == "MPI-IO") top = "MPI-IO"
        for (i = 1; i <= n; i++) if (top == "" || l[i] == top || l[i] == "STDIO") print l[i], p } }' | sort > "$logs/top.txt"
awk 'NR == FNR { want[$1 " " $2] = 1; next } ($1 " " $2) in want' "$logs/top.txt" "$logs/log-files.cmp" > "$logs/log-top.txt"
for run in kernel:ktrace:kout replay:rtrace:rout; do
  IFS=: read -r who trace root <<< "$run"
  "$build/analysis/recorder2text" "$work/$trace" > "$logs/$who-trace.txt" || fail "recorder2text of the $who's trace failed"
  figures_of "$logs/$who-trace.txt" "$work/$root" | strip_stdio |
    awk 'NR == FNR { want[$1 " " $2] = 1; next } ($1 " " $2) in want' "$logs/top.txt" - > "$logs/$who-top.txt"
  diff -u "$logs/log-top.txt" "$logs/$who-top.txt" > "$logs/$who-top.diff" ||
    { cat "$logs/$who-top.diff" >&2; fail "the $who's counts, bytes and histograms per file are not the log's"; }
done
echo "import_stat_e2e: $name: the kernel and the replay make the log's counts, bytes and histograms on its" \
  "$(wc -l < "$logs/log-top.txt") top file layers"
