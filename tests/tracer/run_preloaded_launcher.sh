#!/bin/bash
# `LD_PRELOAD=librecorder.so mpirun -np N ./app`: the tracer is loaded into
# the launcher (and Hydra's proxy) too, which are no MPI ranks. Each rank's
# trace must be its own: N ranks, each with its MPI_Init and the kernel's
# transfers, none of the launcher's calls. The same through a wrapper
# (timeout, bash -c, a site's mpirun script), and with RECORDER_LAUNCHERS
# naming no program (the launcher is then traced, but gives way to the
# ranks; without RECORDER_TRACES_DIR it leaves a directory of its own).
#   run_preloaded_launcher.sh KERNEL LIBRECORDER RECORDER2TEXT WORKDIR MPIEXEC
set -u
kernel=$1 lib=$2 r2t=$3 work=$4 mpiexec=$5
np=3
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work/out" || fail "cannot create $work"
cd "$work" || exit 1
kernel_args=(--collective 0 --block-size 8192 --transfer-size 4096 --segments 2 "$work/out")
# check_ranks TRACE WHAT: each rank's trace is its own
check_ranks() {
    "$r2t" "$1" >"$work/trace.txt" || fail "$2: recorder2text failed on $1"
    for r in $(seq 0 $((np - 1))); do
        inits=$(awk -v r=$r '$1 == r && $6 ~ /^MPI_Init\(/' "$work/trace.txt" | wc -l)
        [ "$inits" = 1 ] || fail "$2: rank $r: 1 MPI_Init record expected, found $inits"
        writes=$(awk -v r=$r '$1 == r && $6 ~ /^MPI_File_write_at\(/' "$work/trace.txt" | wc -l)
        [ "$writes" = 4 ] || fail "$2: rank $r: 4 MPI_File_write_at records expected, found $writes"
    done
    ranks=$(awk '{print $1}' "$work/trace.txt" | sort -u | wc -l)
    [ "$ranks" = $np ] || fail "$2: $np ranks expected in the trace, found $ranks"
    grep -q 'mpiexec\|hydra' "$work/trace.txt" && fail "$2: the launcher's own calls are in the trace"
    return 0
}
LD_PRELOAD=$lib RECORDER_TRACES_DIR=$work/trace "$mpiexec" -np $np "$kernel" "${kernel_args[@]}" \
    >"$work/stdout" 2>"$work/stderr"
rc=$?
cat "$work/stderr" >&2
[ $rc -eq 0 ] || fail "the traced run exited with $rc"
[ -s "$work/stderr" ] && fail "the traced run wrote to stderr"
check_ranks "$work/trace" "mpiexec"
# Wrappers that run the launcher as their child (a program without MPI, traced):
# each gives way to the ranks in the directory they share.
for wrapper in "timeout 100" "bash -c"; do
    rm -rf "$work/trace" "$work/out" && mkdir -p "$work/out"
    if [ "$wrapper" = "bash -c" ]; then
        LD_PRELOAD=$lib RECORDER_TRACES_DIR=$work/trace bash -c "cd '$work' && '$mpiexec' -np $np '$kernel' \
            ${kernel_args[*]} && ls '$work/out' >/dev/null" >"$work/stdout" 2>"$work/stderr"
    else
        LD_PRELOAD=$lib RECORDER_TRACES_DIR=$work/trace $wrapper "$mpiexec" -np $np "$kernel" "${kernel_args[@]}" \
            >"$work/stdout" 2>"$work/stderr"
    fi
    rc=$?
    [ $rc -eq 0 ] || fail "$wrapper: the traced run exited with $rc: $(cat "$work/stderr")"
    check_ranks "$work/trace" "$wrapper"
done
# A job script that exports both runs other programs after mpirun: they
# must leave the MPI run's trace as it is, and say why they are untraced.
before=$(cat "$work/trace/recorder.meta" "$work/trace/0.rec" "$work/trace/0.meta" | cksum)
LD_PRELOAD=$lib RECORDER_TRACES_DIR=$work/trace ls "$work/trace" >/dev/null 2>"$work/ls.stderr" || fail "ls failed"
after=$(cat "$work/trace/recorder.meta" "$work/trace/0.rec" "$work/trace/0.meta" | cksum)
[ "$before" = "$after" ] || fail "ls, traced after the run, changed the MPI run's trace"
grep -q "holds the trace of an MPI run of $np ranks: ls, a program without MPI, is not traced into it" \
    "$work/ls.stderr" || fail "ls did not say why it is untraced: $(cat "$work/ls.stderr")"
# A site's `mpirun` is often a script that runs the real launcher (Intel
# MPI's is): the interpreter runs it, under the interpreter's name. Traced,
# it would leave a directory of its own next to the ranks' (no
# RECORDER_TRACES_DIR here: each process picks a directory by its pid).
mkdir -p "$work/bin"
# one_directory WHAT COMMAND...: COMMAND run traced in a fresh cwd/, without
# RECORDER_TRACES_DIR, leaves one trace directory there: the ranks'.
one_directory() {
    local what=$1
    shift
    rm -rf "$work/cwd" "$work/out" && mkdir -p "$work/cwd" "$work/out"
    (cd "$work/cwd" && LD_PRELOAD=$lib "$@" >"$work/stdout3" 2>"$work/stderr3") ||
        fail "$what: the run failed: $(cat "$work/stderr3")"
    dirs=$(ls "$work/cwd/recorder-traces" | wc -l)
    [ "$dirs" = 1 ] || fail "$what: 1 trace directory expected, found $dirs"
    check_ranks "$work/cwd/recorder-traces/"* "$what"
}
for style in child exec; do
    prefix=$([ $style = exec ] && echo "exec ")
    printf '#!/bin/bash\n# a site wrapper\n%s"%s" "$@"\n' "$prefix" "$mpiexec" >"$work/bin/mpirun"
    chmod +x "$work/bin/mpirun"
    one_directory "a wrapper script ($style)" "$work/bin/mpirun" -np $np "$kernel" "${kernel_args[@]}"
done
# A job script the launcher runs as each rank (`mpirun job.sh`), which runs
# the kernel and then other programs: the script and those programs are
# processes of the ranks that never call MPI_Init. Without
# RECORDER_TRACES_DIR they find the kernel's directory among the traces of
# ./recorder-traces and give way: one directory, the kernel's ranks in it.
printf '#!/bin/bash\n"%s" "$@" || exit\nls "%s" >/dev/null\n' "$kernel" "$work/out" >"$work/bin/job.sh"
chmod +x "$work/bin/job.sh"
one_directory "a job script" "$mpiexec" -np $np "$work/bin/job.sh" "${kernel_args[@]}"
# With no launcher named, mpiexec is traced as a program of its own: it
# gives way to the ranks in their directory, and without RECORDER_TRACES_DIR
# leaves a directory of its own beside theirs (the reason for the list).
rm -rf "$work/trace" "$work/out" "$work/cwd" && mkdir -p "$work/out" "$work/cwd"
RECORDER_LAUNCHERS= LD_PRELOAD=$lib RECORDER_TRACES_DIR=$work/trace "$mpiexec" -np $np "$kernel" \
    "${kernel_args[@]}" >"$work/stdout2" 2>"$work/stderr2" || fail "RECORDER_LAUNCHERS=: the run failed"
check_ranks "$work/trace" "RECORDER_LAUNCHERS="
(cd "$work/cwd" && RECORDER_LAUNCHERS= LD_PRELOAD=$lib "$mpiexec" -np $np "$kernel" "${kernel_args[@]}" \
    >"$work/stdout2" 2>"$work/stderr2") || fail "RECORDER_LAUNCHERS=: the run failed"
dirs=$(ls "$work/cwd/recorder-traces" | wc -l)
[ "$dirs" -gt 1 ] || fail "RECORDER_LAUNCHERS= should have left the launcher's trace directory too, found $dirs"
echo "ok: $np ranks, each with its own trace; the launcher untraced"
