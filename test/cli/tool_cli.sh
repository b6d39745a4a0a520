#!/bin/sh
# SPDX-License-Identifier: MIT
# tool_cli.sh PYTHON RECORD_TRACE PETW TL_EXAMPLE TL_TEST: the petw command
# as a user runs it.
# dump --format json gives one valid JSON object per record with the keys
# the format promises; --provider filters by GUID, by the name events carry
# and by the name-derived GUID (Windows samples, when present); petw guid
# prints name-derived GUIDs; a missing or corrupt file exits non-zero with a
# message on stderr; the TraceLogging example's events come out of dump
# --format json with their names and every field's exact value, and so do
# test_tracelogging's events, one per TraceLogging field kind; info counts
# the events by kind, the most frequent first.
set -eu
py=$1 record=$2 petw=$3 tl=$4 tltest=$5
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "tool_cli: $*" >&2; exit 1; }

"$record" "$dir/t.etl" 40 >/dev/null
"$petw" dump --format json "$dir/t.etl" > "$dir/all.json"
"$py" - "$dir/all.json" <<'PY'
import json, sys
keys = {"timestamp", "provider", "provider_guid", "event", "id", "version", "channel",
        "level", "opcode", "task", "keyword", "pid", "tid", "cpu", "activity_id", "fields"}
n = 0
for line in open(sys.argv[1]):
    o = json.loads(line)
    missing = keys - o.keys()
    assert not missing, "missing keys %s" % missing
    assert o["timestamp"].endswith("Z") and o["keyword"].startswith("0x")
    n += 1
assert n == 53, n
PY

# --start/--end keep the events in the range (bounds included) and always
# the file's header records, whatever the range.
"$py" - "$petw" "$dir/t.etl" "$dir/all.json" <<'PY'
import json, subprocess, sys
petw, etl = sys.argv[1], sys.argv[2]
ev = [json.loads(l) for l in open(sys.argv[3])]
hdr = [e for e in ev if e["provider"] == "EventTrace"]
rest = [e for e in ev if e["provider"] != "EventTrace"]
start, end = rest[10]["timestamp"], rest[20]["timestamp"]
def dump(*args):
    out = subprocess.run([petw, "dump", "--format", "json", etl] + list(args),
                         check=True, capture_output=True, text=True).stdout
    return [json.loads(l) for l in out.splitlines()]
got = dump("--start", start, "--end", end)
want = [e for e in rest if start <= e["timestamp"] <= end]
assert [e for e in got if e["provider"] != "EventTrace"] == want, (len(got), len(want))
assert len([e for e in got if e["provider"] == "EventTrace"]) == len(hdr) > 0
late = dump("--start", "2999-01-01T00:00:00Z")
assert len(late) == len(hdr) and all(e["provider"] == "EventTrace" for e in late), late
PY
guid=5a1c4e1b-7a2f-4d3e-9b61-2c8e4f103a77
n=$("$petw" dump --format json --provider "$guid" "$dir/t.etl" | wc -l)
[ "$n" -eq 52 ] || fail "--provider GUID kept $n of 52 events"
n=$("$petw" dump --format json --provider EventTrace "$dir/t.etl" | wc -l)
[ "$n" -eq 1 ] || fail "--provider EventTrace kept $n records"
n=$("$petw" dump --format csv --provider No.Such.Provider "$dir/t.etl" | grep -c "$guid" || true)
[ "$n" -eq 0 ] || fail "an unknown name matched $n events"

out=$("$petw" guid MySource)
[ "$out" = "a61ea624-4944-55fc-c2a8-37838829438d MySource" ] || fail "petw guid: $out"

if "$petw" dump "$dir/missing.etl" >/dev/null 2>"$dir/err"; then fail "missing file accepted"; fi
grep -q . "$dir/err" || fail "no message for a missing file"
head -c 3000 /dev/urandom > "$dir/junk.etl"
if "$petw" info "$dir/junk.etl" >/dev/null 2>"$dir/err"; then fail "corrupt file accepted"; fi
grep -q . "$dir/err" || fail "no message for a corrupt file"

"$tl" "$dir/tl.etl" >/dev/null
"$petw" dump --format json --provider contoso.example.orders "$dir/tl.etl" > "$dir/tl.json"
"$py" - "$dir/tl.json" <<'PY'
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1])]
assert len(ev) == 6, len(ev)
start, items, stop = ev[0], ev[1], ev[2]
assert start["provider"] == "Contoso.Example.Orders" and start["event"] == "OrderProcessing"
assert start["provider_guid"] == "3970f9cf-2c0c-4f11-b1cc-e3a1e9958833"
assert (start["opcode"], stop["opcode"], start["level"], start["channel"]) == (1, 2, 4, 11)
assert start["fields"] == {"OrderId": 1001, "Customer": "Ada"}, start["fields"]
assert items["fields"] == {"Quantities": [1, 4, 2],
                           "Shipping": {"City": "Z\u00fcrich", "Express": True},
                           "Total": 129.5, "Result": "0x0"}, items["fields"]
assert start["activity_id"] == items["activity_id"] == stop["activity_id"]
assert ev[3]["activity_id"] != start["activity_id"]
assert ev[4]["fields"]["Total"] == 18.25 and ev[5]["fields"] == {"OrderId": 1002}
PY
"$tltest" "$dir/all.etl" >/dev/null
"$petw" dump --format json --provider Contoso.TraceLogging.Test "$dir/all.etl" > "$dir/all-kinds.json"
"$py" - "$dir/all-kinds.json" <<'PY'
import json, sys
ev = {}
for line in open(sys.argv[1]):
    o = json.loads(line)
    ev[o["event"]] = o
want = {
    "Scalars": {"i8": -8, "u8": 200, "i16": -1600, "u16": 60000, "i32": -320000,
                "u32": 4000000000, "i64": -6400000000, "u64": 18000000000000000000,
                "iptr": -5, "uptr": 7, "one": 1, "hex32": "0xdeadbeef",
                "hex64": "0x123456789abcdef", "hex8": "0xab", "f32": 1.5, "f64": -2.25,
                "bool32": True, "boolean": True, "ch": "Z", "wch": "\u03a9", "ptr": "0x1234",
                "pid": 42, "tid": 43, "ip": "127.0.0.1", "port": 8080, "winerr": "0x5",
                "hr": "0x80004005", "nt": "0xc0000005"},
    "Strings": {"ansi": "ansi text", "utf8": "h\u00e9llo", "wide": "wide \U0001F600",
                "null": "", "counted": "abc", "cwide": "abcd", "bin": "0102030405",
                "guid": "11223344-5566-7788-1122-334455667788",
                "ft": "2022-06-18T04:26:40.0000000Z", "st": "2024-02-29T23:59:58.999Z"},
    "Arrays": {"varr": [-1, 2, 3], "farr": [170, 187, 204, 221], "darr": [0.5, 0.25],
               "empty": [], "outer": {"a": 7, "inner": {"b": "deep"}}, "after": 9},
    "Values": {"vint": -3, "vu64": 1099511627776, "vdbl": 3.5, "vstr": "value",
               "vwide": "w\u00e9", "vchar": "q", "vbool": True,
               "vguid": "11223344-5566-7788-1122-334455667788"},
    "Empty": {},
}
for name, fields in want.items():
    got = ev[name]["fields"]
    assert got == fields, (name, got)
a = ev["Attrs"]
assert (a["level"], a["opcode"], a["keyword"], a["channel"]) == (2, 1, "0x5", 11), a
assert "Filtered" not in ev and "Big" not in ev
PY

"$petw" info "$dir/tl.etl" > "$dir/info.txt"
grep -Eq "Contoso.Example.Orders +id 0 +OrderProcessing +4$" "$dir/info.txt" ||
    fail "info does not count events by provider and event name: $(cat "$dir/info.txt")"
grep -Eq "Contoso.Example.Orders +id 0 +OrderItems +2$" "$dir/info.txt" || fail "info: OrderItems"
# The most frequent kinds first (not in the order they first came).
awk '/ id [0-9]+ / { if (seen && $NF + 0 > last) bad = 1; last = $NF + 0; seen = 1 }
     END { exit bad }' "$dir/info.txt" ||
    fail "info does not list the events by count: $(cat "$dir/info.txt")"

samples=${PETW_ETL_SAMPLES:-}
if [ -n "$samples" ] && [ -f "$samples/SelfDescribingSingleEvent.etl" ]; then
    # TraceLogging provider by its name (case-insensitive) and by the
    # GUID derived from it: the same single event.
    for p in mysource a61ea624-4944-55fc-c2a8-37838829438d; do
        n=$("$petw" dump --format json --provider "$p" "$samples/SelfDescribingSingleEvent.etl" |
            grep -c '"event":"TestEvent"')
        [ "$n" -eq 1 ] || fail "--provider $p found $n TestEvent records"
    done
    n=$("$petw" dump --format json --provider solar_system "$samples/primitive-types.etl" | wc -l)
    [ "$n" -eq 5 ] || fail "--provider solar_system kept $n of 5 events"
    echo "tool_cli: provider names matched in the Windows samples"
fi
echo "tool_cli: dump json, provider filters, guid and errors ok"
