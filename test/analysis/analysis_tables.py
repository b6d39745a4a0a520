#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""analysis_tables.py PETW GEN_PROFILE_TRACE: the tables of `petw report`
as a person and a program read them, on the known traces of
gen_profile_trace.c. JSON names the view ("cpu") with its title beside it,
and CSV and JSON give percentages and signed deltas as numbers; code without
symbols is one row per module ("app.exe (no symbols)") unless --addresses;
text says how many rows --top left out (JSON as "more"); times are seconds
from the trace's start (--absolute: UTC stamps) in the processes and events
views, and the processes view cuts long command lines in text alone."""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from petw_cli import Cli  # noqa: E402

petw, gen = sys.argv[1], sys.argv[2]
cli = Cli("analysis_tables", petw)
fail, run, rows = cli.fail, cli.run, cli.rows


def views_json(etl):
    """Every view's JSON names the view, the title beside it."""
    for view, args, title in (("cpu", [], "cpu by function: 70 samples"),
                              ("wait", [], None), ("processes", [], "processes"),
                              ("disk", [], None), ("events", [], None),
                              ("diff", [etl], None)):
        doc = json.loads(run("report", view, etl, *args, "--format", "json"))
        if doc.get("view") != view or not doc.get("title") or \
                (title and doc["title"] != title):
            fail("%s: JSON view %r, title %r" % (view, doc.get("view"), doc.get("title")))
    doc = json.loads(run("report", "cpu", etl, "--format", "json", "--addresses"))
    first = doc["rows"][0]
    if (first["Self%"], first["Incl%"], first["Function"]) != (57.14, 57.14, "app.exe!+0x1010"):
        fail("cpu JSON: %s" % first)
    table = rows("report", "cpu", etl, "--addresses")
    if (table[0]["Self%"], table[0]["Incl%"]) != ("57.14", "57.14"):
        fail("CSV percentages are not numbers: %s" % table[0])
    moved = etl + ".moved.etl"
    subprocess.run([gen, moved, "shift"], check=True)
    doc = json.loads(run("report", "diff", etl, moved, "--format", "json", "--addresses"))
    deltas = sorted((r["Function"], r["Self delta"], r["Base self%"]) for r in doc["rows"][:2])
    if deltas != [("app.exe!+0x1010", -28.57, 57.14), ("ntdll.dll!+0x9000", 28.57, 28.57)]:
        fail("diff JSON: %s" % doc["rows"][:2])
    diff = rows("report", "diff", etl, moved, "--addresses")
    if not all(float(r["Self delta"]) == float(r["Self delta"]) for r in diff) or \
            any(r["Base self%"].endswith("%") for r in diff):
        fail("diff CSV: %s" % diff)


def no_symbols(etl):
    """No symbols: a row per module, runs of its frames one frame."""
    got = {r["Function"]: (r["Self"], r["Incl"], r["Module"]) for r in rows("report", "cpu", etl)}
    want = {"app.exe (no symbols)": ("40", "70", "app.exe"),
            "ntdll.dll (no symbols)": ("20", "70", "ntdll.dll"),
            "ntoskrnl.exe (no symbols)": ("10", "10", "ntoskrnl.exe")}
    if got != want:
        fail("cpu without symbols:\n%s\nwanted\n%s" % (got, want))
    addr = {r["Function"] for r in rows("report", "cpu", etl, "--addresses")}
    if len(addr) != 7 or "app.exe!+0x1500" not in addr:
        fail("--addresses: %s" % addr)
    rel = {(r["Relation"], r["Function"]): r["Samples"]
           for r in rows("report", "cpu", etl, "--callers", "app.exe (no symbols)")}
    if rel != {("caller", "ntdll.dll (no symbols)"): "70", ("callee", "[self]"): "40",
               ("callee", "ntdll.dll (no symbols)"): "20",
               ("callee", "ntoskrnl.exe (no symbols)"): "10"}:
        fail("callers of a module without symbols: %s" % rel)
    diff = {r["Function"] for r in rows("report", "diff", etl, etl)}
    if diff != set(want):
        fail("diff without symbols: %s" % diff)


def top(etl):
    """--top says what it left out."""
    text = run("report", "cpu", etl, "--top", "2")
    if "... 1 more row (--top 2; --top 0 for all)" not in text:
        fail("text, --top 2:\n" + text)
    text = run("report", "cpu", etl, "--addresses", "--top", "3")
    if "... 4 more rows (--top 3" not in text:
        fail("text, --addresses --top 3:\n" + text)
    if "more row" in run("report", "cpu", etl, "--top", "3"):
        fail("a note when nothing was left out")
    doc = json.loads(run("report", "cpu", etl, "--format", "json", "--top", "1"))
    if doc.get("more") != 2 or len(doc["rows"]) != 1:
        fail("JSON, --top 1: %s" % doc)
    if "more" in json.loads(run("report", "cpu", etl, "--format", "json")):
        fail("JSON: more without --top")


def processes(tmp):
    """Times from the trace's start; long command lines cut in text alone."""
    etl = os.path.join(tmp, "child.etl")
    subprocess.run([gen, etl, "child"], check=True)
    table = {r["PID"]: r for r in rows("report", "processes", etl)}
    child = table.get("4321")
    if not child or len(child["Command line"]) != 300:
        fail("CSV: the command line in full: %s" % child)
    start, end = float(child["Start s"]), float(child["End s"])
    if not (0 <= start < 0.001 and abs(end - start - 0.00055) < 1e-9):
        fail("relative times: %s" % child)
    if table["1234"]["Start s"] != "" or table["1234"]["End s"] != "":
        fail("a process running through the trace has times: %s" % table["1234"])
    text = run("report", "processes", etl)
    line = [l for l in text.splitlines() if l.startswith("4321")]
    if not line or len(line[0]) > 160 or not line[0].endswith("...") or "0.000" not in line[0]:
        fail("text:\n" + text)
    absolute = {r["PID"]: r for r in rows("report", "processes", etl, "--absolute")}
    if not absolute["4321"]["Start"].startswith("2022-") or \
            not absolute["4321"]["End"].endswith("Z"):
        fail("--absolute: %s" % absolute["4321"])
    doc = json.loads(run("report", "processes", etl, "--format", "json"))
    row = [r for r in doc["rows"] if r["PID"] == 4321][0]
    if len(row["Command line"]) != 300 or not isinstance(row["End s"], float):
        fail("JSON: %s" % row)
    events = rows("report", "events", etl)
    if not events or not all(0 <= float(r["First s"]) <= float(r["Last s"]) < 0.001
                             for r in events):
        fail("events: first and last from the trace's start: %s" % events[:3])
    if not rows("report", "events", etl, "--absolute")[0]["First"].startswith("2022-"):
        fail("events --absolute: %s" % rows("report", "events", etl, "--absolute")[0])
    app = [r for r in doc["rows"] if r["PID"] == 1234][0]
    if app["Start s"] is not None or app["End s"] is not None:
        fail("JSON: no start is null: %s" % app)


with tempfile.TemporaryDirectory() as tmp:
    etl = os.path.join(tmp, "p.etl")
    subprocess.run([gen, etl], check=True)
    views_json(etl)
    no_symbols(etl)
    top(etl)
    processes(tmp)
print("analysis_tables: views named in JSON, numbers as numbers, modules without symbols, "
      "--top's note, process times and command lines")
