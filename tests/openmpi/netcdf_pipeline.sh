#!/usr/bin/env bash
# netcdf_pipeline.sh SRC_DIR BUILD_DIR OPENMPI_BUILD_DIR PROGRAM NP: a program
# of tests/corpus that writes (or reads) through PnetCDF (pnc_*) or parallel
# netCDF-4 (nc4_*), taken through the pipeline at its library's layer under
# Open MPI (Debian builds both libraries on it): compiled with Open MPI's
# mpicc and pkg-config's pnetcdf (netcdf-mpi) flags; its --setup run
# untraced (a reader's input); traced; merged; the kernel made, which must
# call ncmpi_ (nc_) functions and none of the MPI-IO (HDF5) calls they made,
# compiled with its own Build line's flags and -Werror, run traced; the
# replay traced; both recorder-diff equivalent, every file the same size
# and every netCDF file the same `ncdump -h`; the kernel of the layer beneath
# (--layer mpiio, --layer hdf5) makes the original's calls and bytes of that
# layer. Exits 77 (skipped) without ncdump, the library's pkg-config module,
# or an Open MPI build with the library's layer.
set -euo pipefail
src=$(cd "$1" && pwd) build=$(cd "$2" && pwd) ompi=$(cd "$3" && pwd) program=$4 np=$5
. "$(dirname "$0")/../support/testlib.sh"
begin_test "netcdf_pipeline: $program.np$np" "$build/openmpi-runs/netcdf.$program.np$np" logs out
logs=$work/logs
skip() { echo "netcdf_pipeline: $program: skipped: $*"; exit 77; }
command -v ncdump > /dev/null || skip "no ncdump (Debian's netcdf-bin)"
# The library's names: pkg-config module, layer (as recorder2text prints it), prefix, the
# call that creates a file, the layer beneath (its kernel's --layer, its calls' pattern).
case $program in
pnc_*) module=pnetcdf layer=PnetCDF prefix=ncmpi_ creates=ncmpi_create beneath=mpiio
  beneath_layer=MPI-IO beneath_calls='\bMPI_File_[a-z_]+\(' ;;
nc4_*) module=netcdf-mpi layer=netCDF prefix=nc_ creates=nc_create_par beneath=hdf5
  beneath_layer=HDF5 beneath_calls='\bH5[A-Z][a-z_0-9]*\(' ;;
*) fail "$program: neither pnc_ (PnetCDF) nor nc4_ (netCDF-4)" ;;
esac
pkg-config --exists $module || skip "no pkg-config module $module (Debian's lib$module-dev)"
[ "$(nm -D --defined-only "$ompi/tracer/librecorder.so" | grep -c " $creates\$")" -gt 0 ] ||
  skip "the Open MPI build has no $layer layer (it keeps one only where $layer is built on Open MPI)"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_sharedfp=^lockedfile
ompi_tmp=$(mktemp -d /tmp/ompi-test.XXXXXX)
trap 'rm -rf "$ompi_tmp"' EXIT
export OMPI_MCA_orte_tmpdir_base=$ompi_tmp
mpiexec=$ompi/mpi-bin/mpiexec mpicc=$ompi/mpi-bin/mpicc
# Debian's netcdf-mpi.pc names /usr/include, not its headers' prefix (the kernel's Build line says so too)
flags="-I$(pkg-config --variable=prefix $module)/include $(pkg-config --cflags --libs $module)"
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
# a netCDF-4 input is re-created from its structure: the same header, its size said (HDF5 lays it out
# anew); a classic one, from its header, the same size
remade=""
for f in $(find "$work/out" -type f); do
  [ "$(head -c 4 "$f" | od -An -c | tr -d ' ')" = '211HDF' ] && remade="$remade $f"
done
traced "$work/trace" "$work/$program" "$work/out" > "$logs/original.txt" 2>&1 ||
  { tail -n 20 "$logs/original.txt" >&2; fail "$program traced failed"; }
calls=$("$build/analysis/recorder2text" --rank 0 "$work/trace" | grep -c " $layer $prefix" || true)
[ "$calls" -gt 0 ] || fail "rank 0's trace holds no $layer call"
# Every call of the layer beneath nests in the library's call that made it: a query that reads the
# file (netCDF-4 reads a variable's metadata at the first question about it) is traced, none at the top.
"$build/analysis/recorder2text" "$work/trace" > "$logs/original-text.txt"
top=$(awk -v l="$beneath_layer" '$4 == 0 && $5 == l' "$logs/original-text.txt" | head -n 3)
[ -z "$top" ] || fail "$beneath_layer calls at the top level of the trace, made by no traced $layer call: $top"

# 2. The kernel, at the library's layer.
"$build/merger/recorder-merge" --quiet "$work/trace" -o "$work/merged" 2> "$logs/merge.err" ||
  { cat "$logs/merge.err" >&2; fail "recorder-merge failed"; }
"$build/codegen/recorder-codegen" "$work/merged" -o "$work/kernel.c" 2> "$logs/codegen.err" ||
  { cat "$logs/codegen.err" >&2; fail "recorder-codegen failed"; }
grep -qE "\\b$prefix[a-z_]+\\(" "$work/kernel.c" || fail "the kernel calls no $prefix function"
# (main's calls: setup() re-creates a netCDF-4 input with HDF5 calls of its own, untraced)
sed -n '/^int main(/,/^}$/p' "$work/kernel.c" > "$work/kernel-main.c"
! grep -qE "$beneath_calls" "$work/kernel-main.c" ||
  fail "the kernel makes $beneath_layer calls $layer made: $(grep -oE "$beneath_calls" "$work/kernel-main.c" | sort -u | tr '\n' ' ')"
# A program's threads take turns in the library (neither Debian's PnetCDF nor netCDF-C is thread-safe):
# every $layer call of a thread function, in ONE_AT_A_TIME (a call on the line after its "ONE_AT_A_TIME(" is in it).
sed -n '/^static void \*thread_[0-9]*(void \*arg)$/,/^}$/p' "$work/kernel.c" > "$work/kernel-threads.c"
bare=$(awk -v p="^ +$prefix[a-z_]+[(]" '$0 ~ p && prev !~ /[(]$/ { print } { prev = $0 }' "$work/kernel-threads.c" | head -n 3)
[ -z "$bare" ] || fail "$layer calls of a thread take no turn: $bare"
if [ -s "$work/kernel-threads.c" ]; then
  grep -q "ONE_AT_A_TIME($prefix" "$work/kernel-threads.c" || fail "no $layer call of a thread takes a turn"
fi
# (the Build line, wrapped as the header's lines are)
sed -n '/Build:/,/run:/p' "$work/kernel.c" | tr '\n' ' ' | sed 's/  *\*  */ /g' | grep -q "Build: .*pkg-config --cflags --libs $module" ||
  fail "the kernel's Build line lacks $module's flags: $(grep -A2 'Build:' "$work/kernel.c")"
# shellcheck disable=SC2086
(cd "$work" && "$ompi/mpi-bin/h5pcc" -shlib -Wall -Wextra -Werror kernel.c -o kernel $flags) > "$logs/compile.txt" 2>&1 ||
  { cat "$logs/compile.txt" >&2; fail "the kernel does not compile"; }
traced "$work/ktrace" "$work/kernel" "$work/kout" > "$logs/kernel.txt" 2>&1 ||
  { tail -n 20 "$logs/kernel.txt" >&2; fail "the kernel failed"; }
equivalent() { # NAME TRACE
  "$build/analysis/recorder-diff" ${DIFF_OPTIONS:-} "$work/trace" "$2" > "$logs/diff-$1.txt" 2>&1 ||
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

if [ "$program" = pnc_threads ]; then
  # every member file its own: created and opened once, 3 writes and 2 reads at the PnetCDF layer, whichever
  # thread made them (the Files table keys a file and a layer apart: PnetCDF's once fell on the next file's POSIX)
  "$build/analysis/recorder-summary" "$work/trace" | sed -n '/^Files/,/^$/p' |
    awk '$1 == "PnetCDF" { n++; if ($2 != 2 || $3 != 2 || $4 != 3) bad = bad " " $NF ": " $2 " opens, " $3 " reads, " $4 " writes" }
      END { if (n != 12 || bad != "") { print n " PnetCDF files;" bad; exit 1 } }' > "$logs/summary-files.txt" ||
    fail "recorder-summary's files: $(cat "$logs/summary-files.txt")"
fi
if [ "$program" = nc4_features ]; then
  # NC_STRING values by their lengths, never their characters; the kernel writes strings of them
  grep -q 'nc_put_vara_string(.*lengths=\[25,0,26,36,1\])' "$logs/original-text.txt" ||
    fail "the trace lacks the strings' lengths: $(grep nc_put_vara_string "$logs/original-text.txt" | head -n 1)"
  grep -q '(const char \*\[\]){TEXT(25), TEXT(0), TEXT(26), TEXT(36), TEXT(1)}' "$work/kernel.c" ||
    fail "the kernel writes no strings of the traced lengths: $(grep -m1 'nc_put_vara_string' "$work/kernel.c")"
  # variable-length values by their base type's size and lengths, never their data; the kernel defines
  # the type and writes values of those lengths (the files' sizes below: HDF5 stores them alike)
  grep -q 'nc_def_vlen(ncid=ncid#[0-9]*, name="ports_of_call", base_typeid=NC_INT, xtypep=32) = NC_NOERR' "$logs/original-text.txt" &&
    grep -q 'nc_put_vara(ncid=ncid#[0-9]*, varid=2, .*, vlens=\[4,3,0,7,1\]) = NC_NOERR' "$logs/original-text.txt" ||
    fail "the trace lacks nc_def_vlen or the values' lengths: $(grep -E 'nc_def_vlen|vlens=\[[0-9]' "$logs/original-text.txt" | head -n 2)"
  grep -qE 'nc_def_vlen\(ncid[_0-9]*, "ports_of_call", NC_INT, ' "$work/kernel.c" &&
    grep -q '(const nc_vlen_t\[\]){VLEN(3), VLEN(0), VLEN(7), VLEN(1)}' "$work/kernel.c" ||
    fail "the kernel defines no variable-length type or writes no values of the traced lengths: $(grep -m2 -E 'nc_def_vlen|VLEN\(' "$work/kernel.c")"
  # fill values of each type's length, by iteration: a table of typed literals (the kernel compiled)
  grep -q 'nc_def_var_fill(ncid, i + 2, 0, fill_value_by_iter\[i\])' "$work/kernel.c" ||
    fail "the kernel sets the fill values from no table by iteration: $(grep -m1 nc_def_var_fill "$work/kernel.c")"
  # out pointers the program passed NULL stay NULL; user-defined types are defined as traced
  grep -q 'nc_inq_var_deflate(ncid_[0-9]*, 7, &(int){0}, NULL, NULL)' "$work/kernel.c" ||
    fail "the kernel's nc_inq_var_deflate: $(grep -m1 nc_inq_var_deflate "$work/kernel.c")"
  grep -q 'nc_inq_var_fill(ncid_[0-9]*, 2, &(int){0}, NULL)' "$work/kernel.c" ||
    fail "the kernel's nc_inq_var_fill without a buffer: $(grep nc_inq_var_fill "$work/kernel.c" | tail -n 1)"
  grep -qE 'nc_def_enum\(ncid[_0-9]*, NC_UINT64, "cargo"' "$work/kernel.c" && grep -q 'nc_insert_array_compound(' "$work/kernel.c" ||
    fail "the kernel defines no enum or compound type"
  # the deflated records' data deflates as the original's (the file sizes below): nc_filtered()'s
  grep -q '(const double \*)nc_filtered(ncid, 9, ' "$work/kernel.c" ||
    fail "the kernel's deflated writes take no nc_filtered() data: $(grep -m1 -A2 'nc_put_vara_double(ncid, 9' "$work/kernel.c")"
fi

# 3. The replay, at the library's layer.
traced "$work/rtrace" "$ompi/replayer/recorder-replay" --prefix "$work/rpre" "$work/trace" > "$logs/replay.txt" 2>&1 ||
  { tail -n 20 "$logs/replay.txt" >&2; fail "recorder-replay failed"; }
grep -qE "^  $layer +[1-9]" "$logs/replay.txt" || fail "the replay issued no $layer call: $(grep "$layer" "$logs/replay.txt")"
equivalent replay "$work/rtrace"
ids_die_with_their_info replay "$work/rtrace"

# 4. The files: the same sizes; every netCDF file the same header.
SAME_FILES_REMADE=$remade SAME_FILES_HEADERS=0 same_output_files "$work/out" "$work/kout" "from the kernel"
SAME_FILES_REMADE=$remade SAME_FILES_HEADERS=0 same_output_files "$work/out" "$work/rpre" "from the replay"
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

# 5. The kernel beneath (--layer mpiio, hdf5): that layer's calls and none of the library's, built
#    without it; its run makes the original's calls and bytes of that layer per rank, function and file.
#    HDF5's variable-length writes (NC_STRING values, nc_def_vlen types) by their traced lengths.
"$build/codegen/recorder-codegen" --layer $beneath "$work/merged" -o "$work/$beneath.c" 2> "$logs/codegen-$beneath.err" ||
  { cat "$logs/codegen-$beneath.err" >&2; fail "recorder-codegen --layer $beneath failed"; }
! grep -qE "\\b$prefix[a-z_0-9]+\\(" "$work/$beneath.c" ||
  fail "the $beneath_layer kernel calls $layer: $(grep -oE "\\b$prefix[a-z_0-9]+\\(" "$work/$beneath.c" | sort -u | tr '\n' ' ')"
if [ $beneath = mpiio ]; then
  (cd "$work" && "$mpicc" -Wall -Wextra -Werror $beneath.c -o $beneath) > "$logs/compile-$beneath.txt" 2>&1
else
  (cd "$work" && "$ompi/mpi-bin/h5pcc" -shlib -Wall -Wextra -Werror $beneath.c -o $beneath) > "$logs/compile-$beneath.txt" 2>&1
fi || { cat "$logs/compile-$beneath.txt" >&2; fail "the $beneath_layer kernel does not compile without $layer"; }
traced "$work/mtrace" "$work/$beneath" "$work/mout" > "$logs/$beneath.txt" 2>&1 ||
  { tail -n 20 "$logs/$beneath.txt" >&2; fail "the $beneath_layer kernel failed"; }
layer_rows() { # TRACE: rank, function, file's base name, calls, bytes of the layer beneath
  "$build/analysis/recorder-summary" --csv "$1" | awk -F, -v l="$beneath_layer" 'NR > 1 && $2 == l {
    n = split($4, p, "/"); print $1, $3, p[n], $5, $6 }' | sort
}
diff <(layer_rows "$work/trace") <(layer_rows "$work/mtrace") > "$logs/$beneath.diff" ||
  { head -20 "$logs/$beneath.diff" >&2; fail "the $beneath_layer kernel's $beneath_layer calls or bytes differ from the original's"; }
echo "netcdf_pipeline: $program: --layer $beneath: $(grep -cE "$beneath_calls" "$work/$beneath.c") $beneath_layer calls in the kernel, the original's $(layer_rows "$work/trace" | awk '{n += $4} END {print n}') $beneath_layer calls made again"
if [ "$program" = nc4_features ]; then
  # HDF5's variable-length writes by their lengths (the NC_STRING values, the motto, the vlen values):
  # the HDF5 kernel writes strings and hvl_t of them again, and its files are the original's
  h5_lengths() { "$build/analysis/recorder2text" "$1" | grep -oE ' H5Dwrite\(.*, (lengths|vlens)=\[[-0-9,]*\]' |
    grep -oE '(lengths|vlens)=\[[-0-9,]*\]' | tr '\n' ' '; }
  want='lengths=[25,0,26,36,1] lengths=[27] vlens=[4,3,0,7,1] '
  [ "$(h5_lengths "$work/trace")" = "$want" ] || fail "the trace's H5Dwrite lengths: $(h5_lengths "$work/trace")"
  [ "$(h5_lengths "$work/mtrace")" = "$want" ] || fail "the HDF5 kernel's H5Dwrite lengths: $(h5_lengths "$work/mtrace")"
  grep -qF '(const char *[]){TEXT(25), TEXT(0), TEXT(26), TEXT(36), TEXT(1)}' "$work/$beneath.c" &&
    grep -qF '(const hvl_t[]){HVL(3), HVL(0), HVL(7), HVL(1)}' "$work/$beneath.c" ||
    fail "the HDF5 kernel writes no strings or sequences of the traced lengths: $(grep -m2 -E 'TEXT\(|HVL\(' "$work/$beneath.c")"
  SAME_FILES_HEADERS=0 same_output_files "$work/out" "$work/mout" "from the $beneath_layer kernel"
  for f in "$work"/out/*.nc; do
    diff <(h5dump -H "$f" | tail -n +2) <(h5dump -H "$work/mout$f" | tail -n +2) > "$logs/h5dump-$beneath.diff" ||
      fail "$f: h5dump -H differs from the $beneath_layer kernel's: $(head -5 "$logs/h5dump-$beneath.diff")"
  done
  echo "netcdf_pipeline: $program: --layer $beneath: strings and sequences of the traced lengths, $files files alike"
fi

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
  # the multi-variable calls' variables, each row's bytes its variable's: FLNT and FSNT a call of each
  # ncmpi_mput_vara_all (4 records x 4 ranks, 128 bytes each) and of each rank's ncmpi_mget_vara_float_all
  # (4, 128 bytes), date of each mput (4 bytes) and of rank 0's mget; area by vard, 4 ranks' write and read
  for row in 'FLNT +20 +20 +0 +0 +2048 +512' 'FSNT +20 +20 +0 +0 +2048 +512' 'date +17 +17 +0 +0 +64 +4' \
    'area +8 +8 +0 +0 +1024 +1024'; do
    [ "$(grep -cE "^$row +\".*/out/climate(_cdf2)?\.nc\"\$" "$logs/summary.txt")" = 2 ] ||
      fail "recorder-summary: ${row%% *} in each file as $(echo "$row" | tr -d '+'): $(grep -E "^${row%% *} " "$logs/summary.txt")"
  done
  # mput, mget and vard traced as calls of their own: rank 0 makes one ncmpi_mput_vara_all a record and file
  # (two planes and the date, 260 bytes), one ncmpi_mget_vara_float_all a file (the same), a vard write and
  # read of the areas (256 bytes each); rank 1 reads no date (256 bytes); no rank's MPI-IO call is at the top
  "$build/analysis/recorder2text" "$work/trace" > "$logs/trace.txt"
  pnc_calls() { grep -cE "^$1 [0-9.]+ [0-9.]+ 0 PnetCDF $2\(.*bytes=$3\) = NC_NOERR\$" "$logs/trace.txt" || true; }
  multi="$(pnc_calls 0 ncmpi_mput_vara_all '260, row_bytes=\[128,128,4\]')"
  multi="$multi $(pnc_calls 0 ncmpi_mget_vara_float_all '260, row_bytes=\[128,128,4\]')"
  multi="$multi $(pnc_calls 1 ncmpi_mget_vara_float_all '256, row_bytes=\[128,128\]')"
  vard="$(pnc_calls 0 ncmpi_put_vard_all 256) $(pnc_calls 0 ncmpi_get_vard_all 256)"
  [ "$multi $vard" = "8 2 2 2 2" ] || fail "mput, mget (rank 0, rank 1), put_vard, get_vard: $multi $vard calls, expected 8 2 2 2 2"
  top=$(awk '$4 == 0 && $5 == "MPI-IO"' "$logs/trace.txt" | head -3)
  [ -z "$top" ] || fail "MPI-IO calls at the top, beneath no PnetCDF call: $top"
  for call in ncmpi_mput_vara_all ncmpi_mget_vara_float_all ncmpi_put_vard_all ncmpi_get_vard_all; do
    grep -q "$call(" "$work/kernel.c" || fail "the kernel makes no $call"
  done
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
