#!/usr/bin/env bash
# tracer_calls.sh SOURCE_DIR: every HDF5 function librecorder.so calls itself
# (its sources, and h5skel's capture compiled into it) is traced (FN in
# functions/hdf5.def) or listed as UT in functions/untraced_hdf5.def, which
# the static-HDF5 shim registers: under a static HDF5 an unlisted one would
# reach no HDF5 at all (a stand-in that fails) instead of the application's.
set -euo pipefail
src=$1
cd "$src"
sources=$(ls tracer/*.c h5skel/capture.c h5skel/codec.c | grep -vE '/(gen_[a-z_]*|shim)\.c$')
called=$(cat $sources | grep -oE '\bH5[A-Z][A-Za-z0-9_]*[[:space:]]*\(' | sed -E 's/[[:space:]]*\($//' | sort -u)
known=$( (grep -ohE '^FN\([0-9]+, *H5[A-Za-z0-9_]+' functions/hdf5.def | sed -E 's/.*, *//'
  sed -nE 's/^UT\((H5[A-Za-z0-9_]+),.*/\1/p' functions/untraced_hdf5.def) | sort -u)
missing=$(comm -23 <(echo "$called") <(echo "$known"))
if [ -n "$missing" ]; then
  echo "tracer_calls: the tracer calls HDF5 functions neither traced nor listed as UT in functions/untraced_hdf5.def:"
  echo "$missing"
  exit 1
fi
echo "tracer_calls: $(echo "$called" | wc -l) HDF5 functions called by the tracer, each traced or listed as UT"
