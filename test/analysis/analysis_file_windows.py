# SPDX-License-Identifier: MIT
"""analysis_file_windows.py - `petw report file` on Windows' layouts: a trace
written as Windows writes FileIo v3 and DiskIo v3 (gen_kernel_trace fileio:
a file named only by the FileRundown at the session's end, one by
FileCreate, disk I/O whose FileObject is the file's FileKey, System's lazy
writer, disk I/O of no file) gives each file's operations, bytes and times
and its disk bytes, the disk bytes of all rows summing to `petw report
disk`'s total; its hostile records (truncated, an absurd size never ended,
an OperationEnd of nothing) are skipped and counted; `petw convert --to
perfetto` lays each operation as a slice on its thread's track, from the
operation to its OperationEnd, with the file, bytes and status (decoded by
protoc against test/perfetto_trace.proto; skipped without protoc). Then
every real trace
in PETW_ETL_SAMPLES and PETW_PUBLIC_TRACES that has DiskIo: disk bytes by
file sum to the DiskIo total (none: said, not failed)."""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from perfetto_decode import decode, one
from petw_cli import Cli

petw, gen, proto = sys.argv[1], sys.argv[2], sys.argv[3]
cli = Cli("analysis_file_windows", petw)
fail, run = cli.fail, cli.run


def rows(etl, *args):
    return json.loads(run("report", "file", etl, "--format", "json", "--top", "0",
                          *args))["rows"]


def disk_total(etl):
    doc = json.loads(run("report", "disk", etl, "--format", "json", "--top", "0"))
    return sum(int(r["Read bytes"]) + int(r["Write bytes"]) for r in doc["rows"])


def file_disk_total(etl):
    return sum(int(r["Disk read bytes"]) + int(r["Disk write bytes"])
               for r in rows(etl, "--by", "both"))


def synthetic():
    with tempfile.TemporaryDirectory() as tmp:
        etl = os.path.join(tmp, "fileio.etl")
        subprocess.run([gen, etl, "fileio"], check=True)
        got = {(r["File"], r["PID"]): (r["Ops"], r["Reads"], r["Read bytes"], r["Writes"],
                                      r["Write bytes"], r["Total ms"], r["Disk reads"],
                                      r["Disk read bytes"], r["Disk writes"],
                                      r["Disk write bytes"])
               for r in rows(etl, "--by", "both")}
        want = {("C:\\data\\a.txt", 1234): (1, 1, 4096, 0, 0, 0.02, 1, 8192, 0, 0),
                ("C:\\data\\b.txt", 1234): (3, 0, 0, 2, 100, 0.011, 0, 0, 0, 0),
                ("C:\\data\\b.txt", 4): (0, 0, 0, 0, 0, 0.0, 0, 0, 1, 4096),
                ("(no name)", 1234): (0, 0, 0, 0, 0, 0.0, 1, 512, 0, 0)}
        if got != want:
            fail("report file --by both:\n%s\nwanted\n%s" % (got, want))
        if disk_total(etl) != file_disk_total(etl) or disk_total(etl) != 8192 + 4096 + 512:
            fail("disk bytes by file %d, DiskIo total %d" % (file_disk_total(etl),
                                                             disk_total(etl)))
        r = subprocess.run([petw, "report", "file", etl], capture_output=True, text=True)
        if "3 FileIo records skipped as malformed, 1 operations without their OperationEnd" \
                not in r.stderr:
            fail("hostile records not counted: %r" % r.stderr)
        print("analysis_file_windows: FileIo v3 and DiskIo by FileKey as written, "
              "disk bytes by file = DiskIo total, hostile records counted")
        if shutil.which("protoc"):
            perfetto(etl, os.path.join(tmp, "fileio.pftrace"))
        else:
            print("analysis_file_windows: no protoc: the Perfetto slices not checked")


def perfetto(etl, out):
    r = subprocess.run([petw, "convert", etl, "--to", "perfetto", "-o", out],
                       capture_output=True, text=True)
    if r.returncode != 0 or "4 file I/Os" not in r.stderr:
        fail("petw convert --to perfetto: %s" % r.stderr)
    open_at, done = {}, []
    for p in decode(out, proto, fail):
        for e in p.get("track_event", []):
            track = one(e, "track_uuid")
            if one(e, "categories") == "FileIo":
                args = {one(a, "name"): one(a, "uint_value") or one(a, "string_value")
                        for a in e.get("debug_annotations", [])}
                open_at[track] = (int(one(p, "timestamp")), one(e, "name"), args)
            elif one(e, "type") == "TYPE_SLICE_END" and track in open_at:
                begin, name, args = open_at.pop(track)
                done.append((track, name, args.get("file"), args.get("bytes"),
                             (int(one(p, "timestamp")) - begin) // 1000))
    tracks = {t for t, *_ in done}
    got = sorted(d[1:] for d in done)
    want = [("File Cleanup", "C:\\data\\b.txt", "0", 1),
            ("File Read", "C:\\data\\a.txt", "4096", 20),
            ("File Write", "C:\\data\\b.txt", "0", 0),
            ("File Write", "C:\\data\\b.txt", "100", 10)]
    if got != want or len(tracks) != 1:
        fail("file slices %s on %d tracks, expected %s on thread 77's" % (got, len(tracks), want))
    print("analysis_file_windows: Perfetto: each file operation a slice on its thread's track")


def real():
    folders = [os.environ.get("PETW_ETL_SAMPLES", ""), os.environ.get("PETW_PUBLIC_TRACES", "")]
    checked = 0
    for folder in folders:
        if not folder or not os.path.isdir(folder):
            continue
        for etl in sorted(glob.glob(os.path.join(folder, "**", "*.etl"), recursive=True)):
            total = disk_total(etl)
            if not total:
                continue
            by_file = file_disk_total(etl)
            if by_file != total:
                fail("%s: disk bytes by file %d, DiskIo total %d" % (etl, by_file, total))
            print("analysis_file_windows: %s: %d disk bytes, all by file" %
                  (os.path.basename(etl), total))
            checked += 1
    if not checked:
        print("analysis_file_windows: no real trace with DiskIo in the samples or public "
              "traces folders: only the written one checked")


synthetic()
real()
