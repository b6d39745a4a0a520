#!/bin/sh
# SPDX-License-Identifier: MIT
# tool_help.sh PETW RECORD_TRACE: help and usage errors, the same for every
# command. Each command answers --help and -h with exit 0 and its own usage
# on stdout; `petw help COMMAND` prints the same; `petw --version` and
# `petw version` print the project's version; a bare `petw convert` prints
# convert's usage with every --to format; an unknown command, option,
# format or view is named on the first line of a usage error (exit 2); and
# -o - writes a stream format to standard output (no file named '-').
set -u
petw=$1 record=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "tool_help: $*" >&2; exit 1; }
cd "$dir" || exit 1

commands="record report convert info dump guid mc start stop flush enable disable capture-state
update query providers watch"
for c in $commands; do
    for h in --help -h; do
        out=$("$petw" "$c" $h 2>"$dir/err") || fail "petw $c $h: exit $?"
        echo "$out" | head -1 | grep -q "^usage: petw $c " ||
            fail "petw $c $h: not its usage: $(echo "$out" | head -1)"
        [ -s "$dir/err" ] && fail "petw $c $h wrote to stderr: $(cat "$dir/err")"
    done
    [ "$("$petw" help "$c")" = "$("$petw" "$c" --help)" ] || fail "petw help $c differs from --help"
    # Help wins over other arguments (but not after --).
    "$petw" "$c" some.etl --help | head -1 | grep -q "^usage: petw $c " ||
        fail "petw $c FILE --help: no usage"
done
# The main help lists every command.
main=$("$petw" --help) || fail "petw --help: exit $?"
for c in $commands; do
    echo "$main" | grep -q "^  $c  " || fail "petw --help does not list $c"
done
[ "$("$petw" -h)" = "$main" ] && [ "$("$petw" help)" = "$main" ] || fail "petw -h, petw help differ"

# The version, as meson's project() gives it.
v=$("$petw" --version) || fail "petw --version: exit $?"
echo "$v" | grep -Eq '^petw [0-9]+\.[0-9]+\.[0-9]+' || fail "petw --version: '$v'"
[ "$("$petw" version)" = "$v" ] || fail "petw version differs from --version"

# One line names what is wrong; exit status 2.
expect_error() { # WHAT PATTERN ARGS...
    what=$1 pattern=$2
    shift 2
    rc=0
    "$petw" "$@" >"$dir/out" 2>"$dir/err" || rc=$?
    [ "$rc" -eq 2 ] || fail "$what: exit $rc, not 2"
    head -1 "$dir/err" | grep -q -- "$pattern" ||
        fail "$what: the first line does not say '$pattern': $(head -1 "$dir/err")"
    [ -s "$dir/out" ] && fail "$what: wrote to stdout"
    return 0
}
expect_error "unknown command" "unknown command 'frobnicate'" frobnicate
expect_error "unknown --to" "unknown format 'svg'" convert t.etl --to svg -o x.svg
expect_error "unknown report view" "unknown view 'cpuu'" report cpuu t.etl
expect_error "unknown report --format" "unknown format 'xml'" report cpu t.etl --format xml
expect_error "unknown dump --format" "unknown format 'xml'" dump t.etl --format xml
for c in info dump convert record start query providers watch guid; do
    expect_error "petw $c --bogus" "unknown option '--bogus'" "$c" --bogus t.etl
done
expect_error "petw report cpu --bogus" "unknown option '--bogus'" report cpu --bogus t.etl
expect_error "convert without --to" "no --to FORMAT" convert t.etl -o x
expect_error "info without a file" "no FILE" info
expect_error "guid without a name" "no NAME" guid
[ -e x.svg ] && fail "a usage error created its output"

# A bare convert: its own usage, every format.
rc=0
"$petw" convert >/dev/null 2>"$dir/err" || rc=$?
[ "$rc" -eq 2 ] || fail "petw convert alone: exit $rc"
head -1 "$dir/err" | grep -q "^usage: petw convert " || fail "petw convert alone: not its usage"
for f in chrome folded pprof flamegraph perfetto; do
    grep -q -- "--to.*$f" "$dir/err" || fail "petw convert's usage omits --to $f"
done

# -o -: standard output, for a stream format; no file named '-'.
"$record" "$dir/t.etl" 20 >/dev/null || fail "record_trace failed"
"$petw" convert t.etl --to chrome -o - >"$dir/stdout.json" 2>"$dir/err" ||
    fail "convert -o -: $(cat "$dir/err")"
[ -e ./- ] && fail "convert -o - wrote a file named '-'"
grep -q traceEvents "$dir/stdout.json" || fail "convert -o -: no trace on stdout"
grep -q "standard output" "$dir/err" || fail "convert -o -: the summary does not say where"
"$petw" convert t.etl --to folded -o - >"$dir/stdout.folded" 2>"$dir/err" ||
    fail "convert --to folded -o -: $(cat "$dir/err")"
[ -e ./- ] && fail "convert --to folded -o - wrote a file named '-'"
"$petw" report events t.etl -o - >"$dir/report.txt" 2>"$dir/err" ||
    fail "report -o -: $(cat "$dir/err")"
[ -e ./- ] && fail "report -o - wrote a file named '-'"
[ -s "$dir/report.txt" ] || fail "report -o -: nothing on stdout"
echo "tool_help: every command's --help/-h, help COMMAND, --version, usage errors, -o -"
