#!/bin/sh
# SPDX-License-Identifier: MIT
# `petw dump --tmf`: WPP messages decoded with their TMF file, by name and
# with their formatted text; without the TMF they stay raw.
# usage: tool_wpp.sh WRITER PETW TMF
set -eu
writer=$1 petw=$2 tmf=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$writer" "$dir/w.etl" >/dev/null
"$petw" dump "$dir/w.etl" --tmf "$tmf" > "$dir/out.txt"
grep -q 'WppDemo/wppdemo_c42 name="disk0" retries=-3 .*message="Opened disk0 with -3 retries' \
    "$dir/out.txt" || { cat "$dir/out.txt"; exit 1; }
grep -q 'WppDemo/wppdemo_c60 message="No arguments, 100% done"' "$dir/out.txt" ||
    { cat "$dir/out.txt"; exit 1; }
"$petw" dump "$dir/w.etl" --tmf "$(dirname "$tmf")" --format json | grep -q '"level_name":"TRACE_LEVEL_ERROR"'
"$petw" dump "$dir/w.etl" > "$dir/raw.txt"
! grep -q 'WppDemo' "$dir/raw.txt"
# Not a TMF: refused, saying where.
printf '#typev x 1 "a"\n{\n}\n' > "$dir/bad.tmf"
if "$petw" dump "$dir/w.etl" --tmf "$dir/bad.tmf" 2> "$dir/err.txt"; then exit 1; fi
grep -q 'line 1' "$dir/err.txt"
echo "tool_wpp: ok"
