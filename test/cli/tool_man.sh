#!/bin/sh
# SPDX-License-Identifier: MIT
# tool_man.sh PETW MANDIR: the manual pages the build wrote (petw(1) and a
# page per command, from the texts --help prints) exist for every command
# `petw --help` lists, have perf's sections, agree with --help, and groff
# reads them without a warning.
set -u
petw=$1 mandir=$2
fail() { echo "tool_man: $*" >&2; exit 1; }
command -v groff >/dev/null || { echo "tool_man: no groff" >&2; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

commands=$("$petw" --help | sed -n '/^Commands:/,/^[A-Z]/s/^  \([a-z-]*\)  .*/\1/p')
[ -n "$commands" ] || fail "petw --help lists no commands"
pages=petw
for c in $commands; do pages="$pages petw-$c"; done
for p in $pages; do
    f=$mandir/$p.1
    [ -s "$f" ] || fail "no page $f"
    for s in NAME SYNOPSIS DESCRIPTION EXAMPLES "SEE ALSO"; do
        grep -q "^\.SH \"*$s\"*\$" "$f" || fail "$p(1) has no $s section"
    done
    groff -ww -man -z "$f" 2>"$tmp/warnings"
    [ -s "$tmp/warnings" ] && fail "groff warns about $p(1): $(cat "$tmp/warnings")"
    # A --help line ending in '/' ("TraceLogging/" then "EventSource") is
    # filled with a space on the page: keep such a word on one line.
    grep -q '[A-Za-z]/$' "$f" && fail "$p(1) splits a word after '/': $(grep -o '[A-Za-z]*/$' "$f" | head -1)"
    # The page is what the tool writes now (never out of date).
    "$petw" --help-man "$p" | cmp -s - "$f" || fail "$p(1) differs from petw --help-man $p"
    # Every option --help lists is on the page.
    if [ "$p" != petw ]; then
        c=${p#petw-}
        "$petw" "$c" --help | sed -n 's/^  \(-[-a-zA-Z]*\).*/\1/p' | while read -r o; do
            esc=$(printf '%s' "$o" | sed 's/-/\\\\-/g')
            grep -q -- "^\\\\fB$esc" "$f" || { echo "$p(1) lacks option $o" >&2; exit 1; }
        done || fail "an option of petw $c --help is not on its page"
    fi
done
# Rendered, a page reads as its --help does.
if command -v man >/dev/null; then
    MANWIDTH=80 man -l "$mandir/petw-convert.1" 2>/dev/null | grep -q "perfetto" ||
        fail "petw-convert(1) rendered does not mention perfetto"
fi
echo "tool_man: $(echo $pages | wc -w) pages, sections and options as --help, no groff warnings"
