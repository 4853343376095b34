#!/usr/bin/env bash
# predefined_handles.sh PROGRAM LIBHDF5: every predefined handle the
# libraries export is known to functions/handles.def by its value.
#   - HDF5: each id global the very libhdf5 the build links exports
#     (nm -D: H5T_*_g, the types; H5P_CLS_*_ID_g, the classes;
#     H5P_LST_*_ID_g, the default lists), but those below, which are no ids;
#   - MPI: the constants the program lists, compiled against mpi.h.
# PROGRAM (predefined_handles.c) does the looking up; exits 1 naming each
# constant handles.def lacks.
set -euo pipefail
prog=$1 lib=$2
fail() { echo "predefined_handles: $*" >&2; exit 1; }
[ -r "$lib" ] || fail "$lib: cannot read the HDF5 library"

# Globals that are no handle, each with why (a regex on the symbol).
not_ids=(
  '_ALIGN_g$'                # H5T_NATIVE_INT_ALIGN_g ...: an alignment in bytes (size_t)
  '_(POS|NEG)_INF_g$'        # H5T_NATIVE_DOUBLE_POS_INF_g ...: a float's infinities (values)
  '^H5[TP]_init_g$'          # whether the package is initialised (hbool_t)
  '^H5T_native_order_g$'     # the machine's byte order (H5T_order_t)
  '^H5P_CLS_[A-Z_]+[^D]_g$'  # H5P_CLS_FILE_ACCESS_g ...: the class structure behind its _ID_g (a pointer)
)
exclude=$(IFS='|'; echo "${not_ids[*]}")
syms=$(nm -D --defined-only "$lib" | awk '{ print $3 }' | sed 's/@.*//' |
  grep -E '^(H5T_[A-Za-z0-9_]+_g|H5P_(CLS|LST)_[A-Z_]+_g)$' | grep -vE "$exclude" | sort -u) ||
  fail "$lib: nm found no HDF5 id globals"
ntypes=$(grep -c '^H5T_' <<< "$syms" || true)
nlists=$(grep -c '^H5P_LST_' <<< "$syms" || true)
# 1.10 exports 86 type ids and 15 default lists: far fewer means nm read the wrong thing.
if [ "$ntypes" -lt 60 ] || [ "$nlists" -lt 10 ]; then
  fail "$lib: only $ntypes type and $nlists list ids: not the HDF5 library?"
fi
status=0
# shellcheck disable=SC2086
"$prog" hdf5 $syms || status=1
"$prog" mpi || status=1
exit $status
