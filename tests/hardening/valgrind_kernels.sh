#!/bin/bash
# valgrind_kernels.sh BUILD_DIR [KERNEL...]: memcheck on the tracer over the
# kernel suite (ctest hardening.valgrind.KERNEL, label "valgrind", one kernel each).
#
# Every kernel (default: all of them) runs at 2 ranks with the tracer
# preloaded, each rank under valgrind --tool=memcheck; then recorder-merge
# merges the trace under valgrind too. Any memcheck error (invalid access,
# use of uninitialised memory, a definite leak) fails the test, except those
# of MPICH/hwloc listed in scripts/sanitizers/valgrind.supp; the kernel's own
# --expect ground truth must match the trace, as in tests/e2e. Exit 77 (skip)
# without valgrind. 5 to 20 s per kernel on 2 cores.
set -uo pipefail
build=$(cd "$1" && pwd)
shift
src=$(cd "$(dirname "$0")/../.." && pwd)
command -v valgrind >/dev/null || { echo "SKIP: valgrind is not installed"; exit 77; }
kernels=("$@")
if [ ${#kernels[@]} -eq 0 ]; then
    for k in "$build"/kernels/*; do
        [ -f "$k" ] && [ -x "$k" ] && kernels+=("${k##*/}")
    done
fi
work=$build/tests/hardening/work/valgrind
preload=$build/tests/support/liboversubscribe.so:$build/tracer/librecorder.so
memcheck=(valgrind --tool=memcheck --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite
    --show-leak-kinds=definite --suppressions="$src/scripts/sanitizers/valgrind.supp" -q)
failed=()
for k in "${kernels[@]}"; do
    w=$work/$k
    rm -rf "$w" && mkdir -p "$w"
    start=$(date +%s.%N)
    bash "$src/kernels/run_kernel.sh" "$w/out" timeout 300 mpiexec -np 2 -genv LD_PRELOAD "$preload" \
        -genv RECORDER_TRACES_DIR "$w/trace" "${memcheck[@]}" --log-file="$w/memcheck.%p" \
        "$build/kernels/$k" --expect >"$w/kernel.txt" 2>"$w/kernel.stderr"
    rc=$?
    "${memcheck[@]}" --log-file="$w/memcheck-merge" "$build/merger/recorder-merge" "$w/trace" -o "$w/merged" \
        >/dev/null 2>"$w/merge.stderr"
    mrc=$?
    grep '^expect ' "$w/kernel.txt" >"$w/want.txt"
    "$build/tests/support/trace_expect" "$w/trace" >"$w/got.txt" 2>&1
    errors=$(cat "$w"/memcheck.* "$w/memcheck-merge" 2>/dev/null | grep -cE \
        '^==[0-9]+== (Invalid|Conditional|Use of uninit|Syscall param|Mismatched|Source and dest|.* definitely lost)')
    took=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    if [ $rc -ne 0 ] || [ $mrc -ne 0 ] || [ "$errors" -ne 0 ] || ! cmp -s "$w/want.txt" "$w/got.txt"; then
        echo "FAIL: $k: kernel exit $rc, merge exit $mrc, $errors memcheck lines (${took} s)"
        cat "$w"/memcheck.* "$w/memcheck-merge" "$w/kernel.stderr" "$w/merge.stderr" 2>/dev/null | head -60
        diff "$w/want.txt" "$w/got.txt" | head -10
        failed+=("$k")
    else
        echo "ok: $k: 2 traced ranks and the merge clean under memcheck, the trace matches --expect (${took} s)"
    fi
done
[ ${#failed[@]} -eq 0 ] || { echo "FAIL: ${failed[*]}"; exit 1; }
echo "PASS: ${#kernels[@]} kernels"
