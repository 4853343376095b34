#!/usr/bin/env bash
# check_docs.sh man|help BUILD_DIR SOURCE_DIR CMAKE
#   man:  every page of build/man renders with `man -l` without a warning;
#         every page of docs/user/ was made; the tree installed into a scratch
#         prefix has a man page for every program in bin/ (section 1) and for
#         librecorder.so (section 7), which `man -w` finds through MANPATH.
#   help: every installed program's --help (recorder-cc, a wrapper, its usage
#         line) names no paper, and every option it lists is in the program's
#         page docs/user/PROGRAM.md.
set -euo pipefail
mode=$1 build=$2 src=$3 cmake=${4:-cmake}
fail() { echo "check_docs: $*" >&2; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/check-docs.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
"$cmake" --install "$build" --prefix "$tmp/prefix" > "$tmp/install.log" || fail "install failed: $(tail -n 5 "$tmp/install.log")"
prefix=$tmp/prefix
[ -n "$(ls "$prefix/bin")" ] || fail "nothing installed in bin/"
# The installed programs look for their libraries in the configured prefix.
libdir=$(dirname "$(find "$prefix" -name 'librecorder-format.so*' | head -n 1)")
export LD_LIBRARY_PATH=$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}

if [ "$mode" = man ]; then
  if [ ! -d "$build/man" ] || ! command -v scdoc > /dev/null; then
    echo "check_docs: scdoc missing, no man pages built: skipped"
    exit 77
  fi
  for md in "$src"/docs/user/*.md; do
    title=$(head -n 1 "$md")
    [[ $title =~ ^\#\ ([A-Za-z0-9_.-]+)\(([0-9])\)$ ]] || fail "$md: first line is not '# name(section)'"
    page=$build/man/${BASH_REMATCH[1]}.${BASH_REMATCH[2]}
    [ -s "$page" ] || fail "$md: no man page $page (list it in docs/CMakeLists.txt)"
    # Every line of the page's examples comes out of man as it was written.
    LC_ALL=C MANWIDTH=200 man -l "$page" 2> /dev/null > "$tmp/text"
    awk '/^```/ { code = !code; next } code && NF' "$md" | sed 's/^ *//' | while IFS= read -r line; do
      grep -q -F -- "$line" "$tmp/text" || fail "$md: the man page shows this example line otherwise: $line"
    done
  done
  pages=0
  for page in "$build"/man/*.[1-9]; do
    if ! MANWIDTH=80 man --warnings=w -l "$page" > "$tmp/out" 2> "$tmp/err"; then
      fail "$page: man -l failed: $(cat "$tmp/err")"
    fi
    [ ! -s "$tmp/err" ] || fail "$page: warnings: $(cat "$tmp/err")"
    grep -q '^NAME' "$tmp/out" || fail "$page: no NAME section in the rendered page"
    pages=$((pages + 1))
  done
  for prog in "$prefix"/bin/*; do
    name=$(basename "$prog")
    found=$(MANPATH=$prefix/share/man man -w 1 "$name" 2> /dev/null) || fail "$name is installed without a man page"
    [ "$found" = "$prefix/share/man/man1/$name.1" ] || fail "man -w $name found $found"
  done
  [ -n "$(find "$prefix" -name librecorder.so)" ] || fail "librecorder.so is not installed"
  found=$(MANPATH=$prefix/share/man man -w 7 librecorder 2> /dev/null) || fail "librecorder(7) is not installed"
  echo "check_docs: $pages man pages render without warnings; $(ls "$prefix/bin" | wc -l) programs and the tracer have one"
  exit 0
fi

[ "$mode" = help ] || fail "mode: man or help, not $mode"
cited='paper|Alg\.|eq\. [0-9]|Tables? I|IOPin|ScalaIO|Behzad|Wang et al|Recorder 2\.0'
n=0
for prog in "$prefix"/bin/*; do
  name=$(basename "$prog")
  doc=$src/docs/user/$name.md
  [ -f "$doc" ] || fail "$name: no user page $doc"
  if [ "$(head -c 2 "$prog")" = "#!" ]; then
    # A wrapper script: without arguments it prints its usage and exits 2.
    status=0
    "$prog" > "$tmp/help" 2>&1 || status=$?
    [ "$status" = 2 ] || fail "$name without arguments: exit $status, not 2"
  else
    "$prog" --help > "$tmp/help" 2> "$tmp/err" || fail "$name --help: exit $?: $(cat "$tmp/err")"
    [ ! -s "$tmp/err" ] || fail "$name --help wrote to stderr: $(cat "$tmp/err")"
  fi
  grep -q "usage: " "$tmp/help" || fail "$name: no usage line in $(cat "$tmp/help")"
  if grep -n -i -E "$cited" "$tmp/help"; then
    fail "$name --help cites a paper (above): say what the tool does instead"
  fi
  for opt in $(grep -o -E -- '--[a-z][a-z0-9-]*' "$tmp/help" | sort -u); do
    grep -q -F -- "$opt" "$doc" || fail "$name: $opt is in --help but not in $doc"
  done
  n=$((n + 1))
done
echo "check_docs: $n programs: --help names no paper, every option is in the user page"
