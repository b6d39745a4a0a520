#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""analysis_idle.py PETW GEN_PROFILE_TRACE: PID 0 is "Idle" in the views, as
WPA and TraceEvent name it, when the trace does not name it (Windows'
rundown gives it no name): on gen_profile_trace's trace with its `idle`
samples, `petw report processes` lists PID 0 as Idle with its 5 samples,
`petw report cpu --by process` has an Idle row, and `--process Idle`
selects its samples."""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from petw_cli import Cli  # noqa: E402

petw, gen = sys.argv[1], sys.argv[2]
cli = Cli("analysis_idle", petw)
fail, rows = cli.fail, cli.rows

with tempfile.TemporaryDirectory() as tmp:
    etl = os.path.join(tmp, "idle.etl")
    subprocess.run([gen, etl, "idle"], check=True)
    procs = {r["PID"]: r for r in rows("report", "processes", etl)}
    if "0" not in procs or (procs["0"]["Name"], procs["0"]["Samples"]) != ("Idle", "5"):
        fail("processes: %s" % procs)
    if procs.get("1234", {}).get("Name") != "app.exe":
        fail("processes: %s" % procs)
    by = {r["PID"]: r["Process"] for r in rows("report", "cpu", "--by", "process", etl)}
    if by != {"0": "Idle", "1234": "app.exe"}:
        fail("cpu by process: %s" % by)
    idle = rows("report", "cpu", "--addresses", "--process", "Idle", etl)
    if [(r["Function"], r["Self"]) for r in idle] != [("ntoskrnl.exe!+0x3000", "5")]:
        fail("cpu --process Idle: %s" % idle)
print("analysis_idle: PID 0 is Idle in processes and cpu")
