#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""analysis_views.py PETW GEN_PROFILE_TRACE: on a trace laid out as Windows'
kernel logger writes a CPU profile (gen_profile_trace.c says what it holds),
`petw report cpu` gives each function's self and inclusive samples with
frames as module!+0xRVA (Windows images without symbols), by module and by
process too, and a function's callers and callees; `petw report wait`
gives thread 77's running, ready and waiting time and who readied it;
`petw report processes` lists app.exe; `petw report disk` the I/O of its
threads (by the issuing thread); `petw report events` each kind of event
with its count, and the Start/Stop pairs of a task with their durations;
`petw report diff` each function's share in two traces and how far it
moved; CSV and JSON carry the same rows;
`petw convert --to folded` writes the collapsed stacks. The same for the
trace of a 32-bit system (32-bit headers, 4-byte pointers). With a real
Windows trace (PETW_ETL_SAMPLES' powershell.etl, when there) and --manifest,
the events view names a manifest provider's events."""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from petw_cli import Cli  # noqa: E402
import tempfile

petw, gen = sys.argv[1], sys.argv[2]
cli = Cli("analysis_views", petw)
fail, run, rows = cli.fail, cli.run, cli.rows





def check(tmp, bits):
    etl = os.path.join(tmp, "p%s.etl" % bits)
    subprocess.run([gen, etl] + ([bits] if bits else []), check=True)

    got = {(r["Function"], r["Module"]): (r["Self%"], r["Self"], r["Incl%"], r["Incl"])
           for r in rows("report", "cpu", etl, "--addresses")}
    want = {
        ("app.exe!+0x1010", "app.exe"): ("57.14", "40", "57.14", "40"),
        ("ntdll.dll!+0x9000", "ntdll.dll"): ("28.57", "20", "28.57", "20"),
        ("ntoskrnl.exe!+0x3000", "ntoskrnl.exe"): ("14.29", "10", "14.29", "10"),
        ("ntdll.dll!+0x5000", "ntdll.dll"): ("0.00", "0", "100.00", "70"),
        ("app.exe!+0x2000", "app.exe"): ("0.00", "0", "71.43", "50"),
        ("app.exe!+0x2100", "app.exe"): ("0.00", "0", "28.57", "20"),
        ("app.exe!+0x1500", "app.exe"): ("0.00", "0", "14.29", "10"),
    }
    if got != want:
        fail("cpu by function:\n%s\nwanted\n%s" % (got, want))

    mods = {r["Module"]: (r["Self"], r["Incl"]) for r in rows("report", "cpu", etl, "--by",
                                                               "module")}
    if mods != {"app.exe": ("40", "70"), "ntdll.dll": ("20", "70"), "ntoskrnl.exe": ("10", "10")}:
        fail("cpu by module: %s" % mods)
    procs = rows("report", "cpu", etl, "--by", "process")
    if [(r["PID"], r["Process"], r["Samples"]) for r in procs] != [("1234", "app.exe", "70")]:
        fail("cpu by process: %s" % procs)
    threads = {r["TID"]: r["Samples"] for r in rows("report", "cpu", etl, "--by", "thread")}
    if threads != {"77": "50", "78": "20"}:
        fail("cpu by thread: %s" % threads)
    if [r["Function"] for r in rows("report", "cpu", etl, "--tid", "78", "--addresses")][0] != \
            "ntdll.dll!+0x9000":
        fail("--tid 78 does not keep thread 78's samples alone")
    if rows("report", "cpu", etl, "--pid", "999"):
        fail("--pid 999 keeps samples")

    rel = {(r["Relation"], r["Function"]): r["Samples"]
           for r in rows("report", "cpu", etl, "--callers", "app.exe!+0x2000", "--addresses")}
    if rel != {("caller", "ntdll.dll!+0x5000"): "50", ("callee", "app.exe!+0x1010"): "40",
               ("callee", "app.exe!+0x1500"): "10"}:
        fail("callers: %s" % rel)

    doc = json.loads(run("report", "cpu", etl, "--format", "json", "--top", "1", "--addresses"))
    if doc["rows"] != [{"Self%": 57.14, "Self": 40, "Incl%": 57.14, "Incl": 40,
                        "Function": "app.exe!+0x1010", "Module": "app.exe", "Source": ""}]:
        fail("json: %s" % doc)
    text = run("report", "cpu", etl, "--top", "2", "--addresses")
    if "app.exe!+0x1010" not in text or "ntoskrnl" in text:
        fail("text, --top 2:\n" + text)

    wait = rows("report", "wait", etl)
    t77 = [r for r in wait if r["TID"] == "77"]
    if not t77 or (t77[0]["Running ms"], t77[0]["Ready ms"], t77[0]["Waiting ms"],
                   t77[0]["Switches"], t77[0]["Readied"], t77[0]["Top readier"],
                   t77[0]["Wait reason"]) != ("0.400", "0.100", "0.100", "2", "1", "78",
                                              "UserRequest"):
        fail("wait: %s" % wait)

    procs = rows("report", "processes", etl)
    if not any(r["PID"] == "1234" and r["Name"] == "app.exe" and r["Samples"] == "70"
               for r in procs):
        fail("processes: %s" % procs)

    disk = rows("report", "disk", etl)
    if [(r["PID"], r["Process"], r["Reads"], r["Read bytes"], r["Writes"], r["Write bytes"],
         r["Mean ms"], r["Max ms"]) for r in disk] != [
            ("1234", "app.exe", "3", "12288", "1", "8192", "0.163", "0.300")]:
        fail("disk: %s" % disk)

    kinds = {(r["Provider"], r["Event"], r["Opcode"]): r for r in rows("report", "events", etl)}
    for key, count in ((("PerfInfo", "SampleProf", "46"), "70"),
                       (("StackWalk", "Stack", "32"), "70"), (("Thread", "CSwitch", "36"), "4"),
                       (("DiskIo", "Read", "10"), "3"), (("DiskIo", "Write", "11"), "1"),
                       (("KernelTraceControl", "DbgID_RSDS", "36"), "1")):
        if key not in kinds or kinds[key]["Count"] != count:
            fail("events: %s: %s" % (key, kinds.get(key)))
    stop = kinds.get(("6e0c3b5a-0201-0403-0506-0708090a0b0c", "", "2"))
    if not stop or (stop["Pairs"], stop["Mean ms"], stop["Max ms"]) != ("2", "0.075", "0.100"):
        fail("events: Start/Stop pairs: %s" % stop)

    moved = os.path.join(tmp, "moved%s.etl" % bits)
    subprocess.run([gen, moved, "shift"] + ([bits] if bits else []), check=True)
    diff = rows("report", "diff", etl, moved, "--addresses")
    top = [(r["Function"], r["Self delta"], r["Base self%"], r["New self%"]) for r in diff[:2]]
    if sorted(top) != [("app.exe!+0x1010", "-28.57", "57.14", "28.57"),
                       ("ntdll.dll!+0x9000", "28.57", "28.57", "57.14")]:
        fail("diff: %s" % diff)
    if any(r["Self delta"] not in ("0.00", "-0.00") for r in diff[2:] if r["Incl delta"] in
           ("0.00", "-0.00")):
        fail("diff: unmoved functions moved: %s" % diff)

    out = os.path.join(tmp, "p%s.folded" % bits)
    run("convert", etl, "--to", "folded", "-o", out)
    folded = open(out).read()
    if folded != ("app.exe;ntdll.dll!+0x5000;app.exe!+0x2000;app.exe!+0x1010 40\n"
                  "app.exe;ntdll.dll!+0x5000;app.exe!+0x2000;app.exe!+0x1500;"
                  "ntoskrnl.exe!+0x3000 10\n"
                  "app.exe;ntdll.dll!+0x5000;app.exe!+0x2100;ntdll.dll!+0x9000 20\n"):
        fail("folded:\n" + folded)


with tempfile.TemporaryDirectory() as tmp:
    check(tmp, None)
    check(tmp, "32")
    sample = os.path.join(os.environ.get("PETW_ETL_SAMPLES", ""), "powershell.etl")
    manifest = os.path.join(os.environ.get("PETW_TEST_DATA", ""), "powershell.man")
    if os.path.isfile(sample) and os.path.isfile(manifest):
        kinds = {(r["Provider"], r["Event"]): r["Count"]
                 for r in rows("report", "events", sample, "--manifest", manifest)}
        if kinds.get(("Microsoft-Windows-PowerShell", "PS_COMMAND_LIFECYCLE")) != "101":
            fail("events of powershell.etl with its manifest: %s" % kinds)
        print("powershell.etl: the manifest names its events")
print("analysis_views: cpu, wait, processes and folded as expected (64- and 32-bit)")
