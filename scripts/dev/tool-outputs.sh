#!/usr/bin/env bash
# tool-outputs.sh: runs every tool of one build over a corpus of trace
# directories and keeps what each printed, its exit status and the files it
# wrote, so two builds can be compared byte for byte (`diff -r OUT_A OUT_B`).
# A refactoring that must not change behaviour is checked this way:
#
#   bash scripts/dev/tool-outputs.sh OLD_BUILD CORPUS OUT_OLD
#   bash scripts/dev/tool-outputs.sh NEW_BUILD CORPUS OUT_NEW
#   diff -r OUT_OLD OUT_NEW
#
# CORPUS is a directory of trace directories (any depth; a trace directory
# holds recorder.meta), e.g. a copy of what `ctest` leaves in the build tree.
# Per trace: recorder2text (records, --info, --merged), recorder-summary
# (text, --csv, --top), recorder-overlap (default, --all), recorder-layers
# --mpi, recorder-report, recorder-export, recorder-merge (every file it
# writes), recorder-codegen (default, --no-loops, and --elastic over each
# directory's t2 t4 t8 [t16] set), recorder-diff against its sibling
# traces, and, unless REPLAY=0, recorder-replay -v under mpirun with the
# replay's output tree (names, sizes and checksums). Times printed by the
# replay are masked (and HDF5 files, which hold creation times, are
# compared by size); a replay of the lower layers races between ranks, so
# its stderr may differ from run to run. Outputs over 256 KiB are kept as checksums. JOBS
# (default 2) traces run at once; SKIP, an extended regular expression,
# leaves out the trace directories it matches (e.g. the hardening tests'
# ten-million-record and million-rank traces, which take minutes a tool).
set -uo pipefail
if [ $# -ne 3 ]; then
  echo "usage: tool-outputs.sh BUILD_DIR CORPUS OUT_DIR" >&2
  exit 2
fi
BUILD=$(cd "$1" && pwd)
CORPUS=$(cd "$2" && pwd)
OUT=$3
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
export SCRATCH=${SCRATCH:-/tmp/tool-outputs.scratch}
export BUILD CORPUS OUT REPLAY=${REPLAY:-1}
export MPIRUN=${MPIRUN:-mpirun.mpich}

# TOOLS (default: all) names the steps to run, e.g. "kernel kernel-noloops
# elastic": text info merged-text summary summary-csv summary-top overlap
# overlap-all layers report export merge kernel kernel-noloops diff elastic
# replay.
wanted() {
  [ -z "${TOOLS:-}" ] && return 0
  case " $TOOLS " in *" ${1%%-*} "* | *" $1 "*) return 0 ;; esac
  return 1
}
export -f wanted

# Outputs over 256 KiB are kept as their size and checksum.
shrink() {
  local size
  size=$(stat -c %s "$1")
  if [ "$size" -gt 262144 ]; then
    echo "$size bytes, md5 $(md5sum <"$1" | cut -c1-32)" >"$1.sum"
    rm -f "$1"
  fi
}
export -f shrink

one_trace() {
  local rel=$1 t=$CORPUS/$1
  local key=${rel//\//__}
  local o=$OUT/$key s=$SCRATCH/$key
  mkdir -p "$o"
  local A=$BUILD/analysis C=$BUILD/codegen
  run() { # run NAME CMD...: stdout, stderr and status of CMD under o/NAME
    local name=$1
    shift
    wanted "$name" || return 0
    (cd "$s" && "$@" >"$o/$name.out" 2>"$o/$name.err")
    echo $? >"$o/$name.rc"
    shrink "$o/$name.out"
    shrink "$o/$name.err"
  }
  rm -rf "$s"
  mkdir -p "$s"
  run text "$A/recorder2text" "$t"
  run info "$A/recorder2text" --info "$t"
  run merged-text "$A/recorder2text" --merged "$t"
  run summary "$A/recorder-summary" "$t"
  run summary-csv "$A/recorder-summary" --csv "$t"
  run summary-top "$A/recorder-summary" --top "$t"
  run overlap "$A/recorder-overlap" "$t"
  run overlap-all "$A/recorder-overlap" --all "$t"
  run layers "$A/recorder-layers" --mpi --limit 50 "$t"
  run report "$A/recorder-report" "$t"
  run export "$A/recorder-export" --chrome "$t"
  run merge "$BUILD/merger/recorder-merge" --quiet "$t" -o "$s/merged"
  if [ -d "$s/merged" ]; then
    (cd "$s/merged" && find . -type f | sort | xargs -r md5sum) >"$o/merge.files"
  fi
  run kernel "$C/recorder-codegen" "$t"
  run kernel-noloops "$C/recorder-codegen" --no-loops "$t"
  local parent sib n=0
  parent=$(dirname "$t")
  for sib in "$parent"/*/; do
    sib=${sib%/}
    [ "$sib" = "$t" ] || [ ! -f "$sib/recorder.meta" ] && continue
    n=$((n + 1))
    [ $n -gt 4 ] && break
    run "diff-$(basename "$sib")" "$A/recorder-diff" --max 0 "$t" "$sib"
  done
  local np
  np=$("$A/recorder2text" --info "$t" 2>/dev/null | awk '/^ranks:/ {print $2; exit}')
  if [ "$REPLAY" != 0 ] && [ -n "$np" ] && wanted replay; then
    if [ "$np" -ge 1 ] && [ "$np" -le 16 ]; then
      rm -rf "$s/replay"
      (cd "$s" && timeout 120 "$MPIRUN" -np "$np" -genv LD_PRELOAD "$BUILD/tests/support/liboversubscribe.so" \
        "$BUILD/replayer/recorder-replay" --prefix "$s/replay" -v "$t" >"$o/replay.out" 2>"$o/replay.err")
      echo $? >"$o/replay.rc"
      sed -i -E 's/[0-9]+\.[0-9]+ ?(s|ms|us|µs|MB\/s|GB\/s)/T \1/g; s/\(ratio [0-9.]+\)/(ratio R)/' "$o/replay.out" "$o/replay.err"
      if [ -d "$s/replay" ]; then
        (cd "$s/replay" && find . | sort | while read -r f; do
          # HDF5 files hold creation times: their size only
          if [ ! -f "$f" ]; then
            echo "$f"
          elif [ "$(head -c 4 "$f" | od -An -c | tr -d ' ')" = '211HDF' ]; then
            echo "$f $(stat -c %s "$f") hdf5"
          else
            echo "$f $(stat -c %s "$f") $(md5sum <"$f" | cut -c1-32)"
          fi
        done) >"$o/replay.tree"
      fi
    fi
  fi
  rm -rf "$s"
}
export -f one_trace

# Elastic kernels: each directory holding t2 t4 t8 (and t16).
elastic() {
  local d=$1 key=${1//\//__}
  local set=()
  for n in 2 4 8 16; do [ -f "$CORPUS/$d/t$n/recorder.meta" ] && set+=("$CORPUS/$d/t$n"); done
  [ ${#set[@]} -ge 3 ] && wanted elastic || return 0
  mkdir -p "$OUT/elastic__$key"
  "$BUILD/codegen/recorder-codegen" --elastic "${set[@]}" >"$OUT/elastic__$key/kernel.out" 2>"$OUT/elastic__$key/kernel.err"
  echo $? >"$OUT/elastic__$key/kernel.rc"
}
export -f elastic

cd "$CORPUS"
find . -name recorder.meta | sed 's|^\./||; s|/recorder.meta$||' | sort | grep -Ev "${SKIP:-^$}" | xargs -P "${JOBS:-2}" -I{} bash -c 'one_trace "$1"' _ {}
find . -name t4 -type d | sed 's|^\./||; s|/t4$||' | sort | xargs -P "${JOBS:-2}" -I{} bash -c 'elastic "$1"' _ {}
echo "tool-outputs: $(find "$OUT" -name '*.rc' | wc -l) tool runs over $(find . -name recorder.meta | wc -l) traces in $OUT"
