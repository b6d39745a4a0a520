#!/bin/sh
# SPDX-License-Identifier: MIT
# tool_output_file.sh PETW RECORD_TRACE: files the petw command writes
# (convert -o) are created like trace files: mode 0600, never through a
# symbolic link, and never over an existing file unless --force, which
# replaces a file the user owns (a link there is removed, its target left
# alone).
set -eu
petw=$1 record=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "tool_output_file: $*" >&2; exit 1; }
mode() { stat -c %a "$1"; }

umask 022
"$record" "$dir/t.etl" 40 >/dev/null
"$petw" convert "$dir/t.etl" --to chrome -o "$dir/out.json" 2>/dev/null ||
    fail "convert to a new path failed"
{ [ -f "$dir/out.json" ] && [ ! -L "$dir/out.json" ]; } || fail "out.json is not a regular file"
[ "$(mode "$dir/out.json")" = 600 ] || fail "out.json created with mode $(mode "$dir/out.json")"
[ -s "$dir/out.json" ] || fail "out.json is empty"

# An existing file: refused (exit 1, a message), left as it was.
printf 'keep me\n' > "$dir/out.json"
chmod 600 "$dir/out.json"
rc=0
"$petw" convert "$dir/t.etl" --to chrome -o "$dir/out.json" 2>"$dir/err" || rc=$?
[ "$rc" -eq 1 ] || fail "an existing output file: exit $rc, not 1"
grep -q -- --force "$dir/err" || fail "no message naming --force: $(cat "$dir/err")"
[ "$(cat "$dir/out.json")" = "keep me" ] || fail "an existing output file was changed"

# --force replaces it (a new 0600 file, even over a 0644 one).
chmod 644 "$dir/out.json"
"$petw" convert "$dir/t.etl" --to chrome -o "$dir/out.json" --force 2>/dev/null ||
    fail "--force over the user's own file failed"
[ "$(cat "$dir/out.json")" != "keep me" ] || fail "--force did not replace the file"
[ "$(mode "$dir/out.json")" = 600 ] || fail "--force left mode $(mode "$dir/out.json")"
grep -q traceEvents "$dir/out.json" || fail "--force wrote no trace"

# A symbolic link at the output path: its target is never written.
printf 'victim\n' > "$dir/victim.txt"
chmod 644 "$dir/victim.txt"
rm -f "$dir/out.json"
ln -s "$dir/victim.txt" "$dir/out.json"
rc=0
"$petw" convert "$dir/t.etl" --to chrome -o "$dir/out.json" 2>/dev/null || rc=$?
[ "$rc" -eq 1 ] || fail "a symbolic link at the output path: exit $rc, not 1"
[ "$(cat "$dir/victim.txt")" = victim ] || fail "convert wrote through a symbolic link"
[ "$(mode "$dir/victim.txt")" = 644 ] || fail "the link's target changed mode"
[ -L "$dir/out.json" ] || fail "the link was removed without --force"
"$petw" convert "$dir/t.etl" --to chrome -o "$dir/out.json" --force 2>/dev/null ||
    fail "--force over a symbolic link failed"
[ "$(cat "$dir/victim.txt")" = victim ] || fail "convert --force wrote through a symbolic link"
[ "$(mode "$dir/victim.txt")" = 644 ] || fail "the link's target changed mode"
{ [ -f "$dir/out.json" ] && [ ! -L "$dir/out.json" ]; } || fail "out.json is still a link"
[ "$(mode "$dir/out.json")" = 600 ] || fail "out.json replaced with mode $(mode "$dir/out.json")"

# A dangling link: not followed into creating its target either.
rm -f "$dir/out.json"
ln -s "$dir/created-through-link.json" "$dir/out.json"
"$petw" convert "$dir/t.etl" --to chrome -o "$dir/out.json" 2>/dev/null &&
    fail "a dangling link at the output path was accepted"
[ ! -e "$dir/created-through-link.json" ] || fail "convert created a dangling link's target"

# Something that is not a regular file is not replaced, even with --force.
rm -f "$dir/out.json"
mkdir "$dir/out.json"
"$petw" convert "$dir/t.etl" --to chrome -o "$dir/out.json" --force 2>/dev/null &&
    fail "--force accepted a directory"
[ -d "$dir/out.json" ] || fail "--force removed a directory"

# A file another user owns is not replaced (root only: chown needs it).
if [ "$(id -u)" -eq 0 ]; then
    rm -rf "$dir/out.json"
    printf 'theirs\n' > "$dir/out.json"
    chown 65534 "$dir/out.json"
    "$petw" convert "$dir/t.etl" --to chrome -o "$dir/out.json" --force 2>/dev/null &&
        fail "--force replaced another user's file"
    [ "$(cat "$dir/out.json")" = theirs ] || fail "another user's file was changed"
fi
echo "tool_output_file: ok"
