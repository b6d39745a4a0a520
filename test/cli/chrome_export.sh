#!/bin/sh
# SPDX-License-Identifier: MIT
# chrome_export.sh PYTHON CHECK RECORD_TRACE PETW [CHROMIUM_PAGE]: records the
# example app, converts the trace for timeline viewers, and checks the
# result with an independent JSON parser; when a headless Chromium is
# installed, also loads it in a page that parses and counts it.
set -eu
py=$1 check=$2 record=$3 petw=$4 page=${5:-}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$record" "$dir/t.etl" 40 >/dev/null
"$petw" convert "$dir/t.etl" --to chrome -o "$dir/t.json" 2>/dev/null
records=$("$petw" dump --format json "$dir/t.etl" | wc -l)
"$py" "$check" "$dir/t.json" "$records" 1
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -n "$page" ] && [ -n "$browser" ]; then
    { printf 'var TRACE = '; cat "$dir/t.json"; printf ';\n'; } > "$dir/trace.js"
    cp "$page" "$dir/page.html"
    out=$("$browser" --headless --no-sandbox --disable-gpu --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$dir/profile" --dump-dom "file://$dir/page.html" 2>/dev/null)
    case "$out" in
    *"<pre id=\"result\">records=$records slices="*) echo "chromium: ${out#*<pre id=\"result\">}" | head -c 80; echo ;;
    *) echo "chromium did not count the trace: $out" | head -c 400; exit 1 ;;
    esac
fi
