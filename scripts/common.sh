# common.sh: shared by demo.sh and test.sh. Installs what is missing (Debian
# 12 packages, as root or through sudo) and builds the tree in BUILD_DIR.
set -euo pipefail

ROOT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$ROOT_DIR/build}
JOBS=${JOBS:-$(nproc)}

# Open MPI (openmpi-bin, libopenmpi-dev, libhdf5-openmpi-dev) is for the
# tests of traces crossing between the two MPIs (tests/openmpi); the main
# build is MPICH's, named as such: installing Open MPI switches Debian's
# mpicc, mpirun and h5pcc alternatives to it. libhdf5-doc brings HDF5's
# example programs, which tests/h5examples takes through the pipeline.
PACKAGES=(build-essential cmake ninja-build pkg-config mpich libmpich-dev libhdf5-mpich-dev hdf5-tools
          openmpi-bin libopenmpi-dev libhdf5-openmpi-dev
          uthash-dev libcunit1-dev libzstd-dev zlib1g-dev libbz2-dev jq chromium valgrind gfortran scdoc man-db
          libhdf5-doc libpnetcdf-dev pnetcdf-bin libnetcdf-mpi-dev netcdf-bin)

say() { printf '\n== %s\n' "$*"; }

ensure_packages() {
  local missing=()
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  say "installing missing packages: ${missing[*]}"
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "error: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
    sudo=sudo
  fi
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -q
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
}

# The MPICH flavour's compiler wrappers, by name, where Debian has them.
mpich_args() {
  if command -v mpicc.mpich > /dev/null; then printf '%s\n' -DMPI_C_COMPILER=mpicc.mpich; fi
  if command -v h5pcc.mpich > /dev/null; then printf '%s\n' -DHDF5_C_COMPILER_EXECUTABLE="$(command -v h5pcc.mpich)"; fi
}

build_tree() {
  say "building in $BUILD_DIR"
  local args
  mapfile -t args < <(mpich_args)
  cmake -S "$ROOT_DIR" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=RelWithDebInfo "${args[@]}" >/dev/null
  cmake --build "$BUILD_DIR" -j "$JOBS"
  # The build's own mpiexec, mpicc and h5pcc (BUILD/mpi-bin) come first.
  export PATH=$BUILD_DIR/mpi-bin:$PATH
}

# mpirun with the oversubscription helper (more ranks than cores must not crawl).
mpirun_cmd() {
  local np=$1; shift
  local preload=$BUILD_DIR/tests/support/liboversubscribe.so
  if [ -n "${EXTRA_PRELOAD:-}" ]; then preload=$preload:$EXTRA_PRELOAD; fi
  mpirun -np "$np" -genv LD_PRELOAD "$preload" "$@"
}
