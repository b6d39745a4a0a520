#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""analysis_memory_windows.py PETW GEN_PROFILE_TRACE: the PageFault class as
Windows records it, in 64- and 32-bit traces of known content
(gen_profile_trace's `memory`): `petw report memory` gives process 1234 10
soft and 4 hard faults, 0.067 ms of hard-fault reads (the HardFaults'
InitialTime to their end), 229376 bytes mapped, 65536 unmapped, a peak of
196608 (its VirtualAllocs name it in ProcessId, the headers process 0);
--by file its hard faults by FileIo's names (3 in data.bin, 40960 bytes,
0.065 ms, longest 0.050; 1 in ntdll.dll, 8192 bytes), in CSV and JSON too;
--pid filters it out; the hostile records (cut short, a size no region has)
are skipped with a count on stderr, never a crash; the Perfetto export has
the 18 faults as instants and the 4 mapped-bytes values, and so has the
Chrome JSON export (a "Mapped bytes" counter of the process; the hostile
size left out). Then the shared
Windows samples: each reads, and a sample with no PageFault records gives an
empty table (77 when the samples folder is absent: that part only)."""
import csv
import io
import json
import os
import re
import subprocess
import sys
import tempfile

petw, gen = sys.argv[1], sys.argv[2]
NAME = "analysis_memory_windows"


def fail(why):
    print("%s: %s" % (NAME, why))
    sys.exit(1)


def run(args):
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        fail("%s failed: %s" % (" ".join(args[:4]), r.stderr))
    return r


with tempfile.TemporaryDirectory() as tmp:
    for bits in ("64", "32"):
        etl = os.path.join(tmp, "m%s.etl" % bits)
        run([gen, etl, "memory"] + (["32"] if bits == "32" else []))
        r = run([petw, "report", "memory", etl, "--format", "csv"])
        rows = list(csv.DictReader(io.StringIO(r.stdout)))
        want = {"PID": "1234", "Process": "app.exe", "Soft faults": "10", "Hard faults": "4",
                "Hard ms": "0.067", "Mapped bytes": "229376", "Unmapped bytes": "65536",
                "Peak bytes": "196608"}
        if rows != [want]:
            fail("%s-bit: report memory: %s, expected %s" % (bits, rows, [want]))
        m = re.search(r"(\d+) PageFault records skipped", r.stderr)
        if not m or int(m.group(1)) != 4:
            fail("%s-bit: the hostile records not counted: %s" % (bits, r.stderr))
        r = run([petw, "report", "memory", etl, "--by", "file", "--format", "json"])
        doc = json.loads(r.stdout)
        got = [(x["File"], x["Hard faults"], x["Bytes"], x["Total ms"], x["Max ms"])
               for x in doc["rows"]]
        want = [("\\Device\\HarddiskVolume3\\app\\data.bin", 3, 40960, 0.065, 0.05),
                ("\\Windows\\System32\\ntdll.dll", 1, 8192, 0.002, 0.002)]
        if got != want:
            fail("%s-bit: report memory --by file: %s, expected %s" % (bits, got, want))
        r = run([petw, "report", "memory", etl, "--pid", "99", "--format", "csv"])
        if len(list(csv.DictReader(io.StringIO(r.stdout)))) != 0:
            fail("%s-bit: --pid 99 kept rows: %s" % (bits, r.stdout))
        pft = os.path.join(tmp, "m%s.pftrace" % bits)
        r = run([petw, "convert", etl, "--to", "perfetto", "-o", pft])
        if not re.search(r"\b18 page faults, 4 mapped-bytes values", r.stderr):
            fail("%s-bit: perfetto export: %s" % (bits, r.stderr))
        js = os.path.join(tmp, "m%s.json" % bits)
        run([petw, "convert", etl, "--to", "chrome", "-o", js])
        with open(js) as f:
            trace = json.load(f)["traceEvents"]
        got = [(e["pid"], e["args"]["bytes"]) for e in trace
               if e.get("ph") == "C" and e.get("name") == "Mapped bytes"]
        want = [(1234, 65536), (1234, 196608), (1234, 131072), (1234, 163840)]
        faults = sum(1 for e in trace if e.get("ph") == "i" and e["name"].startswith("PageFault/")
                     and "Virtual" not in e["name"])
        if got != want or faults < 18:
            fail("%s-bit: chrome: counter %s (expected %s), %d fault instants"
                 % (bits, got, want, faults))
        print("%s: %s-bit: 10 soft, 4 hard faults, the hard faults by file, 4 hostile records "
              "skipped, 18 fault instants and 4 counter values in Perfetto and Chrome JSON"
              % (NAME, bits))

def hard_faults_by_file(path, label):
    """A real trace's hard faults by file: every HardFault in a row, and
    those whose FileObject a FileIo name event names (Name, FileCreate,
    FileRundown: at the trace's end on Windows) in named rows, exactly."""
    names, faults = set(), []
    for line in run([petw, "dump", path, "--format", "json"]).stdout.splitlines():
        if '"provider":"FileIo"' in line or '"event":"HardFault"' in line:
            e = json.loads(line)
            obj = e.get("fields", {}).get("FileObject")
            if e["provider"] == "FileIo" and e["event"] in ("Name", "FileCreate", "FileRundown"):
                names.add(obj)
            elif e["provider"] == "PageFault":
                faults.append(obj)
    if not faults:
        return
    rows = json.loads(run([petw, "report", "memory", "--by", "file", path, "--format",
                           "json"]).stdout)["rows"]
    total = sum(r["Hard faults"] for r in rows)
    named = sum(r["Hard faults"] for r in rows if r["File"] != "(no file named)")
    want = sum(1 for o in faults if o in names)
    if total != len(faults) or named != want:
        fail("%s: %d hard faults in rows (%d named), want %d (%d named)"
             % (label, total, named, len(faults), want))
    print("%s: %s: %d hard faults by file, %d named by the trace's FileIo names"
          % (NAME, label, total, named))


public = os.environ.get("PETW_PUBLIC_TRACES", "")
for root, _, files in sorted(os.walk(public)) if public and os.path.isdir(public) else []:
    for f in sorted(files):
        if f.endswith(".etl"):
            hard_faults_by_file(os.path.join(root, f), f)

samples = os.environ.get("PETW_ETL_SAMPLES", "")
if not samples or not os.path.isdir(samples):
    print("%s: skipped the shared samples: no folder" % NAME)
    sys.exit(0)
for f in sorted(os.listdir(samples)):
    if f.endswith(".etl"):
        path = os.path.join(samples, f)
        r = run([petw, "report", "memory", path, "--format", "json"])
        rows = json.loads(r.stdout)["rows"]
        n = sum(1 for l in run([petw, "dump", path, "--format", "json"]).stdout.splitlines()
                if '"provider":"PageFault"' in l)
        if n == 0 and rows:
            fail("%s: no PageFault records, yet rows %s" % (f, rows))
        print("%s: %s: %d PageFault records, %d rows" % (NAME, f, n, len(rows)))
