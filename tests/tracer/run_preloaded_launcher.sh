#!/bin/bash
# `LD_PRELOAD=librecorder.so mpirun -np N ./app`: the tracer is loaded into
# the launcher (and Hydra's proxy) too, which are no MPI ranks. Each rank's
# trace must be its own: N ranks, each with its MPI_Init and the kernel's
# transfers, none of the launcher's calls, and RECORDER_LAUNCHERS naming
# no program must bring the launcher's trace back (as rank 0 of 1).
#   run_preloaded_launcher.sh KERNEL LIBRECORDER RECORDER2TEXT WORKDIR MPIEXEC
set -u
kernel=$1 lib=$2 r2t=$3 work=$4 mpiexec=$5
np=3
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work/out" || fail "cannot create $work"
cd "$work" || exit 1
LD_PRELOAD=$lib RECORDER_TRACES_DIR=$work/trace "$mpiexec" -np $np "$kernel" --collective 0 \
    --block-size 8192 --transfer-size 4096 --segments 2 "$work/out" >"$work/stdout" 2>"$work/stderr"
rc=$?
cat "$work/stderr" >&2
[ $rc -eq 0 ] || fail "the traced run exited with $rc"
[ -s "$work/stderr" ] && fail "the traced run wrote to stderr"
"$r2t" "$work/trace" >"$work/trace.txt" || fail "recorder2text failed on $work/trace"
for r in $(seq 0 $((np - 1))); do
    inits=$(awk -v r=$r '$1 == r && $6 ~ /^MPI_Init\(/' "$work/trace.txt" | wc -l)
    [ "$inits" = 1 ] || fail "rank $r: 1 MPI_Init record expected, found $inits"
    writes=$(awk -v r=$r '$1 == r && $6 ~ /^MPI_File_write_at\(/' "$work/trace.txt" | wc -l)
    [ "$writes" = 4 ] || fail "rank $r: 4 MPI_File_write_at records expected, found $writes"
done
ranks=$(awk '{print $1}' "$work/trace.txt" | sort -u | wc -l)
[ "$ranks" = $np ] || fail "$np ranks expected in the trace, found $ranks"
grep -q 'mpiexec\|hydra' "$work/trace.txt" && fail "the launcher's own calls are in the trace"
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
for style in child exec; do
    prefix=$([ $style = exec ] && echo "exec ")
    printf '#!/bin/bash\n# a site wrapper\n%s"%s" "$@"\n' "$prefix" "$mpiexec" >"$work/bin/mpirun"
    chmod +x "$work/bin/mpirun"
    rm -rf "$work/cwd" "$work/out" && mkdir -p "$work/cwd" "$work/out"
    (cd "$work/cwd" && LD_PRELOAD=$lib "$work/bin/mpirun" -np $np "$kernel" --collective 0 --block-size 8192 \
        --transfer-size 4096 --segments 2 "$work/out" >"$work/stdout3" 2>"$work/stderr3") ||
        fail "the run through a wrapper script ($style) failed: $(cat "$work/stderr3")"
    dirs=$(ls "$work/cwd/recorder-traces" | wc -l)
    [ "$dirs" = 1 ] || fail "a wrapper script ($style): 1 trace directory expected, found $dirs"
    "$r2t" "$work/cwd/recorder-traces/"* >"$work/trace3.txt" || fail "recorder2text failed ($style)"
    ranks=$(awk '{print $1}' "$work/trace3.txt" | sort -u | wc -l)
    [ "$ranks" = $np ] || fail "a wrapper script ($style): $np ranks expected, found $ranks"
done
# With no launcher named, mpiexec is traced as a program of its own and its
# rank 0 takes the ranks' place: the reason for the list.
rm -rf "$work/trace" "$work/out" && mkdir -p "$work/out"
RECORDER_LAUNCHERS= LD_PRELOAD=$lib RECORDER_TRACES_DIR=$work/trace "$mpiexec" -np $np "$kernel" --collective 0 \
    --block-size 8192 --transfer-size 4096 --segments 2 "$work/out" >"$work/stdout2" 2>"$work/stderr2"
"$r2t" --rank 0 "$work/trace" 2>/dev/null | grep -q 'hydra' ||
    fail "RECORDER_LAUNCHERS= should have traced the launcher"
echo "ok: $np ranks, each with its own trace; the launcher untraced"
