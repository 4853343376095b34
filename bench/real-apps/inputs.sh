#!/usr/bin/env bash
# bench/real-apps/inputs.sh CASE: writes the input of a production-code case
# of run.sh into the current directory (run on every rank: each writes a
# copy and renames it into place, so the ranks never see half a file).
#   lammps-melt   LAMMPS's examples/melt/in.melt with its text dump on
#                 (dump.melt every 50 steps) and a restart file at the end
#   lammps-mpiio  the same with the dump through MPI-IO (atom/mpiio)
#   nwchem-scf    an SCF energy of water, 6-31G* (h2o.nw)
set -euo pipefail
tmp=.input.$$
case ${1:-} in
lammps-melt | lammps-mpiio)
  style=atom
  [ "$1" = lammps-mpiio ] && style=atom/mpiio
  sed -e "s|^#dump[[:space:]]*id[[:space:]]*all atom 50 dump.melt|dump id all $style 50 dump.melt|" \
    /usr/share/lammps/examples/melt/in.melt > $tmp
  grep -q "^dump id all $style 50" $tmp || { echo "inputs.sh: in.melt has no dump line to turn on" >&2; exit 1; }
  echo "write_restart melt.restart" >> $tmp
  mv -f $tmp in.melt
  ;;
nwchem-scf)
  cat > $tmp <<'NW'
start h2o
title "Water SCF"
geometry units angstroms
  O  0.000000  0.000000  0.117790
  H  0.000000  0.755453 -0.471161
  H  0.000000 -0.755453 -0.471161
end
basis
  * library 6-31g*
end
scf
  print low
end
task scf energy
NW
  mv -f $tmp h2o.nw
  ;;
*)
  echo "usage: bench/real-apps/inputs.sh lammps-melt|lammps-mpiio|nwchem-scf" >&2
  exit 2
  ;;
esac
