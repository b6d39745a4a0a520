#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""analysis_wait.py PETW HANDOFF: a lock hand-off recorded with
`petw record --kernel cswitch,dispatcher` (the waiter blocks on a futex 25
times, the waker wakes it after 20 ms each time) and read back by
`petw report wait`: the waiter's waiting time is the time it measured
itself blocked, within 5%, and the thread that readied it, each time, is
the waker. Exit 77 (skipped) where perf events are not allowed."""
import csv
import io
import os
import re
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from petw_cli import need_kernel_groups  # noqa: E402

petw, handoff = sys.argv[1], sys.argv[2]


def skip(why):
    print("analysis_wait: skipped: " + why)
    sys.exit(77)


def fail(why):
    print("analysis_wait: " + why)
    sys.exit(1)





with tempfile.TemporaryDirectory() as tmp:
    etl = os.path.join(tmp, "handoff.etl")
    env = dict(os.environ, PETW_RUNTIME_DIR=os.path.join(tmp, "rt"))
    r = subprocess.run([petw, "record", "--kernel", "cswitch,dispatcher,process,thread",
                        "--kernel-scope", "process", "-o", etl, "--", handoff],
                       capture_output=True, text=True, env=env)
    if r.returncode != 0:
        if re.search(r"not supported|permission denied|not allowed", r.stderr, re.I):
            skip(r.stderr.strip())
        fail("petw record failed: " + r.stderr)
    need_kernel_groups(r.stdout, ["dispatcher"], skip=skip)
    m = re.search(r"waiter (\d+) waker (\d+) blocked_ms ([0-9.]+) rounds (\d+)", r.stdout)
    if not m:
        fail("the workload said: " + r.stdout)
    waiter, waker, blocked, rounds = m.group(1), m.group(2), float(m.group(3)), int(m.group(4))
    out = subprocess.run([petw, "report", "wait", etl, "--format", "csv", "--top", "0"],
                         capture_output=True, text=True)
    if out.returncode != 0:
        fail("petw report wait failed: " + out.stderr)
    rows = {row["TID"]: row for row in csv.DictReader(io.StringIO(out.stdout))}
    if waiter not in rows:
        fail("no row for the waiter %s:\n%s" % (waiter, out.stdout[:2000]))
    w = rows[waiter]
    waiting = float(w["Waiting ms"])
    if abs(waiting - blocked) > 0.05 * blocked:
        fail("waiter waited %.3f ms in the trace, %.3f ms by its own clock" % (waiting, blocked))
    if w["Top readier"] != waker or int(w["By it"]) < rounds:
        fail("waiter readied by %s (%s times), expected the waker %s (%d times)"
             % (w["Top readier"], w["By it"], waker, rounds))
    # --process keeps that process's threads alone.
    name = os.path.basename(handoff)[:15]
    only = subprocess.run([petw, "report", "wait", etl, "--format", "csv", "--top", "0",
                           "--process", name], capture_output=True, text=True)
    kept = list(csv.DictReader(io.StringIO(only.stdout)))
    if only.returncode != 0 or not kept or any(k["Process"] != name for k in kept) or \
            waiter not in [k["TID"] for k in kept]:
        fail("--process %s kept: %s" % (name, only.stdout[:1000]))
    print("analysis_wait: waiter %s waited %.3f ms (its clock %.3f ms, %.2f%% apart), readied "
          "%s times by the waker %s" % (waiter, waiting, blocked,
                                        100 * abs(waiting - blocked) / blocked, w["By it"], waker))
