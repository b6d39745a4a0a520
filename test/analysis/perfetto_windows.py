#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""perfetto_windows.py PETW GEN PROTO: the Windows kernel logger's profile
gen_profile_trace.c writes (64- and 32-bit), converted with `petw convert
--to perfetto` and decoded by protoc: every figure of its known content
lands where docs/perfetto.md says. The process and its threads named, the
four CSwitch records with thread 77's Waiting state and UserRequest reason,
the ReadyThread naming its waker, 70 samples whose callstacks run root
first into app.exe and ntoskrnl.exe frames, the four disk requests as
slices (process, bytes, latency) on lanes of disk 0 that never overlap, the
provider's two Start/Stop pairs as slices on thread 77's track. Exit 77
without protoc."""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import perfetto_decode  # noqa: E402
from perfetto_decode import one  # noqa: E402

petw, gen, proto = sys.argv[1], sys.argv[2], sys.argv[3]
NAME = "perfetto_windows"


def fail(why):
    print(NAME + ": " + why)
    sys.exit(1)


def check_tracks(packets):
    names, threads = {}, {}
    for p in packets:
        for td in p.get("track_descriptor", []):
            if one(td, "process"):
                pr = one(td, "process")
                names[one(pr, "pid")] = one(pr, "process_name")
            if one(td, "thread"):
                th = one(td, "thread")
                threads[one(th, "tid")] = (one(th, "pid"), one(td, "uuid"))
    if names.get("1234") != "app.exe":
        fail("process 1234 is named %s" % names.get("1234"))
    if threads.get("77", ("",))[0] != "1234" or threads.get("78", ("",))[0] != "1234":
        fail("threads 77 and 78 are not app.exe's: %s" % threads)
    return threads


def check_sched(packets):
    switches, readies = [], []
    for p in packets:
        for b in p.get("etw_events", []):
            for e in b.get("event", []):
                if one(e, "c_switch"):
                    switches.append(one(e, "c_switch"))
                if one(e, "ready_thread"):
                    readies.append((one(e, "thread_id"), one(one(e, "ready_thread"),
                                                             "t_thread_id")))
    away = [(one(s, "old_thread_state"), one(s, "old_thread_wait_reason_int"))
            for s in switches if one(s, "old_thread_id") == "77"]
    if len(switches) != 4 or away != [("5", "6"), ("5", "6")]:
        fail("switches %s; thread 77 left its CPU as %s" % (len(switches), away))
    if readies != [("78", "77")]:
        fail("ReadyThread records %s, expected 78 readying 77" % readies)


def check_samples(packets):
    frames, names, stacks, samples = {}, {}, {}, []
    for p in packets:
        for i in p.get("interned_data", []):
            frames.update({one(f, "iid"): f for f in i.get("frames", [])})
            names.update({one(n, "iid"): one(n, "str") for n in i.get("function_names", [])})
            stacks.update({one(c, "iid"): c.get("frame_ids", []) for c in i.get("callstacks", [])})
        samples += p.get("perf_sample", [])
    if len(samples) != 70 or {one(s, "tid") for s in samples} != {"77", "78"}:
        fail("%d samples of threads %s" % (len(samples), {one(s, "tid") for s in samples}))
    leaves = {}
    for s in samples:
        ids = stacks[one(s, "callstack_iid")]
        text = [names[one(frames[f], "function_name_id")] for f in ids]
        if not text[0].startswith("ntdll.dll!"):
            fail("a callstack does not start at its root: %s" % text)
        leaves[text[-1]] = leaves.get(text[-1], 0) + 1
    if leaves != {"app.exe!+0x1010": 40, "ntdll.dll!+0x9000": 20, "ntoskrnl.exe!+0x3000": 10}:
        fail("leaf frames %s" % leaves)


def check_disk(packets):
    open_at, done = {}, []
    for p in packets:
        for e in p.get("track_event", []):
            if one(e, "categories") == "DiskIo":
                args = {one(a, "name"): one(a, "uint_value") or one(a, "string_value")
                        for a in e.get("debug_annotations", [])}
                open_at[one(e, "track_uuid")] = (int(one(p, "timestamp")), one(e, "name"), args)
            elif one(e, "type") == "TYPE_SLICE_END" and one(e, "track_uuid") in open_at:
                begin, name, args = open_at.pop(one(e, "track_uuid"))
                done.append((one(e, "track_uuid"), begin, int(one(p, "timestamp")), name, args))
    got = sorted((n, a["bytes"], a["latency_us"], a["process"], (end - begin) // 1000)
                 for _, begin, end, n, a in done)
    want = [("Read", "4096", "100", "app.exe", 100), ("Read", "4096", "200", "app.exe", 200),
            ("Read", "4096", "300", "app.exe", 300), ("Write", "8192", "50", "app.exe", 50)]
    if got != want:
        fail("disk slices %s, expected %s" % (got, want))
    by_lane = {}
    for lane, begin, end, _, _ in done:
        by_lane.setdefault(lane, []).append((begin, end))
    for spans in by_lane.values():
        spans.sort()
        if any(a[1] > b[0] for a, b in zip(spans, spans[1:])):
            fail("requests overlap on one lane: %s" % spans)


def check_provider(packets, threads):
    kinds = [one(e, "type") for p in packets for e in p.get("track_event", [])
             if one(e, "track_uuid") == threads["77"][1] and one(e, "categories") != "DiskIo"]
    if kinds.count("TYPE_SLICE_BEGIN") != 2 or kinds.count("TYPE_SLICE_END") != 2:
        fail("thread 77's track holds %s" % kinds)


if not shutil.which("protoc"):
    print(NAME + ": skipped: no protoc")
    sys.exit(77)
with tempfile.TemporaryDirectory() as tmp:
    for bits in ([], ["32"]):
        etl = os.path.join(tmp, "p.etl")
        subprocess.run([gen, etl] + bits, check=True)
        packets = perfetto_decode.convert(petw, etl, os.path.join(tmp, "p.pftrace"), proto, fail)
        threads = check_tracks(packets)
        check_sched(packets)
        check_samples(packets)
        check_disk(packets)
        check_provider(packets, threads)
        print("%s: %s-bit: %d packets as expected" % (NAME, bits[0] if bits else "64",
                                                      len(packets)))
