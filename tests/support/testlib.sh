# shellcheck shell=bash
# testlib.sh: what the shell tests share. Sourced, after `set -euo pipefail`:
#   . "$(dirname "$0")/../support/testlib.sh"
#
#   begin_test NAME WORK [SUBDIR...]
#       starts a test: NAME prefixes its failure messages, WORK ($work) is
#       emptied and created, with the given subdirectories of it.
#   fail MESSAGE...
#       "NAME: MESSAGE" on stderr, exit 1.
#   same_output_files [--headers] ORIGINAL COPY_ROOT WHOSE
#       every regular file under ORIGINAL has a copy at COPY_ROOT followed by
#       its path (a replay's prefix, a generated kernel's OUTDIR) of the same
#       size, and with --headers an HDF5 file the same h5dump -H; WHOSE names
#       the copies in messages ("from the kernel"). Sets $files to their number.
#       SAME_FILES_HEADERS=0 skips h5dump -H (a trace without its HDF5 layer
#       rewrites the file's bytes, not its structure).
#   no_new_hdf5_errors ORIGINAL_LOG COPY_LOG WHOSE
#       COPY_LOG holds no more HDF5 error stacks ("HDF5-DIAG") than
#       ORIGINAL_LOG: a call the copy makes with a wrong handle or buffer
#       shows there even when its failure changes nothing the diff sees.

begin_test() {
  test_name=$1 work=$2
  shift 2
  rm -rf "$work" && mkdir -p "$work" "${@/#/$work/}"
}

fail() {
  echo "$test_name: $*" >&2
  exit 1
}

same_output_files() {
  local headers=0
  if [ "$1" = --headers ]; then
    headers=${SAME_FILES_HEADERS:-1}
    shift
  fi
  local original=$1 copy_root=$2 whose=$3 f rel copy a b
  files=0
  while IFS= read -r -d '' f; do
    rel=${f#"$original"}
    copy=$copy_root$f
    [ -f "$copy" ] || fail "no counterpart of $f ($copy) $whose"
    a=$(stat -c %s "$f") b=$(stat -c %s "$copy")
    [ "$a" = "$b" ] || fail "$rel: $a bytes originally, $b $whose"
    if [ "$headers" = 1 ] && [ "${f%.h5}" != "$f" ]; then
      diff -u <(h5dump -H "$f" | tail -n +2) <(h5dump -H "$copy" | tail -n +2) || fail "$rel: h5dump -H differs"
    fi
    files=$((files + 1))
  done < <(find "$original" -type f -print0)
}

no_new_hdf5_errors() {
  local original=$1 copy=$2 whose=$3 a b
  a=$(grep -c HDF5-DIAG "$original" || true) b=$(grep -c HDF5-DIAG "$copy" || true)
  [ "$b" -le "$a" ] || { grep -m 20 -A 12 HDF5-DIAG "$copy" >&2; fail "$b HDF5 error stacks $whose, $a originally"; }
}
