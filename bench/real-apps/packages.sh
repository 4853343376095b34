#!/usr/bin/env bash
# bench/real-apps/packages.sh: installs the production codes run.sh takes
# from Debian 12 (as root): LAMMPS (lammps, lammps-examples; built on Open
# MPI: run them with MPIRUN=mpirun.openmpi and a tracer built for Open MPI)
# and NWChem (nwchem-mpich; MPICH), and netCDF-4 for build.sh's netcdf4_par
# and its parallel tests (libnetcdf-mpi-dev, netcdf-bin for ncdump; Open MPI),
# and PnetCDF for its examples (libpnetcdf-dev; Open MPI). Already installed
# ones are left alone.
set -euo pipefail
wanted=(lammps lammps-examples nwchem-mpich libnetcdf-mpi-dev netcdf-bin libpnetcdf-dev)
missing=()
for p in "${wanted[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2> /dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && { echo "packages.sh: ${wanted[*]}: installed"; exit 0; }
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends "${missing[@]}"
