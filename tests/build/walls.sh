#!/usr/bin/env bash
# tests/build/walls.sh SOURCE_DIR BUILD_DIR CMAKE: the walls between the
# components (docs/dev/architecture.md), checked two ways.
#  1. The sources: a component's file includes its own headers, another
#     component's public ones (COMPONENT/include/, and functions/, whose
#     every file is the function table) and outside headers, never another
#     component's internal header, .c file or template; a component's
#     CMakeLists.txt compiles no other component's source and names no other
#     component's directory but its include/. Each exception still standing
#     is in walls.allowed with its reason, and one no longer needed fails too.
#  2. The build: a program linking a component that includes one of its
#     internal headers does not compile ("No such file or directory"); the
#     same program including its public header does.
set -euo pipefail
src=$1 build=$2 cmake=$3
allowed=$src/tests/build/walls.allowed
fail() { echo "walls: $*" >&2; exit 1; }

# The components: the top-level folders the build adds, but for those of
# tests, benchmarks, kernels and documents, and templates/ (text the code
# generator fills, whose inclusion walls.allowed lists).
components=()
while read -r dir; do
  case $dir in tests | tests/* | fuzz | bench | kernels | docs | cmake | scripts) continue ;; esac
  [ -f "$src/$dir/CMakeLists.txt" ] && components+=("$dir")
done < <(sed -n 's/^ *add_subdirectory(\([a-z0-9_-]*\)).*/\1/p' "$src/CMakeLists.txt")
[ ${#components[@]} -ge 10 ] || fail "$src/CMakeLists.txt: only ${#components[@]} components found"
is_component() { local c; for c in "${components[@]}"; do [ "$c" = "$1" ] && return 0; done; return 1; }

breaches=$(mktemp)
trap 'rm -f "$breaches"' EXIT
# where OWNER FILE: the component a repository path belongs to ("templates" for templates/).
owner() { local top=${1%%/*}; if is_component "$top" || [ "$top" = templates ]; then echo "$top"; fi; }

for comp in "${components[@]}"; do
  while IFS= read -r -d '' file; do
    rel=${file#"$src"/}
    while read -r inc; do
      [ -n "$inc" ] || continue
      [ -e "$(dirname "$file")/$inc" ] && case $inc in ../*) ;; *) continue ;; esac
      # The header a quoted include names: a file of the tree ending in /INC.
      mapfile -t found < <(cd "$src" && git ls-files -- "*/$inc" | grep -v '^tests/\|^fuzz/\|^bench/')
      printf '%s\n' "${found[@]}" | grep -q "^$comp/" && continue # its own, on its include path
      for hit in "${found[@]}"; do
        other=$(owner "$hit")
        [ -n "$other" ] && [ "$other" != "$comp" ] || continue
        case $hit in
        "$other"/include/*) continue ;;
        functions/*.c) ;;
        functions/*) continue ;;
        esac
        echo "$rel includes $hit" >> "$breaches"
      done
    done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$file")
  done < <(find "$src/$comp" -type f \( -name '*.c' -o -name '*.h' -o -name '*.tmpl' -o -name '*.def' \) -print0)
  # The component's build: no other component's directory but its include/.
  while read -r other path; do
    [ "$other" != "$comp" ] && { is_component "$other" || [ "$other" = templates ]; } || continue
    case $path in include | include/* | "") [ -n "$path" ] && continue ;; esac
    [ "$other" = functions ] && [[ $path != *.c ]] && continue
    echo "$comp/CMakeLists.txt names $other/$path" >> "$breaches"
  done < <(grep -o '\${\(PROJECT\|CMAKE\)_SOURCE_DIR}/[A-Za-z0-9_./-]*' "$src/$comp/CMakeLists.txt" |
    sed 's#^[^}]*}/##' | awk -F/ '{ o = $1; $1 = ""; sub(/^ /, ""); gsub(/ /, "/"); print o, $0 }')
done

# Every breach is allowed with a reason; every allowance is still a breach.
sort -u -o "$breaches" "$breaches"
unexplained=$(grep -vxFf <(sed -n 's/^\([^#][^|]*[^ |]\) *|.*/\1/p' "$allowed") "$breaches" || true)
[ -z "$unexplained" ] || fail "breaches of the walls (or list them in walls.allowed with a reason):"$'\n'"$unexplained"
stale=$(sed -n 's/^\([^#][^|]*[^ |]\) *|.*/\1/p' "$allowed" | grep -vxFf "$breaches" || true)
[ -z "$stale" ] || fail "walls.allowed lists what is no longer a breach:"$'\n'"$stale"

# 2. The probes (tests/build/CMakeLists.txt): internal headers out of reach, public ones in it.
probes=0
for target in $("$cmake" --build "$build" --target help | sed -n 's/^\(\.\.\. \)\{0,1\}\(wall-probe-[a-z0-9-]*\).*/\2/p' | sort -u); do
  probes=$((probes + 1))
  log=$("$cmake" --build "$build" --target "$target" 2>&1) && rc=0 || rc=$?
  case $target in
  wall-probe-public-*) [ $rc = 0 ] || fail "$target: a public header does not compile: $(echo "$log" | grep -m1 error)" ;;
  *) [ $rc != 0 ] || fail "$target: an internal header was reachable from another component"
    grep -q 'No such file or directory' <<< "$log" ||
      fail "$target: failed otherwise than on the header: $(echo "$log" | grep -m1 error)" ;;
  esac
done
[ $probes -ge 4 ] || fail "only $probes wall probes in $build (tests/build/CMakeLists.txt)"
echo "walls: ${#components[@]} components, $(wc -l < "$breaches") allowed breaches, $probes probes as expected"
