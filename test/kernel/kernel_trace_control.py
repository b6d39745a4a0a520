#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""kernel_trace_control.py PETW GEN_PROFILE_TRACE: the events xperf and WPR
add beside Image events (KernelTraceControl's ImageID, DbgID_RSDS,
FileVersion, and None, DbgID_NB10, DbgPPDB and Windows 8's version 0
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
    for bits, base, ntdll in ((None, "0x140000000", "0x7ffb10000000"),
                              ("32", "0x400000", "0x77000000")):
        etl = os.path.join(tmp, "p.etl")
        subprocess.run([gen, etl] + ([bits] if bits else []), check=True)
        out = subprocess.run([petw, "dump", "--format", "json", etl], capture_output=True,
                             text=True, check=True).stdout
        events = {}
        for line in out.splitlines():
            e = json.loads(line)
            if e.get("provider") == "KernelTraceControl":
                name = e.get("event")
                events[name if e.get("version") == 2 else "%s v%s" % (name, e.get("version"))] = \
                    e.get("fields", e)
        want = {
            "ImageID": {"ImageBase": base, "ImageSize": "0x20000", "ProcessId": 1234,
                        "TimeDateStamp": 0x5f000000, "OriginalFileName": "app.exe"},
            "DbgID_RSDS": {"ImageBase": base, "ProcessId": 1234,
                           "GuidSig": "01020304-0506-0708-090a-0b0c0d0e0f10", "Age": 3,
                           "PdbFileName": "app.pdb"},
            "FileVersion": {"ImageSize": 0x20000, "OrigFileName": "app.exe",
                            "FileVersion": "1.2.3.4", "CompanyName": "Contoso",
                            "ProductVersion": "1.2"},
            "None": {"ImageBase": ntdll, "ProcessId": 1234},
            "DbgID_NB10": {"ImageBase": ntdll, "ProcessId": 1234, "ImageCheckSum": 0x1f2a3b,
                           "TimeDateStamp": 0x5010ae7a, "ImageSize": 0x1f0000,
                           "DbgFileName": "ntdll.dbg"},
            "DbgPPDB": {"ImageBase": ntdll, "TimeDateStamp": 0x5010ae7a, "MajorVersion": "0x100",
                        "MinorVersion": "0x504d"},
            "FileVersion v0": {"OrigFileName": "ntdll.dll", "BinFileVersion": "6.2.9200.16384",
                               "CompanyName": "Microsoft Corporation"},
        }
        for name, fields in want.items():
            got = events.get(name)
            if got is None:
                fail("%s-bit: no KernelTraceControl/%s in:\n%s" % (bits or "64", name, out[:2000]))
            for k, v in fields.items():
                if got.get(k) != v:
                    fail("%s-bit %s: %s is %r, not %r" % (bits or "64", name, k, got.get(k), v))
print("kernel_trace_control: ImageID, DbgID_RSDS, FileVersion (v0, v2), None, DbgID_NB10 and "
      "DbgPPDB decoded (64- and 32-bit)")
