#!/usr/bin/env bash
# bench/real-apps/build.sh SOURCES PREFIX: builds the real programs
# bench/real-apps/run.sh studies into PREFIX, from checkouts under SOURCES:
#   SOURCES/ior      https://github.com/hpc/ior (IOR and mdtest, with HDF5)
#   SOURCES/h5bench  https://github.com/hpc-io/h5bench
#   SOURCES/darshan  https://github.com/darshan-hpc/darshan (tag darshan-3.5.0)
#   SOURCES/pnetcdf  https://github.com/Parallel-NetCDF/PnetCDF (tag checkpoint.1.12.3,
#                    Debian 12's libpnetcdf-dev): its C examples, bin/pnetcdf-<example>
#   SOURCES/netcdf-c https://github.com/Unidata/netcdf-c (tag v4.9.0, Debian 12's
#                    libnetcdf-mpi-dev): its parallel tests and examples/C/parallel_vara,
#                    bin/netcdf-<test>
# (bench/real-apps/sources.sh SOURCES clones the last two.)
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

# same_mpi LIBRARY: whether LIBRARY is built on the MPI of MPI_FLAVOUR
# (Debian builds libpnetcdf and libnetcdf_mpi on Open MPI only).
same_mpi() {
  local libmpi=libmpich.so
  [ "$flavour" = openmpi ] && libmpi=libmpi.so.40
  ldd "$1" 2> /dev/null | grep -q "$libmpi"
}
# lib_of MODULE: the shared library a pkg-config module links (its -L
# directories, then the compiler's own).
lib_of() {
  local lib dir
  lib=lib$(pkg-config --libs-only-l "$1" | tr ' ' '\n' | sed -n 's/^-l//p' | head -n 1).so
  for dir in $(pkg-config --libs-only-L "$1" | sed 's/-L//g'); do
    [ -f "$dir/$lib" ] && { echo "$dir/$lib"; return; }
  done
  readlink -f "$($cc -print-file-name="$lib")"
}
# build_each NAME SOURCE FLAGS...: compiles SOURCE into PREFIX/bin/NAME; one that
# does not build is named, and the build goes on (the list is the report).
build_each() {
  local name=$1 source=$2
  shift 2
  if $cc -O2 -o "$prefix/bin/$name" "$source" "$@" 2> "$prefix/bin/.$name.err"; then
    rm -f "$prefix/bin/.$name.err"
  else
    echo "build.sh: $name does not build ($prefix/bin/.$name.err)" >&2
  fi
}

# PnetCDF's C examples (examples/C of the release Debian packages), against
# libpnetcdf-dev (pkg-config pnetcdf): bin/pnetcdf-<example>. mpi_subarray
# is left out: it calls MPI-IO alone.
if [ -d "$sources/pnetcdf/examples/C" ] && pkg-config --exists pnetcdf; then
  if same_mpi "$(lib_of pnetcdf)"; then
    echo "== PnetCDF examples"
    mkdir -p "$prefix/bin"
    for c in "$sources"/pnetcdf/examples/C/*.c; do
      name=$(basename "$c" .c)
      [ "$name" = mpi_subarray ] && continue
      # shellcheck disable=SC2046
      build_each "pnetcdf-$name" "$c" $(pkg-config --cflags --libs pnetcdf)
    done
  else
    echo "== PnetCDF examples: skipped, $(lib_of pnetcdf) is not built on $flavour (MPI_FLAVOUR)"
  fi
fi

# netCDF-C's parallel tests (nc_test4, those run_par_test.sh runs), against
# libnetcdf-mpi-dev: bin/netcdf-<test>. They include the checkout's test
# headers (include/nc_tests.h, err_macros.h), which want a config.h: it is
# written from the installed library's netcdf_meta.h and its chunk cache
# defaults, as its configure found them. examples/C/parallel_vara goes
# through netCDF's PnetCDF back end: built when the library has one, and as
# parallel_vara_nc4 through its HDF5 back end always.
if [ -d "$sources/netcdf-c/nc_test4" ] && pkg-config --exists netcdf-mpi; then
  if same_mpi "$(lib_of netcdf-mpi)"; then
    echo "== netCDF-C parallel tests"
    mkdir -p "$prefix/bin"
    nc_include=$(pkg-config --variable=prefix netcdf-mpi)/include
    # shellcheck disable=SC2207
    nc_flags=(-I"$nc_include" $(pkg-config --cflags netcdf-mpi))
    # shellcheck disable=SC2207
    nc_libs=($(pkg-config --libs netcdf-mpi))
    config=$sources/netcdf-c/build-recorder
    mkdir -p "$config"
    cat > "$config/cache_defaults.c" << 'C'
#include <netcdf.h>
#include <stdio.h>
int main(void)
{
    size_t size, nelems;
    float preemption;
    if (nc_get_chunk_cache(&size, &nelems, &preemption) != NC_NOERR)
        return 1;
    printf("#define CHUNK_CACHE_SIZE %zu\n#define CHUNK_CACHE_NELEMS %zu\n#define CHUNK_CACHE_PREEMPTION %g\n", size,
           nelems, preemption);
    return 0;
}
C
    $cc "${nc_flags[@]}" "$config/cache_defaults.c" -o "$config/cache_defaults" "${nc_libs[@]}"
    { cat << 'H'
/* config.h for netCDF-C's tests built against the installed library. */
#include <stdint.h>
#include <netcdf_meta.h>
#define TEMP_LARGE "."
#if NC_HAS_PARALLEL4
#define USE_PARALLEL 1
#endif
#if NC_HAS_PAR_FILTERS
#define HDF5_SUPPORTS_PAR_FILTERS 1
#endif
#if NC_HAS_SZIP_WRITE
#define HAVE_H5Z_SZIP 1
#endif
H
      "$config/cache_defaults"; } > "$config/config.h"
    for t in tst_mpi_parallel tst_parallel tst_parallel3 tst_parallel4 tst_parallel5 tst_parallel6 tst_nc4perf \
      tst_mode tst_simplerw_coll_r tst_parallel_zlib tst_parallel_compress tst_quantize_par; do
      build_each "netcdf-$t" "$sources/netcdf-c/nc_test4/$t.c" "${nc_flags[@]}" -I"$config" \
        -I"$sources/netcdf-c/include" "${nc_libs[@]}"
    done
    example=$sources/netcdf-c/examples/C/parallel_vara.c
    if grep -q 'define NC_HAS_PNETCDF *1' "$nc_include/netcdf_meta.h"; then
      build_each netcdf-parallel_vara "$example" "${nc_flags[@]}" "${nc_libs[@]}"
    else
      echo "   netcdf-parallel_vara: skipped, $nc_include/netcdf_meta.h: no PnetCDF back end (NC_HAS_PNETCDF 0)"
    fi
    # The same example through the HDF5 back end (its create mode NC_CLOBBER |
    # NC_NETCDF4, as netCDF's docs of nc_create_par say), which every parallel
    # netCDF has: bin/netcdf-parallel_vara_nc4.
    if grep -q 'cmode = NC_CLOBBER;' "$example"; then
      sed 's/cmode = NC_CLOBBER;/cmode = NC_CLOBBER | NC_NETCDF4;/' "$example" > "$config/parallel_vara_nc4.c"
      build_each netcdf-parallel_vara_nc4 "$config/parallel_vara_nc4.c" "${nc_flags[@]}" "${nc_libs[@]}"
    else
      echo "build.sh: $example sets no \"cmode = NC_CLOBBER;\": netcdf-parallel_vara_nc4 not built" >&2
    fi
  else
    echo "== netCDF-C parallel tests: skipped, $(lib_of netcdf-mpi) is not built on $flavour (MPI_FLAVOUR)"
  fi
fi
echo "built into $prefix: $(ls "$prefix/bin" | tr '\n' ' ')"
