#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""analysis_stackkeys.py PETW GEN_PROFILE_TRACE: samples whose stacks are
cached (StackKeyKernel and StackKeyUser naming keys whose frames come later,
in KeyDelete or KeyRundown, as WPR and PerfView record on Windows 8 and
later) get their whole stacks: the kernel part then the user part, a key
defined again after KeyDelete names its new stack for the samples after,
and a key never defined leaves the sampled address alone. Processes known
only from a Process/DCEnd or Process/Defunct record are named. Both in the
64-bit layout and in a 32-bit system's (gen_profile_trace.c `keys`)."""
import csv
import io
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from petw_cli import Cli  # noqa: E402
import tempfile

petw, gen = sys.argv[1], sys.argv[2]
cli = Cli("analysis_stackkeys", petw)
fail, run, rows = cli.fail, cli.run, cli.rows




with tempfile.TemporaryDirectory() as tmp:
    for bits in ("", "32"):
        etl = os.path.join(tmp, "keys%s.etl" % bits)
        subprocess.run([gen, etl, "keys"] + ([bits] if bits else []), check=True)
        folded = os.path.join(tmp, "out.folded")
        run("convert", etl, "--to", "folded", "--force", "-o", folded)
        got = {}
        for line in open(folded):
            stack, count = line.rsplit(" ", 1)
            got[stack] = int(count)
        want = {
            "app.exe;ntdll.dll!+0x5000;app.exe!+0x2000;app.exe!+0x1500;"
            "ntoskrnl.exe!+0x3100;ntoskrnl.exe!+0x3000": 10,
            "app.exe;ntdll.dll!+0x5000;app.exe!+0x2100;ntdll.dll!+0x9000": 5,
            "app.exe;ntdll.dll!+0x5000;app.exe!+0x1010": 7,
            "app.exe;app.exe!+0x1234": 3,
        }
        if got != want:
            fail("%s-bit stacks:\n%s\nwanted\n%s" % (bits or "64", got, want))
        procs = {r["PID"]: r for r in csv.DictReader(io.StringIO(
            run("report", "processes", etl, "--format", "csv")))}
        for pid, name in (("555", "late.exe"), ("556", "gone.exe")):
            if pid not in procs or procs[pid]["Name"] != name or procs[pid]["Parent"] != "4":
                fail("process %s: %s, wanted %s, parent 4" % (pid, procs.get(pid), name))
print("analysis_stackkeys: cached stacks and rundown-only processes: OK")
