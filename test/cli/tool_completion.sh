#!/bin/bash
# SPDX-License-Identifier: MIT
# tool_completion.sh PETW SCRIPT: the bash completion the build writes
# (petw --help-completion), sourced by bash and asked as bash asks it
# (COMP_WORDS, COMP_CWORD, then the function complete -F names): commands,
# a command's options, the values an option takes (formats, views, kernel
# groups, modes), and the names of the running sessions (one with spaces).
set -u
petw=$1 script=$2
dir=$(mktemp -d)
export PETW_RUNTIME_DIR="$dir/rt"
cleanup() {
    "$petw" stop "completion test" >/dev/null 2>&1
    rm -rf "$dir"
}
trap cleanup EXIT
fail() { echo "tool_completion: $*" >&2; exit 1; }
# The script calls `petw` (petw query): the one built.
mkdir -p "$dir/bin" && ln -s "$petw" "$dir/bin/petw"
export PATH="$dir/bin:$PATH"

# shellcheck source=/dev/null
. "$script" || fail "the script does not source"
complete -p petw | grep -q -- "-F _petw" || fail "no 'complete -F _petw petw'"

# complete WORDS...: the replies for the last word (the one being typed).
complete_words() {
    COMP_WORDS=("$@")
    COMP_CWORD=$(($# - 1))
    COMP_LINE="$*"
    COMP_POINT=${#COMP_LINE}
    COMPREPLY=()
    _petw
    printf '%s\n' "${COMPREPLY[@]}" | sort
}
expect() { # WHAT EXPECTED WORDS...
    what=$1 expected=$2
    shift 2
    got=$(complete_words "$@" | tr '\n' ' ' | sed 's/ $//')
    [ "$got" = "$expected" ] || fail "$what: '$got', not '$expected'"
}
has() { # WHAT ITEM WORDS...
    what=$1 item=$2
    shift 2
    complete_words "$@" | grep -qx -- "$item" ||
        fail "$what: no '$item' in: $(complete_words "$@" | tr '\n' ' ')"
}

expect "commands from 're'" "record report" petw re
has "every command" capture-state petw ""
has "--version" --version petw --v
expect "report's views" "cpu" petw report c
expect "report's views from d" "diff disk" petw report d
expect "convert's formats" "chrome flamegraph folded perfetto pprof" \
    petw convert t.etl --to ""
expect "dump's formats" "csv json text" petw dump t.etl --format ""
expect "watch's formats" "json text" petw watch s --format ""
expect "record's kernel groups" "cswitch" petw record --kernel cs
expect "kernel groups after a comma" "profile,cswitch" petw record --kernel profile,c
expect "--kernel-scope" "process" petw record --kernel-scope p
expect "start's --mode" "buffering" petw start x --mode b
has "record's options" --kernel-scope petw record --kernel-s
has "record's -o" -o petw record -
has "report's --no-inline" --no-inline petw report cpu t.etl --no-i
has "report's --by" --by petw report cpu t.etl --b
expect "report's --by values" "module" petw report cpu t.etl --by m
expect "help COMMAND" "providers" petw help prov
has "every command's --help" --help petw stop --he

# Running sessions' names, for the commands that take one (quoted: spaces).
"$petw" start "completion test" --realtime -p 3970f9cf-2c0c-4f11-b1cc-e3a1e9958833 \
    >/dev/null || fail "petw start failed"
expect "a session's name" 'completion\ test' petw stop comp
expect "a session's name for watch" 'completion\ test' petw watch ""
"$petw" stop "completion test" >/dev/null || fail "petw stop failed"
expect "no session" "" petw stop comp

# After --: the command record runs.
has "the command after --" bash petw record --kernel profile -- bas
echo "tool_completion: commands, options, values, views, sessions completed"
