#!/usr/bin/env python3
"""kernel_trace_control.py PETW GEN_PROFILE_TRACE: the events xperf and WPR
add beside Image events (KernelTraceControl's ImageID, DbgID_RSDS and
FileVersion) are decoded built in, with their fields named, in 64-bit and
32-bit traces (pointer-sized fields by the event's pointer size)."""
import json
import os
import subprocess
import sys
import tempfile

petw, gen = sys.argv[1], sys.argv[2]


def fail(why):
    print("kernel_trace_control: " + why)
    sys.exit(1)


with tempfile.TemporaryDirectory() as tmp:
    for bits, base in ((None, "0x140000000"), ("32", "0x400000")):
        etl = os.path.join(tmp, "p.etl")
        subprocess.run([gen, etl] + ([bits] if bits else []), check=True)
        out = subprocess.run([petw, "dump", "--format", "json", etl], capture_output=True,
                             text=True, check=True).stdout
        events = {}
        for line in out.splitlines():
            e = json.loads(line)
            if e.get("provider") == "KernelTraceControl":
                events[e.get("event")] = e.get("fields", e)
        want = {
            "ImageID": {"ImageBase": base, "ImageSize": "0x20000", "ProcessId": 1234,
                        "TimeDateStamp": 0x5f000000, "OriginalFileName": "app.exe"},
            "DbgID_RSDS": {"ImageBase": base, "ProcessId": 1234,
                           "GuidSig": "01020304-0506-0708-090a-0b0c0d0e0f10", "Age": 3,
                           "PdbFileName": "app.pdb"},
            "FileVersion": {"ImageSize": 0x20000, "OrigFileName": "app.exe",
                            "FileVersion": "1.2.3.4", "CompanyName": "Contoso",
                            "ProductVersion": "1.2"},
        }
        for name, fields in want.items():
            got = events.get(name)
            if got is None:
                fail("%s-bit: no KernelTraceControl/%s in:\n%s" % (bits or "64", name, out[:2000]))
            for k, v in fields.items():
                if got.get(k) != v:
                    fail("%s-bit %s: %s is %r, not %r" % (bits or "64", name, k, got.get(k), v))
print("kernel_trace_control: ImageID, DbgID_RSDS and FileVersion decoded (64- and 32-bit)")
