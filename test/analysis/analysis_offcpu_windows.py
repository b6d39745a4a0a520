#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""analysis_offcpu_windows.py PETW GEN_PROFILE_TRACE: off-CPU time as Windows
records it (CSwitch and ReadyThread each followed by a StackWalk event:
the stack the thread switched in had blocked with, the readying thread's
stack), in 64- and 32-bit traces of known content (gen_profile_trace's
`offcpu`): thread 77 blocks at 4000, is readied by 78 at 5000 and runs at
6000 (100 ns ticks). `petw report offcpu` gives one wait of 77, blocked in
ntdll+0x7000 (its innermost frame outside the kernel), readied by 78 in
app+0x2200, 100 us blocked and 100 us ready; the filters keep or drop it;
--callers names the blocked stack's caller; the folded export with --value
offcpu weighs the blocked stack 100 us and the CPU view is what it was
without the stacks (70 samples, no off-CPU frame)."""
import csv
import io
import os
import subprocess
import sys
import tempfile

petw, gen = sys.argv[1], sys.argv[2]


def fail(why):
    print("analysis_offcpu_windows: " + why)
    sys.exit(1)


def run(args):
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        fail("%s failed: %s" % (" ".join(args[:3]), r.stderr))
    return r.stdout


with tempfile.TemporaryDirectory() as tmp:
    for bits in ([], ["32"]):
        etl = os.path.join(tmp, "offcpu%s.etl" % "".join(bits))
        run([gen, etl] + bits + ["offcpu"])
        rows = list(csv.DictReader(io.StringIO(
            run([petw, "report", "offcpu", etl, "--format", "csv", "--no-symbols"]))))
        want = {"PID": "1234", "TID": "77", "Process": "app.exe", "Blocked in": "ntdll.dll!+0x7000",
                "Readied by": "78", "Readying process": "app.exe",
                "Readying in": "app.exe!+0x2200", "Waits": "1", "Waiting us": "100.0",
                "Ready us": "100.0", "Max wait us": "100.0"}
        if rows != [want]:
            fail("%s-bit: offcpu rows %s, expected [%s]" % ("32" if bits else "64", rows, want))
        for flt, keep in ((["--tid", "77"], 1), (["--tid", "78"], 0), (["--pid", "1234"], 1),
                          (["--pid", "4"], 0), (["--process", "app.exe"], 1)):
            r = subprocess.run([petw, "report", "offcpu", etl, "--format", "csv"] + flt,
                               capture_output=True, text=True)
            n = len(list(csv.DictReader(io.StringIO(r.stdout))))
            if r.returncode != 0 or n != keep:
                fail("offcpu %s: %d rows, expected %d" % (" ".join(flt), n, keep))
        out = run([petw, "report", "offcpu", etl, "--format", "csv", "--no-symbols",
                   "--callers", "ntdll.dll!+0x7000"])
        rel = {(r["Relation"], r["Function"]): r["Waiting us"]
               for r in csv.DictReader(io.StringIO(out))}
        if rel != {("caller", "app.exe!+0x1800"): "100.0",
                   ("callee", "ntoskrnl.exe!+0x3100"): "100.0"}:
            fail("--callers: %s" % rel)
        folded = os.path.join(tmp, "off.folded")
        run([petw, "convert", etl, "--to", "folded", "--value", "offcpu", "--no-symbols",
             "-o", folded, "--force"])
        lines = open(folded).read().splitlines()
        if lines != ["app.exe;ntdll.dll!+0x5000;app.exe!+0x1800;ntdll.dll!+0x7000;"
                     "ntoskrnl.exe!+0x3100 100"]:
            fail("folded --value offcpu: %s" % lines)
        cpu = run([petw, "report", "cpu", etl, "--format", "csv", "--top", "0", "--no-symbols"])
        plain = os.path.join(tmp, "plain.etl")
        run([gen, plain] + bits)
        if cpu != run([petw, "report", "cpu", plain, "--format", "csv", "--top", "0",
                       "--no-symbols"]):
            fail("the CSwitch and ReadyThread stacks changed the cpu view:\n" + cpu)
print("analysis_offcpu_windows: ok")
