# SPDX-License-Identifier: MIT
"""analysis_file.py - file I/O of a known shape (test/analysis/file_workload.c)
recorded with `petw record --kernel file --kernel-scope process`, run under
`strace -f` in the same recording: `petw report file --by both` gives each
file's opens, reads, writes, bytes, closes, deletes, renames and other
operations exactly as the workload made them and as strace saw them, the
names right for a file opened before the recording (descriptor 3), a file
opened by a relative path, a renamed file, a second thread's and a child
process's files, a FIFO; and the time of a read that blocks 200 ms within
5% of the time the workload measured around it. Then the same with BPF made unavailable (PETW_NO_BPF=1):
one line says file I/O is not recorded, the rest is; and with tracepoints
made absent (PETW_NO_TRACEPOINTS, as on an older kernel): their calls left
out, the rest recorded. Skips (77) without the rights or BPF."""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from petw_cli import Cli

petw, workload = sys.argv[1], sys.argv[2]
cli = Cli("analysis_file", petw)
fail, run = cli.fail, cli.run

# The workload's files: (opens, reads, read bytes, writes, write bytes,
# closes, deletes, renames, other).
WANT = {"a.dat": (2, 43, 41060, 10, 40960, 2, 0, 1, 1),
        "b.dat": (1, 1, 8192, 0, 0, 1, 1, 0, 1),
        "c.dat": (1, 0, 0, 3, 9000, 1, 0, 0, 0),
        "d.dat": (1, 0, 0, 2, 1000, 1, 0, 0, 0),
        "pre.txt": (0, 1, 123, 0, 0, 1, 0, 0, 0),
        "f.fifo": (2, 1, 10, 1, 10, 2, 1, 0, 0)}
COLS = ("Opens", "Reads", "Read bytes", "Writes", "Write bytes", "Closes", "Deletes",
        "Renames", "Other")


def record(tmp, name, env=None, strace=False):
    work = os.path.join(tmp, name)
    os.mkdir(work)
    pre = os.path.join(tmp, "pre.txt")
    etl = os.path.join(tmp, name + ".etl")
    cmd = [workload, work]
    if strace:
        cmd = ["strace", "-f", "-ff", "-y", "-qq", "-o", os.path.join(tmp, "st")] + cmd
    # Descriptor 3 opened before the recording starts (the command inherits it).
    fd = os.open(pre, os.O_RDONLY)
    if fd != 3:
        os.dup2(fd, 3)
        os.close(fd)
    r = subprocess.run([petw, "record", "--kernel", "file", "--kernel-scope", "process",
                        "-o", etl, "--"] + cmd, capture_output=True, text=True,
                       env=dict(os.environ, **(env or {})), pass_fds=(3,))
    os.close(3)
    if r.returncode != 0:
        fail("petw record: %s%s" % (r.stdout, r.stderr))
    m = re.search(r"fifo_read_ms ([0-9.]+)", r.stdout)
    if not m:
        fail("the workload did not say how long its FIFO read took: %s" % r.stdout)
    return work, etl, r.stderr, float(m.group(1))


def evidence(etl):
    """The trace's last file records (the FIFO's part), for a failure's
    message: what petw wrote, as it wrote it."""
    lines = [l for l in run("dump", etl).splitlines() if "FileIo/" in l]
    return "\n".join(l[:260] for l in lines[-48:])


def view(etl, work, pre):
    doc = json.loads(run("report", "file", etl, "--by", "both", "--format", "json",
                         "--top", "0"))
    got = {}
    for row in doc["rows"]:
        f = row["File"]
        base = os.path.basename(f)
        if f == pre or os.path.dirname(f) == work:
            if base in got:
                fail("%s in two rows: %s" % (base, doc["rows"]))
            got[base] = row
    return got


def strace_counts(tmp, work, pre):
    """Per file: the same columns, from strace's per-process logs."""
    counts = {}

    def at(path):
        base = os.path.basename(path)
        if path != pre and os.path.dirname(path) != work:
            return None
        return counts.setdefault(base, [0] * 9)

    call = re.compile(r'^(\w+)\((.*)\) += (-?\d+)(<([^>]*)>)?')
    for log in glob.glob(os.path.join(tmp, "st.*")):
        for line in open(log, encoding="utf-8", errors="replace"):
            m = call.match(line)
            if not m:
                continue
            name, args, ret, ret_path = m.group(1), m.group(2), int(m.group(3)), m.group(5)
            fd = re.match(r'-?\d+<([^>]*)>', args)
            path = fd.group(1) if fd else None
            if name in ("open", "openat", "creat") and ret >= 0 and ret_path:
                c = at(ret_path)
                if c:
                    c[0] += 1
            elif name in ("read", "pread64", "readv", "preadv") and path and ret >= 0:
                c = at(path)
                if c:
                    c[1] += 1
                    c[2] += ret
            elif name in ("write", "pwrite64", "writev", "pwritev") and path and ret >= 0:
                c = at(path)
                if c:
                    c[3] += 1
                    c[4] += ret
            elif name == "close" and path:
                c = at(path)
                if c:
                    c[5] += 1
            elif name in ("unlink", "unlinkat", "rename", "renameat", "renameat2"):
                first = re.search(r'"([^"]*)"', args)
                # A relative path: the workload's working directory is work.
                c = at(os.path.join(work, first.group(1))) if first else None
                if c:
                    c[6 if name.startswith("unlink") else 7] += 1
            elif name in ("fsync", "fdatasync", "ftruncate") and path:
                c = at(path)
                if c:
                    c[8] += 1
    return {k: tuple(v) for k, v in counts.items()}


def main():
    if os.geteuid() != 0:
        print("analysis_file: skipped: BPF programs need root")
        sys.exit(77)
    tmp = tempfile.mkdtemp(prefix="petw-file-")
    try:
        pre = os.path.join(tmp, "pre.txt")
        with open(pre, "wb") as f:
            f.write(b"p" * 1000)
        strace = shutil.which("strace") is not None
        work, etl, err, fifo_ms = record(tmp, "work", strace=strace)
        if "file I/O not recorded" in err:
            print("analysis_file: skipped: %s" % err.strip())
            sys.exit(77)
        got = view(etl, work, pre)
        table = {k: tuple(int(got[k][c]) for c in COLS) for k in got}
        if table != WANT:
            fail("petw report file:\n%s\nwanted\n%s\nthe last file records:\n%s"
                 % (table, WANT, evidence(etl)))
        # Threads and processes: c.dat is the workload's (a second thread),
        # d.dat its child's.
        pids = {k: got[k]["PID"] for k in got}
        if pids["c.dat"] != pids["a.dat"] or pids["d.dat"] == pids["a.dat"] or \
                pids["pre.txt"] != pids["a.dat"]:
            fail("processes: %s" % pids)
        for k in got:
            if float(got[k]["Total ms"]) <= 0 or float(got[k]["Max ms"]) > \
                    float(got[k]["Total ms"]):
                fail("%s: times %s, %s" % (k, got[k]["Total ms"], got[k]["Max ms"]))
        # Times: the FIFO read blocked ~200 ms, as the workload measured it.
        took = float(got["f.fifo"]["Max ms"])
        if abs(took - fifo_ms) > 0.05 * fifo_ms:
            fail("the FIFO read took %.3f ms as the workload measured it, %.3f in petw's view"
                 % (fifo_ms, took))
        print("analysis_file: the FIFO read: %.3f ms in petw's view, %.3f as the workload "
              "measured it" % (took, fifo_ms))
        print("analysis_file: petw report file == the workload: %s" % table)
        if strace:
            st = strace_counts(tmp, work, pre)
            if st != table:
                fail("strace -f saw\n%s\npetw\n%s" % (st, table))
            print("analysis_file: strace -f agrees on every file")
        else:
            print("analysis_file: no strace: the second tool not compared")

        # BPF unavailable: one line, the rest recorded.
        work2, etl2, err2, _ = record(tmp, "nobpf", env={"PETW_NO_BPF": "1"})
        lines = [l for l in err2.splitlines() if "file I/O not recorded" in l]
        if len(lines) != 1:
            fail("PETW_NO_BPF=1: wanted one line saying file I/O is not recorded:\n%s" % err2)
        procs = json.loads(run("report", "processes", etl2, "--format", "json"))["rows"]
        if not any(p.get("Name") == os.path.basename(workload) for p in procs):
            fail("PETW_NO_BPF=1: the workload's process is not in the trace: %s" % procs)
        if view(etl2, work2, pre):
            fail("PETW_NO_BPF=1: file I/O recorded anyway")
        print("analysis_file: without BPF: %s" % lines[0])

        # An older kernel's tracepoints: pread64's left out, the rest recorded.
        work3, etl3, err3, _ = record(tmp, "notp", env={
            "PETW_NO_TRACEPOINTS": "syscalls/sys_enter_pread64,syscalls/sys_exit_pread64"})
        got3 = view(etl3, work3, pre)
        t3 = {k: tuple(int(got3[k][c]) for c in COLS) for k in got3}
        want3 = dict(WANT, **{"a.dat": (2, 42, 40960, 10, 40960, 2, 0, 1, 1)})
        if t3 != want3:
            fail("without pread64's tracepoints:\n%s\nwanted\n%s\nthe last file records:\n%s"
                 % (t3, want3, evidence(etl3)))
        print("analysis_file: without pread64's tracepoints: the rest recorded")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


main()
