#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""analysis_walks.py PETW GEN_PROFILE_TRACE: a frame-pointer walk through code
built without frame pointers reads garbage as return addresses (the
string "/maps" as 0x7370616d2f). On gen_profile_trace.c's trace with Linux
images (`elf`) and such a frame (`garbage`), the model ends those stacks at
the address in no mapping, as perf does: no view or export shows the
garbage or the frames past it, and report cpu and convert say how many
samples had their stack cut. On the Windows layout (stacks Windows walks
with unwind data, where a frame in no image is JIT code) the stack stays
whole."""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from petw_cli import Cli  # noqa: E402

petw, gen = sys.argv[1], sys.argv[2]
cli = Cli("analysis_walks", petw)
fail, run, rows = cli.fail, cli.run, cli.rows


def folded(etl, tmp):
    out = os.path.join(tmp, "out.folded")
    r = subprocess.run([petw, "convert", etl, "--to", "folded", "--force", "-o", out],
                       capture_output=True, text=True)
    if r.returncode != 0:
        fail("convert: " + r.stderr)
    return open(out).read(), r.stderr


with tempfile.TemporaryDirectory() as tmp:
    etl = os.path.join(tmp, "elf.etl")
    subprocess.run([gen, etl, "elf", "garbage"], check=True)
    text, note = folded(etl, tmp)
    if text != ("app.exe;app.exe+0x1500;ntoskrnl.exe+0x3000 10\n"
                "app.exe;ntdll.dll+0x5000;app.exe+0x2000;app.exe+0x1010 40\n"
                "app.exe;ntdll.dll+0x5000;app.exe+0x2100;ntdll.dll+0x9000 20\n"):
        fail("a walk through garbage is not cut at it:\n" + text)
    if "10 with a truncated stack" not in note:
        fail("convert does not count the truncated stacks: " + note)
    doc = json.loads(run("report", "cpu", etl, "--format", "json", "--addresses"))
    if doc["title"] != "cpu by function: 70 samples, 10 with a truncated stack":
        fail("report cpu's title: %s" % doc["title"])
    incl = {r["Function"]: r["Incl"] for r in doc["rows"]}
    if any("unknown" in f for f in incl) or incl.get("ntdll.dll+0x5000") != 60 or \
            incl.get("app.exe+0x2000") != 40:
        fail("report cpu counts frames past the garbage: %s" % incl)
    callers = json.loads(run("report", "cpu", etl, "--format", "json", "--callers",
                             "app.exe+0x1500", "--addresses"))
    if not callers["title"].endswith(", 10 with a truncated stack") or \
            [(r["Relation"], r["Function"]) for r in callers["rows"]][0] != ("caller", "[root]"):
        fail("callers: %s" % callers)

    win = os.path.join(tmp, "win.etl")
    subprocess.run([gen, win, "garbage"], check=True)
    text, note = folded(win, tmp)
    if "app.exe;ntdll.dll!+0x5000;app.exe!+0x2000;[unknown]+0x7370616d2f;app.exe!+0x1500;" \
            "ntoskrnl.exe!+0x3000 10\n" not in text or "truncated" in note:
        fail("a Windows stack was cut:\n" + text + note)
    if "truncated" in json.loads(run("report", "cpu", win, "--format", "json"))["title"]:
        fail("a Windows stack counted as truncated")
    plain = os.path.join(tmp, "plain.etl")
    subprocess.run([gen, plain, "elf"], check=True)
    text, note = folded(plain, tmp)
    if "app.exe;ntdll.dll+0x5000;app.exe+0x2000;app.exe+0x1500;ntoskrnl.exe+0x3000 10\n" \
            not in text or "truncated" in note:
        fail("a whole Linux stack was cut:\n" + text + note)
print("analysis_walks: a frame-pointer walk ends at an address in no mapping, counted as "
      "truncated; Windows stacks and whole walks are kept")
