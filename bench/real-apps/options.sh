#!/usr/bin/env bash
# bench/real-apps/options.sh PREFIX [CASE...]: the options of the real
# programs (IOR's backends and their flags, mdtest's modes, md-workbench,
# h5bench's patterns) that run.sh's cases leave out, each taken through
#   trace -> recorder-codegen -> compile -> kernel run traced -> recorder-diff
#   trace -> recorder-replay traced -> recorder-diff
# at NP ranks (default 2). One line per case: the original's exit status, its
# records, and the two verdicts ("equiv", "DIFF", "cc-fail"). The case's
# files stay in its directory (orig.log, k.c, kd.txt, rd.txt, ...). It
# reports; it asserts nothing (CI cannot fetch the programs).
# Environment: RECORDER_BUILD (default: build/ beside this script's source
# tree; for Open MPI, a tracer built for it), NP (2), MPIRUN (mpirun.mpich or
# mpirun.openmpi, with PREFIX programs built for it), OPTIONS_DIR (where runs live; default
# a directory full of digits under /tmp, as real jobs' are).
set -uo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
real_apps_start options.sh 2 "IOR, mdtest, h5bench" "$@"
shift
work=${OPTIONS_DIR:-/tmp/real-apps-options-$(printf '%s' "$stamp" | sha1sum | cut -c1-16)/run_$stamp}
mkdir -p "$work/cfg" || exit 2

# h5bench configurations: h5cfg NAME OPERATION MEM FILE COLL_DATA COLL_META DIMS D1 D2 D3 [EXTRA LINE...]
h5cfg() {
  local name=$1 op=$2 mem=$3 file=$4 cd=$5 cm=$6 nd=$7 d1=$8 d2=$9 d3=${10}
  shift 10
  {
    printf 'IO_OPERATION=%s\nMEM_PATTERN=%s\nFILE_PATTERN=%s\nTIMESTEPS=2\nDELAYED_CLOSE_TIMESTEPS=0\n' "$op" "$mem" "$file"
    printf 'COLLECTIVE_DATA=%s\nCOLLECTIVE_METADATA=%s\nEMULATED_COMPUTE_TIME_PER_TIMESTEP=0 s\n' "$cd" "$cm"
    printf 'NUM_DIMS=%s\nDIM_1=%s\nDIM_2=%s\nDIM_3=%s\n' "$nd" "$d1" "$d2" "$d3"
    for line in "$@"; do printf '%s\n' "$line"; done
  } > "$work/cfg/$name.cfg"
}
h5cfg write WRITE CONTIG CONTIG YES YES 1 16384 1 1
h5cfg il WRITE INTERLEAVED INTERLEAVED YES YES 1 16384 1 1
h5cfg ci WRITE CONTIG INTERLEAVED NO NO 1 16384 1 1
h5cfg ic WRITE INTERLEAVED CONTIG YES NO 1 16384 1 1
h5cfg 2d WRITE CONTIG CONTIG YES YES 2 128 128 1
h5cfg 3d WRITE CONTIG CONTIG NO YES 3 32 32 16
h5cfg nd WRITE CONTIG CONTIG YES YES 1 16384 1 1 STDEV_DIM_1=1000
h5cfg full READ CONTIG CONTIG YES YES 1 16384 1 1 READ_OPTION=FULL
h5cfg part READ CONTIG CONTIG YES YES 1 16384 1 1 READ_OPTION=PARTIAL TO_READ_NUM_PARTICLES=4096
h5cfg strided READ CONTIG CONTIG YES YES 1 16384 1 1 READ_OPTION=STRIDED STRIDE_SIZE=64 BLOCK_SIZE=16 \
  BLOCK_CNT=128

# The cases: name, the command line (run in the case's directory, files in
# out/), and for a reader the untraced command that makes its input first.
I=$prefix/bin/ior H=$prefix/bin c=$work/cfg
ior="-b 1m -t 256k -s 2 -w -r -k -o out/f"
all_cases=(
  "ior-mpiio-prealloc|$I -a MPIIO --mpiio.preallocate $ior"
  "ior-mpiio-hints|env IOR_HINT__MPI__romio_cb_write=enable IOR_HINT__MPI__cb_buffer_size=1048576 $I -a MPIIO -c --mpiio.showHints $ior"
  "ior-mpiio-strided|$I -a MPIIO -c --mpiio.useStridedDatatype $ior"
  "ior-mpiio-fileview|$I -a MPIIO -c --mpiio.useFileView $ior"
  "ior-mpiio-ufs|$I -a MPIIO -c -b 1m -t 256k -s 2 -w -r -k -o ufs:out/f"
  "ior-posix-fsync-each|$I -a POSIX -Y $ior"
  "ior-posix-random|$I -a POSIX -z -b 1m -t 64k -s 2 -w -r -k -o out/f"
  "ior-posix-reorder-F|$I -a POSIX -C -F $ior"
  "ior-posix-stonewall|$I -a POSIX -D 1 -O stoneWallingWearOut=1 $ior"
  "ior-posix-reps|$I -a POSIX -i 2 -b 1m -t 256k -s 2 -w -r -o out/f"
  "ior-posix-odirect-F|$I -a POSIX --posix.odirect -F -b 1m -t 64k -s 2 -w -r -k -o out/f"
  "ior-mmap|$I -a MMAP $ior"
  "ior-mmap-madv|$I -a MMAP --mmap.madv_pattern $ior"
  "ior-hdf5-nofill|$I -a HDF5 -c --hdf5.noFill $ior"
  "ior-hdf5-collmeta|$I -a HDF5 -c --hdf5.collectiveMetadata $ior"
  "mdtest-n20|$prefix/bin/mdtest -n 20 -d out/md"
  "mdtest-F-u|$prefix/bin/mdtest -F -u -n 20 -d out/md"
  "mdtest-tree-I|$prefix/bin/mdtest -z 2 -b 2 -I 5 -d out/md"
  "mdtest-write-read|$prefix/bin/mdtest -F -n 10 -w 4096 -e 4096 -d out/md"
  "mdtest-leaf-random|$prefix/bin/mdtest -F -L -z 2 -b 2 -I 4 -R -d out/md"
  "md-workbench|$H/md-workbench -I 10 -P 20 -D 2 -R 2 -o out/mdwb -G 42"
  "md-workbench-verify|$H/md-workbench -I 10 -P 20 -D 2 -R 1 -X -o out/mdwb -G 42 --dataPacketType=timestamp"
  "h5bench-interleaved|$H/h5bench_write $c/il.cfg out/vpic.h5"
  "h5bench-contig-interleaved|$H/h5bench_write $c/ci.cfg out/vpic.h5"
  "h5bench-interleaved-contig|$H/h5bench_write $c/ic.cfg out/vpic.h5"
  "h5bench-2d|$H/h5bench_write $c/2d.cfg out/vpic.h5"
  "h5bench-3d|$H/h5bench_write $c/3d.cfg out/vpic.h5"
  "h5bench-normal-dist|$H/h5bench_write_var_normal_dist $c/nd.cfg out/vpic.h5"
  "h5bench-read-full|$H/h5bench_read $c/full.cfg out/vpic.h5|$H/h5bench_write $c/write.cfg out/vpic.h5"
  "h5bench-read-partial|$H/h5bench_read $c/part.cfg out/vpic.h5|$H/h5bench_write $c/write.cfg out/vpic.h5"
  "h5bench-read-strided|$H/h5bench_read $c/strided.cfg out/vpic.h5|$H/h5bench_write $c/write.cfg out/vpic.h5"
)
selected=" $* "
echo "options.sh: $np ranks, runs in $work"
printf '%-28s %4s %8s %8s %8s\n' case rc records kernel= replay=
for entry in "${all_cases[@]}"; do
  name=${entry%%|*} rest=${entry#*|}
  cmd=${rest%%|*} setup=""
  [ "$rest" != "$cmd" ] && setup=${rest#*|}
  [ $# -gt 0 ] && [[ $selected != *" $name "* ]] && continue
  w=$work/$name
  rm -rf "$w" && mkdir -p "$w/out" && cd "$w" || continue
  # shellcheck disable=SC2086 # the command lines are word lists
  [ -n "$setup" ] && "$mpirun" -np "$np" $setup > setup.log 2>&1
  # shellcheck disable=SC2086
  LD_PRELOAD=$tracer RECORDER_TRACES_DIR=$w/t timeout 300 "$mpirun" -np "$np" $cmd > orig.log 2>&1
  rc=$?
  kv=cc-fail
  if "$build/codegen/recorder-codegen" t -o k.c 2> cg.err && "$h5cc" -shlib -w k.c -o k 2> cc.err; then
    LD_PRELOAD=$tracer RECORDER_TRACES_DIR=$w/kt timeout 600 "$mpirun" -np "$np" ./k kout > k.log 2>&1
    "$build/analysis/recorder-diff" t kt > kd.txt 2>&1 && kv=equiv || kv=DIFF
  fi
  LD_PRELOAD=$tracer RECORDER_TRACES_DIR=$w/rt timeout 600 "$mpirun" -np "$np" \
    "$build/replayer/recorder-replay" --prefix "$w/rout" t > r.log 2>&1
  "$build/analysis/recorder-diff" t rt > rd.txt 2>&1 && rv=equiv || rv=DIFF
  records=$("$build/analysis/recorder-summary" t 2> /dev/null | sed -n 's/^ranks: [0-9]*, records: \([0-9]*\).*/\1/p')
  printf '%-28s %4s %8s %8s %8s\n' "$name" "$rc" "${records:-0}" "$kv" "$rv"
done
