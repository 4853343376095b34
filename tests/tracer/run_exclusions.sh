#!/bin/bash
# Which paths the tracer leaves out: the default prefixes (/proc/, /dev/, /usr/
# ...), where "/dev/" also covers "/dev" itself but not "/devices", and
# "!/dev/shm/" keeps /dev/shm traced; then a RECORDER_EXCLUSION_FILE (with a
# "!" entry of its own) and a RECORDER_INCLUSION_FILE, relative paths matched
# from the working directory.
#   run_exclusions.sh PROGRAM LIBRECORDER RECORDER2TEXT WORKDIR
set -u
prog=$1 lib=$2 r2t=$3 work=$4
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work/data/keep" "$work/data/skip"
cd "$work/data" || fail "cannot enter $work/data"
paths=(/proc/self/stat /dev /dev/null /dev/shm /dev/shm/ckpt.0 /dev/shmem /devices /usr/bin /usr "$work/data/keep/a" keep/b skip/c skip/d /etc/hostname /tmp)

# traced PATH_LIST_FILE ENV...: the paths of the stat records, one per line.
traced() {
    local dir=$work/trace-$1; shift
    env "$@" LD_PRELOAD="$lib" RECORDER_TRACES_DIR="$dir" "$prog" "${paths[@]}" || fail "the traced program failed"
    "$r2t" "$dir" | sed -n 's/.*POSIX stat(pathname="\([^"]*\)".*/\1/p'
}
expect() {
    local got want
    got=$(traced "$@" | tr '\n' ' ')
    want=$(cat)
    [ "$got" = "$want" ] || fail "$1: traced stat paths: '$got', expected '$want'"
}
expect defaults <<<"/dev/shm /dev/shm/ckpt.0 /devices $work/data/keep/a keep/b skip/c skip/d /tmp "
printf '# not skip/, but skip/c\n%s\n  !%s\n' "$work/data/skip/" "$work/data/skip/c" > "$work/exclude"
expect excluded RECORDER_EXCLUSION_FILE="$work/exclude" <<<"/proc/self/stat /dev /dev/null /dev/shm /dev/shm/ckpt.0 /dev/shmem /devices /usr/bin /usr $work/data/keep/a keep/b skip/c /etc/hostname /tmp "
printf '%s\n' "$work/data/keep/" > "$work/include"
expect included RECORDER_INCLUSION_FILE="$work/include" <<<"$work/data/keep/a keep/b "
echo "ok"
