#!/bin/sh
# SPDX-License-Identifier: MIT
# tool_runtime_dir.sh PETW: a runtime directory others may enter (mode
# 0755) stops every session command with a message that names it and says
# what it must be, and exits 1: start, record (also with --kernel, where
# the message must not blame the kernel's permissions), query (which must
# not say that no session runs), stop and watch. Made private (0700),
# query works again.
set -eu
petw=$1
dir=$(mktemp -d)
trap 'chmod -R u+rwx "$dir"; rm -rf "$dir"' EXIT
fail() { echo "tool_runtime_dir: $*" >&2; exit 1; }
rt="$dir/rt"
mkdir -m 0755 "$rt"
export PETW_RUNTIME_DIR="$rt"

refused() {
    if "$petw" "$@" >"$dir/out" 2>"$dir/err"; then
        fail "petw $* succeeded with a runtime directory open to others"
    fi
    grep -q "the runtime directory $rt, .*mode 0700" "$dir/err" ||
        fail "petw $*: the message does not name $rt and its mode: $(cat "$dir/err")"
    if grep -q "perf_event_paranoid\|No sessions run" "$dir/out" "$dir/err"; then
        fail "petw $*: a misleading message: $(cat "$dir/out" "$dir/err")"
    fi
}
refused start s1 -o "$dir/s1.etl" -p 3970f9cf-2c0c-4f11-b1cc-e3a1e9958833
refused record -o "$dir/r.etl" -- true
refused record --kernel process --kernel-scope process -o "$dir/k.etl" -- true
refused query
refused query s1
refused stop s1
refused watch s1
[ ! -e "$dir/s1.etl" ] && [ ! -e "$dir/r.etl" ] || fail "a refused session wrote a file"

chmod 0700 "$rt"
"$petw" query >"$dir/out" 2>"$dir/err" || fail "query in a private directory: $(cat "$dir/err")"
grep -q "No sessions run" "$dir/out" || fail "query: $(cat "$dir/out")"
echo "tool_runtime_dir: refused and named, then usable once private"
