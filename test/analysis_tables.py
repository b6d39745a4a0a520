#!/usr/bin/env python3
"""analysis_tables.py PETW GEN_PROFILE_TRACE: the tables of `petw report`
as a person and a program read them, on the known traces of
gen_profile_trace.c. JSON names the view ("cpu") with its title beside it,
and CSV and JSON give percentages and signed deltas as numbers."""
import json
import os
import subprocess
import sys
import tempfile

from petw_cli import Cli

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
    doc = json.loads(run("report", "cpu", etl, "--format", "json"))
    first = doc["rows"][0]
    if (first["Self%"], first["Incl%"], first["Function"]) != (57.14, 57.14, "app.exe!+0x1010"):
        fail("cpu JSON: %s" % first)
    table = rows("report", "cpu", etl)
    if (table[0]["Self%"], table[0]["Incl%"]) != ("57.14", "57.14"):
        fail("CSV percentages are not numbers: %s" % table[0])
    moved = etl + ".moved.etl"
    subprocess.run([gen, moved, "shift"], check=True)
    doc = json.loads(run("report", "diff", etl, moved, "--format", "json"))
    deltas = sorted((r["Function"], r["Self delta"], r["Base self%"]) for r in doc["rows"][:2])
    if deltas != [("app.exe!+0x1010", -28.57, 57.14), ("ntdll.dll!+0x9000", 28.57, 28.57)]:
        fail("diff JSON: %s" % doc["rows"][:2])
    diff = rows("report", "diff", etl, moved)
    if not all(float(r["Self delta"]) == float(r["Self delta"]) for r in diff) or \
            any(r["Base self%"].endswith("%") for r in diff):
        fail("diff CSV: %s" % diff)


with tempfile.TemporaryDirectory() as tmp:
    etl = os.path.join(tmp, "p.etl")
    subprocess.run([gen, etl], check=True)
    views_json(etl)
print("analysis_tables: views named in JSON, numbers as numbers")
