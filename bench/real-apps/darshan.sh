#!/usr/bin/env bash
# bench/real-apps/darshan.sh [OUT [NAME...]]: makes again, from scratch, the
# Darshan logs tests/data/darshan holds (OUT, default that directory; NAMEs:
# only those logs, e.g. the -nodxt ones), and next to each,
# NAME.figures: what Darshan's own darshan-parser and darshan-dxt-parser read
# in it, which the reader's tests compare against (tests/importer) without
# Darshan. Steps:
#   1. Darshan 3.5.0 (tag 3.5.0 of https://github.com/darshan-hpc/darshan,
#      cloned into DARSHAN_SRC, default /tmp/darshan-src, unless there) built
#      into DARSHAN_PREFIX (default /tmp/darshan-prefix) against MPICH
#      (mpicc.mpich), runtime and darshan-util; needs autoconf, automake,
#      libtool, zlib1g-dev and libbz2-dev;
#   2. kernels of the MPICH build (RECORDER_BUILD, default build/) at 4 ranks
#      under mpirun.mpich with libdarshan.so preloaded, each log named by
#      DARSHAN_LOGFILE: DXT on (DXT_ENABLE_IO_TRACE=1) for the logs of DXT, off
#      for the NAME-nodxt ones (counters alone); a kernel with a setup step
#      (serial-io) runs it first, without Darshan;
#   3. NAME.figures from darshan-parser (every counter of every record, the
#      header, regions and mount table) and darshan-dxt-parser (every
#      segment); one log is also converted to bzip2 by darshan-convert.
# The logs hold the run's own paths (a directory under /tmp): they differ
# from one run of this script to the next, as their times do.
set -euo pipefail
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
out=${1:-$src/tests/data/darshan}
build=$(cd "${RECORDER_BUILD:-$src/build}" && pwd)
prefix=${DARSHAN_PREFIX:-/tmp/darshan-prefix}
dsrc=${DARSHAN_SRC:-/tmp/darshan-src}
mpirun=${MPIRUN:-mpirun.mpich}
np=4
mkdir -p "$out"
out=$(cd "$out" && pwd)

if [ ! -x "$prefix/bin/darshan-parser" ] || [ ! -f "$prefix/lib/libdarshan.so" ]; then
  if [ ! -d "$dsrc" ]; then
    git -c advice.detachedHead=false clone --quiet --depth 1 --branch 3.5.0 \
      "${GIT_BASE:-https://github.com}/darshan-hpc/darshan" "$dsrc"
  fi
  echo "== Darshan 3.5.0 into $prefix"
  (cd "$dsrc" && ./prepare.sh && mkdir -p build && cd build &&
    ../configure --prefix="$prefix" --with-log-path-by-env=DARSHAN_LOGPATH --with-jobid-env=NONE CC=mpicc.mpich &&
    make -j 2 && make install) > "$prefix.build.log" 2>&1 || { tail -n 20 "$prefix.build.log" >&2; exit 1; }
fi

. "$(dirname "${BASH_SOURCE[0]}")/darshan-figures.sh"

work=$(mktemp -d /tmp/darshan-logs.XXXXXX)
shift || true
wanted=" $* "
# wants NAME: no NAMEs given, or NAME among them
wants() { [ "$wanted" = "  " ] || [[ "$wanted" == *" $1 "* ]]; }
# name|DXT (1 on, 0 off)|kernel and options (the kernel's OUTDIR is added)|its setup step's options
cases=(
  "ior-indep|1|ior-like --collective 0 --segments 1 --block-size 32768|"
  "ior-coll|1|ior-like --collective 1 --segments 2 --block-size 32768|"
  "vpic|1|vpic-like --particles 1024 --steps 2|"
  "fpp|1|checkpoint-fpp --steps 2 --size 32768 --chunk 16384|"
  "ior-indep-nodxt|0|ior-like --collective 0 --segments 1 --block-size 32768|"
  "ior-coll-nodxt|0|ior-like --collective 1 --segments 2 --block-size 32768|"
  "vpic-nodxt|0|vpic-like --particles 1024 --steps 2|"
  "fpp-nodxt|0|checkpoint-fpp --steps 2 --size 32768 --chunk 16384|"
  "serial-nodxt|0|serial-io --chunk 3000 --block 4096|--setup --size 20000"
)
for entry in "${cases[@]}"; do
  IFS='|' read -r name dxt kernel setup <<< "$entry"
  wants "$name" || continue
  read -ra cmd <<< "$kernel"
  echo "== $name: ${cmd[*]} ($([ "$dxt" = 1 ] && echo "DXT on" || echo "no DXT"))"
  if [ -n "$setup" ]; then
    read -ra setup_args <<< "$setup"
    (cd "$work" && "$mpirun" -np $np "$build/kernels/${cmd[0]}" "${setup_args[@]}" "$work/$name") \
      > "$work/$name.setup.out" 2>&1 || { cat "$work/$name.setup.out" >&2; exit 1; }
  fi
  dxt_env=()
  [ "$dxt" = 1 ] && dxt_env=(-genv DXT_ENABLE_IO_TRACE 1)
  (cd "$work" && "$mpirun" -np $np -genv LD_PRELOAD "$prefix/lib/libdarshan.so" "${dxt_env[@]}" \
    -genv DARSHAN_LOGFILE "$work/$name.darshan" "$build/kernels/${cmd[0]}" "${cmd[@]:1}" "$work/$name") \
    > "$work/$name.out" 2>&1 || { cat "$work/$name.out" >&2; exit 1; }
  install -m 644 "$work/$name.darshan" "$out/$name.darshan"
  figures "$out/$name.darshan" > "$out/$name.figures"
done
# The same log, bzip2-compressed, one stream a region (darshan-convert rewrites it whole).
if wants ior-indep-bzip2; then
  rm -f "$out/ior-indep-bzip2.darshan"
  "$prefix/bin/darshan-convert" --bzip2 "$out/ior-indep.darshan" "$work/ior-indep-bzip2.darshan"
  install -m 644 "$work/ior-indep-bzip2.darshan" "$out/ior-indep-bzip2.darshan"
  figures "$out/ior-indep-bzip2.darshan" > "$out/ior-indep-bzip2.figures"
fi
rm -rf "$work"
ls -l "$out"
