#!/bin/bash
# SPDX-License-Identifier: MIT
# tool_live.sh PYTHON PETW PROVIDER_APP: the petw commands that look at
# running processes, with their own runtime directory and a provider
# process (PROVIDER_APP: "Petw.Test.Ticker", TraceLogging, and a provider
# without a name) that ticks every 20 ms.
#  - providers: lists each process's providers with names, --pid, --json,
#    and the sessions that enable them; a -p NAME resolves to a running
#    provider's GUID;
#  - query shows the providers, levels and keywords, and events written;
#  - start's buffer, clock and file options reach the session and file;
#  - watch prints live events (text and JSON), ends when the session stops
#    and on SIGINT, and refuses a session that is not real-time;
#  - record without -p records the command's providers (its first event
#    too) and nobody else's; its summary counts events by provider;
#  - the status line appears on a terminal and never in a pipe;
#  - --profile reads a WPR profile (picked by Name.DetailLevel; kernel
#    parts reported) and a logman provider file;
#  - bad input exits non-zero with a message.
set -eu
py=$1 petw=$2 app=$3
# As test_xproc: TSan follows neither a forked provider's threads nor
# signals during blocking calls; this runs plain and under ASan.
[ "${PETW_TEST_TSAN:-}" = 1 ] && exit 77
dir=$(mktemp -d)
export PETW_RUNTIME_DIR="$dir/rt"
bg=""
cleanup() {
    for p in $bg; do kill "$p" 2>/dev/null || true; done
    "$petw" query --json 2>/dev/null | "$py" -c '
import json, sys
for s in json.load(sys.stdin)["sessions"]:
    print(s["name"])' 2>/dev/null | while IFS= read -r name; do
        "$petw" stop "$name" >/dev/null 2>&1 || true
    done
    rm -rf "$dir"
}
trap cleanup EXIT
fail() { echo "tool_live: $*" >&2; exit 1; }
ticker=edadc104-8efc-5a5b-ae3f-221e7d688c90 # Petw.Test.Ticker
nameless=6d2f2c1e-5b0a-4c55-9d6e-3a8f1b2c4d5e
wait_for() { for _ in $(seq 200); do [ -e "$1" ] && return 0; sleep 0.05; done; fail "$2"; }

# A provider process that runs through the whole test.
"$app" 120 "$dir/ready" &
apid=$!
bg="$apid"
wait_for "$dir/ready" "the provider app did not start"

"$petw" providers > "$dir/p.txt" || fail "providers failed"
grep -q "^$apid .*$ticker  *Petw.Test.Ticker" "$dir/p.txt" ||
    fail "providers does not show the ticker with its name: $(cat "$dir/p.txt")"
grep -q "^$apid .*$nameless  *-" "$dir/p.txt" || fail "providers: the nameless one: $(cat "$dir/p.txt")"
"$petw" providers --pid "$apid" --json > "$dir/p.json" || fail "providers --pid --json failed"
"$py" - "$dir/p.json" "$apid" "$ticker" "$nameless" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
pid = int(sys.argv[2])
p = {e["guid"]: e for e in doc["providers"]}
assert set(p) == {sys.argv[3], sys.argv[4]}, doc
assert all(e["pid"] == pid and e["sessions"] == [] for e in p.values()), doc
assert p[sys.argv[3]]["name"] == "Petw.Test.Ticker" and p[sys.argv[4]]["name"] is None, doc
assert p[sys.argv[3]]["process"].startswith("tool_provider"), doc
PY
"$petw" providers --pid 999999999 --json | "$py" -c '
import json, sys; assert json.load(sys.stdin) == {"providers": []}' || fail "providers of no process"

# A session by the running provider's name, with start's options.
"$petw" start live -o "$dir/live.etl" -p Petw.Test.Ticker:0x30:info -p "$nameless::error" \
    --clock system --buffer-size 32 --buffers 6:12 --flush-timer 0.2 --compress --checksum \
    > "$dir/start.txt" || fail "start failed"
grep -q "$ticker (Petw.Test.Ticker) keywords 0x30 level 4" "$dir/start.txt" ||
    fail "start: $(cat "$dir/start.txt")"
sleep 0.5
"$petw" flush live >/dev/null
"$petw" query live > "$dir/q.txt"
grep -q "Provider: *$ticker (Petw.Test.Ticker) keywords 0x30 level 4" "$dir/q.txt" ||
    fail "query does not show the provider: $(cat "$dir/q.txt")"
grep -q "Provider: *$nameless keywords all level 2" "$dir/q.txt" || fail "query: $(cat "$dir/q.txt")"
grep -q "Events written: *[1-9]" "$dir/q.txt" || fail "query: no events written: $(cat "$dir/q.txt")"
"$petw" query live --json > "$dir/q.json"
"$py" - "$dir/q.json" "$ticker" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))["sessions"][0]
assert s["clock"] == "system" and s["buffer_size_kb"] == 32, s
assert s["minimum_buffers"] == 6 and s["maximum_buffers"] == 12 and s["flush_timer_ms"] == 200, s
assert s["events_written"] > 0 and s["events_lost"] == 0, s
p = {e["guid"]: e for e in s["providers"]}
assert p[sys.argv[2]] == {"guid": sys.argv[2], "name": "Petw.Test.Ticker", "level": 4,
                          "match_any": "0x30", "match_all": "0x0"}, p
PY
"$petw" providers --pid "$apid" > "$dir/p2.txt"
grep -q "$ticker .*live (level 4, keywords 0x30)" "$dir/p2.txt" ||
    fail "providers does not show the enabling session: $(cat "$dir/p2.txt")"
"$petw" stop live > "$dir/stop.txt" || fail "stop failed"
grep -q "Events written: *[1-9]" "$dir/stop.txt" || fail "stop: $(cat "$dir/stop.txt")"
"$petw" info "$dir/live.etl" > "$dir/info.txt"
grep -q "zstd xxh64" "$dir/info.txt" || fail "--compress/--checksum: $(cat "$dir/info.txt")"
grep -q "clock *system" "$dir/info.txt" || fail "--clock system: $(cat "$dir/info.txt")"

# watch: live JSON events until the session stops.
"$petw" start rt --realtime -p "$ticker" --flush-timer 0.1 >/dev/null || fail "start rt failed"
"$petw" watch rt --format json > "$dir/w.json" 2> "$dir/w.err" &
wpid=$!
bg="$bg $wpid"
for _ in $(seq 100); do [ -s "$dir/w.json" ] && break; sleep 0.1; done
[ -s "$dir/w.json" ] || fail "watch printed nothing"
"$petw" stop rt >/dev/null
set +e
wait "$wpid"
rc=$?
set -e
[ "$rc" -eq 0 ] || fail "watch returned $rc after the session stopped: $(cat "$dir/w.err")"
"$py" - "$dir/w.json" "$apid" <<'PY'
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1])]
assert ev and all(e["provider"] == "Petw.Test.Ticker" and e["event"] == "Tick" for e in ev), ev[:3]
assert all(e["pid"] == int(sys.argv[2]) for e in ev), ev[:3]
# Buffers of two CPUs may arrive in either order; none may be missing.
n = sorted(e["fields"]["Count"] for e in ev)
assert n == list(range(n[0], n[0] + len(n))), n
PY
# ... and on SIGINT, text format, --provider filtering out the nameless one.
"$petw" start rt2 --realtime -p "$ticker" -p "$nameless" --flush-timer 0.1 >/dev/null
"$py" -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$petw" watch rt2 --provider Petw.Test.Ticker > "$dir/w.txt" &
wpid=$!
for _ in $(seq 100); do [ -s "$dir/w.txt" ] && break; sleep 0.1; done
kill -INT "$wpid"
set +e
wait "$wpid"
rc=$?
set -e
[ "$rc" -eq 0 ] || fail "watch returned $rc after SIGINT"
grep -q "Petw.Test.Ticker/Tick Count=" "$dir/w.txt" || fail "watch text: $(head -3 "$dir/w.txt")"
if grep -q "$nameless" "$dir/w.txt"; then fail "watch --provider let another provider through"; fi
"$petw" stop rt2 >/dev/null

# record without -p: the command's providers (its first event too), not
# those of the provider app that runs meanwhile.
(cd "$dir" && "$petw" record -o rec.etl -- "$app" 0.2) > "$dir/rec.txt" 2> "$dir/rec.err" ||
    fail "record failed: $(cat "$dir/rec.txt" "$dir/rec.err")"
if grep -q . "$dir/rec.err"; then fail "record wrote to stderr in a pipe: $(cat "$dir/rec.err")"; fi
grep -q "^ *10  *Petw.Test.Ticker ($ticker)" "$dir/rec.txt" ||
    fail "record summary by provider: $(cat "$dir/rec.txt")"
grep -q "^ *10  *$nameless" "$dir/rec.txt" || fail "record summary: $(cat "$dir/rec.txt")"
grep -q "File size: *[1-9]" "$dir/rec.txt" || fail "record: no file size: $(cat "$dir/rec.txt")"
"$petw" dump --format json "$dir/rec.etl" > "$dir/rec.json"
"$py" - "$dir/rec.json" "$apid" "$ticker" <<'PY'
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1]) if json.loads(l)["provider"] != "EventTrace"]
assert len(ev) == 20, len(ev)
assert all(e["pid"] != int(sys.argv[2]) for e in ev), "the other process was recorded"
ticks = [e["fields"]["Count"] for e in ev if e["provider"] == "Petw.Test.Ticker"]
assert ticks == list(range(10)), ticks  # the first event included
PY

# The status line: on a terminal (script gives one), not in a pipe (above).
if command -v script >/dev/null; then
    script -qec "\"$petw\" record -o \"$dir/tty.etl\" -- \"$app\" 1.5" "$dir/tty.log" >/dev/null ||
        fail "record on a terminal failed"
    grep -aq "events .*/s .* MB .* lost" "$dir/tty.log" || fail "no status line on a terminal"
fi

# Recording profiles: a WPR profile (a kernel keyword petw has no source
# for reported, not dropped) and a logman provider file.
cat > "$dir/p.wprp" <<XML
<?xml version="1.0" encoding="utf-8"?>
<WindowsPerformanceRecorder Version="1.0">
  <Profiles>
    <SystemCollector Id="SC" Name="NT Kernel Logger"><BufferSize Value="1024"/></SystemCollector>
    <EventCollector Id="EC" Name="Ticker Collector">
      <BufferSize Value="128"/>
      <Buffers Value="20"/>
    </EventCollector>
    <SystemProvider Id="SP"><Keywords><Keyword Value="Registry"/></Keywords></SystemProvider>
    <EventProvider Id="EP_Ticker" Name="*Petw.Test.Ticker" Level="4">
      <Keywords><Keyword Value="0x10"/><Keyword Value="0x20"/></Keywords>
    </EventProvider>
    <EventProvider Id="EP_Other" Name="$nameless" Level="2"/>
    <Profile Id="Ticker.Verbose.File" Name="Ticker" DetailLevel="Verbose" LoggingMode="File"
             Description="ticks">
      <Collectors>
        <SystemCollectorId Value="SC"><SystemProviderId Value="SP"/></SystemCollectorId>
        <EventCollectorId Value="EC">
          <EventProviders><EventProviderId Value="EP_Ticker"/></EventProviders>
        </EventCollectorId>
      </Collectors>
    </Profile>
    <Profile Id="Both.Light.File" Name="Both" DetailLevel="Light" LoggingMode="File"
             Description="both">
      <Collectors>
        <EventCollectorId Value="EC">
          <EventProviders>
            <EventProviderId Value="EP_Ticker"/><EventProviderId Value="EP_Other"/>
          </EventProviders>
        </EventCollectorId>
      </Collectors>
    </Profile>
  </Profiles>
</WindowsPerformanceRecorder>
XML
"$petw" start prof -o "$dir/prof.etl" --profile "$dir/p.wprp!Ticker.Verbose" \
    > "$dir/prof.txt" 2> "$dir/prof.err" || fail "start --profile failed: $(cat "$dir/prof.err")"
grep -q "not supported yet.*SystemProvider \"SP\": Keyword \"Registry\"" "$dir/prof.err" ||
    fail "the kernel keyword with no source was not reported: $(cat "$dir/prof.err")"
"$petw" query prof --json > "$dir/prof.json"
"$py" - "$dir/prof.json" "$ticker" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))["sessions"][0]
assert s["buffer_size_kb"] == 128 and s["minimum_buffers"] == 20, s
assert [(p["guid"], p["level"], p["match_any"]) for p in s["providers"]] == \
    [(sys.argv[2], 4, "0x30")], s["providers"]
PY
"$petw" stop prof >/dev/null
if "$petw" start prof2 -o "$dir/prof2.etl" --profile "$dir/p.wprp" 2> "$dir/err"; then
    fail "an ambiguous profile was accepted"
fi
grep -q "Both.Light.File" "$dir/err" || fail "no list of the profiles: $(cat "$dir/err")"
printf '# logman -pf\n"Petw.Test.Ticker" 0x8 0x3\n{%s} 0xff 5\n' "$nameless" > "$dir/prov.txt"
"$petw" start pf -o "$dir/pf.etl" --profile "$dir/prov.txt" >/dev/null || fail "start -pf failed"
"$petw" query pf --json | "$py" -c '
import json, sys
p = {e["guid"]: e for e in json.load(sys.stdin)["sessions"][0]["providers"]}
assert (p[sys.argv[1]]["level"], p[sys.argv[1]]["match_any"]) == (3, "0x8"), p
assert (p[sys.argv[2]]["level"], p[sys.argv[2]]["match_any"]) == (5, "0xff"), p' "$ticker" "$nameless" ||
    fail "query of a session started from a provider file"
"$petw" stop pf >/dev/null

# Bad input: non-zero, with a message.
expect_fail() {
    local what=$1
    shift
    if "$petw" "$@" >/dev/null 2>"$dir/err"; then fail "$what: accepted"; fi
    grep -q . "$dir/err" || fail "$what: no message"
}
expect_fail "an unknown clock" start bad -o "$dir/b.etl" -p "$ticker" --clock sundial
expect_fail "bad --buffers" start bad -o "$dir/b.etl" -p "$ticker" --buffers 8:4
expect_fail "providers --pid abc" providers --pid abc
expect_fail "a missing profile" start bad -o "$dir/b.etl" --profile "$dir/none.wprp"
printf '<WindowsPerformanceRecorder><Profiles>' > "$dir/broken.wprp"
expect_fail "a broken profile" start bad -o "$dir/b.etl" --profile "$dir/broken.wprp"
expect_fail "an unknown profile name" start bad -o "$dir/b.etl" --profile "$dir/p.wprp!Nope"
expect_fail "watch of an unknown session" watch no-such-session
expect_fail "watch without a name" watch
expect_fail "watch in an unknown format" watch x --format csv
"$petw" start file-only -o "$dir/f.etl" -p "$ticker" >/dev/null
expect_fail "watch of a session that is not real-time" watch file-only
"$petw" stop file-only >/dev/null
"$petw" providers --help | grep -q "usage: petw providers" || fail "providers --help"
"$petw" watch --help | grep -q "usage: petw watch" || fail "watch --help"
n=$("$petw" query --json | "$py" -c 'import json,sys; print(len(json.load(sys.stdin)["sessions"]))')
[ "$n" -eq 0 ] || fail "$n sessions left running"
echo "tool_live: ok"
