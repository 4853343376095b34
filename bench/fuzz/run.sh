#!/bin/bash
# run.sh SECONDS [BUILD_DIR] [TARGET...]: runs each libFuzzer target for
# SECONDS, one after the other on one core (nice 19), and prints per target
# the executions, executions per second, new corpus entries and crashes.
#
# BUILD_DIR (default: build-fuzz next to the source tree) is a build
# configured with  CC=clang cmake -S . -B build-fuzz -DRECORDER_FUZZ=ON  and
# built with  cmake --build build-fuzz --target fuzz.  TARGETs are names
# such as reader, merger, codec, codegen, template (default: every fuzz-* binary there).
# Each target keeps its corpus in BUILD_DIR/fuzz-corpus/TARGET (seeded from
# fuzz/seeds/TARGET) and writes crashers to BUILD_DIR/fuzz-artifacts/TARGET/;
# a crash stops that target's run (libFuzzer's default); slow units (inputs
# over 10 s, which a run survives) are counted apart. Exit status: the
# number of targets that crashed. FUZZ_ARGS adds libFuzzer options.
# FUZZ_WORKER=K names the log TARGET-K.log, so that K runs of one target
# can share its corpus, one per core (their executions add up).
set -u
seconds=${1:?usage: run.sh SECONDS [BUILD_DIR] [TARGET...]}
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${2:-$src/build-fuzz}
shift $(($# >= 2 ? 2 : 1))
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    for f in "$build"/fuzz/fuzz-*; do
        name=${f##*/fuzz-}
        [ -x "$f" ] && [ "${name%-replay}" = "$name" ] && [ "$name" != seed-tool ] && targets+=("$name")
    done
fi
[ ${#targets[@]} -gt 0 ] || { echo "run.sh: no fuzz targets in $build/fuzz (see the header)" >&2; exit 2; }

# Inputs of the trace targets are whole trace directories of a few KB.
max_len() { case $1 in codec | codegen) echo 8192 ;; template) echo 4096 ;; darshan) echo 32768 ;; *) echo 16384 ;; esac; }

printf '%-8s %8s %12s %10s %8s %8s %6s\n' target seconds executions exec/s new crashes slow
# crash-, leak-, oom- and timeout- artifacts; slow-unit- ones apart
count_artifacts() { find "$1" -maxdepth 1 -type f -name "$2" | wc -l; }
failed=0
for t in "${targets[@]}"; do
    bin=$build/fuzz/fuzz-$t
    corpus=$build/fuzz-corpus/$t arts=$build/fuzz-artifacts/$t log=$build/fuzz-logs/$t${FUZZ_WORKER:+-$FUZZ_WORKER}.log
    mkdir -p "$corpus" "$arts" "${log%/*}"
    before=$(count_artifacts "$arts" '*') slow_before=$(count_artifacts "$arts" 'slow-unit-*')
    seeds=()
    [ -d "$src/fuzz/seeds/$t" ] && seeds=("$src/fuzz/seeds/$t")
    # -timeout counts wall time: at nice 19 on a machine whose cores are busy
    # a 0.2 s input took 14 s (a false timeout); a hang still shows in 60 s.
    # shellcheck disable=SC2086
    nice -n 19 "$bin" "$corpus" "${seeds[@]}" -max_total_time="$seconds" -timeout=60 -rss_limit_mb=2048 \
        -max_len="$(max_len "$t")" -print_final_stats=1 -artifact_prefix="$arts/" ${FUZZ_ARGS:-} >"$log" 2>&1
    execs=$(awk "/stat::number_of_executed_units/ { print \$NF }" "$log")
    rate=$(awk "/stat::average_exec_per_sec/ { print \$NF }" "$log")
    new=$(awk "/stat::new_units_added/ { print \$NF }" "$log")
    slow=$(($(count_artifacts "$arts" 'slow-unit-*') - slow_before))
    crashes=$(($(count_artifacts "$arts" '*') - before - slow))
    [ "$crashes" -gt 0 ] && failed=$((failed + 1))
    printf '%-8s %8s %12s %10s %8s %8s %6s\n' "$t" "$seconds" "${execs:-?}" "${rate:-?}" "${new:-?}" "$crashes" "$slow"
    if [ "$crashes" -gt 0 ]; then
        grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error)' "$log" | head -3 | sed 's/^/    /'
        ls -t "$arts" | grep -v "^slow-unit-" | head -"$crashes" | sed "s|^|    $arts/|"
    fi
done
# Scratch directories of runs that libFuzzer ended with _exit.
for d in /dev/shm/recorder-fuzz-*; do
    [ -d "$d" ] && ! kill -0 "${d##*-}" 2>/dev/null && rm -rf "$d"
done
exit $failed
