#!/usr/bin/env bash
# bench/real-apps/sources.sh SOURCES: clones into SOURCES the PnetCDF and
# netCDF-C trees whose examples and tests bench/real-apps/build.sh builds,
# at the release of the installed library (pkg-config's version: PnetCDF
# 1.12.3 is tag checkpoint.1.12.3, netCDF-C 4.9.0 tag v4.9.0), so they
# build against it:
#   SOURCES/pnetcdf   https://github.com/Parallel-NetCDF/PnetCDF
#   SOURCES/netcdf-c  https://github.com/Unidata/netcdf-c
# A library that is not installed is skipped (bench/real-apps/packages.sh
# installs them); a checkout already there is left alone. GIT_BASE
# (default https://github.com) names another place holding the same
# OWNER/NAME repositories. IOR, h5bench and Darshan are cloned by hand
# (build.sh names them).
set -euo pipefail
if [ $# -ne 1 ]; then
  echo "usage: bench/real-apps/sources.sh SOURCES" >&2
  exit 2
fi
mkdir -p "$1"
sources=$(cd "$1" && pwd)
base=${GIT_BASE:-https://github.com}

# clone DIR MODULE REPO TAG_PREFIX: REPO at TAG_PREFIX<version of MODULE> into SOURCES/DIR.
clone() {
  local dir=$1 module=$2 repo=$3 prefix=$4 version
  if [ -d "$sources/$dir" ]; then
    echo "sources.sh: $sources/$dir is there, left alone"
    return
  fi
  if ! version=$(pkg-config --modversion "$module" 2> /dev/null); then
    echo "sources.sh: $dir skipped: pkg-config knows no $module (bench/real-apps/packages.sh installs it)"
    return
  fi
  echo "== $repo $prefix$version"
  git -c advice.detachedHead=false clone --quiet --depth 1 --branch "$prefix$version" "$base/$repo" "$sources/$dir"
}
clone pnetcdf pnetcdf Parallel-NetCDF/PnetCDF checkpoint.
clone netcdf-c netcdf-mpi Unidata/netcdf-c v
