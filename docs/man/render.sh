#!/bin/sh
# render.sh PAGE.md OUT FOOTER: one page of docs/user/ -> its man page OUT,
# through md2scd.awk (OUT.scd, kept beside it) and scdoc.
set -e
here=$(dirname "$0")
awk -v footer="$3" -f "$here/md2scd.awk" "$1" > "$2.scd"
scdoc < "$2.scd" > "$2.tmp"
mv "$2.tmp" "$2"
