#!/usr/bin/env bash
# netcdf_pipeline.sh SRC_DIR BUILD_DIR OPENMPI_BUILD_DIR PROGRAM NP: a program
# of tests/corpus that writes (or reads) through PnetCDF, taken through the
# pipeline at the PnetCDF layer under Open MPI (Debian's libpnetcdf is built
# on it): compiled with Open MPI's mpicc and pkg-config's pnetcdf flags; its
# --setup run untraced (a reader's input); traced; merged; the kernel made,
# which must call ncmpi_ functions and none of the MPI-IO calls they made,
# compiled with its own Build line's flags and -Werror, run traced; the
# replay traced; both recorder-diff equivalent, every file the same size
# and every netCDF file the same `ncdump -h`; the kernel of the MPI-IO layer
# (--layer mpiio) makes the original's MPI-IO calls and bytes. Exits 77 (skipped) without
# ncdump, pkg-config's pnetcdf, or an Open MPI build with the PnetCDF layer.
set -euo pipefail
src=$(cd "$1" && pwd) build=$(cd "$2" && pwd) ompi=$(cd "$3" && pwd) program=$4 np=$5
. "$(dirname "$0")/../support/testlib.sh"
begin_test "netcdf_pipeline: $program.np$np" "$build/openmpi-runs/netcdf.$program.np$np" logs out
logs=$work/logs
skip() { echo "netcdf_pipeline: $program: skipped: $*"; exit 77; }
command -v ncdump > /dev/null || skip "no ncdump (Debian's netcdf-bin)"
pkg-config --exists pnetcdf || skip "no pkg-config module pnetcdf (Debian's libpnetcdf-dev)"
[ "$(nm -D --defined-only "$ompi/tracer/librecorder.so" | grep -c ' ncmpi_create$')" -gt 0 ] ||
  skip "the Open MPI build has no PnetCDF layer (it keeps one only where PnetCDF is built on Open MPI)"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_sharedfp=^lockedfile
ompi_tmp=$(mktemp -d /tmp/ompi-test.XXXXXX)
trap 'rm -rf "$ompi_tmp"' EXIT
export OMPI_MCA_orte_tmpdir_base=$ompi_tmp
mpiexec=$ompi/mpi-bin/mpiexec mpicc=$ompi/mpi-bin/mpicc
flags=$(pkg-config --cflags --libs pnetcdf)
traced() { # TRACE_DIR PROGRAM ARGS...
  local trace=$1
  shift
  "$mpiexec" -np "$np" -x LD_PRELOAD="$ompi/tracer/librecorder.so" -x RECORDER_TRACES_DIR="$trace" \
    ${PNC_CLIMATE_RECORDS:+-x PNC_CLIMATE_RECORDS} "$@"
}

# 1. The program, its input made untraced, then traced.
# shellcheck disable=SC2086 # the flags are words
"$mpicc" -Wall -Wextra -Werror -I"$src/tests/corpus" "$src/tests/corpus/$program.c" -o "$work/$program" $flags -lm \
  > "$logs/program-cc.txt" 2>&1 || { cat "$logs/program-cc.txt" >&2; fail "$program does not compile"; }
if grep -q -- '--setup' "$src/tests/corpus/$program.c"; then
  "$mpiexec" -np "$np" "$work/$program" --setup "$work/out" > "$logs/setup.txt" 2>&1 ||
    { tail -n 20 "$logs/setup.txt" >&2; fail "$program --setup failed"; }
fi
traced "$work/trace" "$work/$program" "$work/out" > "$logs/original.txt" 2>&1 ||
  { tail -n 20 "$logs/original.txt" >&2; fail "$program traced failed"; }
calls=$("$build/analysis/recorder2text" --rank 0 "$work/trace" | grep -c ' PnetCDF ncmpi_' || true)
[ "$calls" -gt 0 ] || fail "rank 0's trace holds no PnetCDF call"

# 2. The kernel, at the PnetCDF layer.
"$build/merger/recorder-merge" --quiet "$work/trace" -o "$work/merged" 2> "$logs/merge.err" ||
  { cat "$logs/merge.err" >&2; fail "recorder-merge failed"; }
"$build/codegen/recorder-codegen" "$work/merged" -o "$work/kernel.c" 2> "$logs/codegen.err" ||
  { cat "$logs/codegen.err" >&2; fail "recorder-codegen failed"; }
grep -q 'ncmpi_' "$work/kernel.c" || fail "the kernel calls no ncmpi_ function"
! grep -qE '\bMPI_File_[a-z_]+\(' "$work/kernel.c" || fail "the kernel makes MPI-IO calls PnetCDF made: $(grep -oE 'MPI_File_[a-z_]+\(' "$work/kernel.c" | sort -u | tr '\n' ' ')"
grep -q 'Build: .*pkg-config --cflags --libs pnetcdf' "$work/kernel.c" || fail "the kernel's Build line lacks pnetcdf's flags"
# shellcheck disable=SC2086
(cd "$work" && "$ompi/mpi-bin/h5pcc" -shlib -Wall -Wextra -Werror kernel.c -o kernel $flags) > "$logs/compile.txt" 2>&1 ||
  { cat "$logs/compile.txt" >&2; fail "the kernel does not compile"; }
traced "$work/ktrace" "$work/kernel" "$work/kout" > "$logs/kernel.txt" 2>&1 ||
  { tail -n 20 "$logs/kernel.txt" >&2; fail "the kernel failed"; }
equivalent() { # NAME TRACE
  "$build/analysis/recorder-diff" "$work/trace" "$2" > "$logs/diff-$1.txt" 2>&1 ||
    { head -n 20 "$logs/diff-$1.txt" >&2; fail "the $1's trace differs from the original"; }
  echo "netcdf_pipeline: $program: $1: $(tail -n 1 "$logs/diff-$1.txt")"
}
equivalent kernel "$work/ktrace"
# An MPI_Info freed is gone: its id never comes back, though Open MPI may hand out its memory
# again (ncmpi_inq_file_info returns the info its own MPI_Info_dup made: one reference, not two).
ids_die_with_their_info() { # NAME TRACE
  "$build/analysis/recorder2text" "$2" | awk -v what="$1" '
    { for (f = 6; f <= NF; f++) if (match($f, /info#[0-9]+/)) {
        id = $1 " " substr($f, RSTART, RLENGTH)
        if (id in freed) { print what ": rank " $1 ": " substr($f, RSTART, RLENGTH) " used after its MPI_Info_free: " $0; bad = 1; exit 1 }
      } }
    $6 ~ /^MPI_Info_free\(/ && match($6, /info#[0-9]+/) { freed[$1 " " substr($6, RSTART, RLENGTH)] = 1 }
    END { exit bad }' > "$logs/info-ids-$1.txt" || fail "$(cat "$logs/info-ids-$1.txt")"
}
ids_die_with_their_info original "$work/trace"
ids_die_with_their_info kernel "$work/ktrace"

# 3. The replay, at the PnetCDF layer.
traced "$work/rtrace" "$ompi/replayer/recorder-replay" --prefix "$work/rpre" "$work/trace" > "$logs/replay.txt" 2>&1 ||
  { tail -n 20 "$logs/replay.txt" >&2; fail "recorder-replay failed"; }
grep -qE '^  PnetCDF +[1-9]' "$logs/replay.txt" || fail "the replay issued no PnetCDF call: $(grep PnetCDF "$logs/replay.txt")"
equivalent replay "$work/rtrace"
ids_die_with_their_info replay "$work/rtrace"

# 4. The files: the same sizes; every netCDF file the same header.
SAME_FILES_HEADERS=0 same_output_files "$work/out" "$work/kout" "from the kernel"
SAME_FILES_HEADERS=0 same_output_files "$work/out" "$work/rpre" "from the replay"
headers=0
while IFS= read -r -d '' f; do
  rel=${f#"$work/out/"}
  for copy in "$work/kout$work/out/$rel" "$work/rpre$work/out/$rel"; do
    diff <(ncdump -h "$f" | tail -n +2) <(ncdump -h "$copy" | tail -n +2) > "$logs/ncdump.diff" ||
      fail "$copy: ncdump -h differs from $rel's: $(head -5 "$logs/ncdump.diff")"
  done
  headers=$((headers + 1))
done < <(find "$work/out" -name '*.nc' -print0)
[ "$headers" -gt 0 ] || fail "$program wrote no netCDF file"
echo "netcdf_pipeline: $program.np$np: kernel ($(wc -c < "$work/kernel.c") bytes) and replay equivalent, $files files alike, $headers netCDF headers the same"

# 5. The kernel beneath (--layer mpiio): MPI-IO calls and no ncmpi_ one, built without PnetCDF;
#    its run makes the original's MPI-IO calls and bytes per rank, function and file.
"$build/codegen/recorder-codegen" --layer mpiio "$work/merged" -o "$work/mpiio.c" 2> "$logs/codegen-mpiio.err" ||
  { cat "$logs/codegen-mpiio.err" >&2; fail "recorder-codegen --layer mpiio failed"; }
! grep -q 'ncmpi_' "$work/mpiio.c" || fail "the MPI-IO kernel calls PnetCDF"
(cd "$work" && "$mpicc" -Wall -Wextra -Werror mpiio.c -o mpiio) > "$logs/compile-mpiio.txt" 2>&1 ||
  { cat "$logs/compile-mpiio.txt" >&2; fail "the MPI-IO kernel does not compile with mpicc alone"; }
traced "$work/mtrace" "$work/mpiio" "$work/mout" > "$logs/mpiio.txt" 2>&1 ||
  { tail -n 20 "$logs/mpiio.txt" >&2; fail "the MPI-IO kernel failed"; }
mpiio_rows() { # TRACE: rank, function, file's base name, calls, bytes of the MPI-IO layer
  "$build/analysis/recorder-summary" --csv "$1" | awk -F, 'NR > 1 && $2 == "MPI-IO" {
    n = split($4, p, "/"); print $1, $3, p[n], $5, $6 }' | sort
}
diff <(mpiio_rows "$work/trace") <(mpiio_rows "$work/mtrace") > "$logs/mpiio.diff" ||
  { head -20 "$logs/mpiio.diff" >&2; fail "the MPI-IO kernel's MPI-IO calls or bytes differ from the original's"; }
echo "netcdf_pipeline: $program: --layer mpiio: $(grep -c 'MPI_File_' "$work/mpiio.c") MPI-IO calls in the kernel, the original's $(mpiio_rows "$work/trace" | awk '{n += $4} END {print n}') MPI-IO calls made again"

# 6. Loops: the kernel of ten times the records is the same size, but for its loop bounds' digits.
if [ "$program" = pnc_climate ]; then
  # recorder-summary's variables: T collective 4 records x 4 ranks, U posted as many; 6 requests a
  # record on rank 0 (time too), 5 on the others (TS's varn one), completed by one ncmpi_wait_all a record and file
  "$build/analysis/recorder-summary" "$work/trace" > "$logs/summary.txt" || fail "recorder-summary failed"
  grep -qE '^T +16 +16 +0 +0 +6144 +0 +".*/out/climate.nc"$' "$logs/summary.txt" ||
    fail "recorder-summary: T: $(grep -E '^T ' "$logs/summary.txt")"
  grep -qE '^U +16 +0 +0 +16 +12288 +0 ' "$logs/summary.txt" || fail "recorder-summary: U: $(grep -E '^U ' "$logs/summary.txt")"
  grep -qE '^TS +16 +0 +0 +16 +2048 +0 ' "$logs/summary.txt" || fail "recorder-summary: TS (varn): $(grep -E '^TS ' "$logs/summary.txt")"
  grep -q '^Nonblocking requests: 168 completed by 32 calls (65600 bytes posted)' "$logs/summary.txt" ||
    fail "recorder-summary: $(grep '^Nonblocking' "$logs/summary.txt")"
  PNC_CLIMATE_RECORDS=40 traced "$work/trace40" "$work/$program" "$work/out40" > "$logs/original40.txt" 2>&1 ||
    { tail -n 20 "$logs/original40.txt" >&2; fail "$program traced at 40 records failed"; }
  "$build/codegen/recorder-codegen" "$work/trace40" -o "$work/kernel40.c" 2> "$logs/codegen40.err" ||
    { cat "$logs/codegen40.err" >&2; fail "recorder-codegen at 40 records failed"; }
  # the same statements and loops; the bytes differ by the paths and loop bounds they name
  shape() { grep -oE '[0-9]+ statements, [0-9]+ loops' "$1"; }
  small=$(wc -c < "$work/kernel.c") large=$(wc -c < "$work/kernel40.c")
  [ "$(shape "$work/kernel.c")" = "$(shape "$work/kernel40.c")" ] && [ $((large - small)) -le 64 ] ||
    fail "the kernel grows with the records: $small bytes ($(shape "$work/kernel.c")) at 4 records, $large ($(shape "$work/kernel40.c")) at 40"
  echo "netcdf_pipeline: $program: the kernel is $small bytes at 4 records, $large at 40 ($(shape "$work/kernel40.c"))"
fi
