#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bench_io_overhead.py - what recording file (and, once recorded, network)
I/O costs an I/O-heavy workload (bench/io_workload.c: 64-byte pwrite and
pread on a file, and every eighth round a 64-byte echo over loopback TCP),
measured in one run, interleaved:
  untraced        the workload alone;
  petw            petw record --kernel CLASSES --kernel-scope process with
                  --buffer-size 1024 --buffers 16:64 (as WPR's FileIO profile
                  takes large buffers), and petw-64k with petw's defaults
                  (64 KB buffers, 2 per CPU up to 20 more): what it loses;
  perf            perf record -e the syscall tracepoints of the same calls
                  (enter and exit), of the same process and its descendants.
Each is run RUNS times; the workload's own wall time (its loop only) gives
the median, min and max, the slowdown against untraced, and the events each
recorder lost (petw: its summary's "Events lost"; perf: LOST records of
perf report --stats). Needs root (BPF and tracepoints).
Usage: bench_io_overhead.py PETW IO_WORKLOAD [--classes file[,net]] [--iters N]
       [--runs R] [--markdown | --jsonl]
--jsonl: one JSON line per recorder (bench/run.sh's part "io", which
docs/benchmarks.md's "Recording file I/O" section is made of)."""
import json
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

# The system calls petw's BPF programs follow for each class, whose
# tracepoints perf records in its stead.
SYSCALLS = {
    "file": ["open", "openat", "openat2", "creat", "read", "pread64", "readv", "preadv",
             "preadv2", "write", "pwrite64", "writev", "pwritev", "pwritev2", "close", "fsync",
             "fdatasync", "ftruncate", "truncate", "unlink", "unlinkat", "rmdir", "rename",
             "renameat", "renameat2", "chdir", "fchdir"],
    "net": ["sendto", "recvfrom", "sendmsg", "recvmsg", "connect", "accept", "accept4"],
}


def tracepoints(classes):
    have = "/sys/kernel/tracing/events/syscalls"
    out = []
    for c in classes:
        for s in SYSCALLS.get(c, []):
            for side in ("enter", "exit"):
                if os.path.isdir(os.path.join(have, "sys_%s_%s" % (side, s))):
                    out.append("syscalls:sys_%s_%s" % (side, s))
    return sorted(set(out))


def run_one(kind, a, tmp):
    workdir = os.path.join(tmp, "w")
    os.makedirs(workdir, exist_ok=True)
    wl = [a.workload, str(a.iters), workdir]
    lost = 0
    if kind == "untraced":
        r = subprocess.run(wl, capture_output=True, text=True, check=True)
        out = r.stdout
    elif kind.startswith("petw"):
        etl = os.path.join(tmp, "io.etl")
        big = [] if kind == "petw-64k" else ["--buffer-size", "1024", "--buffers", "16:64"]
        r = subprocess.run([a.petw, "record", "--kernel", a.classes, "--kernel-scope",
                            "process", "-o", etl] + big + ["--"] + wl, capture_output=True,
                           text=True)
        if r.returncode:
            sys.exit("petw record: " + r.stderr)
        out = r.stdout
        m = re.search(r"Events lost:\s+(\d+)", out)
        lost = int(m.group(1)) if m else 0
        os.unlink(etl)
    else:
        data = os.path.join(tmp, "perf.data")
        events = ",".join(tracepoints(a.classes.split(",")))
        r = subprocess.run(["perf", "record", "-q", "-o", data, "-e", events, "--"] + wl,
                           capture_output=True, text=True)
        if r.returncode:
            sys.exit("perf record: " + r.stderr)
        out = r.stdout
        s = subprocess.run(["perf", "report", "--stats", "-i", data], capture_output=True,
                           text=True).stdout
        lost = sum(int(n) for n in re.findall(r"LOST(?:_SAMPLES)? events:\s+(\d+)", s))
        os.unlink(data)
    seconds = float(out.strip().splitlines()[0])
    return seconds, lost


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("petw")
    ap.add_argument("workload")
    ap.add_argument("--classes", default="file")
    ap.add_argument("--iters", type=int, default=200000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--jsonl", action="store_true")
    a = ap.parse_args()
    if os.geteuid() != 0:
        print("bench_io_overhead: skipped: needs root (BPF, tracepoints)")
        return 0
    kinds = ["untraced", "petw", "petw-64k"] + (["perf"] if shutil.which("perf") else [])
    tmp = tempfile.mkdtemp(prefix="petw-io-bench-")
    times = {k: [] for k in kinds}
    losts = {k: 0 for k in kinds}
    try:
        for _ in range(a.runs):
            for k in kinds:
                t, lost = run_one(k, a, tmp)
                times[k].append(t)
                losts[k] += lost
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    base = statistics.median(times["untraced"])
    ops = a.iters * 2 + (a.iters + 7) // 8 * 4  # file calls, and the echo's send/recv pairs
    rows = []
    for k in kinds:
        med = statistics.median(times[k])
        rows.append((k, med, min(times[k]), max(times[k]), med / base, ops / med, losts[k]))
    title = ("io_workload, %d rounds (%d system calls), %d runs each, --kernel %s"
             % (a.iters, ops, a.runs, a.classes))
    if a.jsonl:
        for r in rows:
            print(json.dumps({"contender": "io-" + r[0], "classes": a.classes,
                              "iters": a.iters, "calls": ops, "runs": a.runs,
                              "median_s": r[1], "min_s": r[2], "max_s": r[3],
                              "slowdown": r[4], "calls_per_s": r[5], "lost": r[6]}))
    elif a.markdown:
        print("| %s | median s | min s | max s | slowdown | calls/s | events lost |" % "recorder")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for r in rows:
            print("| %s | %.3f | %.3f | %.3f | %.2fx | %.0f | %d |" % r)
        print("\n%s." % title)
    else:
        print(title)
        for r in rows:
            print("%-9s median %.3f s (min %.3f, max %.3f)  %.2fx  %.0f calls/s  lost %d" % r)
    return 0


if __name__ == "__main__":
    sys.exit(main())
