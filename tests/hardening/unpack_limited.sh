# Sourced by the hardening scripts that feed a tool one fuzz container:
#   unpack_limited SEED_TOOL CONTAINER WORK   unpacks it into WORK/trace
#   limit KB COMMAND...                       runs COMMAND in KB of address
# space and 20 s (only the time under ASan, which reserves terabytes)
#   generate_limited KB CODEGEN WORK          limit KB: CODEGEN WORK/trace >
# WORK/kernel.c (stderr shown), which must exit 0 with a main().
fail() { echo "FAIL: $*" >&2; exit 1; }

unpack_limited() {
    rm -rf "$3" && mkdir -p "$3" || fail "cannot create $3"
    "$1" unpack "$2" "$3/trace" || fail "cannot unpack $2"
}

limit() {
    local kb=$1
    shift
    if ldd "$1" 2>/dev/null | grep -q libasan; then
        timeout 20 "$@"
    else
        (ulimit -v "$kb" && timeout 20 "$@")
    fi
}

generate_limited() {
    limit "$1" "$2" "$3/trace" >"$3/kernel.c" 2>"$3/err.txt"
    local rc=$?
    cat "$3/err.txt"
    [ $rc -eq 0 ] || fail "recorder-codegen exited with $rc"
    grep -q '^int main(' "$3/kernel.c" || fail "no main() in the kernel"
}
