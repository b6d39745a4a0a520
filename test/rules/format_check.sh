#!/bin/sh
# SPDX-License-Identifier: MIT
# format_check.sh SOURCE_ROOT: every C file the project tracks is formatted
# as the committed .clang-format says (clang-format --dry-run --Werror), and
# no line is longer than 100 columns. Skips (77) without clang-format.
# clang-format runs on batches of files, two at a time.
# To fix: clang-format -i $(git ls-files '*.c' '*.h')
set -eu
root=$1
cd "$root"
command -v clang-format >/dev/null 2>&1 || { echo "clang-format not installed"; exit 77; }
files=$(find lib include tools test bench examples -name '*.c' -o -name '*.h' | sort)
status=0
# clang-format names each file it would change ("FILE:LINE:COL: error: ...").
bad=$(echo "$files" | xargs -n 32 -P 2 clang-format --dry-run --Werror 2>&1 >/dev/null |
    sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: error: .*/\1/p' | sort -u) || true
for f in $bad; do
    echo "not formatted: $f"
    status=1
done
# shellcheck disable=SC2086
long=$(awk 'length($0) > 100 { print FILENAME ":" FNR }' $files)
if [ -n "$long" ]; then
    echo "over 100 columns: $long"
    status=1
fi
[ $status -eq 0 ] && echo "format: $(echo "$files" | wc -l) files formatted"
exit $status
