#!/bin/sh
# SPDX-License-Identifier: MIT
# tool_manifest_dir.sh PYTHON RECORD_TRACE PETW ORDERS_MAN DATA_DIR MC_DIR: a directory of
# manifests with one bad file decodes by the good ones. Beside three real manifests
# (PowerShell's as Windows exports it, two of the mc tests') it holds the example provider's
# manifest with its Batch task undeclared (the slip exported manifests have), one cut short and
# one that is not XML. dump, report and convert (--manifest DIR and PETW_MANIFEST_PATH) warn of
# each bad file once (file, line, what) and decode the trace; the example's events decode with
# no task name where theirs is unknown. The slipped manifest named alone stops the command with
# the same message.
set -eu
py=$1 record=$2 petw=$3 orders=$4 data=$5 mc=$6
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
"$record" t.etl 8 >/dev/null

mkdir m
cp "$data/powershell.man" m/Microsoft-Windows-PowerShell.xml
cp "$mc/mc_types.man" m/types.man
sed 's/<task name="Batch" value="3"/<task name="Bundle" value="9"/' "$orders" > m/orders.man
grep -q 'name="Bundle"' m/orders.man
head -c 1500 "$mc/mc_arrays.man" > m/arrays-truncated.man
printf 'Provider list, exported 2024-03-01\nnot XML at all\n' > m/notes.xml

"$petw" dump t.etl --manifest m --format json > json.out 2> json.err
cat json.err
# One warning per bad file, naming file, line and what.
[ "$(wc -l < json.err)" -eq 3 ]
w='petw: warning: manifest'
slip='line 18: unknown task "Batch" (read without what it names; 1 more like it)'
grep -qx "$w m/orders.man: $slip" json.err
grep -q "^$w"' m/arrays-truncated.man: line [0-9]*: XML: .* (not read)$' json.err
grep -q "^$w"' m/notes.xml: line 1: XML: .* (not read)$' json.err
"$py" - <<'PY'
import json
ev = [json.loads(l) for l in open("json.out")]
orders = [e for e in ev if e.get("provider") == "Petw-Example-Orders"]
assert len(orders) == 12, len(orders)
o = [e for e in orders if e["event"] == "OrderPlaced"]
assert [e["fields"]["OrderId"] for e in o] == list(range(1000, 1008)), o
assert o[0]["task_name"] == "Orders", o[0]
start = [e for e in orders if e["event"] == "BatchStart"]
assert len(start) == 1 and start[0].get("task_name") in (None, ""), start
assert start[0]["opcode_name"] == "Start", start
PY

# The same through PETW_MANIFEST_PATH, and in report and convert.
PETW_MANIFEST_PATH="$dir/m" "$petw" dump t.etl > text.out 2> env.err
[ "$(grep -c '^petw: warning: manifest ' env.err)" -eq 3 ]
grep -q 'Petw-Example-Orders/OrderPlaced OrderId=1003' text.out
"$petw" report events t.etl --manifest m > report.out 2> report.err
[ "$(grep -c '^petw: warning: manifest ' report.err)" -eq 3 ]
for to in chrome perfetto; do
    "$petw" convert t.etl --to $to -o c.$to --manifest m 2> c.err
    [ "$(grep -c '^petw: warning: manifest ' c.err)" -eq 3 ]
done
grep -q '"name":"OrderPlaced"' c.chrome

# Named alone, the slipped manifest stops the run with the same message.
if "$petw" dump t.etl --manifest m/orders.man > one.out 2> one.err; then exit 1; fi
grep -qx 'petw: manifest m/orders.man: line 18: unknown task "Batch"' one.err
if "$petw" dump t.etl --manifest m/notes.xml 2> one.err; then exit 1; fi
grep -q 'm/notes.xml: line 1: XML' one.err
