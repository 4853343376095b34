#!/usr/bin/env bash
# bench/real-apps/run.sh PREFIX [CASE...]: real HPC I/O programs through the
# whole pipeline. PREFIX holds what bench/real-apps/build.sh built there:
# bin/ior, bin/mdtest, h5bench's bin/h5bench_write and h5bench_read (each
# optional; h5bench-read reads a file h5bench_write made, untraced, before
# it), PnetCDF's examples (bin/pnetcdf-*) and netCDF-C's parallel tests
# (bin/netcdf-*), and Darshan (lib/libdarshan.so, bin/darshan-parser), whose
# counters are an independent check. Every case is run plain, traced, then
#   trace -> recorder-merge -> recorder-codegen -> compile (-Wall -Werror, with
#   the flags the kernel's Build line names) ->
#   kernel run traced -> recorder-diff, and trace -> recorder-replay -> recorder-diff;
# with Darshan, the original, the kernel and the replay each run once more
# under it and their counters are compared. One line per case:
#   records         calls in the trace, every rank
#   merged          merged records / the longest rank's records
#   kernel          kernel.c bytes, "cc-fail" when it does not compile
#   kernel=, replay= recorder-diff's verdict ("equiv" or "DIFF")
#   tbytes          "=" when every file the original wrote holds as many bytes as the
#                   trace says were written to it, else how many of them do ("3/4")
#   size-k, size-r  every file of the original's directory has a copy of its size
#                   under the kernel's OUTDIR, the replay's prefix ("same"/"DIFF")
#   hdr-k, hdr-r    and each HDF5 file the same h5dump -H, each netCDF file the same
#                   ncdump -h ("same", "DIFF", "-" for none)
#   darshan-k/-r    Darshan counters and output sizes equal to the original's ("same"/"DIFF";
#                   "same*": but for counters or file sizes that differ between two runs of the original)
#   overhead        traced / untraced wall time of the original
# It reports; it asserts nothing (CI cannot fetch the programs).
# Environment: RECORDER_BUILD (default: build/ next to this script's
# source tree), NP (4), MPIRUN (mpirun.mpich; with mpirun.openmpi, give
# RECORDER_BUILD a tracer built for Open MPI and PREFIX programs built with
# MPI_FLAVOUR=openmpi bench/real-apps/build.sh), REAL_APPS_DIR (where runs
# live; default a directory full of digits under /tmp, as real jobs' are).
set -uo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
real_apps_start run.sh 4 "IOR, mdtest, h5bench, Darshan" "$@"
shift
hash=$(printf '%s' "$stamp$prefix" | sha1sum | cut -c1-40)
work=${REAL_APPS_DIR:-/tmp/real-apps-$hash/run_$stamp}
mkdir -p "$work" || exit 2
darshan=$prefix/lib/libdarshan.so
parser=$prefix/bin/darshan-parser
[ -x "$parser" ] && [ -f "$darshan" ] || darshan=""

# The cases: name, then the command line (run in the case's directory).
ior_common="-b 1m -t 64k -w -r -e -k -s 2"
all_cases=(
  "ior-posix|$prefix/bin/ior -a POSIX $ior_common -o ior.dat"
  "ior-posix-F|$prefix/bin/ior -a POSIX -F $ior_common -o ior.dat"
  "ior-mpiio|$prefix/bin/ior -a MPIIO $ior_common -o ior.dat"
  "ior-mpiio-c|$prefix/bin/ior -a MPIIO -c $ior_common -o ior.dat"
  "ior-hdf5|$prefix/bin/ior -a HDF5 $ior_common -o ior.h5"
  "ior-hdf5-c|$prefix/bin/ior -a HDF5 -c $ior_common -o ior.h5"
  "mdtest-F|$prefix/bin/mdtest -n 10 -F -d md"
  "mdtest-tree|$prefix/bin/mdtest -n 10 -z 2 -b 2 -d md"
)
if [ -x "$prefix/bin/h5bench_write" ]; then
  all_cases+=("h5bench-vpic|$prefix/bin/h5bench_write $src/bench/real-apps/h5bench-vpic.cfg vpic.h5")
  # A reader of a file it did not write: h5bench_write makes it first, untraced (a third field: the setup).
  [ -x "$prefix/bin/h5bench_read" ] && all_cases+=(
    "h5bench-read|$prefix/bin/h5bench_read $src/bench/real-apps/h5bench-vpic-read.cfg vpic.h5|$prefix/bin/h5bench_write $src/bench/real-apps/h5bench-vpic.cfg vpic.h5")
  # Chunked, deflated datasets of unlimited size.
  r=$src/bench/real-apps
  [ -x "$prefix/bin/h5bench_write_unlimited" ] && all_cases+=(
    "h5bench-unlim|$prefix/bin/h5bench_write_unlimited $r/h5bench-unlimited.cfg vpic.h5")
fi
# Run only when named: modifying or growing such a file the program did not
# write. Kernels and replays make its deflated chunks to their stored sizes
# exactly, a search that takes minutes for these files' thousands of chunks.
if [ -x "$prefix/bin/h5bench_overwrite" ] && [[ " $* " == *" h5bench-overwr "* || " $* " == *" h5bench-append "* ]]; then
  r=$src/bench/real-apps
  all_cases+=(
    "h5bench-overwr|$prefix/bin/h5bench_overwrite $r/h5bench-overwrite.cfg vpic.h5|$prefix/bin/h5bench_write_unlimited $r/h5bench-unlimited.cfg vpic.h5"
    "h5bench-append|$prefix/bin/h5bench_append $r/h5bench-append.cfg vpic.h5|$prefix/bin/h5bench_write_unlimited $r/h5bench-unlimited.cfg vpic.h5")
fi
# Production codes as Debian packages them (bench/real-apps/packages.sh
# installs them; inputs.sh writes their input into the case's directory):
# LAMMPS (lmp) is built on Open MPI, NWChem's nwchem.mpich on MPICH; the
# issue's runs are at 2 ranks (NP=2).
r=$src/bench/real-apps
if [ $flavour = openmpi ] && command -v lmp > /dev/null && [ -f /usr/share/lammps/examples/melt/in.melt ]; then
  all_cases+=("lammps-melt|lmp -in in.melt|bash $r/inputs.sh lammps-melt"
    "lammps-mpiio|lmp -in in.melt|bash $r/inputs.sh lammps-mpiio")
fi
if [ $flavour = mpich ] && command -v nwchem.mpich > /dev/null; then
  export ARMCI_USE_WIN_ALLOCATE=0 # README.Debian: Global Arrays' windows fail under MPICH without it
  all_cases+=("nwchem-scf|nwchem.mpich h2o.nw|bash $r/inputs.sh nwchem-scf")
fi
# netCDF-4 in parallel (build.sh's netcdf4_par): a writer, and a reader of
# a file the writer made, untraced, before it.
if [ -x "$prefix/bin/netcdf4_par" ]; then
  all_cases+=("netcdf4-write|$prefix/bin/netcdf4_par write out.nc"
    "netcdf4-read|$prefix/bin/netcdf4_par read in.nc|$prefix/bin/netcdf4_par write in.nc")
fi
# PnetCDF's C examples and netCDF-C's parallel tests (build.sh's
# bin/pnetcdf-<example> and bin/netcdf-<test>; Debian builds both libraries
# on Open MPI), each writing into its case's directory; pnetcdf-get_vara
# reads the file pnetcdf-put_vara makes, untraced, before it. Named all at
# once as "pnetcdf" and "netcdf". At NP=4, as netCDF runs them:
# netcdf-tst_parallel5, -tst_parallel_zlib and -tst_quantize_par fail at 2
# ranks; netcdf-tst_mode runs at 1 only, so only with NP=1. Run only when
# named: netcdf-tst_nc4perf, whose 2.4 million records at 4 ranks take
# recorder-codegen more than 5 minutes.
if [ $flavour = openmpi ]; then
  for exe in "$prefix"/bin/pnetcdf-*; do
    [ -x "$exe" ] || continue
    example=${exe##*/pnetcdf-}
    if [ "$example" = get_vara ]; then
      [ -x "$prefix/bin/pnetcdf-put_vara" ] &&
        all_cases+=("pnetcdf-get_vara|$exe -q put_vara.nc|$prefix/bin/pnetcdf-put_vara -q put_vara.nc")
    else
      all_cases+=("pnetcdf-$example|$exe -q $example.nc")
    fi
  done
  for exe in "$prefix"/bin/netcdf-*; do
    [ -x "$exe" ] || continue
    case ${exe##*/} in
    netcdf-tst_mode) [ "$np" = 1 ] || continue ;;
    netcdf-tst_nc4perf) [[ " $* " == *" netcdf-tst_nc4perf "* ]] || continue ;;
    netcdf-parallel_vara*) all_cases+=("${exe##*/}|$exe -q ${exe##*/netcdf-}.nc") && continue ;;
    esac
    all_cases+=("${exe##*/}|$exe")
  done
fi
selected=()
for name in "$@"; do
  case $name in
  pnetcdf | netcdf)
    for entry in "${all_cases[@]}"; do
      [[ ${entry%%|*} == "$name"-* ]] && selected+=("${entry%%|*}")
    done
    ;;
  *) selected+=("$name") ;;
  esac
done
if [ $# -gt 0 ] && [ ${#selected[@]} -eq 0 ]; then
  echo "run.sh: no case named $* in $prefix" >&2
  exit 2
fi

# Seconds a command took (it runs in the current directory; output to FILE).
timed() {
  local out=$1; shift
  local t0 t1
  t0=$(date +%s.%N)
  "$@" > "$out" 2>&1
  local rc=$?
  t1=$(date +%s.%N)
  echo "$rc $(echo "$t1 - $t0" | bc)"
}

# Darshan's totals for the counters that describe what reached the files,
# then the size of every file under DIR (relative names: roots differ) or,
# given the original's directory ORIG, of the files the original left there:
# a kernel or replay also re-creates, under its root, the inputs the
# original read from elsewhere (h5bench's configuration file).
darshan_view() {
  local logdir=$1 dir=$2 orig=${3:-$2}
  local log
  log=$(find "$logdir" -name '*.darshan' | head -n 1)
  [ -n "$log" ] || { echo "no darshan log"; return; }
  "$parser" --total "$log" 2>/dev/null |
    grep -E '^total_(POSIX_(OPENS|READS|WRITES|BYTES_READ|BYTES_WRITTEN|FSYNCS|STATS)|MPIIO_(INDEP|COLL)_(OPENS|READS|WRITES)|MPIIO_BYTES_(READ|WRITTEN)|H5F_OPENS|H5D_(OPENS|READS|WRITES|BYTES_READ|BYTES_WRITTEN)):' |
    sort
  # --total leaves HDF5's modules out: their counters summed over records
  "$parser" "$log" 2>/dev/null | awk '$1 ~ /^H5[FD]$/ && $4 ~ /^H5(F_(OPENS|FLUSHES|USE_MPIIO)|D_(OPENS|READS|WRITES|BYTES_READ|BYTES_WRITTEN|FLUSHES|REGULAR_HYPERSLAB_SELECTS|IRREGULAR_HYPERSLAB_SELECTS|POINT_SELECTS|USE_MPIIO_COLLECTIVE|DATASPACE_NPOINTS|DATATYPE_SIZE|SIZE_(READ|WRITE)_AGG_.*))$/ { total[$4] += $5 }
    END { for (c in total) print "total_" c ": " total[c] }' | sort
  (cd "$orig" && find . -type f ! -name '*.darshan' | sort) | while read -r name; do
    echo "$name $(stat -c %s "$dir/$name" 2>/dev/null || echo missing)"
  done
}

# under_darshan LOGDIR COMMAND...: the command once more, Darshan preloaded.
under_darshan() {
  local logdir=$1; shift
  rm -rf "$logdir" && mkdir -p "$logdir"
  launch LD_PRELOAD="$darshan" DARSHAN_LOGDIR="$logdir" -- "$@" > "$logdir.out" 2>&1
}

# launch [VAR=VALUE...] -- COMMAND...: COMMAND on np ranks under $mpirun,
# the variables set for the ranks (MPICH's -genv, Open MPI's -x).
if [ $flavour = openmpi ]; then
  env_flag() { printf '%s\n' -x "$1"; }
else
  env_flag() { printf '%s\n' -genv "${1%%=*}" "${1#*=}"; }
fi
launch() {
  local flags=()
  while [ "$1" != -- ]; do
    mapfile -t -O ${#flags[@]} flags < <(env_flag "$1")
    shift
  done
  shift
  "$mpirun" -np "$np" "${flags[@]}" "$@"
}

# kernel_flags KERNEL: the flags the Build line of KERNEL's header adds after
# "-o kernel" (the line wrapped as the header's are), each $(pkg-config ...)
# in them replaced by what pkg-config says (nothing else is run); or
# PnetCDF's when it includes pnetcdf.h and names none.
kernel_flags() {
  local text call words
  text=$(sed -n '/Build:/,/; run:/p' "$1" | head -n 3 | tr '\n' ' ' | sed 's/  *\*  */ /g' |
    sed -n 's/.*Build: .*-o kernel \(.*\); run:.*/\1/p')
  while [[ $text =~ \$\(pkg-config(( [A-Za-z0-9_.=-]+)+)\) ]]; do
    call=${BASH_REMATCH[0]} words=${BASH_REMATCH[1]}
    # shellcheck disable=SC2086 # the arguments are a word list
    text=${text/"$call"/$(pkg-config $words)}
  done
  [ -z "$text" ] && grep -q '^#include <pnetcdf.h>' "$1" && text=$(pkg-config --cflags --libs pnetcdf)
  echo "$text"
}

verdict() { grep -q '^recorder-diff: equivalent' "$1" && echo equiv || echo DIFF; }

# traced_bytes TRACE DIR: "=" when every file under DIR that the trace's
# POSIX layer wrote to has as many bytes written as the file holds, else
# "N/M" (N of the M such files): what a program wrote and the trace missed
# (or wrote twice, as HDF5 rewrites its superblock).
traced_bytes() {
  "$build/analysis/recorder-summary" "$1" 2> /dev/null |
    awk -v dir="$2" '/^Files/ {on = 1; next} on && /^$/ {on = 0}
      on && $1 == "POSIX" && $4 > 0 { p = $8; gsub(/"/, "", p); if (p !~ /^\//) p = dir "/" p; print $6, p }' |
    { equal=0 all=0
      while read -r written path; do
        [ -f "$path" ] || continue
        all=$((all + 1))
        [ "$(stat -c %s "$path")" = "$written" ] && equal=$((equal + 1))
      done
      if [ "$equal" = "$all" ]; then echo "="; else echo "$equal/$all"; fi; }
}

# same_headers ORIG COPY: "same" when every HDF5 file under ORIG has the
# same h5dump -H at COPY/its name, and every netCDF file (named .nc, or a
# classic one by its magic "CDF", as PnetCDF's pthread example's .nc.N) the
# same ncdump -h, but for the line that names the file; "-" when there is none.
same_headers() {
  local name n=0 a b
  while read -r name; do
    case $name:$(head -c 3 "$1/$name" 2> /dev/null | tr -d '\0') in
    *.nc:* | *:CDF) command -v ncdump > /dev/null || continue
      a=$(ncdump -h "$1/$name" 2>&1 | tail -n +2) b=$(ncdump -h "$2/$name" 2>&1 | tail -n +2) ;;
    *) h5dump -H "$1/$name" > /dev/null 2>&1 || continue
      a=$(h5dump -H "$1/$name" 2>&1 | tail -n +2) b=$(h5dump -H "$2/$name" 2>&1 | tail -n +2) ;;
    esac
    n=$((n + 1))
    [ "$a" = "$b" ] || { echo DIFF; return; }
  done < <(cd "$1" && find . -type f | sort)
  if [ $n = 0 ]; then echo -; else echo same; fi
}

# same_sizes ORIG COPY: "same" when every regular file under ORIG has a copy
# of its size at COPY/its name (a kernel's OUTDIR, a replay's prefix).
same_sizes() {
  local name
  (cd "$1" && find . -type f | sort) | while read -r name; do
    [ "$(stat -c %s "$1/$name")" = "$(stat -c %s "$2/$name" 2> /dev/null)" ] || { echo DIFF; return; }
  done | grep -q DIFF && echo DIFF || echo same
}

printf '%-28s %3s %9s %7s %8s %7s %7s %6s %6s %6s %5s %5s %9s %9s %8s\n' case np records merged kernel kernel= replay= \
  tbytes size-k size-r hdr-k hdr-r darshan-k darshan-r overhead
for entry in "${all_cases[@]}"; do
  name=${entry%%|*}
  cmd=${entry#*|}
  setup="" # run untraced in each directory the case runs in, before it
  if [[ "$cmd" == *"|"* ]]; then
    setup=${cmd#*|}
    cmd=${cmd%%|*}
  fi
  if [ ${#selected[@]} -gt 0 ] && [[ " ${selected[*]} " != *" $name "* ]]; then continue; fi
  run=$work/$name
  rm -rf "$run" && mkdir -p "$run/plain" "$run/orig" "$run/kernel-out"
  prepare() { # prepare DIR: the case's inputs, made untraced
    # shellcheck disable=SC2086
    [ -z "$setup" ] || (cd "$1" && launch -- $setup > "$1.setup.txt" 2>&1)
  }
  prepare "$run/plain"
  prepare "$run/orig"
  # shellcheck disable=SC2086 # the case's command line is split on purpose
  read -r _ plain_t < <(cd "$run/plain" && timed "$run/plain.txt" launch -- $cmd)
  # shellcheck disable=SC2086
  read -r orig_rc orig_t < <(cd "$run/orig" && timed "$run/orig.txt" launch LD_PRELOAD="$tracer" \
    RECORDER_TRACES_DIR="$run/trace" -- $cmd)
  overhead=$(echo "scale=2; $orig_t / $plain_t" | bc)
  records=- merged=- kbytes=- kverdict=- rverdict=- dk=- dr=-
  if [ "$orig_rc" -eq 0 ] && "$build/merger/recorder-merge" "$run/trace" -o "$run/merged" > "$run/merge.txt" 2>&1; then
    records=$(sed -n 's/.* \([0-9]*\) records -> .*/\1/p' "$run/merge.txt")
    merged=$(sed -n 's/.*; \([0-9.]*\)x the longest rank.*/\1/p' "$run/merge.txt")
  fi
  # a program that does its I/O from threads it starts is compared thread by thread
  diff_threads=()
  "$build/analysis/recorder2text" "$run/trace" 2> /dev/null | grep -q '^[0-9]* [0-9.]* [0-9.]* 0 POSIX pthread_create(' &&
    diff_threads=(--threads)
  if (cd "$run" && "$build/codegen/recorder-codegen" trace -o kernel.c) 2> "$run/codegen.err"; then
    kbytes=$(wc -c < "$run/kernel.c")
    # shellcheck disable=SC2046 # the flags are a word list
    if (cd "$run" && "$h5cc" -shlib -Wall -Werror kernel.c -o kernel $(kernel_flags kernel.c)) > "$run/cc.txt" 2>&1; then
      launch LD_PRELOAD="$tracer" RECORDER_TRACES_DIR="$run/kernel-trace" -- "$run/kernel" "$run/kernel-out" > "$run/kernel.txt" 2>&1
      "$build/analysis/recorder-diff" "${diff_threads[@]}" "$run/trace" "$run/kernel-trace" > "$run/kernel-diff.txt" 2>&1
      kverdict=$(verdict "$run/kernel-diff.txt")
    else
      kbytes=cc-fail
    fi
  fi
  launch LD_PRELOAD="$tracer" RECORDER_TRACES_DIR="$run/replay-trace" -- "$build/replayer/recorder-replay" --prefix "$run/replay-out" "$run/trace" > "$run/replay.txt" 2>&1
  "$build/analysis/recorder-diff" "${diff_threads[@]}" "$run/trace" "$run/replay-trace" > "$run/replay-diff.txt" 2>&1
  rverdict=$(verdict "$run/replay-diff.txt")
  if [ -n "$darshan" ]; then
    # The original twice: a counter or a file size that differs between two
    # runs of the program itself (ROMIO's data sieving reads what other ranks
    # have written so far; random data compress differently) is not the
    # tools' to reproduce; it is left out, and the verdict says so ("same*").
    for k in 1 2; do
      mkdir -p "$run/d-orig$k"
      prepare "$run/d-orig$k"
      # shellcheck disable=SC2086
      (cd "$run/d-orig$k" && under_darshan "$run/darshan-orig$k" $cmd)
      darshan_view "$run/darshan-orig$k" "$run/d-orig$k" > "$run/darshan-orig$k.txt"
    done
    diff "$run/darshan-orig1.txt" "$run/darshan-orig2.txt" |
      sed -n -e 's/^< \(total_[A-Z0-9_]*\):.*/\1:/p' -e 's/^< \(\.\/.*\) [0-9a-z]*$/\1 /p' > "$run/darshan-unstable.txt"
    stable() { grep -v -F -f "$run/darshan-unstable.txt" "$1" || true; }
    star=""
    [ -s "$run/darshan-unstable.txt" ] && star="*"
    if [ -x "$run/kernel" ]; then
      mkdir -p "$run/d-kernel-out"
      under_darshan "$run/darshan-kernel" "$run/kernel" "$run/d-kernel-out"
      darshan_view "$run/darshan-kernel" "$run/d-kernel-out" "$run/d-orig1" > "$run/darshan-kernel.txt"
      cmp -s <(stable "$run/darshan-orig1.txt") <(stable "$run/darshan-kernel.txt") && dk=same$star || dk=DIFF
    fi
    mkdir -p "$run/d-replay-out"
    under_darshan "$run/darshan-replay" "$build/replayer/recorder-replay" --prefix "$run/d-replay-out" "$run/trace"
    darshan_view "$run/darshan-replay" "$run/d-replay-out" "$run/d-orig1" > "$run/darshan-replay.txt"
    cmp -s <(stable "$run/darshan-orig1.txt") <(stable "$run/darshan-replay.txt") && dr=same$star || dr=DIFF
  fi
  tbytes=$(traced_bytes "$run/trace" "$run/orig")
  sk=$(same_sizes "$run/orig" "$run/kernel-out") sr=$(same_sizes "$run/orig" "$run/replay-out")
  hk=$(same_headers "$run/orig" "$run/kernel-out") hr=$(same_headers "$run/orig" "$run/replay-out")
  printf '%-28s %3s %9s %7s %8s %7s %7s %6s %6s %6s %5s %5s %9s %9s %8s\n' "$name" "$np" "$records" "$merged" \
    "$kbytes" "$kverdict" "$rverdict" "$tbytes" "$sk" "$sr" "$hk" "$hr" "$dk" "$dr" "$overhead"
done
[ -n "$darshan" ] && echo "same*: equal but for counters or file sizes that differ between two runs of the original (listed in CASE/darshan-unstable.txt)"
echo "runs, traces, kernels and Darshan views: $work"
