#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""analysis_inline.py PETW INLINE_WORKLOAD: one rule for inlined functions in
every output of one trace. The workload's inl_inner is inlined into
inl_outer; on a recording of it, `petw report cpu` lists inl_inner with the
self and inclusive samples that the folded stacks, the flame graph and pprof
(`go tool pprof -top` and `-traces`, when go is installed) give it, and
--callers finds its samples with inl_outer as its caller. With --no-inline,
no output has inl_inner: its samples are inl_outer's everywhere.
Exit 77 (skipped) where perf events are not allowed."""
import csv
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

petw, workload = sys.argv[1], sys.argv[2]
NS = "{http://www.w3.org/2000/svg}"


def fail(why):
    print("analysis_inline: " + why)
    sys.exit(1)


def run(*args):
    r = subprocess.run([petw] + list(args), capture_output=True, text=True)
    if r.returncode != 0:
        fail("petw %s: %s" % (" ".join(args), r.stderr))
    return r.stdout


def cpu(etl, *opts):
    """report cpu by function: {function: (self, incl)} of the workload's module."""
    out = run("report", "cpu", etl, "--format", "csv", "--top", "0", *opts)
    return {r["Function"]: (int(r["Self"]), int(r["Incl"]))
            for r in csv.DictReader(io.StringIO(out))}


def folded(tmp, etl, *opts):
    """{function: (self, incl)} from the collapsed stacks."""
    path = os.path.join(tmp, "out.folded")
    run("convert", etl, "--to", "folded", "--force", "-o", path, *opts)
    got = {}
    for line in open(path):
        stack, count = line.rsplit(" ", 1)
        frames = stack.split(";")[1:]  # the process first
        for f in set(frames):
            s, i = got.get(f, (0, 0))
            got[f] = (s + (int(count) if frames[-1] == f else 0), i + int(count))
    return got


def flamegraph(tmp, etl, *opts):
    """{function: samples of its frames, summed}: its inclusive samples when
    it is not recursive."""
    path = os.path.join(tmp, "out.svg")
    run("convert", etl, "--to", "flamegraph", "--force", "-o", path, *opts)
    got = {}
    for g in ET.parse(path).getroot().iter(NS + "g"):
        if g.get("class") == "f":
            m = re.match(r"(.*) \((\d+) samples, [\d.]+%\)$", g.find(NS + "title").text)
            got[m.group(1)] = got.get(m.group(1), 0) + int(m.group(2))
    return got


def pprof(tmp, etl, *opts):
    """{function: (flat %, cum %)} from `go tool pprof -top`, and -traces' text."""
    go = shutil.which("go")
    if not go:
        return None, None
    path = os.path.join(tmp, "p.pb.gz")
    run("convert", etl, "--to", "pprof", "--force", "-o", path, *opts)
    env = dict(os.environ, HOME=tmp, GOCACHE=os.path.join(tmp, "go-cache"),
               GOPATH=os.path.join(tmp, "go"), PPROF_TMPDIR=tmp)
    top = subprocess.run([go, "tool", "pprof", "-top", "-nodecount=1000", path],
                         capture_output=True, text=True, env=env)
    traces = subprocess.run([go, "tool", "pprof", "-traces", path], capture_output=True,
                            text=True, env=env)
    if top.returncode or traces.returncode:
        fail("go tool pprof: " + top.stderr + traces.stderr)
    got = {}
    for line in top.stdout.splitlines():
        m = re.match(r"\s*[\d.]+(?:ms|s|us)?\s+([\d.]+)%\s+[\d.]+%\s+[\d.]+(?:ms|s|us)?\s+"
                     r"([\d.]+)%\s+(.*)$", line)
        if m:
            name = re.sub(r" \(inline\)$", "", m.group(3).strip())  # pprof marks them
            got[name] = (float(m.group(1)), float(m.group(2)))
    return got, traces.stdout


with tempfile.TemporaryDirectory() as tmp:
    etl = os.path.join(tmp, "w.etl")
    r = subprocess.run([petw, "record", "--kernel", "profile,process,thread,image", "--stacks",
                        "profile", "--kernel-scope", "process", "-o", etl, "--", workload, "30"],
                       capture_output=True, text=True,
                       env=dict(os.environ, PETW_RUNTIME_DIR=os.path.join(tmp, "rt")))
    if r.returncode != 0:
        if re.search(r"not supported|permission denied|not allowed", r.stderr, re.I):
            print("analysis_inline: skipped: " + r.stderr.strip()[:200])
            sys.exit(77)
        fail("petw record: " + r.stderr)

    table = cpu(etl)
    total = sum(s for s, _ in table.values())
    if "inl_inner" not in table or table["inl_inner"][0] < total // 2:
        fail("report cpu does not list the inlined inl_inner with most samples:\n" +
             run("report", "cpu", etl))
    inner, outer = table["inl_inner"], table.get("inl_outer", (0, 0))
    if outer[1] < inner[1]:
        fail("inl_outer %s holds less than inl_inner %s" % (outer, inner))
    rel = {(r["Relation"], r["Function"]): int(r["Samples"]) for r in csv.DictReader(io.StringIO(
        run("report", "cpu", etl, "--callers", "inl_inner", "--format", "csv", "--top", "0")))}
    if rel.get(("caller", "inl_outer")) != inner[1] or rel.get(("callee", "[self]")) != inner[0]:
        fail("--callers inl_inner: %s, wanted inl_outer %d, [self] %d" % (rel, *inner[::-1]))

    f = folded(tmp, etl)
    if f.get("inl_inner") != inner or f.get("inl_outer") != outer:
        fail("folded: inl_inner %s, inl_outer %s; report %s, %s" %
             (f.get("inl_inner"), f.get("inl_outer"), inner, outer))
    svg = flamegraph(tmp, etl)
    if svg.get("inl_inner") != inner[1] or svg.get("inl_outer") != outer[1]:
        fail("flame graph: inl_inner %s, inl_outer %s; report %s, %s" %
             (svg.get("inl_inner"), svg.get("inl_outer"), inner, outer))
    top, traces = pprof(tmp, etl)
    if top is not None:
        for name, (s, i) in (("inl_inner", inner), ("inl_outer", outer)):
            want = (100.0 * s / total, 100.0 * i / total)
            got = top.get(name)
            if not got or abs(got[0] - want[0]) > 0.02 or abs(got[1] - want[1]) > 0.02:
                fail("pprof -top: %s %s, report %.2f%% %.2f%%" % (name, got, *want))
        if not re.search(r"\s+inl_inner \(inline\)\n\s+inl_outer$", traces, re.M):
            fail("pprof -traces: no inl_inner called by inl_outer:\n" + traces[:800])

    # --no-inline: inl_inner's samples are inl_outer's in every output.
    table = cpu(etl, "--no-inline")
    if "inl_inner" in table or table.get("inl_outer") != (inner[0] + outer[0], outer[1]):
        fail("report cpu --no-inline: inl_outer %s, inl_inner %s" %
             (table.get("inl_outer"), table.get("inl_inner")))
    f = folded(tmp, etl, "--no-inline")
    svg = flamegraph(tmp, etl, "--no-inline")
    if "inl_inner" in f or "inl_inner" in svg or f.get("inl_outer") != table["inl_outer"] or \
            svg.get("inl_outer") != outer[1]:
        fail("--no-inline: folded %s, flame graph %s" % (f.get("inl_outer"), svg.get("inl_outer")))
    top, _ = pprof(tmp, etl, "--no-inline")
    if top is not None and ("inl_inner" in top or abs(
            top.get("inl_outer", (0, 0))[0] - 100.0 * table["inl_outer"][0] / total) > 0.02):
        fail("pprof --no-inline: %s" % top.get("inl_outer"))
    print("analysis_inline: %d samples, inl_inner %d self of %d, alike in report, folded, "
          "flame graph%s; --no-inline folds it everywhere" %
          (total, inner[0], inner[1], " and pprof" if top is not None else ""))
