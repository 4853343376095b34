#!/usr/bin/env bash
# coverage_audit.sh SRC_DIR LIBRARY...: every function the given shared
# libraries export (the very ones the build links) must be in the function
# table (functions/*.def) or in a functions/untraced_*.def with a reason. Which
# exported names count as a library's API: MPI_* for MPI, H5* with a
# lower-case letter after the package's capitals for HDF5 (H5Dcreate2, not
# the internal H5D__create), every function for the C library.
# Prints per library: exported, traced, untraced, and each unaccounted
# name; for the C library also its checking and C99 entry points (__X_chk,
# __X_2, __isoc99_X), each of which must be traced wherever its plain twin X
# is, and traced unless UN(name, "reason") lists it as doing no file I/O;
# exits 1 if any is missing.
set -u
src=$1
shift
defs=("$src"/functions/posix.def "$src"/functions/mpi.def "$src"/functions/mpiio.def "$src"/functions/hdf5.def)
untraced=("$src"/functions/untraced_*.def)
[ -f "${untraced[0]}" ] || { echo "coverage_audit: $src/functions/untraced_*.def: missing" >&2; exit 1; }
table=$(mktemp) exact=$(mktemp) prefixes=$(mktemp) not_io=$(mktemp)
trap 'rm -f "$table" "$exact" "$prefixes" "$not_io"' EXIT
grep -ho 'FN([0-9]*, *[A-Za-z0-9_]*' "${defs[@]}" | sed 's/.*, *//' | sort -u >"$table"
# U(name, "reason"), UT(name, "reason") and UP(prefix, "reason"); a reason is required
bad=$(grep -nE '^U[PTN]?\(' "${untraced[@]}" | grep -vE ':[0-9]+:U[PTN]?\([A-Za-z0-9_]+, "[^"]+"\)$')
if [ -n "$bad" ]; then
  echo "coverage_audit: entries without the form U(name, \"reason\") or UP(prefix, \"reason\"):"
  echo "$bad"
  exit 1
fi
sed -nE 's/^U[TN]?\(([A-Za-z0-9_]+),.*/\1/p' "${untraced[@]}" | sort -u >"$exact"
# UN(name, "reason"): a checking or C99 entry point that does no file I/O
sed -nE 's/^UN\(([A-Za-z0-9_]+),.*/\1/p' "${untraced[@]}" | sort -u >"$not_io"
notentry=$(grep -vE '^__(isoc99_[a-z0-9_]+|[a-z0-9_]+_chk|[a-z0-9_]+_2)$' "$not_io")
if [ -n "$notentry" ]; then
  echo "coverage_audit: UN lists only checking and C99 entry points (__X_chk, __X_2, __isoc99_X):" $notentry
  exit 1
fi
sed -nE 's/^UP\(([A-Za-z0-9_]+),.*/\1/p' "${untraced[@]}" | sort -u >"$prefixes"
both=$(comm -12 "$table" "$exact")
if [ -n "$both" ]; then
  echo "coverage_audit: traced and listed as untraced: $both"
  exit 1
fi
status=0
for lib in "$@"; do
  case "$(basename "$lib")" in
  libmpi*) filter='^MPI_' ;;
  libhdf5*) filter='^H5[A-Z]{1,2}[a-z]' ;;
  libc.so*) filter='.' ;;
  *) filter='.' ;;
  esac
  names=$(nm -D --defined-only "$lib" | awk '$2 == "T" || $2 == "W" || $2 == "i" {print $3}' | sed 's/@.*//' |
    grep -E "$filter" | sort -u)
  total=$(wc -w <<<"$names")
  traced=$(comm -12 "$table" <(tr ' ' '\n' <<<"$names") | wc -l)
  missing=$(comm -23 <(tr ' ' '\n' <<<"$names") "$table" | comm -23 - "$exact" |
    awk -v pf="$prefixes" 'BEGIN { while ((getline p < pf) > 0) P[n++] = p }
      { for (i = 0; i < n; i++) if (index($0, P[i]) == 1) next; print }')
  nmissing=$(grep -c . <<<"$missing")
  echo "$(basename "$lib"): $total exported, $traced traced, $((total - traced - nmissing)) untraced with a reason, $nmissing unaccounted"
  if [ "$nmissing" -gt 0 ]; then
    sed 's/^/  unaccounted: /' <<<"$missing"
    status=1
  fi
  # The C library's checking and C99 entry points (__X_chk, __X_2,
  # __isoc99_X): what a program built with _FORTIFY_SOURCE (or as C99) calls
  # instead of X, so each must be traced (as X) wherever X is.
  case "$(basename "$lib")" in libc.so*) ;; *) continue ;; esac
  entries=$(grep -E '^__(isoc99_[a-z0-9_]+|[a-z0-9_]+_chk|[a-z0-9_]+_2)$' <<<"$names" || true)
  nentries=0 ntwin=0 nuntraced=0 nnot_io=0 lost="" io_lost=""
  for e in $entries; do
    plain=$(sed -E 's/^__isoc99_//; t; s/^__//; s/_(chk|2)$//' <<<"$e")
    nentries=$((nentries + 1))
    if grep -qx "$e" "$table"; then
      ntwin=$((ntwin + 1))
      continue
    elif grep -qx "$plain" "$table"; then
      lost="$lost $e"
    else
      nuntraced=$((nuntraced + 1))
    fi
    if grep -qx "$e" "$not_io"; then
      nnot_io=$((nnot_io + 1))
    else
      io_lost="$io_lost $e"
    fi
  done
  nlost=$(wc -w <<<"$lost") nio_lost=$(wc -w <<<"$io_lost")
  echo "$(basename "$lib") checking and C99 entry points (__X_chk, __X_2, __isoc99_X): $nentries exported," \
    "$ntwin traced as their plain twin, $nuntraced untraced as their plain twin is, $nlost untraced although their plain twin is traced;" \
    "$nnot_io untraced doing no file I/O (UN, with a reason), $nio_lost I/O entry points untraced"
  for e in $lost; do
    echo "  untraced, its plain twin traced: $e"
    status=1
  done
  for e in $io_lost; do
    echo "  untraced I/O entry point (trace it, or list it as UN(name, \"reason\") if it does no file I/O): $e"
    status=1
  done
done
exit $status
