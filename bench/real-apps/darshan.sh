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
# The logs of the upper layers (h5-*, pnc-*) come from two more Darshan 3.5.0
# builds of the same source, made unless there: DARSHAN_H5_PREFIX (default
# /tmp/darshan-h5; --enable-hdf5-mod on Debian's parallel HDF5 1.10 for MPICH,
# libhdf5-mpich-dev) runs the MPICH kernels, DARSHAN_PNC_PREFIX (default
# /tmp/darshan-pnc; --enable-pnetcdf-mod, mpicc.openmpi: Debian's libpnetcdf-dev
# is built on Open MPI) the PnetCDF programs of the Open MPI tree
# (RECORDER_OMPI_BUILD, default build/openmpi) under mpirun.openmpi, through
# Open MPI's ROMIO (OMPI_MCA_io=romio321: ompio's shared-file-pointer
# components would add files of their own beside each netCDF file).
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

# darshan_with PREFIX BUILDDIR CC CONFIGURE-OPTIONS...: a Darshan of the upper layers.
darshan_with() {
  local pfx=$1 bdir=$2 cc=$3; shift 3
  [ -x "$pfx/bin/darshan-parser" ] && [ -f "$pfx/lib/libdarshan.so" ] && return 0
  echo "== Darshan 3.5.0 into $pfx ($*)"
  [ -x "$dsrc/configure" ] || (cd "$dsrc" && ./prepare.sh) > "$pfx.build.log" 2>&1
  mkdir -p "$bdir"
  (cd "$bdir" && "$dsrc/configure" --prefix="$pfx" --with-log-path-by-env=DARSHAN_LOGPATH --with-jobid-env=NONE \
    "$@" CC="$cc" && make -j 2 && make install) > "$pfx.build.log" 2>&1 || { tail -n 20 "$pfx.build.log" >&2; exit 1; }
}
h5_prefix=${DARSHAN_H5_PREFIX:-/tmp/darshan-h5}
pnc_prefix=${DARSHAN_PNC_PREFIX:-/tmp/darshan-pnc}
ompi_build=${RECORDER_OMPI_BUILD:-$build/openmpi}
# Darshan finds HDF5 by its h5dump: a prefix of Debian's MPICH HDF5 with one.
h5_home=/tmp/darshan-hdf5-mpich
mkdir -p "$h5_home/bin"
ln -sfn /usr/bin/h5dump "$h5_home/bin/h5dump"
ln -sfn /usr/include/hdf5/mpich "$h5_home/include"
ln -sfn /usr/lib/x86_64-linux-gnu/hdf5/mpich "$h5_home/lib"

. "$(dirname "${BASH_SOURCE[0]}")/darshan-figures.sh"

work=$(mktemp -d /tmp/darshan-logs.XXXXXX)
shift || true
wanted=" $* "
# wants NAME: no NAMEs given, or NAME among them
wants() { [ "$wanted" = "  " ] || [[ "$wanted" == *" $1 "* ]]; }
# name|DXT (1 on, 0 off)|kernel and options (the kernel's OUTDIR is added)|its setup step's options|
#   layer (hdf5: the Darshan of the HDF5 module; pnetcdf: the PnetCDF one, an Open MPI program)
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
  "h5-vpic|1|vpic-like --particles 256 --steps 2||hdf5"
  "h5-vpic-nodxt|0|vpic-like --particles 256 --steps 2||hdf5"
  "h5-chunked|1|h5-chunked||hdf5"
  "h5-chunked-nodxt|0|h5-chunked||hdf5"
  "pnc-climate|1|pnc_climate||pnetcdf"
  "pnc-climate-nodxt|0|pnc_climate||pnetcdf"
)
for entry in "${cases[@]}"; do
  IFS='|' read -r name dxt kernel setup layer <<< "$entry"
  wants "$name" || continue
  if [ "$layer" = hdf5 ]; then
    darshan_with "$h5_prefix" "$h5_prefix.build" mpicc.mpich --enable-hdf5-mod --with-hdf5="$h5_home"
    read -ra cmd <<< "$kernel"
    echo "== $name: ${cmd[*]} (HDF5 module, $([ "$dxt" = 1 ] && echo "DXT on" || echo "no DXT"))"
    dxt_env=()
    [ "$dxt" = 1 ] && dxt_env=(-genv DXT_ENABLE_IO_TRACE 1)
    (cd "$work" && mpirun.mpich -np $np -genv LD_PRELOAD "$h5_prefix/lib/libdarshan.so" "${dxt_env[@]}" \
      -genv DARSHAN_LOGFILE "$work/$name.darshan" "$build/kernels/${cmd[0]}" "${cmd[@]:1}" "$work/$name") \
      > "$work/$name.out" 2>&1 || { cat "$work/$name.out" >&2; exit 1; }
    install -m 644 "$work/$name.darshan" "$out/$name.darshan"
    prefix=$h5_prefix figures "$out/$name.darshan" > "$out/$name.figures"
    continue
  fi
  if [ "$layer" = pnetcdf ]; then
    darshan_with "$pnc_prefix" "$pnc_prefix.build" mpicc.openmpi --enable-pnetcdf-mod --with-pnetcdf=/usr
    echo "== $name: $kernel (PnetCDF module, Open MPI, $([ "$dxt" = 1 ] && echo "DXT on" || echo "no DXT"))"
    dxt_env=()
    [ "$dxt" = 1 ] && dxt_env=(-x DXT_ENABLE_IO_TRACE=1)
    (cd "$work" && OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 \
      OMPI_MCA_io=romio321 mpirun.openmpi -np $np -x LD_PRELOAD="$pnc_prefix/lib/libdarshan.so" \
      "${dxt_env[@]}" -x DARSHAN_LOGFILE="$work/$name.darshan" "$ompi_build/tests/corpus/$kernel" "$work/$name") \
      > "$work/$name.out" 2>&1 || { cat "$work/$name.out" >&2; exit 1; }
    install -m 644 "$work/$name.darshan" "$out/$name.darshan"
    prefix=$pnc_prefix figures "$out/$name.darshan" > "$out/$name.figures"
    continue
  fi
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
