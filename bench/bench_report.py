#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bench_report.py: what the analysis tools cost (docs/analysis.md, "Cost").

usage: bench_report.py PETW GEN_PROFILE WORKLOAD PEAK_RSS CACHE_DIR [--reps N]
                       [--seconds S] [--big-mb MB] [--only profile|big]

Prints one JSON line per measurement, as bench/run.sh's other programs do:
- "petw-report-profile": `petw report cpu` with symbols, warm (one untimed
  run first), on a recording of WORKLOAD (two threads recursing 28 calls
  deep) made with `petw record --kernel profile,process,thread,image
  --stacks profile --profile-interval-us 1000`, system-wide: S seconds
  (default 60) of 2 CPUs at 1 kHz, stacks of about 30 frames. Whatever
  else runs meanwhile is in the trace too, with its binaries to symbolize:
  on a busy machine the figure grows. Needs perf events system-wide (root,
  or perf_event_paranoid <= 0): otherwise a "skipped" line.
- "petw-big-VIEW": each view and export once over a trace of MB megabytes
  (default 2048) that GEN_PROFILE streams (1 kHz on 2 CPUs, 30-frame stacks,
  20,000 distinct stacks, a CSwitch pair every fourth sample): seconds,
  events per second and peak RSS.
The traces are made once and kept in CACHE_DIR for the next rounds. Each
run is timed and measured by PEAK_RSS (peak_rss.c: a small parent, so the
peak is the tool's, not this script's).
Every figure is the median of the runs, with their minimum and maximum."""
import json
import os
import re
import statistics
import subprocess
import sys

args = sys.argv[1:]


def option(name, default):
    if name in args:
        k = args.index(name)
        value = args[k + 1]
        del args[k:k + 2]
        return value
    return default


reps = int(option("--reps", "5"))
seconds = option("--seconds", "60")
big_mb = option("--big-mb", "2048")
only = option("--only", None)
petw, gen, workload, peak_rss, cache = args[:5]
os.makedirs(cache, exist_ok=True)


def run(cmd):
    """Runs cmd with its output discarded: (seconds, peak RSS in kB)."""
    r = subprocess.run([peak_rss] + cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       text=True)
    last = r.stderr.strip().splitlines()[-1] if r.stderr.strip() else ""
    if r.returncode != 0 or len(last.split()) != 3:
        sys.exit(f"bench_report: {' '.join(cmd)} failed: {r.stderr.strip()[-300:]}")
    elapsed, rss, _ = last.split()
    return float(elapsed), int(rss)


def events_in(path):
    out = subprocess.run([petw, "info", path], capture_output=True, text=True, check=True).stdout
    m = re.search(r"^\s*events\s+(\d+)", out, re.M)
    return int(m.group(1)) if m else None


def emit(contender, path, times, rss, **extra):
    line = {"contender": contender, "seconds": statistics.median(times),
            "seconds_min": min(times), "seconds_max": max(times), "runs": len(times),
            "peak_rss_kb": max(rss), "file_bytes": os.path.getsize(path)}
    line.update(extra)
    print(json.dumps(line), flush=True)


def profile():
    etl = os.path.join(cache, f"profile-{seconds}s.etl")
    if not os.path.exists(etl):
        r = subprocess.run([petw, "record", "--kernel", "profile,process,thread,image",
                            "--stacks", "profile", "--profile-interval-us", "1000",
                            "-o", etl + ".part", "--", workload, seconds],
                           capture_output=True, text=True)
        if r.returncode != 0:
            print(json.dumps({"contender": "petw-report-profile",
                              "skipped": r.stderr.strip()[:200]}), flush=True)
            return
        os.rename(etl + ".part", etl)
    cmd = [petw, "report", "cpu", etl]
    run(cmd)  # warm: the file and the binaries' symbols in the page cache
    times, rss = zip(*[run(cmd) for _ in range(reps)])
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    m = re.search(r"(\d+) samples", out)
    emit("petw-report-profile", etl, times, rss, samples=int(m.group(1)) if m else None,
         trace_seconds=float(seconds))


def big():
    etl = os.path.join(cache, f"big-{big_mb}MB.etl")
    if not os.path.exists(etl):
        subprocess.run([gen, etl + ".part", "big", big_mb], check=True)
        os.rename(etl + ".part", etl)
    events = events_in(etl)
    out = os.path.join(cache, "out")
    views = {
        "report-cpu": ["report", "cpu"],
        "report-wait": ["report", "wait"],
        "report-processes": ["report", "processes"],
        "convert-pprof": ["convert", "--to", "pprof", "--force", "-o", out],
        "convert-folded": ["convert", "--to", "folded", "--force", "-o", out],
        "convert-flamegraph": ["convert", "--to", "flamegraph", "--force", "-o", out],
    }
    for name, verb in views.items():
        times, rss = zip(*[run([petw] + verb + [etl]) for _ in range(max(1, reps // 2))])
        emit(f"petw-big-{name}", etl, times, rss, events=events,
             events_per_s=events / statistics.median(times) if events else None)
    if os.path.exists(out):
        os.remove(out)


if only in (None, "profile"):
    profile()
if only in (None, "big"):
    big()
