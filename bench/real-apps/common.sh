# bench/real-apps/common.sh: what run.sh and options.sh share, sourced.
# real_apps_start SCRIPT DEFAULT_NP WHAT "$@": checks the PREFIX argument and
# sets prefix, src, build (RECORDER_BUILD), np (NP), mpirun (MPIRUN), stamp,
# tracer, flavour (mpich or openmpi, from the launcher) and h5cc; the caller
# shifts PREFIX off its own arguments.
real_apps_start() {
  local script=$1 default_np=$2 what=$3
  shift 3
  if [ $# -lt 1 ] || [ ! -d "$1" ]; then
    echo "usage: bench/real-apps/$script PREFIX [CASE...]   (PREFIX: where build.sh installed $what)" >&2
    exit 2
  fi
  prefix=$(cd "$1" && pwd)
  src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
  build=$(cd "${RECORDER_BUILD:-$src/build}" && pwd) || exit 2
  np=${NP:-$default_np}
  mpirun=${MPIRUN:-mpirun.mpich}
  stamp=$(date +%Y_%m_%d)-$$
  tracer=$build/tracer/librecorder.so
  flavour=mpich
  case $("$mpirun" --version 2>&1) in *"Open MPI"* | *OpenRTE* | *PRRTE* | *open-mpi.org*) flavour=openmpi ;; esac
  h5cc=$(command -v h5pcc.$flavour || command -v h5pcc)
  # Open MPI refuses root without these, and more ranks than cores without oversubscribing.
  if [ $flavour = openmpi ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
  fi
}
