#!/bin/sh
# SPDX-License-Identifier: MIT
# tool_manifest.sh PYTHON RECORD_TRACE PETW MANIFEST: the example provider's
# events, recorded by the example controller, decode by its instrumentation
# manifest in every output of the petw command, given with --manifest (a
# file or a directory) or PETW_MANIFEST_PATH; a malformed or missing
# manifest stops the command with the file, line and reason.
set -eu
py=$1 record=$2 petw=$3 manifest=$4
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
"$record" t.etl 8 >/dev/null

"$petw" dump t.etl --manifest "$manifest" > text.out
grep -q 'Petw-Example-Orders/OrderPlaced OrderId=1003 Amount=39.96 Customer="contoso" message="Order 1003 placed by contoso for 39.96."' text.out
grep -q 'Petw-Example-Orders/StatusChanged State="busy" message="The store is now busy."' text.out
# Without the manifest the same events are raw bytes.
"$petw" dump t.etl > raw.out
if grep -q OrderPlaced raw.out; then exit 1; fi

# JSON: names of task, opcode and level; fields typed; every event of the
# provider decoded. CSV: event name and fields columns.
mkdir m && cp "$manifest" m/orders.man
PETW_MANIFEST_PATH="/nonexistent-dir-is-not-here:$dir/m" "$petw" dump t.etl --format json \
    > json.out 2> json.err && exit 1 # a missing path in the list is an error
grep -q "nonexistent-dir-is-not-here" json.err
PETW_MANIFEST_PATH="$dir/m" "$petw" dump t.etl --format json > json.out
"$petw" dump t.etl --format csv --manifest m > csv.out
"$py" - <<'PY'
import csv, json
ev = [json.loads(l) for l in open("json.out")]
orders = [e for e in ev if e["provider"] == "Petw-Example-Orders"]
assert len(orders) == 12, len(orders)  # start, 8 orders, 2 status, stop
start = [e for e in orders if e["event"] == "BatchStart"][0]
assert start["task_name"] == "Order batch" and start["opcode_name"] == "Start", start
assert start["level_name"] == "Information", start
o = [e for e in orders if e["event"] == "OrderPlaced"]
assert [e["fields"]["OrderId"] for e in o] == list(range(1000, 1008)), o
assert abs(o[1]["fields"]["Amount"] - 19.98) < 1e-9 and o[1]["fields"]["Customer"] == "contoso"
s = [e for e in orders if e["event"] == "StatusChanged"]
assert [e["fields"]["State"] for e in s] == ["open", "busy"], s
assert s[0]["level_name"] == "Warning" and s[0]["message"] == "The store is now open.", s[0]
rows = list(csv.reader(open("csv.out", newline="")))
hdr = rows[0]
named = [r for r in rows[1:] if r[hdr.index("event")] == "OrderPlaced"]
assert len(named) == 8 and json.loads(named[0][hdr.index("fields")])["OrderId"] == 1000, named[:1]
assert named[0][hdr.index("provider")] == "Petw-Example-Orders"
PY

# info counts events under their names; convert names slices by them.
"$petw" info t.etl --manifest "$manifest" > info.out
grep -q "OrderPlaced .* 8$" info.out
"$petw" convert t.etl --to chrome -o c.json --manifest "$manifest" 2> c.err
grep -q '"name":"OrderPlaced"' c.json
grep -q '"name":"EventTrace/Header"' c.json
# The count it prints is the events it wrote (process names aside).
n=$("$petw" dump t.etl | wc -l)
grep -qx "petw: $n events to c.json" c.err
[ "$(grep -c '"ph":"[BEbei]"' c.json)" -eq "$n" ]

# Bad manifests: the file, the line and why; exit status 1, no output.
sed 's/template="Order"/template="Nope"/' "$manifest" > bad.man
if "$petw" dump t.etl --manifest bad.man > bad.out 2> bad.err; then exit 1; fi
grep -q 'bad.man: line [0-9]*: event 1: unknown template "Nope"' bad.err
[ ! -s bad.out ]
if "$petw" dump t.etl --manifest missing.man 2> missing.err; then exit 1; fi
grep -q "missing.man" missing.err
printf '<not xml' > broken.man
if "$petw" info t.etl --manifest broken.man 2> broken.err; then exit 1; fi
grep -q "broken.man: line 1: XML:" broken.err
echo "tool_manifest: the example provider's events decode by its manifest in text, json, csv, info and convert"
