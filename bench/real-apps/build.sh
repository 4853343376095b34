#!/usr/bin/env bash
# bench/real-apps/build.sh SOURCES PREFIX: builds the real programs
# bench/real-apps/run.sh studies into PREFIX, from checkouts under SOURCES:
#   SOURCES/ior      https://github.com/hpc/ior (IOR and mdtest, with HDF5)
#   SOURCES/h5bench  https://github.com/hpc-io/h5bench
#   SOURCES/darshan  https://github.com/darshan-hpc/darshan (tag darshan-3.5.0)
# Any of them may be missing: it is skipped. With Debian's parallel netCDF
# (libnetcdf-mpi-dev) it also builds netcdf4_par.c, a netCDF-4 writer and
# reader of this directory. MPICH's compilers by name
# (mpicc.mpich), parallel HDF5 found through h5pcc.mpich, or Open MPI's with
# MPI_FLAVOUR=openmpi; needs autoconf, automake and libtool for IOR and
# Darshan, cmake for h5bench.
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: bench/real-apps/build.sh SOURCES PREFIX" >&2
  exit 2
fi
sources=$(cd "$1" && pwd)
mkdir -p "$2"
prefix=$(cd "$2" && pwd)
jobs=$(nproc)
flavour=${MPI_FLAVOUR:-mpich}
cc=mpicc.$flavour
h5pcc=h5pcc.$flavour
# The parallel HDF5 h5pcc builds with: its include and library directories.
hdf5_cflags=$($h5pcc -show | tr ' ' '\n' | grep '^-I' | head -n 1)
hdf5_libdir=$($h5pcc -shlib -show | tr ' ' '\n' | sed -n 's/^-L//p' | head -n 1)

if [ -d "$sources/ior" ]; then
  echo "== IOR and mdtest"
  (cd "$sources/ior" && ./bootstrap &&
    ./configure --prefix="$prefix" --with-hdf5 CC=$cc CPPFLAGS="$hdf5_cflags" LDFLAGS="-L$hdf5_libdir" &&
    make -j "$jobs" && make install)
fi

if [ -d "$sources/darshan" ]; then
  echo "== Darshan"
  # Darshan wants HDF5 as one prefix (bin/h5dump, include/, lib/); a
  # distribution spreads it out, so it gets a prefix of links.
  h5=$prefix/hdf5-view
  mkdir -p "$h5/bin"
  ln -sfn "$(command -v h5dump)" "$h5/bin/h5dump"
  ln -sfn "${hdf5_cflags#-I}" "$h5/include"
  ln -sfn "$hdf5_libdir" "$h5/lib"
  (cd "$sources/darshan" && ./prepare.sh && mkdir -p build && cd build &&
    ../configure --prefix="$prefix" --with-log-path-by-env=DARSHAN_LOGDIR --with-jobid-env=NONE \
      --enable-hdf5-mod --with-hdf5="$h5" CC=$cc &&
    make -j "$jobs" && make install)
fi

if [ -d "$sources/h5bench" ]; then
  echo "== h5bench"
  # h5bench adds only ${HDF5_HOME}/include and ${HDF5_HOME}/lib, not
  # FindHDF5's directories; Debian's hdf5/mpich library directory is laid
  # out as such a prefix (include/ and lib/ are links).
  HDF5_HOME="$hdf5_libdir" cmake -S "$sources/h5bench" -B "$sources/h5bench/build" -DCMAKE_INSTALL_PREFIX="$prefix" \
    -DCMAKE_C_COMPILER=$cc -DHDF5_C_COMPILER_EXECUTABLE="$(command -v $h5pcc)"
  cmake --build "$sources/h5bench/build" -j "$jobs"
  cmake --install "$sources/h5bench/build"
fi
# netcdf4_par (this directory): parallel netCDF-4, found by pkg-config
# (netcdf-mpi; Debian's is built on Open MPI: MPI_FLAVOUR=openmpi). Debian's
# .pc names /usr/include, its headers lie in the prefix's include/.
if pkg-config --exists netcdf-mpi; then
  echo "== netcdf4_par"
  mkdir -p "$prefix/bin"
  # shellcheck disable=SC2046
  $cc -O2 -Wall -Werror -I"$(pkg-config --variable=prefix netcdf-mpi)/include" $(pkg-config --cflags netcdf-mpi) \
    "$(dirname "$0")/netcdf4_par.c" -o "$prefix/bin/netcdf4_par" $(pkg-config --libs netcdf-mpi)
fi
echo "built into $prefix: $(ls "$prefix/bin" | tr '\n' ' ')"
