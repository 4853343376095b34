#!/usr/bin/env bash
# bench/real-apps/darshan-kernels.sh [NAME...]: the kernels of the logs
# of tests/data/darshan (NAME, default the -nodxt ones; DARSHAN_DATA: another
# directory of NAME.darshan and NAME.figures), each run under Darshan itself:
# does Darshan count, on each file, what it counted in the original run?
# Per log: recorder-import, recorder-codegen, h5pcc, the kernel at the log's
# ranks under mpirun.mpich with libdarshan.so (DXT on when the log has DXT
# segments), then darshan-parser of both logs; prints, per file and module
# (POSIX, MPI-IO, STDIO), the counters that differ (opens, reads, writes,
# seeks, stats, syncs, bytes, the largest bytes, the access-size histogram
# of reads and writes, the common access sizes, the consecutive and
# sequential counts), or "equal"; for a log of DXT, also the DXT segments
# that differ, per module, rank and file (reads and writes in order, their
# offsets and lengths), or "segments equal". Needs the Darshan 3.5.0 of darshan.sh
# (DARSHAN_PREFIX, default /tmp/darshan-prefix) and the MPICH build
# (RECORDER_BUILD, default build/). Reports; asserts nothing.
set -euo pipefail
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=$(cd "${RECORDER_BUILD:-$src/build}" && pwd)
prefix=${DARSHAN_PREFIX:-/tmp/darshan-prefix}
data=${DARSHAN_DATA:-$src/tests/data/darshan}
[ -x "$prefix/bin/darshan-parser" ] || { echo "darshan-kernels.sh: no $prefix/bin/darshan-parser (bench/real-apps/darshan.sh builds it)" >&2; exit 1; }
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(ior-indep-nodxt ior-coll-nodxt vpic-nodxt fpp-nodxt serial-nodxt)
work=$(mktemp -d /tmp/darshan-kernels.XXXXXX)
export PATH=$build/mpi-bin:$PATH
. "$(dirname "${BASH_SOURCE[0]}")/darshan-figures.sh"

# counters LOG ROOT: "MODULE PATH COUNTER VALUE" of the counters compared, paths under ROOT cut to the rest
counters() {
  "$prefix/bin/darshan-parser" "$1" | awk -F'\t' -v root="$2" '
    /^#/ || NF < 6 { next }
    $1 != "POSIX" && $1 != "MPI-IO" && $1 != "STDIO" { next }
    $4 !~ /_(OPENS|FILENOS|DUPS|READS|WRITES|SEEKS|STATS|FSYNCS|FDSYNCS|SYNCS|FLUSHES|BYTES_READ|BYTES_WRITTEN|MAX_BYTE_READ|MAX_BYTE_WRITTEN|CONSEC_READS|CONSEC_WRITES|SEQ_READS|SEQ_WRITES|RW_SWITCHES)$/ && $4 !~ /_SIZE_(READ|WRITE)_/ && $4 !~ /_ACCESS[1-4]_(ACCESS|COUNT)$/ { next }
    $6 ~ /^</ { next }
    { p = $6; if (root != "" && substr(p, 1, length(root)) == root) p = substr(p, length(root) + 1)
      v[$1 " " p " " $4] += $5 }
    END { for (k in v) print k, v[k] }' | sort
}

# segments FIGURES ROOT: "MODULE RANK PATH OP OFFSET LENGTH" of each DXT
# segment, in the log's order per rank, file and operation, paths under ROOT cut
segments() {
  awk -v root="$2" '
    $1 == "record" { p = $5; if (root != "" && substr(p, 1, length(root)) == root) p = substr(p, length(root) + 1); path[$4] = p }
    $1 == "segment" { print $2, $3, path[$4], $5, $7, $8 }' "$1" | sort -s -k1,4
}

for name in "${names[@]}"; do
  log=$data/$name.darshan
  np=$(awk '$1 == "nprocs" {print $2}' "$data/$name.figures")
  dir=$work/$name
  mkdir -p "$dir"
  "$build/importer/recorder-import" darshan "$log" -o "$dir/trace" --quiet
  (cd "$dir" && "$build/codegen/recorder-codegen" trace -o kernel.c > /dev/null && h5pcc -shlib kernel.c -o kernel)
  dxt_env=()
  grep -q '^segment ' "$data/$name.figures" && dxt_env=(-genv DXT_ENABLE_IO_TRACE 1)
  mpirun.mpich -np "$np" -genv LD_PRELOAD "$prefix/lib/libdarshan.so" "${dxt_env[@]}" -genv DARSHAN_LOGFILE "$dir/kernel.darshan" \
    "$dir/kernel" "$dir/kout" > "$dir/kernel.out" 2>&1 || { cat "$dir/kernel.out" >&2; exit 1; }
  counters "$log" "" > "$dir/log.txt"
  counters "$dir/kernel.darshan" "$dir/kout" > "$dir/kernel.txt"
  join -a1 -a2 -e0 -o 0,1.2,2.2 <(awk '{print $1 "|" $2 "|" $3, $4}' "$dir/log.txt") \
    <(awk '{print $1 "|" $2 "|" $3, $4}' "$dir/kernel.txt") | awk '$2 != $3' | tr '|' ' ' > "$dir/differ.txt"
  files=$(awk '{print $1, $2}' "$dir/log.txt" | sort -u | wc -l)
  compared=$(wc -l < "$dir/log.txt")
  if [ -s "$dir/differ.txt" ]; then
    echo "$name: $files file layers, $compared counters: $(wc -l < "$dir/differ.txt") differ (module path counter log kernel):"
    sed 's/^/  /' "$dir/differ.txt"
  else
    echo "$name: $files file layers, $compared counters: equal"
  fi
  [ ${#dxt_env[@]} -gt 0 ] || continue
  segments "$data/$name.figures" "" > "$dir/log-segments.txt"
  figures "$dir/kernel.darshan" > "$dir/kernel.figures"
  segments "$dir/kernel.figures" "$dir/kout" > "$dir/kernel-segments.txt"
  if diff "$dir/log-segments.txt" "$dir/kernel-segments.txt" > "$dir/segments.diff"; then
    echo "$name: $(wc -l < "$dir/log-segments.txt") DXT segments: segments equal"
  else
    echo "$name: $(wc -l < "$dir/log-segments.txt") DXT segments in the log, $(wc -l < "$dir/kernel-segments.txt") in the kernel's: they differ (< log, > kernel):"
    grep '^[<>]' "$dir/segments.diff" | head -n 20 | sed 's/^/  /'
  fi
done
[ -n "${KEEP:-}" ] && echo "kept $work" || rm -rf "$work"
