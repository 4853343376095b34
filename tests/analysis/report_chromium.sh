#!/usr/bin/env bash
# report_chromium.sh BUILD_DIR: recorder-report on vpic-like (4 ranks) is one
# HTML file that fetches nothing; headless Chromium loads it without a console
# message, its charts have content, its findings are recorder-advise's, and a
# screenshot is kept in BUILD_DIR/e2e-runs/report.png. Skips (exit 77) only
# if chromium is missing.
test_name=analysis.report.vpic-like
source "$(dirname "$0")/common.sh"
dir=$runs/vpic-like.fixture
out=$build/e2e-runs
mkdir -p "$out"
html=$out/report.html
"$tools/recorder-report" "$dir/trace" -o "$html"
# Self-contained: no scripts, styles, images or frames from anywhere (the SVG
# namespace URI names a vocabulary, it is never fetched).
if grep -Eio '(src|href)="[^#][^"]*"|<link|@import|url\(' "$html"; then
  fail "the report refers to external resources"
fi
[ "$(grep -Eo 'https?://[^"]*' "$html" | sort -u)" = "http://www.w3.org/2000/svg" ] || fail "the report names a URL"
if ! command -v chromium > /dev/null; then
  echo "$test_name: SKIP: chromium is not installed (Debian package chromium)"
  exit 77
fi
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
browse() { # browse LOG ARGS... URL: headless Chromium, console messages on LOG
  local log=$1
  shift
  chromium --headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update \
    --disable-sync --no-first-run --user-data-dir="$profile" --enable-logging=stderr --v=0 "$@" 2> "$log"
}
# The console check must be able to fail: a page with an error must trip it.
printf '<!DOCTYPE html><p>x</p><script>console.error("boom"); nosuchfunction();</script>\n' > "$out/console-check.html"
browse "$out/console-check.log" --dump-dom "file://$out/console-check.html" > /dev/null
grep -q 'CONSOLE.*Uncaught' "$out/console-check.log" || fail "Chromium's console messages are not in its log: cannot check"
browse "$out/report-screenshot.log" --screenshot="$out/report.png" --window-size=1400,3000 "file://$html" > /dev/null
browse "$out/report-dom.log" --dump-dom "file://$html" > "$out/report-dom.html"
for log in "$out/report-screenshot.log" "$out/report-dom.log"; do
  # A script error or a resource that failed to load is a console message.
  if grep -E ':CONSOLE|Uncaught' "$log"; then
    fail "console messages in $log"
  fi
done
[ -s "$out/report.png" ] && [ "$(stat -c %s "$out/report.png")" -gt 20000 ] || fail "no screenshot (or an empty one)"
file "$out/report.png" 2> /dev/null | grep -q 'PNG image data, 1400 x 3000' || fail "the screenshot is not a 1400x3000 PNG"
dom=$out/report-dom.html
count() { grep -o "$1" "$dom" | wc -l; }
[ "$(count '<rect class="bar"')" = 4 ] || fail "records per rank: want 4 bars, got $(count '<rect class="bar"')"
[ "$(count '<rect class="fbar"')" -ge 5 ] || fail "top functions: too few bars"
[ "$(count 'id="access-chart-0"')" = 1 ] || fail "no access-pattern chart"
writes=$(count '<circle class="write"')
reads=$(count '<circle class="read"')
[ "$writes" -gt 0 ] && [ "$reads" -gt 0 ] || fail "access pattern: $writes write and $reads read points"
for series in read write; do
  d=$(grep -o "<path class=\"series $series\"[^>]* d=\"[^\"]*\"" "$dom" | sed 's/.* d="//; s/"$//')
  [ "$(echo "$d" | grep -o L | wc -l)" -gt 4 ] || fail "bandwidth over time: the $series line is empty"
done
grep -q 'id="layer-time-chart"' "$dom" && [ "$(count '<path class="series" stroke=')" -ge 3 ] ||
  fail "time per layer per rank: want a line per layer"
grep -q 'id="overlap-none"' "$dom" || fail "overlap: vpic-like has no overlapping accesses"
grep -Eq 'rank [0-9]+ H5Dwrite' "$dom" || fail "layer view: no H5Dwrite tree"
grep -q 'Per top-level function and layer' "$dom" || fail "layer view: no aggregates"
# recorder-advise's findings of vpic-like, no figures without --prove
[ "$(grep -o '<tr class="finding"><td>[0-9]*</td><td class="l">[^:<]*' "$dom" | sed 's/.*"l">//')" = "small accesses
HDF5 default alignment on a parallel file" ] || fail "findings: not small accesses and the default alignment"
[ "$(count '<td class="l untuned">')" = 0 ] || fail "findings: before and after figures without --prove"
echo "$test_name: rendered, $writes write and $reads read points, screenshot $out/report.png"
