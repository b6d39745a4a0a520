#!/bin/sh
# SPDX-License-Identifier: MIT
# tool_kernel.sh PYTHON PETW GEN_KERNEL_TRACE: kernel records (laid out as
# the NT Kernel Logger writes them) decode by the built-in class table in
# every output of the petw command: text and CSV name the class and event
# type and show the fields; a record whose header names no process or thread
# (a CPU sample) shows its own ThreadId field, and no process ("-", empty in
# CSV, null in JSON), not 4294967295; the timeline export names its events Class/Type,
# puts a CPU sample (PERFINFO: no process in its header) on the thread it
# sampled, a context switch on its CPU's track, and prints the count it
# wrote; --provider filters by class name. (tool_kernel_chrome.sh tests the
# timeline of kernel records in full.)
set -eu
py=$1 petw=$2 gen=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
"$gen" k.etl

"$petw" dump k.etl > text.out
grep -q 'Image/Load ImageBase=0x7ff600000000 ImageSize=0x20000 ProcessId=1234 .* FileName="C:\\\\app\\\\lib.dll"$' text.out
grep -q 'Thread/Start ProcessId=1234 TThreadId=77 .* Win32StartAddr=0x7ff600001000 .* BasePriority=8 ' text.out
grep -q 'Thread/CSwitch NewThreadId=77 OldThreadId=0 NewThreadPriority=8 .* NewThreadWaitTime=9 ' text.out
# A sample's header names no process or thread: its own ThreadId, no process.
grep -q 'pid=- tid=77 .*PerfInfo/SampleProf InstructionPointer=0xfffff80012345678 ThreadId=77 Count=1 ' text.out
grep -q 'Thread/Start ProcessId=1234 TThreadId=77 ' text.out
grep -q 'EventTrace/Header BufferSize=4096 .* SessionNameString="NT Kernel Logger"' text.out

"$petw" dump k.etl --format csv > k.csv
"$petw" dump k.etl --format json > k.jsonl
"$petw" convert k.etl --to chrome -o k.json 2> convert.err
grep -q '^petw: 5 events to k.json$' convert.err
"$petw" dump k.etl --provider Image --format json > image.jsonl
"$petw" dump k.etl --provider PerfInfo --format json > perf.jsonl

"$py" - <<'PY'
import csv, json
rows = list(csv.DictReader(open("k.csv", newline="")))
names = [(r["provider"], r["event"]) for r in rows]
assert names == [("EventTrace", "Header"), ("Image", "Load"), ("Thread", "Start"),
                 ("Thread", "CSwitch"), ("PerfInfo", "SampleProf")], names
load = json.loads(rows[1]["fields"])
assert load["FileName"] == "C:\\app\\lib.dll" and load["ProcessId"] == 1234, load
assert json.loads(rows[3]["fields"])["NewThreadId"] == 77

events = [json.loads(l) for l in open("k.jsonl")]
assert [e["event"] for e in events] == ["Header", "Load", "Start", "CSwitch", "SampleProf"]
assert events[4]["pid"] is None and events[4]["tid"] == 77, events[4]
assert (rows[4]["pid"], rows[4]["tid"]) == ("", "77"), rows[4]

chrome = json.load(open("k.json"))["traceEvents"]
slices = [e for e in chrome if e["ph"] not in ("M", "E")]
assert len(slices) == 5, len(slices)  # the count convert printed
assert [e["name"] for e in slices] == ["EventTrace/Header", "Image/Load", "Thread/Start",
                                       "process 1234 (77)", "PerfInfo/SampleProf"]
tracks = {e["pid"]: e["args"]["name"] for e in chrome if e.get("name") == "process_name"}
assert tracks[4294967294] == "CPUs", tracks
assert tracks[1234] == "process 1234", tracks
cswitch = slices[3]
assert cswitch["ph"] == "B" and cswitch["pid"] == 4294967294 and cswitch["tid"] == 0, cswitch
sample = slices[4]
assert sample["pid"] == 1234 and sample["tid"] == 77, sample
assert sample["args"]["InstructionPointer"] == "0xfffff80012345678"

# A class name selects that class's records (image loads are Image's,
# though the kernel logs them in the process group).
image = [json.loads(l)["event"] for l in open("image.jsonl")]
assert image == ["Load"], image
perf = [json.loads(l)["event"] for l in open("perf.jsonl")]
assert perf == ["SampleProf"], perf
PY
echo "tool_kernel: kernel records named and decoded in text, CSV, JSON and the timeline export"
