#!/bin/sh
# SPDX-License-Identifier: MIT
# tool_kernel_chrome.sh PYTHON PETW GEN_KERNEL_TRACE: the timeline export of
# a kernel trace (two CPUs; process and thread rundown, context switches,
# CPU samples with and without their StackWalk event) is a timeline of the
# system: processes and threads named from their rundown (ImageFileName)
# and renamed when a process starts a new program,
# a track per CPU in a "CPUs" process with a slice per thread that ran
# there (none for the idle thread), and each sample an instant on the
# thread it sampled, with its instruction pointer and its stack's frames.
set -eu
py=$1 petw=$2 gen=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
"$gen" t.etl timeline
"$petw" convert t.etl --to chrome -o t.json 2> convert.err
grep -q '^petw: 16 events to t.json$' convert.err

"$py" - <<'PY'
import json
events = json.load(open("t.json"))["traceEvents"]
CPUS = 4294967294
meta = [e for e in events if e["ph"] == "M"]
processes = {e["pid"]: e["args"]["name"] for e in meta if e["name"] == "process_name"}
threads = {(e["pid"], e["tid"]): e["args"]["name"] for e in meta if e["name"] == "thread_name"}
assert processes[1234] == "app.exe" and processes[4321] == "renamed.exe", processes
assert processes[CPUS] == "CPUs", processes
assert threads[(1234, 77)] == "app.exe" and threads[(4321, 88)] == "other.exe", threads
assert threads[(CPUS, 0)] == "CPU 0" and threads[(CPUS, 1)] == "CPU 1", threads
# A name's last record is the one viewers show: a process that ran a new
# program (Start again) has its name, and so has its first thread.
last = {}
for e in meta:
    if e["name"] in ("process_name", "thread_name"):
        last[(e["name"], e["pid"], e["tid"])] = e["args"]["name"]
assert last[("process_name", 1234, 0)] == "app.exe", last
assert last[("process_name", 4321, 0)] == "renamed.exe", last
assert last[("thread_name", 4321, 4321)] == "renamed.exe", last
assert last[("thread_name", 4321, 88)] == "other.exe", last

# Per CPU: the slices of the threads that ran there, in order, and nested
# nowhere (each ends before the next starts).
def cpu_slices(cpu):
    out, open_ = [], None
    for e in events:
        if e.get("pid") != CPUS or e.get("tid") != cpu or e["ph"] == "M":
            continue
        if e["ph"] == "B":
            assert open_ is None, ("nested", e)
            open_ = e
        elif e["ph"] == "E":
            assert open_ is not None, ("E without B", e)
            out.append((open_["name"], open_["ts"], e["ts"], open_["args"]["NewThreadId"]))
            open_ = None
    assert open_ is None
    return out

# (A thread still running at the end runs until the trace's last record.)
assert cpu_slices(0) == [("app.exe (77)", 110.0, 310.0, 77)], cpu_slices(0)
assert cpu_slices(1) == [("other.exe (88)", 160.0, 410.0, 88),
                         ("app.exe (77)", 410.0, 510.0, 77)], cpu_slices(1)

samples = sorted((e for e in events if e["ph"] == "i" and e["name"] == "PerfInfo/SampleProf"),
                 key=lambda e: e["ts"])
assert len(samples) == 3, samples
s0, s1, s2 = samples
assert (s0["pid"], s0["tid"], s0["ts"]) == (1234, 77, 210.0), s0
assert s0["args"]["InstructionPointer"] == "0x401000", s0
assert s0["args"]["stack"] == ["0x401000", "0x402000", "0x403000"], s0
assert (s1["pid"], s1["tid"]) == (4321, 88) and "stack" not in s1["args"], s1
assert (s2["pid"], s2["tid"]) == (1234, 77), s2
assert s2["args"]["stack"] == ["0x401100", "0x403000"], s2
# A stack that went to its sample is not an event of its own.
assert not [e for e in events if e.get("name") == "StackWalk/Stack"], "StackWalk left over"
# Everything else is as for any record: the rundown events as instants.
names = [e["name"] for e in events if e["ph"] == "i"]
assert names.count("Process/DCStart") == 2 and names.count("Thread/DCStart") == 3, names
assert names.count("Process/Start") == 1, names
PY
echo "tool_kernel_chrome: processes and threads named, a track per CPU, samples with their stacks"
