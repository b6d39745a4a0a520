#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""analysis_public.py PETW: the views on public Windows traces recorded by
PerfView (scripts/fetch-public-traces.sh; the folder in PETW_PUBLIC_TRACES,
exit 77 without it): on Windows 8, of a .NET program in a 64-bit and in a
WOW64 process, with cached stacks. The samples get their whole stacks
(from ntdll's thread start to the JIT-compiled code), the JIT-compiled
code its .NET names and modules, and processes known only from rundowns
their names. The counts are what petw reads from these files (no PerfView
was at hand to compare with): a regression check, and what the note
reported when cached stacks and .NET names were added."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from petw_cli import Cli  # noqa: E402
import tempfile

petw = sys.argv[1]
cli = Cli("analysis_public", petw)
fail, run, rows = cli.fail, cli.run, cli.rows
folder = os.environ.get("PETW_PUBLIC_TRACES", "")
if not folder or not os.path.isdir(folder):
    print("analysis_public: PETW_PUBLIC_TRACES names no folder, skipped")
    sys.exit(77)





# trace, program's pid and name, its samples, the samples with a whole stack
# (at least this many of every process's), its hottest function's self samples.
CASES = [("net.4.5.2.x64/net.4.5.2.x64.etl", "3676", "Test.x64.exe", 5129, 6000, 1856),
         ("net.4.5.2.x86/net.4.5.2.x86.etl", "3644", "Test.x86.exe", 4900, 6500, 1140)]
with tempfile.TemporaryDirectory() as tmp:
    for rel, pid, name, samples, deep_least, hot_self in CASES:
        etl = os.path.join(folder, rel)
        if not os.path.exists(etl):
            fail("%s is missing (scripts/fetch-public-traces.sh fetches it)" % rel)
        procs = {r["PID"]: r for r in rows("report", "processes", etl, "--top", "0")}
        if procs.get(pid, {}).get("Name") != name or procs[pid]["Samples"] != str(samples):
            fail("%s: process %s: %s, wanted %s with %d samples" %
                 (rel, pid, procs.get(pid), name, samples))
        if procs.get("616", {}).get("Name") != "smss.exe" or procs["616"]["Parent"] != "456":
            fail("%s: process 616 (known from Process/Defunct alone): %s" % (rel, procs.get("616")))
        folded = os.path.join(tmp, "out.folded")
        run("convert", etl, "--to", "folded", "--force", "-o", folded)
        deep = 0
        for line in open(folded):
            stack, count = line.rsplit(" ", 1)
            if stack.count(";") >= 3:
                deep += int(count)
        if deep < deep_least:
            fail("%s: %d samples with a whole stack, wanted at least %d" % (rel, deep, deep_least))
        top = rows("report", "cpu", etl, "--pid", pid, "--top", "1", "--addresses")[0]
        if (top["Function"], top["Module"], top["Self"]) != (
                "System.DateTime.GetDatePart", "mscorlib", str(hot_self)):
            fail("%s: hottest function %s" % (rel, top))
print("analysis_public: whole stacks, .NET names and rundown processes: OK")
