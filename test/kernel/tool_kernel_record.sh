#!/bin/sh
# SPDX-License-Identifier: MIT
# tool_kernel_record.sh PYTHON PETW: `petw record --kernel` records the
# system provider's events around a command, in a session named "NT Kernel
# Logger" (another with --name), and returns the command's exit status;
# with --kernel-scope process the command is held until the session traces
# it (a program that is not there costs no session: 127); that is the
# default, with the process group added so that processes are named, and
# -a records every process's. Then, where the
# system gives kernel events: the file holds Process, Thread, CSwitch and
# SampledProfile records with stacks, the command's process among them by
# its ID, and its timeline export shows the command's process by name, CPU
# tracks and samples on its threads, and record's summary counts the
# kernel classes' events (by name, the most frequent first); with --kernel-scope process, samples
# of the command's threads alone. Exit status 77 (skipped) where the
# system refuses or gives no kernel events (no perf events, not allowed,
# or no system provider in this build).
set -eu
py=$1 petw=$2
dir=$(mktemp -d)
export PETW_RUNTIME_DIR="$dir/rt"
cleanup() {
    "$petw" stop "NT Kernel Logger" >/dev/null 2>&1 || true
    "$petw" stop "kernel record test" >/dev/null 2>&1 || true
    rm -rf "$dir"
}
trap cleanup EXIT
cd "$dir"
fail() { echo "tool_kernel_record: $*" >&2; exit 1; }
skip() { echo "tool_kernel_record: skipped: $*"; exit 77; }

# A command that runs on a CPU for a while (samples) and writes its ID.
busy='echo $$ > pid; i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done; exit 3'

# The session and its name; the command's exit status. A refusal of
# kernel events is the only acceptable failure.
rc=0
"$petw" record -a --kernel process,thread,cswitch,profile --stacks profile -o sys.etl \
    -- sh -c "$busy" > sys.out 2> err || rc=$?
cp sys.out out
if [ "$rc" = 1 ] && grep -qE "operation or mode not supported|permission denied" err; then
    skip "$(cat err)"
fi
[ "$rc" = 3 ] || fail "exit status $rc, not the command's 3: $(cat err)"
grep -q "in session 'NT Kernel Logger'" out || fail "not the kernel logger's name: $(cat out)"
grep -q "^Kernel: *process,thread,cswitch,profile (stacks: profile)$" out ||
    fail "no kernel line: $(cat out)"
sys_pid=$(cat pid)

rc=0
"$petw" record --kernel cswitch,profile,process,thread --kernel-scope process \
    --name "kernel record test" -o own.etl -- sh -c "$busy" > out 2> err || rc=$?
[ "$rc" = 3 ] || fail "--kernel-scope process: exit status $rc: $(cat err)"
grep -q "in session 'kernel record test'" out || fail "--name not taken: $(cat out)"
own_pid=$(cat pid)
grep -q "of process $own_pid and its descendants" out ||
    fail "not the command's process: $(cat out)"

# By default (as perf record -- CMD): the command's process tree, and its
# processes named (the process group added to those asked for).
rc=0
"$petw" record --kernel profile --stacks profile -o def.etl -- sh -c "$busy" > out 2> err ||
    rc=$?
[ "$rc" = 3 ] || fail "the default scope: exit status $rc: $(cat err)"
def_pid=$(cat pid)
grep -q "^Kernel: *process,profile (stacks: profile) of process $def_pid and its descendants" \
    out || fail "not the command's process tree, or no process group, by default: $(cat out)"

rc=0
"$petw" record --kernel cswitch --kernel-scope process -o none.etl -- ./no-such-program \
    > out 2> err || rc=$?
[ "$rc" = 127 ] || fail "a missing program: exit status $rc"
grep -q "cannot run './no-such-program'" err || fail "no message: $(cat err)"
[ ! -e none.etl ] || fail "a session was started for a missing program"

# What the system provider recorded.
"$petw" dump sys.etl --format json > sys.jsonl
"$petw" dump own.etl --format json > own.jsonl
if ! grep -q '"provider":"Thread"' sys.jsonl; then
    skip "no kernel events recorded (no system provider here)"
fi
"$petw" dump def.etl --format json | grep '"provider":"Process"' |
    grep -q "\"ProcessId\":$def_pid," || fail "the default scope: no Process event of the command"
# The summary counts the kernel classes' events as any provider's.
grep -qE "^  [0-9]+ +Thread \(3d6fa8d1-fe05-11d0-9dda-00c04fd7ba7c\)$" sys.out ||
    fail "no Thread events in the summary: $(cat sys.out)"
# The providers by count, the most events first.
awk '/^  [0-9]+ / { if (seen && $1 + 0 > last) bad = 1; last = $1 + 0; seen = 1 }
     END { exit bad }' sys.out || fail "the summary is not sorted by count: $(cat sys.out)"
"$petw" convert sys.etl --to chrome -o sys.json 2>/dev/null
"$petw" convert own.etl --to chrome -o own.json 2>/dev/null

SYS_PID=$sys_pid OWN_PID=$own_pid "$py" - <<'PY'
import json, os
sys_pid, own_pid = int(os.environ["SYS_PID"]), int(os.environ["OWN_PID"])

def events(path):
    return [json.loads(l) for l in open(path)]

sys = events("sys.jsonl")
kinds = {(e["provider"], e["event"]) for e in sys}
for want in [("Thread", "CSwitch"), ("PerfInfo", "SampleProf"), ("StackWalk", "Stack")]:
    assert want in kinds, (want, sorted(kinds))
assert kinds & {("Process", "Start"), ("Process", "DCStart")}, sorted(kinds)
procs = {e["fields"]["ProcessId"] for e in sys if e["provider"] == "Process"}
assert sys_pid in procs, ("the command's process is not there", sys_pid)

chrome = json.load(open("sys.json"))["traceEvents"]
names = {e["pid"]: e["args"]["name"] for e in chrome if e.get("name") == "process_name"}
assert names.get(4294967294) == "CPUs", names
assert not names.get(sys_pid, "process ").startswith("process "), names.get(sys_pid)
assert any(e["ph"] == "B" and e["pid"] == 4294967294 for e in chrome), "no CPU slice"
samples = [e for e in chrome if e.get("name") == "PerfInfo/SampleProf"]
assert any(e["pid"] == sys_pid for e in samples), "no sample of the command"
assert any("stack" in e["args"] for e in samples), "no sample with its stack"

# Process scope: the command's family alone.
own = events("own.jsonl")
family = {own_pid}
threads = {}
for e in own:
    f = e.get("fields", {})
    if e["provider"] == "Process" and f.get("ParentId") in family:
        family.add(f["ProcessId"])
    if e["provider"] == "Thread" and "TThreadId" in f:
        threads[f["TThreadId"]] = f["ProcessId"]
sampled = {e["fields"]["ThreadId"] for e in own if e["event"] == "SampleProf"}
assert sampled, "no samples of the command"
strangers = [t for t in sampled if t and threads.get(t, t) not in family and t not in family]
assert not strangers, ("samples of other processes' threads", strangers)
PY
echo "tool_kernel_record: kernel events recorded system-wide and for the command alone"
