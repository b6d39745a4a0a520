#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""analysis_flamegraph.py PETW GEN_PROFILE_TRACE: `petw convert --to
flamegraph` draws a self-contained SVG (no external reference) that an XML
parser reads, with one frame per node of the merged stacks, each as wide as
its samples (the root is all of them); and, when a headless Chromium is
installed, the page loads and its script runs (it writes the frames'
labels, and the search and zoom controls are there)."""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

petw, gen = sys.argv[1], sys.argv[2]
NS = "{http://www.w3.org/2000/svg}"


def fail(why):
    print("analysis_flamegraph: " + why)
    sys.exit(1)


with tempfile.TemporaryDirectory() as tmp:
    etl = os.path.join(tmp, "p.etl")
    svg = os.path.join(tmp, "p.svg")
    subprocess.run([gen, etl], check=True)
    subprocess.run([petw, "convert", etl, "--to", "flamegraph", "-o", svg], check=True,
                   capture_output=True)
    text = open(svg, encoding="utf-8").read()
    if re.search(r'(href|src)\s*=\s*"(https?:|//)', text):
        fail("the SVG refers to something outside itself")
    root = ET.fromstring(text)
    frames = {}
    for g in root.iter(NS + "g"):
        if g.get("class") != "f":
            continue
        title = g.find(NS + "title").text
        m = re.match(r"(.*) \((\d+) samples, [\d.]+%\)$", title)
        rect = g.find(NS + "rect")
        frames.setdefault(m.group(1), []).append((int(m.group(2)), float(rect.get("width"))))
    want = {"all": [70], "app.exe": [70], "ntdll.dll!+0x5000": [70], "app.exe!+0x2000": [50],
            "app.exe!+0x1010": [40], "app.exe!+0x1500": [10], "ntoskrnl.exe!+0x3000": [10],
            "app.exe!+0x2100": [20], "ntdll.dll!+0x9000": [20]}
    got = {k: sorted(n for n, _ in v) for k, v in frames.items()}
    if got != want:
        fail("frames %s, wanted %s" % (got, want))
    full = frames["all"][0][1]
    for name, v in frames.items():
        for n, w in v:
            if abs(w - full * n / 70) > 0.05:
                fail("%s: %d samples drawn %.2f wide of %.2f" % (name, n, w, full))
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if not browser:
        print("analysis_flamegraph: SVG checked (no headless Chromium to load it)")
        sys.exit(0)
    r = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                        "--disable-background-networking", "--disable-component-update",
                        "--disable-sync", "--user-data-dir=" + os.path.join(tmp, "profile"),
                        "--dump-dom", "file://" + svg], capture_output=True, text=True,
                       timeout=60)
    dom = r.stdout
    # The labels are written by the script: present only if it ran.
    if ">app.exe!+0x1010<" not in dom or 'id="search"' not in dom:
        fail("Chromium did not run the flame graph's script:\n" + dom[:400] + r.stderr[-400:])
    print("analysis_flamegraph: SVG checked; Chromium ran its script")
