#!/bin/sh
# SPDX-License-Identifier: MIT
# tool_output.sh PYTHON PETW GEN_HOSTILE: every output of the petw command is
# valid for any input. GEN_HOSTILE writes a trace whose strings and names
# are long (10,000 bytes, and around the 1 KiB mark), hold invalid UTF-8,
# quotes, commas, CR/LF and control characters, and prints a manifest of
# them; then
# - dump --format json: every line parses (strict UTF-8), and every name and
#   string comes back exactly (U+FFFD where the input was invalid UTF-8);
# - convert --to chrome: the file parses, names, categories and args as above;
# - dump --format csv: strict UTF-8, Python's csv module reads one header and
#   one 18-column row per record, whose event name and fields (a JSON
#   object) are those of the JSON dump;
# - dump --format text: strict UTF-8, one line per record; info: strict UTF-8.
set -eu
py=$1 petw=$2 gen=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

"$gen" "$dir/h.etl" > "$dir/manifest.json"
for f in json csv text; do
    "$petw" dump --format $f "$dir/h.etl" > "$dir/h.$f"
done
"$petw" convert "$dir/h.etl" --to chrome -o "$dir/h.chrome.json" 2>/dev/null
"$petw" info "$dir/h.etl" > "$dir/h.info"
"$py" - "$dir" <<'PY'
import csv, io, json, sys

d = sys.argv[1]
man = json.load(open(d + "/manifest.json"))

def text(h):
    return bytes.fromhex(h).decode("utf-8", "replace")

def fields(spec):
    out = {}
    for name, kind, value in spec:
        key = text(name)
        assert key not in out, key
        out[key] = {"s": lambda v: text(v), "x": lambda v: v, "i": lambda v: v,
                    "o": fields}[kind](value)
    return out

provider = text(man["provider"])
want = {text(e["name"]): fields(e["fields"]) for e in man["events"]}

def read(name):
    raw = open(d + "/" + name, "rb").read()
    return raw.decode("utf-8")  # strict: invalid UTF-8 fails here

# dump --format json: one valid object per line, strings round-trip.
records, seen = 0, {}
for n, line in enumerate(read("h.json").split("\n")[:-1]):
    try:
        o = json.loads(line)
    except ValueError as e:
        raise SystemExit("json line %d (%d bytes) does not parse: %s" % (n + 1, len(line), e))
    records += 1
    if o["event"] in want:
        assert o["provider"] == provider, ("provider", o["provider"][:80])
        assert o["fields"] == want[o["event"]], ("fields of", o["event"][:40])
        seen[o["event"]] = 1
assert len(seen) == len(want), ("events found", len(seen), len(want))

# convert --to chrome: valid JSON, names, categories and args round-trip.
doc = json.loads(read("h.chrome.json"))
got = {}
for e in doc["traceEvents"]:
    if e["ph"] != "M" and e["name"] in want:
        assert e["cat"] == provider, ("cat", e["cat"][:80])
        assert e["args"] == want[e["name"]], ("args of", e["name"][:40])
        got[e["name"]] = 1
assert len(got) == len(want), ("chrome events found", len(got), len(want))

# dump --format csv: RFC 4180, 18 columns, one row per record; the event
# name and fields are the JSON dump's.
rows = list(csv.reader(io.StringIO(read("h.csv"), newline="")))
assert rows[0][0] == "timestamp" and len(rows) == records + 1, (len(rows), records)
bad = [i for i, r in enumerate(rows) if len(r) != 18]
assert not bad, ("rows without 18 columns", bad[:5])
assert rows[0][15:] == ["event", "fields", "data"], rows[0]
jl = [json.loads(l) for l in read("h.json").splitlines()]
for row, j in zip(rows[1:], jl):
    if row[16]:
        assert json.loads(row[16]) == j["fields"], ("csv fields", row[15][:40])
        assert row[15] == (j["event"] or ""), ("csv event", row[15][:40])

# dump --format text: one line per record.
lines = read("h.text").split("\n")
assert lines[-1] == "" and len(lines) - 1 == records, (len(lines) - 1, records)
read("h.info")
print("tool_output: %d records valid in json, chrome, csv, text and info" % records)
PY
