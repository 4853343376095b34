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
#       rewrites the file's bytes, not its structure). SAME_FILES_ATTRIBUTES=1
#       compares h5dump -A instead (the attributes' values too). SAME_FILES_FILTERED=
#       TRACE_DIR: an HDF5 file that the trace's h5store files name (written
#       through HDF5 filters, whose stored size depends on the data) may
#       differ in size by up to 1 %, said on stdout. SAME_FILES_REMADE="FILE...":
#       inputs the copy re-created from their structure (a netCDF-4 reader's):
#       their sizes are said, not compared (their headers are, by the caller).
#   filtered_write_bytes SUMMARY ORIGINAL_TRACE COPY_TRACE WHOSE
#       when the original trace has h5store files (writes through HDF5
#       filters), prints the MPI-IO and POSIX bytes written per file by both
#       (recorder-summary SUMMARY); with FILTERED_BYTES_TOLERANCE=P (percent)
#       fails when either is more than P % apart. Only where set: a file
#       with a filtered dataset also holds what the rest of the program
#       wrote, whose fidelity other checks judge.
#   h5store_texts TRACE_DIR
#       the trace's h5store files, one after the other (an aggregated
#       trace's through $build/aggregate/recorder-aggregate --split).
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

# skip_if_refused STATUS OUTPUT: a program that exits with 77 found this
# machine unable to do what it tests (a file system without O_DIRECT): the
# test is skipped (ctest SKIP_RETURN_CODE 77), its reason shown.
skip_if_refused() {
  [ "$1" = 77 ] || return 0
  cat "$2"
  echo "$test_name: skipped: the program cannot run here"
  exit 77
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
    if [ "$a" != "$b" ] && [ -n "${SAME_FILES_FILTERED:-}" ] &&
      h5store_texts "$SAME_FILES_FILTERED" | cut -f2 | grep -qxF "$f"; then
      [ $(((a > b ? a - b : b - a) * 100)) -le "$a" ] ||
        fail "$rel: $a bytes originally, $b $whose: more than 1 % apart, although written through filters"
      echo "$test_name: $rel: written through filters: $a bytes originally, $b $whose" \
        "($(awk -v a="$a" -v b="$b" 'BEGIN {printf "%+.3f %%", (b - a) * 100 / a}'))"
    fi
    if [ "$a" != "$b" ] && [[ " ${SAME_FILES_REMADE:-} " == *" $f "* ]]; then
      echo "$test_name: $rel: an input re-created from its structure: $a bytes originally, $b $whose"
      a=$b
    fi
    [ "$a" = "$b" ] || [ -n "${SAME_FILES_FILTERED:-}" ] || fail "$rel: $a bytes originally, $b $whose"
    if [ "$headers" = 1 ] && [ "${f%.h5}" != "$f" ]; then
      local dump=-H
      [ "${SAME_FILES_ATTRIBUTES:-0}" = 0 ] || dump=-A
      diff -u <(h5dump $dump "$f" | tail -n +2) <(h5dump $dump "$copy" | tail -n +2) || fail "$rel: h5dump $dump differs"
    fi
    files=$((files + 1))
  done < <(find "$original" -type f -print0)
}

h5store_texts() {
  if [ -e "$1/aggregate.0" ]; then
    local split
    split=$(mktemp -d)
    "$build/aggregate/recorder-aggregate" "$1" -o "$split/trace" --split > /dev/null &&
      cat "$split"/trace/*.h5store 2> /dev/null || true
    rm -rf "$split"
  else
    cat "$1"/*.h5store 2> /dev/null || true
  fi
}

filtered_write_bytes() {
  local summary=$1 original=$2 copy=$3 whose=$4 line
  [ -n "$(h5store_texts "$original")" ] || return 0
  # MPI-IO and POSIX bytes written per file (by base name: the copy's are re-rooted).
  per_file() {
    "$summary" --csv "$1" | awk -F, 'NR > 1 && ($2 == "MPI-IO" || $2 == "POSIX") && $3 ~ /write/ && $4 != "" {
      n = split($4, p, "/"); b[$2 " " p[n]] += $6 } END { for (k in b) print k, b[k] }' | sort
  }
  while read -r layer file a b; do
    echo "$test_name: $file: $layer bytes written: $a originally, $b $whose" \
      "($(awk -v a="$a" -v b="$b" 'BEGIN {printf "%+.3f %%", a ? (b - a) * 100 / a : 0}'))"
    if [ -n "${FILTERED_BYTES_TOLERANCE:-}" ] &&
      [ $(((a > b ? a - b : b - a) * 100)) -gt $((a * FILTERED_BYTES_TOLERANCE)) ]; then
      fail "$file: $layer bytes written more than $FILTERED_BYTES_TOLERANCE % apart $whose"
    fi
  done < <(join -j1 <(per_file "$original" | sed 's/ /|/') <(per_file "$copy" | sed 's/ /|/') | tr '|' ' ')
}

no_new_hdf5_errors() {
  local original=$1 copy=$2 whose=$3 a b
  a=$(grep -c HDF5-DIAG "$original" || true) b=$(grep -c HDF5-DIAG "$copy" || true)
  [ "$b" -le "$a" ] || { grep -m 20 -A 12 HDF5-DIAG "$copy" >&2; fail "$b HDF5 error stacks $whose, $a originally"; }
}
