#!/bin/bash
# SPDX-License-Identifier: MIT
# tool_sessions.sh PYTHON PETW TL_EXAMPLE: the session commands of petw as a
# user runs them, with their own runtime directory.
# petw start runs a shared session that outlives the command; the
# TraceLogging example, another process, writes into it; query (text and
# --json) shows it; flush and stop work and stop prints the counters; the
# file holds the example's events. petw record runs a command in a session
# of its own, records its events (the first one too), returns its exit
# status, and forwards SIGINT to it. Bad input exits non-zero with a
# message: an unknown session, a bad GUID or level, conflicting modes,
# record without --, an output path that cannot be written.
set -eu
py=$1 petw=$2 tl=$3
dir=$(mktemp -d)
export PETW_RUNTIME_DIR="$dir/rt"
cleanup() {
    # Stop any session a failure left running (their hosts exit then).
    "$petw" query --json 2>/dev/null | "$py" -c '
import json, sys
for s in json.load(sys.stdin)["sessions"]:
    print(s["name"])' 2>/dev/null | while IFS= read -r name; do
        "$petw" stop "$name" >/dev/null 2>&1 || true
    done
    rm -rf "$dir"
}
trap cleanup EXIT
fail() { echo "tool_sessions: $*" >&2; exit 1; }
guid=3970f9cf-2c0c-4f11-b1cc-e3a1e9958833 # Contoso.Example.Orders

# A session started by one command, written by another process, stopped by a third.
"$petw" start "tool sessions" -o "$dir/s.etl" -p "$guid:0xffff:verbose" --flush-timer 1 \
    > "$dir/out" || fail "start failed"
grep -q "tool sessions" "$dir/out" || fail "start did not print the session: $(cat "$dir/out")"
grep -q "$dir/s.etl" "$dir/out" || fail "start did not print the file: $(cat "$dir/out")"
if "$petw" start "tool sessions" -o "$dir/s2.etl" -p "$guid" 2>"$dir/err"; then
    fail "a second session of the same name started"
fi
grep -q . "$dir/err" || fail "no message for a name in use"
"$tl" "$dir/own.etl" >/dev/null || fail "the example failed"

"$petw" query > "$dir/q.txt"
grep -q "Name: *tool sessions" "$dir/q.txt" || fail "query does not list the session: $(cat "$dir/q.txt")"
grep -q "File: *$dir/s.etl" "$dir/q.txt" || fail "query does not show the file"
grep -q "Mode: *sequential" "$dir/q.txt" || fail "query does not show the mode"
"$petw" query "tool sessions" > "$dir/q1.txt" || fail "query NAME failed"
grep -q "Host process: *[1-9]" "$dir/q1.txt" || fail "query NAME has no host: $(cat "$dir/q1.txt")"
"$petw" query --json > "$dir/q.json"
"$py" -c 'import json,sys; json.load(sys.stdin)' < "$dir/q.json" || fail "query --json is not JSON"
"$py" - "$dir/q.json" "$dir/s.etl" <<'PY'
import json, os, sys
doc = json.load(open(sys.argv[1]))
s = [s for s in doc["sessions"] if s["name"] == "tool sessions"]
assert len(s) == 1, doc
s = s[0]
assert s["file"] == sys.argv[2], s
assert s["mode"] == "sequential", s
assert s["buffer_size_kb"] > 0 and s["host_pid"] > 0 and s["host_pid"] != os.getpid(), s
assert isinstance(s["buffers_written"], int) and s["events_lost"] == 0, s
PY

"$petw" flush "tool sessions" > "$dir/out" || fail "flush failed"
"$petw" stop "tool sessions" > "$dir/stop.txt" || fail "stop failed"
grep -q "Buffers written: *[1-9]" "$dir/stop.txt" || fail "stop counters: $(cat "$dir/stop.txt")"
grep -q "Events lost: *0" "$dir/stop.txt" || fail "stop lost events: $(cat "$dir/stop.txt")"
grep -q "File: *$dir/s.etl" "$dir/stop.txt" || fail "stop does not print the file"
if "$petw" query "tool sessions" >/dev/null 2>"$dir/err"; then fail "a stopped session is found"; fi

"$petw" dump --format json --provider "$guid" "$dir/s.etl" > "$dir/s.json"
"$py" - "$dir/s.json" <<'PY'
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1])]
assert len(ev) == 6, len(ev)
assert ev[0]["event"] == "OrderProcessing" and ev[0]["fields"] == {"OrderId": 1001, "Customer": "Ada"}, ev[0]
assert ev[0]["provider"] == "Contoso.Example.Orders", ev[0]
PY

# enable, disable, capture-state and update on a session with no file (buffering).
"$petw" start mem --mode buffering -p Some.Provider:0x10:2 >/dev/null || fail "buffering start failed"
"$petw" enable mem -p "$guid::warning" >/dev/null || fail "enable failed"
"$petw" disable mem -p Some.Provider >/dev/null || fail "disable failed"
"$petw" capture-state mem -p "$guid" > "$dir/out" || fail "capture-state failed"
grep -q "Asked for the state of" "$dir/out" || fail "capture-state: $(cat "$dir/out")"
if "$petw" capture-state mem -p Some.Provider >/dev/null 2>"$dir/err"; then
    fail "capture-state of a provider the session does not enable succeeded"
fi
grep -q "not enabled" "$dir/err" || fail "capture-state error: $(cat "$dir/err")"
"$petw" update mem --flush-timer 2 --buffers 64 > "$dir/out" || fail "update failed"
grep -q "2000 ms" "$dir/out" || fail "update: $(cat "$dir/out")"
"$petw" query --json mem | "$py" -c '
import json, sys
s = json.load(sys.stdin)["sessions"]
assert len(s) == 1 and s[0]["mode"] == "buffering" and s[0]["file"] is None, s' ||
    fail "query --json of a buffering session"
"$petw" stop mem >/dev/null || fail "stop mem failed"

# record: the example's events, its first included, and its exit status.
(cd "$dir" && "$petw" record -p Contoso.Example.Orders -p "$guid" -o rec.etl -- "$tl" "$dir/own2.etl") \
    > "$dir/rec.txt" || fail "record failed: $(cat "$dir/rec.txt")"
grep -q "Buffers written: *[1-9]" "$dir/rec.txt" || fail "record summary: $(cat "$dir/rec.txt")"
grep -q "Events lost: *0" "$dir/rec.txt" || fail "record lost events"
grep -q "File: *$dir/rec.etl" "$dir/rec.txt" || fail "record does not print the file"
"$petw" dump --format json --provider "$guid" "$dir/rec.etl" > "$dir/rec.json"
"$py" - "$dir/rec.json" <<'PY'
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1])]
assert len(ev) == 6, len(ev)
assert ev[0]["event"] == "OrderProcessing" and ev[0]["opcode"] == 1, ev[0]
assert ev[0]["fields"] == {"OrderId": 1001, "Customer": "Ada"}, ev[0]
PY
set +e
"$petw" record -p "$guid" -o "$dir/r3.etl" -- sh -c 'exit 3' >/dev/null
rc=$?
set -e
[ "$rc" -eq 3 ] || fail "record returned $rc, not the command's 3"

# SIGINT to petw record reaches the command; the session stops cleanly.
# (Not under TSan, which delays a signal that arrives during waitpid.)
if [ "${PETW_TEST_TSAN:-}" != 1 ]; then
# (Started through python: a background job of a script ignores SIGINT.)
# shellcheck disable=SC2016 # $1 is the inner shell's
"$py" -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$petw" record -p "$guid" -o "$dir/int.etl" -- \
    sh -c 'touch "$1"; exec sleep 30' sh "$dir/started" > "$dir/int.txt" &
pid=$!
for _ in $(seq 100); do [ -e "$dir/started" ] && break; sleep 0.1; done
[ -e "$dir/started" ] || fail "record did not start the command"
kill -INT "$pid"
set +e
wait "$pid"
rc=$?
set -e
[ "$rc" -eq 130 ] || fail "record after SIGINT returned $rc, not 130"
grep -q "File: *$dir/int.etl" "$dir/int.txt" || fail "no summary after SIGINT: $(cat "$dir/int.txt")"
"$petw" info "$dir/int.etl" >/dev/null || fail "the file after SIGINT is not readable"
fi
n=$("$petw" query --json | "$py" -c 'import json,sys; print(len(json.load(sys.stdin)["sessions"]))')
[ "$n" -eq 0 ] || fail "$n sessions left running"

# Bad input: non-zero, with a message.
expect_fail() {
    local what=$1
    shift
    if "$petw" "$@" >/dev/null 2>"$dir/err"; then fail "$what: accepted"; fi
    grep -q . "$dir/err" || fail "$what: no message"
}
expect_fail "stop of an unknown session" stop no-such-session
expect_fail "query of an unknown session" query no-such-session
expect_fail "flush of an unknown session" flush no-such-session
expect_fail "a bad GUID" start bad -o "$dir/b.etl" -p "{3970f9cf-2c0c-4f11-b1cc-zzzz}"
expect_fail "a short GUID" start bad -o "$dir/b.etl" -p 3970f9cf-2c0c-4f11-b1cc
expect_fail "a bad level" start bad -o "$dir/b.etl" -p "$guid:0x1:loud"
expect_fail "level 9" start bad -o "$dir/b.etl" -p "$guid::9"
expect_fail "bad keywords" start bad -o "$dir/b.etl" -p "$guid:xyz"
expect_fail "conflicting modes" start bad --mode buffering -o "$dir/b.etl" -p "$guid"
expect_fail "no output" start bad -p "$guid"
expect_fail "record without --" record -p "$guid" -o "$dir/b.etl" true
expect_fail "an unwritable output" start bad -o /nonexistent-dir/x.etl -p "$guid"
expect_fail "record to an unwritable output" record -p "$guid" -o /nonexistent-dir/x.etl -- true
set +e
"$petw" start bad --mode buffering -o "$dir/b.etl" -p "$guid" 2>/dev/null
[ $? -eq 2 ] || fail "conflicting modes: not a usage error (2)"
"$petw" record -p "$guid" true 2>/dev/null
[ $? -eq 2 ] || fail "record without --: not a usage error (2)"
"$petw" stop no-such-session 2>/dev/null
[ $? -eq 1 ] || fail "an unknown session: not exit 1"
set -e
"$petw" start --help | grep -q "usage: petw start" || fail "start --help"
"$petw" record --help | grep -q -- "--" || fail "record --help"
n=$("$petw" query --json | "$py" -c 'import json,sys; print(len(json.load(sys.stdin)["sessions"]))')
[ "$n" -eq 0 ] || fail "$n sessions left running after bad input"
echo "tool_sessions: ok"
