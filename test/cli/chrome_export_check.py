#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks a `petw convert --to chrome` file with Python's own JSON parser
and the trace-event format's rules: every event has a known phase, a
numeric non-negative timestamp and integer pid/tid; B/E slices nest per
thread; async b/e pair by (cat, id, name); flow events (s, t, f) carry an id
and each flow starts before its steps and its finish; counters (C) carry
numbers; the record count (flow and counter records aside) matches what
`petw dump --format json` says about the same trace.

usage: chrome_export_check.py OUT.json EXPECTED_RECORDS [MIN_SLICES]
"""
import json
import sys

path, expected = sys.argv[1], int(sys.argv[2])
min_slices = int(sys.argv[3]) if len(sys.argv) > 3 else 0
doc = json.load(open(path))
events = doc["traceEvents"]
records = [e for e in events if e["ph"] not in ("M", "s", "t", "f", "C")]
assert len(records) == expected, f"{len(records)} records, expected {expected}"
stacks, asyncs, slices, flows = {}, {}, 0, {}
for e in events:
    assert e["ph"] in ("M", "i", "B", "E", "b", "e", "s", "t", "f", "C"), e
    assert isinstance(e["pid"], int) and isinstance(e["tid"], int), e
    if e["ph"] == "M":
        assert e["name"] in ("process_name", "thread_name", "thread_sort_index",
                             "process_labels") and e["args"], e
        continue
    if e["ph"] == "C":
        assert all(isinstance(v, (int, float)) for v in e["args"].values()), e
    assert isinstance(e["ts"], (int, float)) and e["ts"] >= 0, e
    key = (e["pid"], e["tid"])
    if e["ph"] == "B":
        stacks.setdefault(key, []).append(e["name"])
    elif e["ph"] == "E":
        assert stacks.get(key), f"E without B: {e}"
        stacks[key].pop()
        slices += 1
    elif e["ph"] == "b":
        k = (e["cat"], e["id"], e["name"])
        asyncs[k] = asyncs.get(k, 0) + 1
    elif e["ph"] in ("s", "t", "f"):
        assert isinstance(e["id"], str) and e["id"], e
        if e["ph"] == "s":
            flows[e["id"]] = True
        else:
            assert e["id"] in flows, f"flow {e['ph']} before its start: {e}"
    elif e["ph"] == "e":
        k = (e["cat"], e["id"], e["name"])
        assert asyncs.get(k), f"e without b: {e}"
        asyncs[k] -= 1
        slices += 1
assert all(not s for s in stacks.values()), "unclosed B slices"
assert slices >= min_slices, f"{slices} slices, expected at least {min_slices}"
print(f"chrome export: {len(records)} records, {slices} slices, {len(flows)} flows, "
      "valid trace-event JSON")
