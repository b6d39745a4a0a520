#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""analysis_memory.py PETW WORKLOAD: a workload of known memory shape
(analysis/memory.c: 64 pages of an anonymous mapping written, 32 pages of a
file dropped from the page cache read through a mapping, mmap, munmap,
mremap and brk of known sizes) recorded with `petw record --kernel memory
--kernel-scope process`, under `perf stat -e page-faults,major-faults,
minor-faults` (the same run seen by a second tool) when perf is there.
Checks, exactly: 64 DemandZeroFault events in the anonymous range, 32
HardPageFault and 32 HardFault events in the file's range, each page's
ReadOffset, the file named; every mmap, munmap, mremap and brk as one
VirtualAlloc or VirtualFree of its address and size; `petw report memory`:
the workload's soft and hard faults equal to perf stat's minor-faults and
major-faults, its bytes mapped and unmapped and peak equal to the trace's
VirtualAlloc/VirtualFree; --by file: the file's 32 hard faults and 32 pages,
their total time within 5% (or 5 us a read) of what the workload measured
around its reads; the Perfetto export has the faults as instants and the
mapped bytes as a counter. With perf's fault events made absent
(PETW_NO_FAULT_EVENTS=1) the recorder says in one line that it records no
faults and still records the virtual memory calls exactly; with the
syscalls' tracepoints absent, one line says so and the faults are recorded.
And a run under strace (the workload's mmap, munmap, brk and mremap as
strace saw them, counted as petw counts them: whole pages, the break's
pages gained or lost, mremap's pages added or removed): the view's bytes
mapped, unmapped and peak equal strace's.
Exit 77 (skipped) where perf events are not allowed, or where the file's
pages cannot be dropped (a file system without a page cache to drop)."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from petw_cli import need_kernel_groups  # noqa: E402

petw, workload = sys.argv[1], sys.argv[2]
NAME = "analysis_memory"


def skip(why):
    print("%s: skipped: %s" % (NAME, why))
    sys.exit(77)


def fail(why):
    print("%s: %s" % (NAME, why))
    sys.exit(1)





def run(args, env=None):
    r = subprocess.run(args, capture_output=True, text=True, env=env)
    if r.returncode != 0:
        fail("%s failed: %s" % (" ".join(args[:3]), r.stderr))
    return r.stdout


def record(tmp, etl, prefix, env):
    """Records the workload (under `prefix`); returns (petw's stdout, the workload's lines)."""
    cmd = [petw, "record", "--kernel", "memory,process,thread", "--kernel-scope", "process",
           "-o", etl, "--"] + prefix + [workload, tmp]
    r = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if r.returncode != 0:
        if re.search(r"not supported|permission denied|not allowed|refuses", r.stderr, re.I):
            skip(r.stderr.strip())
        fail("petw record failed: " + r.stderr + r.stdout)
    if "exit status 0" not in r.stdout:
        fail("the workload failed: " + r.stdout + r.stderr)
    lines = [l.split() for l in r.stdout.splitlines()]
    ops = [(l[0], int(l[1], 16), int(l[2])) for l in lines
           if len(l) == 3 and re.match(r"^[0-9a-f]+$", l[1]) and l[2].isdigit()]
    return r.stdout, ops


def events(etl):
    out = run([petw, "dump", etl, "--format", "json"])
    return [json.loads(l) for l in out.splitlines() if l.startswith("{")]


def report(etl, *extra):
    out = run([petw, "report", "memory", etl, "--format", "json", "--top", "0"] + list(extra))
    return json.loads(out)


def rows_of(doc):
    """The rows of a view's JSON, whatever its nesting: a list of dicts."""
    if isinstance(doc, list):
        for d in doc:
            r = rows_of(d)
            if r is not None:
                return r
        return None
    if isinstance(doc, dict):
        if "rows" in doc:
            return doc["rows"]
        for v in doc.values():
            r = rows_of(v)
            if r is not None:
                return r
    return None


def strace_bytes(path, page):
    """Bytes mapped, unmapped and the peak of mapped less unmapped from an
    strace log of mmap, munmap, brk and mremap, counted as petw counts them."""
    up = lambda n: (n + page - 1) // page * page
    mapped = unmapped = net = peak = 0
    brk = None
    for line in open(path):
        m = re.match(r"(\w+)\((.*)\)\s+= (-?\w+)", line.strip())
        if not m or m.group(3).startswith("-"):
            continue
        call, args, ret = m.group(1), [a.strip() for a in m.group(2).split(",")], \
            int(m.group(3), 0)
        gained = lost = 0
        if call == "mmap":
            gained = up(int(args[1], 0))
        elif call == "munmap":
            lost = up(int(args[1], 0))
        elif call == "brk":
            if brk is not None:
                gained, lost = max(0, up(ret) - up(brk)), max(0, up(brk) - up(ret))
            brk = ret
        elif call == "mremap":
            old, new = up(int(args[1], 0)), up(int(args[2], 0))
            if ret == int(args[0], 0):
                gained, lost = max(0, new - old), max(0, old - new)
            else:
                gained, lost = new, old
        mapped += gained
        net += gained
        peak = max(peak, net)
        unmapped += lost
        net -= lost
    return mapped, unmapped, peak


def check_vm(evs, pid, ops, page):
    """Each call the workload made is one VirtualAlloc or VirtualFree of its range."""
    va = [(e["event"], int(e["fields"]["BaseAddress"], 16), int(e["fields"]["RegionSize"], 16))
          for e in evs if e["provider"] == "PageFault" and e["fields"].get("ProcessId") == pid
          and e["event"] in ("VirtualAlloc", "VirtualFree")]
    want = {"mmap": "VirtualAlloc", "reserve": "VirtualAlloc", "munmap": "VirtualFree",
            "shrink": "VirtualFree", "grow": "VirtualAlloc", "brk+": "VirtualAlloc",
            "brk-": "VirtualFree"}
    calls = {}
    for op, addr, size in ops:
        if op in want:
            key = (want[op], addr, (size + page - 1) // page * page)
            calls[key] = calls.get(key, 0) + 1
    n = 0
    for key, count in calls.items():
        got = va.count(key)
        if got != count:
            fail("%s %x %d: %d events of that range, expected %d (%d such events of pid %d)"
                 % (key + (got, count, len(va), pid)))
        n += count
    print("%s: %d memory calls, each one %s of its exact range" % (NAME, n, "event"))
    return va


def main():
    page = os.sysconf("SC_PAGESIZE")
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, PETW_RUNTIME_DIR=os.path.join(tmp, "rt"))
        etl = os.path.join(tmp, "memory.etl")
        stat = os.path.join(tmp, "stat.txt")
        perf = shutil.which("perf")
        prefix = [perf, "stat", "-x,", "-o", stat, "-e",
                  "page-faults,major-faults,minor-faults", "--"] if perf else []
        out, ops = record(tmp, etl, prefix, env)
        if perf and not os.path.exists(stat):
            prefix, perf = [], None
            out, ops = record(tmp, etl, [], env)
        info = {op: (addr, size) for op, addr, size in ops}
        if info["cached"][0] != 0:
            skip("%d of the file's pages stayed cached after POSIX_FADV_DONTNEED"
                 % info["cached"][0])
        need_kernel_groups(out, ["page_faults", "hard_faults", "virt_alloc"], skip=skip)
        if "page_faults,hard_faults,virt_alloc" not in out:
            fail("the recorder did not grant memory: " + out)
        evs = events(etl)
        pf = pf_all = [e for e in evs if e["provider"] == "PageFault"]
        # The workload's own faults: perf (its parent here) may map memory
        # at the same addresses (without ASLR, as under TSan).
        mine = {e["fields"].get("ProcessId") for e in evs if e["provider"] == "Process"
                and str(e["fields"].get("ImageFileName", "")).startswith("an_memory")}
        if mine:
            pf = [e for e in pf if e["pid"] in mine or e["event"] in ("VirtualAlloc",
                                                                     "VirtualFree")]
        anon, anon_pages = info["anon"]
        file_at, file_pages = info["file"]
        # From each range's mapping on: without ASLR its addresses may have
        # held another mapping (the loader's) before.
        def mapped_at(lo):
            return max([e["timestamp"] for e in pf_all if e["event"] == "VirtualAlloc"
                        and int(e["fields"]["BaseAddress"], 16) == lo] or [""])
        since_map = min(mapped_at(anon), mapped_at(file_at))
        pr = [e for e in pf if e["timestamp"] >= since_map]
        pids = {e["pid"] for e in pr if e["event"] == "DemandZeroFault"
                and anon <= int(e["fields"]["VirtualAddress"], 16) < anon + anon_pages * page}
        if len(pids) != 1:
            fail("the anonymous range's faults come from processes %s" % sorted(pids))
        pid = pids.pop()

        def in_range(e, lo, n):
            return lo <= int(e["fields"]["VirtualAddress"], 16) < lo + n * page

        dz = [e for e in pr if e["event"] == "DemandZeroFault" and in_range(e, anon, anon_pages)]
        other = [e for e in pr if e["event"] != "DemandZeroFault" and "VirtualAddress" in
                 e["fields"] and in_range(e, anon, anon_pages)]
        if len(dz) != anon_pages or other or \
                len({int(e["fields"]["VirtualAddress"], 16) // page for e in dz}) != anon_pages:
            fail("anonymous pages: %d DemandZeroFault (%d other faults), expected %d, one a page"
                 % (len(dz), len(other), anon_pages))
        hpf = [e for e in pr if e["event"] == "HardPageFault" and in_range(e, file_at, file_pages)]
        hf = [e for e in pr if e["event"] == "HardFault" and in_range(e, file_at, file_pages)]
        soft_in_file = [e for e in pr if e["event"] in ("TransitionFault", "DemandZeroFault")
                        and in_range(e, file_at, file_pages)]
        if len(hpf) != file_pages or len(hf) != file_pages or soft_in_file:
            fail("file pages: %d HardPageFault, %d HardFault, %d soft faults; expected %d, %d, 0"
                 % (len(hpf), len(hf), len(soft_in_file), file_pages, file_pages))
        offsets = sorted(int(e["fields"]["ReadOffset"]) for e in hf)
        if offsets != [k * page for k in range(file_pages)]:
            fail("HardFault ReadOffsets %s, expected each page's" % offsets[:8])
        objects = {e["fields"]["FileObject"] for e in hf}
        names = {e["fields"]["FileObject"]: e["fields"].get("FileName") for e in evs
                 if e["provider"] == "FileIo" and e["event"] in ("Name", "FileName")}
        if len(objects) != 1 or not (names.get(next(iter(objects))) or "").endswith(
                "/memory.dat"):
            fail("HardFault FileObjects %s named %s" % (objects, names))
        if any(int(e["fields"]["TThreadId"]) != pid or int(e["fields"]["ByteCount"]) != page
               for e in hf):
            fail("HardFault's TThreadId or ByteCount wrong")
        print("%s: %d demand-zero faults in the anonymous pages, %d hard faults (HardPageFault "
              "and HardFault, ReadOffsets 0..%d pages) in memory.dat: exact"
              % (NAME, len(dz), len(hf), file_pages - 1))
        va = check_vm(evs, pid, ops, page)

        # The view: per process, and by file.
        rows = rows_of(report(etl))
        row = [r for r in rows if int(r["PID"]) == pid]
        if len(row) != 1:
            fail("report memory has no row for pid %d: %s" % (pid, rows))
        row = row[0]
        mapped = sum(s for k, a, s in va if k == "VirtualAlloc")
        unmapped = sum(s for k, a, s in va if k == "VirtualFree")
        net = peak = 0
        for k, a, s in va:
            net += s if k == "VirtualAlloc" else -s
            peak = max(peak, net)
        soft_all = sum(1 for e in pf if e["pid"] == pid and e["event"] in
                       ("TransitionFault", "DemandZeroFault", "CopyOnWrite", "GuardPageFault"))
        hard_all = sum(1 for e in pf if e["pid"] == pid and e["event"] == "HardPageFault")
        got = (int(row["Soft faults"]), int(row["Hard faults"]), int(row["Mapped bytes"]),
               int(row["Unmapped bytes"]), int(row["Peak bytes"]))
        want = (soft_all, hard_all, mapped, unmapped, peak)
        if got != want:
            fail("report memory's row %s, the trace's events give %s" % (got, want))
        print("%s: report memory: %d soft, %d hard faults, %d bytes mapped, %d unmapped, "
              "peak %d: the trace's exactly" % ((NAME,) + got))
        if perf:
            counts = {}
            for line in open(stat):
                f = line.strip().split(",")
                if len(f) >= 3 and f[0].isdigit():
                    counts[f[2]] = int(f[0])
            # perf stat counts from the exec (its child's faults before it
            # are perf's): the trace's from the workload's Process/Start on.
            starts = [e["timestamp"] for e in evs if e["provider"] == "Process"
                      and e["opcode"] == 1 and e["pid"] == pid]
            since = max(starts) if starts else ""
            soft = sum(1 for e in pf if e["pid"] == pid and e["timestamp"] >= since and e["event"]
                       in ("TransitionFault", "DemandZeroFault", "CopyOnWrite", "GuardPageFault"))
            hard = sum(1 for e in pf if e["pid"] == pid and e["timestamp"] >= since
                       and e["event"] == "HardPageFault")
            if counts.get("minor-faults") != soft or counts.get("major-faults") != hard:
                fail("perf stat counted %s; petw's faults from the exec on: %d soft, %d hard"
                     % (counts, soft, hard))
            print("%s: perf stat on the same run: minor-faults %d, major-faults %d: equal to "
                  "petw's from the exec on (%d soft faults before it, in perf's child)"
                  % (NAME, counts["minor-faults"], counts["major-faults"], got[0] - soft))
        else:
            print("%s: perf is not installed: no second tool compared" % NAME)
        rows = rows_of(report(etl, "--by", "file"))
        frow = [r for r in rows if r["File"].endswith("/memory.dat")]
        if len(frow) != 1 or int(frow[0]["Hard faults"]) != file_pages or \
                int(frow[0]["Bytes"]) != file_pages * page:
            fail("report memory --by file: %s" % rows)
        total_ms = float(frow[0]["Total ms"])
        loop_ms = info["file_ns"][0] / 1e6
        print("%s: report memory --by file: memory.dat %d hard faults, %d bytes, %.3f ms against "
              "the %.3f ms the workload measured around its reads (%+.1f%%)"
              % (NAME, file_pages, file_pages * page, total_ms, loop_ms,
                 100.0 * (total_ms - loop_ms) / loop_ms))
        # Each timed read holds its fault and, outside it, the exception's
        # entry and return and the tracer's work: 1.4 to 1.9 us a read here
        # (45 to 60 us in all), 2.5% to 3.5% of reads that took 1.3 to 1.9 ms,
        # more of a faster disk's. Within 5%, or 5 us a read.
        slack = max(0.05 * loop_ms, file_pages * 0.005)
        if abs(total_ms - loop_ms) > slack:
            fail("hard faults' time %.3f ms, the reads took %.3f ms (not within %.3f ms: 5%%, "
                 "or 5 us a read)" % (total_ms, loop_ms, slack))

        # Perfetto: faults as instants, mapped bytes as a counter.
        pft = os.path.join(tmp, "m.pftrace")
        r = subprocess.run([petw, "convert", etl, "--to", "perfetto", "-o", pft],
                           capture_output=True, text=True)
        m = re.search(r"(\d+) page faults, (\d+) mapped-bytes values", r.stderr)
        vm_events = len([e for e in pf_all if e["event"] in ("VirtualAlloc", "VirtualFree")])
        fault_events = len(pf_all) - vm_events
        if r.returncode != 0 or not m or int(m.group(1)) != fault_events or \
                int(m.group(2)) != vm_events:
            fail("perfetto export: %s (trace: %d faults, %d VirtualAlloc/Free)"
                 % (r.stderr.strip(), fault_events, vm_events))
        here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common")
        if shutil.which("protoc"):
            sys.path.insert(0, here)
            import perfetto_decode
            packets = perfetto_decode.decode(pft, os.path.join(here, "perfetto_trace.proto"), fail)
            tes = [te for p in packets for te in p.get("track_event", [])]
            instants = [te for te in tes if perfetto_decode.one(te, "type") == "TYPE_INSTANT"
                        and perfetto_decode.one(te, "categories") == "PageFault"]
            hard = [te for te in instants if perfetto_decode.one(te, "name") == "HardFault"]
            values = [float(perfetto_decode.one(te, "double_counter_value")) for te in tes
                      if perfetto_decode.one(te, "type") == "TYPE_COUNTER"]
            if len(instants) != fault_events or len(hard) != len(
                    [e for e in pf_all if e["event"] == "HardFault"]) or len(values) != vm_events:
                fail("perfetto: %d fault instants (%d HardFault), %d counter values; the trace "
                     "has %d faults, %d VirtualAlloc/Free" % (len(instants), len(hard),
                                                              len(values), fault_events,
                                                              vm_events))
            print("%s: perfetto (protoc): %d fault instants (%d HardFault), %d mapped-bytes "
                  "counter values" % (NAME, len(instants), len(hard), len(values)))

        # strace on the same run: the bytes the view gives.
        strace = shutil.which("strace")
        if strace:
            slog = os.path.join(tmp, "strace.txt")
            etl4 = os.path.join(tmp, "strace.etl")
            out4, ops4 = record(tmp, etl4, [strace, "-qq", "-o", slog, "-e",
                                            "trace=mmap,munmap,brk,mremap"], env)
            evs4 = events(etl4)
            anon4 = dict((o, a) for o, a, s in ops4)["anon"]
            pid4 = {e["fields"]["ProcessId"] for e in evs4 if e["provider"] == "PageFault"
                    and e["event"] == "VirtualAlloc"
                    and int(e["fields"]["BaseAddress"], 16) == anon4}
            rows4 = [r for r in rows_of(report(etl4)) if int(r["PID"]) in pid4]
            got4 = tuple(int(rows4[0][k]) for k in ("Mapped bytes", "Unmapped bytes",
                                                     "Peak bytes")) if len(rows4) == 1 else None
            want4 = strace_bytes(slog, page)
            if got4 != want4:
                fail("under strace: the view's mapped, unmapped, peak %s; strace's %s"
                     % (got4, want4))
            print("%s: strace on the same run: %d bytes mapped, %d unmapped, peak %d: equal"
                  % ((NAME,) + want4))
        else:
            print("%s: strace is not installed: its comparison skipped" % NAME)

        # The OS's page-fault events absent: said in one line, the rest recorded.
        env2 = dict(env, PETW_NO_FAULT_EVENTS="1")
        etl2 = os.path.join(tmp, "nofault.etl")
        out2, ops2 = record(tmp, etl2, [], env2)
        said = [l for l in out2.splitlines() if l.startswith("Not recorded:")]
        if len(said) != 1 or "page_faults, hard_faults" not in said[0]:
            fail("without fault events the recorder said: " + out2)
        evs2 = events(etl2)
        if any(e["provider"] == "PageFault" and e["event"] not in ("VirtualAlloc", "VirtualFree")
               for e in evs2):
            fail("faults recorded with the fault events absent")
        pid2 = {e["fields"]["ProcessId"] for e in evs2 if e["provider"] == "PageFault"
                and e["event"] == "VirtualAlloc" and int(e["fields"]["BaseAddress"], 16) ==
                dict((o, a) for o, a, s in ops2)["anon"]}
        if len(pid2) != 1:
            fail("the anonymous mapping's VirtualAlloc not found without fault events")
        check_vm(evs2, pid2.pop(), ops2, page)
        print("%s: without page-fault events: one line says so (%s), the memory calls recorded"
              % (NAME, said[0].split(":", 1)[1].strip()[:40]))

        # The syscalls' tracepoints absent: said in one line, faults recorded.
        env3 = dict(env, PETW_NO_TRACEPOINTS="syscalls/sys_enter_mmap")
        etl3 = os.path.join(tmp, "novm.etl")
        out3, ops3 = record(tmp, etl3, [], env3)
        said = [l for l in out3.splitlines() if l.startswith("Not recorded:")]
        if len(said) != 1 or "virt_alloc" not in said[0]:
            fail("without the syscalls' tracepoints the recorder said: " + out3)
        evs3 = events(etl3)
        info3 = {o: (a, s) for o, a, s in ops3}
        if any(e["provider"] == "PageFault" and e["event"] in ("VirtualAlloc", "VirtualFree")
               for e in evs3):
            fail("VirtualAlloc recorded with the tracepoints absent")
        hf3 = [e for e in evs3 if e["provider"] == "PageFault" and e["event"] == "HardFault"
               and in_range(e, info3["file"][0], file_pages)]
        if len(hf3) != file_pages:
            fail("without the syscalls' tracepoints: %d hard faults in the file" % len(hf3))
        print("%s: without the syscalls' tracepoints: one line says so, %d hard faults recorded"
              % (NAME, len(hf3)))


main()
