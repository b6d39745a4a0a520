#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
""".NET code in Windows traces is named from the .NET runtime's own events
(analysis_clr.py PETW GEN_PROFILE_TRACE): a method loaded while the trace
ran (MethodLoadVerbose) and one that only the rundown at the end names
(MethodDCEndVerbose), each in the module its ModuleLoad or ModuleDCEnd
event names (the IL file's name without its extension, as PerfView shows
it), in 64- and 32-bit traces (gen_profile_trace.c `clr`); `petw dump`
decodes those events by field without the runtime's manifest."""
import csv
import io
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from petw_cli import Cli  # noqa: E402
import tempfile

petw, gen = sys.argv[1], sys.argv[2]
cli = Cli("analysis_clr", petw)
fail, run, rows = cli.fail, cli.run, cli.rows




with tempfile.TemporaryDirectory() as tmp:
    for bits in ("", "32"):
        etl = os.path.join(tmp, "clr%s.etl" % bits)
        subprocess.run([gen, etl, "clr"] + ([bits] if bits else []), check=True)
        got = {(r["Function"], r["Module"]): (r["Self"], r["Incl"]) for r in csv.DictReader(
            io.StringIO(run("report", "cpu", etl, "--addresses", "--format", "csv")))}
        want = {("Contoso.Orders.Place", "Contoso.Orders"): ("6", "10"),
                ("Total", "Lib"): ("4", "4"),
                ("app.exe!+0x2000", "app.exe"): ("0", "10"),
                ("ntdll.dll!+0x5000", "ntdll.dll"): ("0", "10")}
        if got != want:
            fail("%s-bit cpu view:\n%s\nwanted\n%s" % (bits or "64", got, want))
        dump = run("dump", etl)
        for text in ('Microsoft-Windows-DotNETRuntime/MethodLoadVerbose',
                     'MethodNamespace="Contoso.Orders" MethodName="Place"',
                     'Microsoft-Windows-DotNETRuntimeRundown/ModuleDCEnd',
                     'ModuleILPath="C:\\\\app\\\\Lib.exe"'):
            if text not in dump:
                fail("%s-bit dump lacks %s" % (bits or "64", text))
print("analysis_clr: .NET methods named, 64- and 32-bit: OK")
