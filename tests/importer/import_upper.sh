#!/usr/bin/env bash
# import_upper.sh BUILD_DIR NAME: a log of Darshan's HDF5 module
# (tests/data/darshan/NAME.darshan, H5F and H5D records) imported:
#   1. the trace's top calls are HDF5's: per dataset, as many opens
#      (H5Dcreate2 + H5Dopen2), H5Dwrite and H5Dread calls and bytes as its
#      H5D record counts, per file as many H5Fcreate + H5Fopen as H5F_OPENS,
#      each H5Fcreate/H5Fopen closed; every HDF5 record inferred; no MPI-IO
#      call of the file left at the top;
#   2. its kernel (recorder-codegen's default: the top layer) compiles
#      -Wall -Wextra -Werror, runs at the log's ranks under mpirun.mpich and
#      is recorder-diff equivalent to the trace; recorder-replay likewise.
set -euo pipefail
build=$(cd "$1" && pwd) name=$2
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$src/tests/importer/import_common.sh"
import_begin import_upper upper-

"$build/importer/recorder-import" darshan "$log" -o "$work/trace" > "$logs/import.txt" 2>&1 ||
  { cat "$logs/import.txt" >&2; fail "recorder-import failed"; }
"$build/analysis/recorder2text" "$work/trace" > "$logs/trace.txt" || fail "recorder2text cannot read the import"

# "dataset opens writes bytes_written reads bytes_read", and "file opens", from the log
awk '
  $1 == "record" && $2 == "H5D" { n = $5; sub(/^[^:]*:/, "", n); name[$4] = n }
  $1 == "record" && $2 == "H5F" { fname[$4] = $5 }
  $1 == "counter" && $2 == "H5D" { c[$4, $5] += $6 }
  $1 == "counter" && $2 == "H5F" && $5 == "H5F_OPENS" { fo[$4] += $6 }
  END {
    for (id in name) print "dataset", name[id], c[id, "H5D_OPENS"] + 0, c[id, "H5D_WRITES"] + 0, c[id, "H5D_BYTES_WRITTEN"] + 0,
                           c[id, "H5D_READS"] + 0, c[id, "H5D_BYTES_READ"] + 0
    for (id in fname) print "file", fname[id], fo[id] + 0
  }' "$figures" | sort > "$logs/log-h5.txt"
# the same of the trace: datasets by the name their open gave the handle
awk '
  function field(name) { return match($0, "[(, ]" name "=[^,)]*") ? substr($0, RSTART + length(name) + 2, RLENGTH - length(name) - 2) : "" }
  $5 != "HDF5" { next }
  $6 ~ /^H5D(create2|open2)\(/ { n = field("name"); gsub(/"/, "", n); h = $NF == "[inferred]" ? $(NF - 1) : $NF; ds[$1 " " h] = n; o[n]++ }
  $6 ~ /^H5D(write|read)\(/ { n = ds[$1 " " field("dset_id")]; b = field("bytes")
    if ($6 ~ /^H5Dwrite/) { w[n]++; bw[n] += b } else { r[n]++; br[n] += b } }
  $6 ~ /^H5F(create|open)\(/ { p = field("filename"); gsub(/"/, "", p); fo[p]++ }
  $6 ~ /^H5Fclose\(/ { fc++ }
  $NF != "[inferred]" { bad++ }
  END {
    for (n in o) print "dataset", n, o[n], w[n] + 0, bw[n] + 0, r[n] + 0, br[n] + 0
    for (p in fo) { print "file", p, fo[p]; opened += fo[p] }
    if (fc != opened) print "closes", fc, "of", opened, "opens"
    if (bad) print bad, "HDF5 records not inferred"
  }' "$logs/trace.txt" | sort > "$logs/trace-h5.txt"
[ -s "$logs/log-h5.txt" ] || fail "$figures has no H5F or H5D record"
diff -u "$logs/log-h5.txt" "$logs/trace-h5.txt" ||
  fail "the trace's HDF5 opens, writes, reads and bytes are not what the log's H5F and H5D records count"
top=$(awk '$4 == 0 && $5 == "MPI-IO"' "$logs/trace.txt" | wc -l)
[ "$top" = 0 ] || fail "$top MPI-IO calls are left at the top, above no HDF5 call"
nested=$(awk '$4 == 1 && $5 == "MPI-IO"' "$logs/trace.txt" | wc -l)
[ "$nested" -gt 0 ] || fail "no MPI-IO call is nested beneath an HDF5 call"
echo "import_upper: $name: the trace's HDF5 calls are the log's H5F/H5D counts" \
  "($(awk '$1 == "dataset" {d++; o += $3; w += $4; r += $6} END {print d " datasets: " o " opens, " w " writes, " r " reads"}' "$logs/log-h5.txt")), $nested MPI-IO calls beneath"

# 2. The kernel and the replay, at the HDF5 layer.
"$build/merger/recorder-merge" "$work/trace" > "$logs/merge.txt" 2>&1 || { cat "$logs/merge.txt" >&2; fail "recorder-merge failed"; }
(cd "$work" && "$build/codegen/recorder-codegen" trace -o kernel.c) > "$logs/codegen.txt" 2>&1 ||
  { cat "$logs/codegen.txt" >&2; fail "recorder-codegen failed"; }
grep -q 'H5Dwrite(' "$work/kernel.c" || fail "the kernel makes no H5Dwrite"
build_line=$(sed -n 's/^ \* Build: \(.*\); run:.*/\1/p' "$work/kernel.c")
[ -n "$build_line" ] || fail "the kernel's header has no Build line"
(cd "$work" && $build_line -Wall -Wextra -Werror) > "$logs/compile.txt" 2>&1 ||
  { cat "$logs/compile.txt" >&2; fail "kernel.c does not compile with its Build line ($build_line)"; }
mpirun.mpich -np "$np" -genv LD_PRELOAD "$preload" -genv RECORDER_TRACES_DIR "$work/ktrace" \
  "$work/kernel" "$work/kout" > "$logs/kernel.txt" 2>&1 || { cat "$logs/kernel.txt" >&2; fail "the kernel failed"; }
(cd "$work" && mpirun.mpich -np "$np" -genv LD_PRELOAD "$preload" -genv RECORDER_TRACES_DIR "$work/rtrace" \
  "$build/replayer/recorder-replay" --prefix "$work/rout" trace) > "$logs/replay.txt" 2>&1 ||
  { cat "$logs/replay.txt" >&2; fail "recorder-replay failed"; }
for who in ktrace rtrace; do
  "$build/analysis/recorder-diff" "$work/trace" "$work/$who" > "$logs/diff-$who.txt" 2>&1 ||
    { cat "$logs/diff-$who.txt" >&2; fail "the $who is not recorder-diff equivalent to the imported trace"; }
done
echo "import_upper: $name: the kernel ($(wc -l < "$work/kernel.c") lines) and the replay are equivalent to the trace:" \
  "$(tail -1 "$logs/diff-ktrace.txt" | sed 's/^recorder-diff: //')"
