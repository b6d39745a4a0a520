#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""perfetto_export.py PETW TIMELINE PROTO: two threads handing jobs to each
other (TIMELINE), recorded with the kernel's processes, threads, images,
context switches, wake-ups and stack samples and the program's provider
events, converted with `petw convert --to perfetto` and decoded by
`protoc --decode` against PROTO (the messages petw writes). Checks: one
scheduling record per CSwitch and per ReadyThread, one PerfSample per
SampledProfile (each naming an interned callstack whose frames and names
exist, the workload's function among them), one track per thread that ran,
named processes with their command line, the jobs (started on one thread,
stopped on the other) as slices on activity tracks, the work items
(started and stopped on the consumer) as slices of the consumer's thread,
each job's flow continued by its work item, the
counter, and the statistics packet. The same recording as Chrome JSON
(`--to chrome`): the process's and threads' names and its command line,
the jobs as async slices, a flow per job and per work item with the job's
flow continued by its work item, and the counter. Then each Windows sample
in PETW_ETL_SAMPLES, and each public trace in PETW_PUBLIC_TRACES when it is
set, converts and decodes. Exit 77 (skipped) where perf events
are not allowed or protoc is missing."""
import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import perfetto_decode  # noqa: E402
from perfetto_decode import one  # noqa: E402
from petw_cli import need_kernel_groups  # noqa: E402

petw, timeline, proto = sys.argv[1], sys.argv[2], sys.argv[3]
NAME = "perfetto_export"


def skip(why):
    print(NAME + ": skipped: " + why)
    sys.exit(77)


def fail(why):
    print(NAME + ": " + why)
    sys.exit(1)





def convert(etl, out, *extra):
    return perfetto_decode.convert(petw, etl, out, proto, fail, *extra)


def kinds(etl):
    """Counts of events by (provider, name or opcode) from `petw report events`."""
    r = subprocess.run([petw, "report", "events", etl, "--format", "csv", "--top", "0"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        fail("petw report events failed: " + r.stderr)
    return list(csv.DictReader(io.StringIO(r.stdout)))


def check_timeline(packets, tids, rounds, workload, expect):
    tracks = {}  # uuid -> descriptor
    thread_uuid = {}
    switches, readies, samples, ran = 0, 0, [], set()
    interned = {"function_names": {}, "frames": {}, "callstacks": {}}
    events, stats = [], []
    for p in packets:
        for td in p.get("track_descriptor", []):
            uuid = one(td, "uuid")
            tracks[uuid] = td
            th = one(td, "thread")
            if th:
                tid = one(th, "tid")
                if thread_uuid.setdefault(tid, uuid) != uuid:
                    fail("thread %s has two tracks" % tid)
        for b in p.get("etw_events", []):
            for e in b.get("event", []):
                cs = one(e, "c_switch")
                if cs:
                    switches += 1
                    ran.add(one(cs, "new_thread_id"))
                if one(e, "ready_thread"):
                    readies += 1
        for s in p.get("perf_sample", []):
            samples.append(s)
        for i in p.get("interned_data", []):
            for kind in interned:
                for item in i.get(kind, []):
                    interned[kind][one(item, "iid")] = item
        events += p.get("track_event", [])
        stats += p.get("trace_stats", [])
    if switches != expect["CSwitch"]:
        fail("%d CSwitch records, the trace has %d" % (switches, expect["CSwitch"]))
    if readies != expect["ReadyThread"]:
        fail("%d ReadyThread records, the trace has %d" % (readies, expect["ReadyThread"]))
    if len(samples) != expect["SampledProfile"]:
        fail("%d samples, the trace has %d SampledProfile" % (len(samples),
                                                             expect["SampledProfile"]))
    missing = [t for t in ran if t != "0" and t not in thread_uuid]
    if missing:
        fail("threads that ran without a track: %s" % missing)
    return tracks, thread_uuid, samples, interned, events, stats


def check_samples(samples, interned, workload_pid):
    names = set()
    for s in samples:
        cs = interned["callstacks"].get(one(s, "callstack_iid"))
        if cs is None:
            fail("sample names callstack %s, never interned" % one(s, "callstack_iid"))
        for fid in cs.get("frame_ids", []):
            fr = interned["frames"].get(fid)
            if fr is None or one(fr, "function_name_id") not in interned["function_names"]:
                fail("callstack %s names frame %s, never interned" % (one(cs, "iid"), fid))
            if one(s, "pid") == workload_pid:
                names.add(one(interned["function_names"][one(fr, "function_name_id")], "str"))
    if "spin_work" not in names:
        fail("no sample of the workload in spin_work: %s" % sorted(names)[:40])


def check_events(tracks, thread_uuid, events, tids, rounds):
    producer, consumer = tids
    begins = [e for e in events if one(e, "type") == "TYPE_SLICE_BEGIN" and one(e, "name") == "Job"]
    ends = [e for e in events if one(e, "type") == "TYPE_SLICE_END" and
            one(e, "categories") == "Petw.Test.Timeline"]
    if len(begins) != rounds or len(ends) != 2 * rounds:
        fail("%d Job begins, %d ends (expected %d and %d)" % (len(begins), len(ends), rounds,
                                                           2 * rounds))
    for b in begins:
        if one(b, "track_uuid") in thread_uuid.values() or not one(tracks[one(b, "track_uuid")],
                                                                    "parent_uuid"):
            fail("a Job slice not on an activity track under its process")
    # A Work item starts and stops on the consumer: a slice of its thread.
    work = [e for e in events if one(e, "type") == "TYPE_SLICE_BEGIN" and one(e, "name") == "Work"
            and one(e, "track_uuid") == thread_uuid[consumer]]
    if len(work) != rounds:
        fail("%d Work slices on the consumer's track, expected %d" % (len(work), rounds))
    # Each job's flow runs from its Start (on the producer) into the Work
    # item the consumer started for it (related activity), on another track.
    job_flow = {one(b, "flow_ids"): one(b, "track_uuid") for b in begins}
    if len(job_flow) != rounds:
        fail("%d distinct job flows, expected %d" % (len(job_flow), rounds))
    works = [e for e in events if one(e, "type") == "TYPE_SLICE_BEGIN" and one(e, "name") == "Work"
             and any(f in job_flow and job_flow[f] != one(e, "track_uuid")
                     for f in e.get("flow_ids", []))]
    if len(works) != rounds:
        fail("%d Work starts continue their job's flow, expected %d" % (len(works), rounds))
    # Events without an activity are instants on their thread's track.
    progress = [e for e in events if one(e, "name") == "Progress" and
                one(e, "type") == "TYPE_INSTANT" and one(e, "track_uuid") == thread_uuid[producer]]
    if len(progress) != rounds or not all(one(e, "debug_annotations") for e in progress):
        fail("%d Progress instants with fields on the producer's track, expected %d"
             % (len(progress), rounds))
    counter = [e for e in events if one(e, "type") == "TYPE_COUNTER"]
    values = sorted(float(one(e, "double_counter_value")) for e in counter)
    if values != [float(k) for k in range(1, rounds + 1)]:
        fail("the Progress/Done counter holds %s" % values)


def check_chrome(etl, out, workload, tids, rounds):
    r = subprocess.run([petw, "convert", etl, "--to", "chrome", "-o", out, "--force",
                        "--counter", "Petw.Test.Timeline/Progress/Done"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        fail("petw convert --to chrome failed: " + r.stderr)
    events = json.load(open(out))["traceEvents"]
    meta = {(e["name"], e["pid"], e["tid"]): e["args"] for e in events if e["ph"] == "M"}
    pid = [p for (n, p, t), a in meta.items()
           if n == "process_name" and a["name"] == os.path.basename(workload)[:15]]
    if not pid or not any(n == "process_labels" and p == pid[0] and
                          os.path.basename(workload) in a["labels"]
                          for (n, p, t), a in meta.items()):
        fail("chrome: the workload's process has no name or command line")
    for t in tids:
        if ("thread_name", pid[0], int(t)) not in meta:
            fail("chrome: thread %s has no name record" % t)
    jobs = [e for e in events if e["ph"] in ("b", "e") and e["name"] == "Job"]
    starts = {e["id"] for e in events if e["ph"] == "s"}
    steps = [e for e in events if e["ph"] == "t" and e["id"] in starts]
    ends = [e for e in events if e["ph"] == "f" and e["id"] in starts]
    counter = sorted(e["args"]["Done"] for e in events if e["ph"] == "C")
    if len(jobs) != 2 * rounds or len(starts) != 2 * rounds or len(steps) != rounds or \
            len(ends) != 2 * rounds or counter != list(range(1, rounds + 1)):
        fail("chrome: %d Job b/e, %d flows, %d steps, %d finishes, counter %s" % (
            len(jobs), len(starts), len(steps), len(ends), counter))
    print("%s: chrome: %d records, %d flows, %d counter values" % (NAME, len(events),
                                                                    len(starts), len(counter)))


with tempfile.TemporaryDirectory() as tmp:
    if not shutil.which("protoc"):
        skip("no protoc")
    etl = os.path.join(tmp, "timeline.etl")
    env = dict(os.environ, PETW_RUNTIME_DIR=os.path.join(tmp, "rt"))
    r = subprocess.run([petw, "record", "--kernel", "process,thread,image,cswitch,dispatcher,profile",
                        "--stacks", "profile", "--kernel-scope", "process", "-o", etl, "--",
                        timeline], capture_output=True, text=True, env=env)
    if r.returncode != 0:
        if re.search(r"not supported|permission denied|not allowed", r.stderr, re.I):
            skip(r.stderr.strip())
        fail("petw record failed: " + r.stderr)
    need_kernel_groups(r.stdout, ["cswitch", "dispatcher", "profile"], skip=skip)
    m = re.search(r"producer (\d+) consumer (\d+) rounds (\d+)", r.stdout)
    if not m:
        fail("the workload said: " + r.stdout)
    tids, rounds = (m.group(1), m.group(2)), int(m.group(3))
    expect = {"CSwitch": 0, "ReadyThread": 0, "SampledProfile": 0}
    names = {("Thread", "CSwitch"): "CSwitch", ("Thread", "ReadyThread"): "ReadyThread",
             ("PerfInfo", "SampleProf"): "SampledProfile"}
    for k in kinds(etl):
        name = names.get((k["Provider"], k["Event"]))
        if name:
            expect[name] += int(k["Count"])
    if not all(expect.values()):
        fail("the recording lacks some kernel events: %s" % expect)
    packets = convert(etl, os.path.join(tmp, "t.pftrace"), "--counter",
                      "Petw.Test.Timeline/Progress/Done")
    tracks, thread_uuid, samples, interned, events, stats = check_timeline(
        packets, tids, rounds, timeline, expect)
    for t in tids:
        if t not in thread_uuid:
            fail("no track for thread %s" % t)
    proc = [one(td, "process") for td in tracks.values() if one(td, "process")]
    mine = [p for p in proc if os.path.basename(timeline) in (one(p, "cmdline") or "")]
    if not mine or not one(mine[0], "process_name"):
        fail("the workload's process has no name and command line: %s" % proc[:5])
    check_samples(samples, interned, one(mine[0], "pid"))
    check_events(tracks, thread_uuid, events, tids, rounds)
    info = subprocess.run([petw, "info", etl], capture_output=True, text=True).stdout
    lost = re.search(r"lost\s+(\d+) events, (\d+) buffers", info)
    buf = one(stats[0], "buffer_stats") if len(stats) == 1 else None
    if not lost or not buf or (one(buf, "trace_writer_packet_loss"),
                               one(buf, "chunks_discarded")) != lost.groups():
        fail("statistics %s, the trace says lost %s" % (stats, lost and lost.groups()))
    print("%s: %d switches, %d wake-ups, %d samples, %d track events, %d tracks" % (
        NAME, expect["CSwitch"], expect["ReadyThread"], len(samples), len(events), len(tracks)))

    check_chrome(etl, os.path.join(tmp, "t.json"), timeline, tids, rounds)

    # The Windows samples, and the public traces when PETW_PUBLIC_TRACES names them.
    for var in ("PETW_ETL_SAMPLES", "PETW_PUBLIC_TRACES"):
        folder = os.environ.get(var, "")
        if not os.path.isdir(folder):
            continue
        for name in sorted(os.listdir(folder)):
            if name.lower().endswith(".etl"):
                got = convert(os.path.join(folder, name), os.path.join(tmp, "w.pftrace"))
                n = sum(len(p.get("track_event", [])) for p in got)
                if n == 0:
                    fail("%s: no events" % name)
                print("%s: %s: %d packets, %d track events" % (NAME, name, len(got), n))
