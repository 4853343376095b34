#!/usr/bin/env bash
# layers_vpic.sh BUILD_DIR: recorder-layers on vpic-like (4 ranks). An H5Dwrite
# tree holds MPI_File_write_at_all holding pwrite, the two at the same byte
# offset; and over all ranks the bytes of every layer under H5Dwrite (and
# H5Dread) equal the bytes the kernel says it moved (HDF5 == MPI-IO == POSIX).
test_name=analysis.layers.vpic-like
source "$(dirname "$0")/common.sh"
dir=$runs/vpic-like.fixture
"$tools/recorder-layers" --function H5Dwrite --limit 1 "$dir/trace" > "$dir/layers.txt"
head -n 1 "$dir/layers.txt" | grep -Eq '^rank [0-9]+ H5Dwrite /Timestep_0/[a-z0-9]+ in .*/vpic\.h5 at ' ||
  fail "first tree is not an H5Dwrite: $(head -n 1 "$dir/layers.txt")"
mpiio=$(grep -E '^  MPI-IO MPI_File_write_at_all .* 16384 B @[0-9]+$' "$dir/layers.txt" | head -n 1 | sed 's/.*@//')
posix=$(grep -E '^    POSIX  pwrite .* 16384 B @[0-9]+$' "$dir/layers.txt" | head -n 1 | sed 's/.*@//')
[ -n "$mpiio" ] && [ -n "$posix" ] || fail "no MPI_File_write_at_all -> pwrite chain in the H5Dwrite tree"
[ "$mpiio" = "$posix" ] || fail "MPI-IO offset $mpiio (from the view) differs from POSIX offset $posix"
grep -Eq '^  => HDF5 .* \| MPI-IO .* \| POSIX ' "$dir/layers.txt" || fail "no per-layer line under the tree"
# Aggregates: "FUNC calls seconds LAYER sub-calls seconds share bytes MiB/s", then
# "LAYER sub-calls seconds share bytes MiB/s" for the function's other layers.
awk '/^Per layer/ { exit }
     NF == 9 && $4 ~ /^(HDF5|MPI-IO|MPI|POSIX)$/ { fn = $1; print fn, $4, $8; next }
     NF == 6 && $1 ~ /^(HDF5|MPI-IO|MPI|POSIX)$/ && fn != "" { print fn, $1, $5 }' "$dir/layers.txt" > "$dir/layers-bytes.txt"
for fn in H5Dwrite H5Dread; do
  want=$(awk -v f="function=$fn" '$3 == f { sub("bytes=", "", $5); s += $5 } END { print s + 0 }' "$dir/want.txt")
  [ "$want" -gt 0 ] || fail "the kernel moved no bytes with $fn"
  for layer in HDF5 MPI-IO POSIX; do
    got=$(awk -v f="$fn" -v l="$layer" '$1 == f && $2 == l { print $3 }' "$dir/layers-bytes.txt")
    [ "$got" = "$want" ] || fail "$fn: $layer bytes ${got:-none}, want $want (the kernel's)"
  done
done
grep -q '^Per layer (all [0-9]* top-level I/O calls' "$dir/layers.txt" || fail "no per-layer totals"
echo "$test_name: H5Dwrite and H5Dread move the same bytes at HDF5, MPI-IO and POSIX"
