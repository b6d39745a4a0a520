#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""analysis_pprof.py PETW GEN_PROFILE_TRACE [WORKLOAD]: `petw convert --to
pprof` writes a gzipped profile.proto that `go tool pprof -top` reads, with
the totals and each function's flat and cumulative share that `petw report
cpu` gives: on the known trace of gen_profile_trace.c, and on a recording of
the workload where perf events are allowed. Exit 77 without `go`."""
import csv
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile

petw, gen = sys.argv[1], sys.argv[2]
workload = sys.argv[3] if len(sys.argv) > 3 else None


def fail(why):
    print("analysis_pprof: " + why)
    sys.exit(1)


go = shutil.which("go")
if not go:
    print("analysis_pprof: skipped: no go (Debian: golang-go)")
    sys.exit(77)


def compare(tmp, etl, env):
    pb = os.path.join(tmp, "p.pb.gz")
    subprocess.run([petw, "convert", etl, "--to", "pprof", "-o", pb, "--force"], check=True,
                   capture_output=True)
    r = subprocess.run([go, "tool", "pprof", "-top", "-nodecount=1000", pb], capture_output=True,
                       text=True, env=env)
    if r.returncode != 0:
        fail("go tool pprof: " + r.stderr)
    cpu = list(csv.DictReader(io.StringIO(subprocess.run(
        [petw, "report", "cpu", etl, "--format", "csv", "--top", "0", "--addresses"],
        capture_output=True,
        text=True, check=True).stdout)))
    samples = sum(int(r["Self"]) for r in cpu)
    m = re.search(r"Total samples = ([\d.]+)(ms|s)\b", r.stdout)
    interval_ms = None
    if not m:
        fail("no total in:\n" + r.stdout)
    total_ms = float(m.group(1)) * (1000 if m.group(2) == "s" else 1)
    flat = {}
    for line in r.stdout.splitlines():
        f = re.match(r"\s*([\d.]+)(ms|s|us)?\s+([\d.]+)%\s+[\d.]+%\s+([\d.]+)(ms|s|us)?\s+"
                     r"([\d.]+)%\s+(.*)$", line)
        if f:
            flat[f.group(7).strip()] = (float(f.group(3)), float(f.group(6)))
    for row in cpu:
        name = row["Function"]
        if name not in flat:
            if float(row["Incl%"].rstrip("%")) >= 1.0:
                fail("%s not in pprof's output:\n%s" % (name, r.stdout))
            continue
        a = (float(row["Self%"].rstrip("%")), float(row["Incl%"].rstrip("%")))
        if abs(a[0] - flat[name][0]) > 0.02 or abs(a[1] - flat[name][1]) > 0.02:
            fail("%s: petw self/incl %s, pprof flat/cum %s" % (name, a, flat[name]))
    return samples, total_ms, len(flat)


with tempfile.TemporaryDirectory() as tmp:
    env = dict(os.environ, HOME=tmp, GOCACHE=os.path.join(tmp, "go-cache"),
               GOPATH=os.path.join(tmp, "go"), PPROF_TMPDIR=tmp)
    etl = os.path.join(tmp, "p.etl")
    subprocess.run([gen, etl], check=True)
    samples, total_ms, n = compare(tmp, etl, env)
    if samples != 70 or abs(total_ms - 70.0) > 1e-6:  # 1 ms a sample
        fail("known trace: %d samples, pprof total %.3f ms" % (samples, total_ms))
    print("known trace: petw 70 samples = pprof 70 ms; %d functions agree" % n)
    if workload:
        rec = os.path.join(tmp, "w.etl")
        r = subprocess.run([petw, "record", "--kernel", "profile,process,thread,image",
                            "--stacks", "profile", "--kernel-scope", "process", "-o", rec,
                            "--", workload, "30"], capture_output=True, text=True,
                           env=dict(os.environ, PETW_RUNTIME_DIR=os.path.join(tmp, "rt")))
        if r.returncode == 0:
            samples, total_ms, n = compare(tmp, rec, env)
            if abs(total_ms - samples) > 1e-6:  # the default 1 ms interval
                fail("workload: %d samples, pprof total %.3f ms" % (samples, total_ms))
            print("workload: petw %d samples = pprof %.0f ms; %d functions agree"
                  % (samples, total_ms, n))
        else:
            print("workload not recorded (perf events not allowed): " + r.stderr.strip()[:200])
