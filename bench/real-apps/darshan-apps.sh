#!/usr/bin/env bash
# bench/real-apps/darshan-apps.sh APPS [OUT [NAME...]]: the Darshan logs of
# real benchmarks that tests/data/darshan holds (OUT, default that
# directory; NAMEs: only those), each with its NAME.figures (darshan-figures.sh):
#   app-ior-posix    ior -a POSIX   -b 256k -t 64k -s 2 (write, then read)
#   app-ior-mpiio-c  ior -a MPIIO -c (collective)
#   app-ior-hdf5     ior -a HDF5
#   app-mdtest       mdtest -n 8 (directories, empty files: creates, stats, removes)
#   app-h5bench      h5bench_write h5bench-small.cfg (VPIC pattern, 2 steps of 1024 particles)
# and each again without DXT, NAME-nodxt. APPS: where build.sh installed
# bin/ior, bin/mdtest and bin/h5bench_write. Each runs at 4 ranks under
# mpirun.mpich in a directory of its own, libdarshan.so of Darshan 3.5.0
# (DARSHAN_PREFIX, default /tmp/darshan-prefix, darshan.sh builds it)
# preloaded, the log named by DARSHAN_LOGFILE, DXT_ENABLE_IO_TRACE=1 for the
# logs of DXT. The logs hold the run's paths (a directory under /tmp) and times.
set -euo pipefail
if [ $# -lt 1 ] || [ ! -d "$1" ]; then
  echo "usage: bench/real-apps/darshan-apps.sh APPS [OUT [NAME...]]   (APPS: build.sh's PREFIX)" >&2
  exit 2
fi
apps=$(cd "$1" && pwd)
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$here/../.." && pwd)
out=${2:-$src/tests/data/darshan}
prefix=${DARSHAN_PREFIX:-/tmp/darshan-prefix}
mpirun=${MPIRUN:-mpirun.mpich}
np=4
[ -f "$prefix/lib/libdarshan.so" ] || { echo "darshan-apps.sh: no $prefix/lib/libdarshan.so (bench/real-apps/darshan.sh builds it)" >&2; exit 1; }
. "$here/darshan-figures.sh"
mkdir -p "$out"
out=$(cd "$out" && pwd)
shift 2 || shift $#
wanted=" $* "
wants() { [ "$wanted" = "  " ] || [[ "$wanted" == *" $1 "* ]]; }

ior="$apps/bin/ior -b 256k -t 64k -s 2"
cases=(
  "app-ior-posix|$ior -a POSIX -o ior.dat"
  "app-ior-mpiio-c|$ior -a MPIIO -c -o ior.dat"
  "app-ior-hdf5|$ior -a HDF5 -o ior.h5"
  "app-mdtest|$apps/bin/mdtest -n 8 -d md"
  "app-h5bench|$apps/bin/h5bench_write $here/h5bench-small.cfg vpic.h5"
)
work=$(mktemp -d /tmp/darshan-apps.XXXXXX)
for entry in "${cases[@]}"; do
  IFS='|' read -r base command <<< "$entry"
  read -ra cmd <<< "$command"
  for dxt in 1 0; do
    name=$base
    [ $dxt = 0 ] && name=$base-nodxt
    wants "$name" || continue
    echo "== $name: ${cmd[*]##*/} ($([ $dxt = 1 ] && echo "DXT on" || echo "no DXT"))"
    dxt_env=()
    [ $dxt = 1 ] && dxt_env=(-genv DXT_ENABLE_IO_TRACE 1)
    mkdir -p "$work/$name"
    (cd "$work/$name" && "$mpirun" -np $np -genv LD_PRELOAD "$prefix/lib/libdarshan.so" "${dxt_env[@]}" \
      -genv DARSHAN_LOGFILE "$work/$name.darshan" "${cmd[@]}") > "$work/$name.out" 2>&1 ||
      { cat "$work/$name.out" >&2; exit 1; }
    install -m 644 "$work/$name.darshan" "$out/$name.darshan"
    figures "$out/$name.darshan" > "$out/$name.figures"
  done
done
rm -rf "$work"
ls -l "$out"
