#!/bin/sh
# SPDX-License-Identifier: MIT
# tool_record_profile.sh PETW: `petw record --profile NAME` with one of WPR's
# built-in profiles records what it maps to: `--profile CPU` says it maps to
# the process, thread, image, cswitch, dispatcher and profile groups with
# stacks of profile, cswitch and readythread, the session is the kernel
# logger's and follows the command, and the file holds sampled profiles,
# context switches and ready-thread events (where the OS grants this user
# their tracepoint) of the command's process with their stacks; `--kernel`
# on the command line wins over the profile's groups; a profile whose groups
# petw has no source for says, one line each, what it leaves out and
# records the rest; `petw start --profile` takes the names too (refused,
# saying so, to a user the OS keeps every process's events from); a name
# that is neither a file nor a built-in profile is refused with the list.
# Exit status 77 (skipped) where the system refuses kernel events.
set -eu
petw=$1
dir=$(mktemp -d)
export PETW_RUNTIME_DIR="$dir/rt"
cleanup() {
    "$petw" stop "NT Kernel Logger" >/dev/null 2>&1 || true
    "$petw" stop prof >/dev/null 2>&1 || true
    rm -rf "$dir"
}
trap cleanup EXIT
cd "$dir"
fail() { echo "tool_record_profile: $*" >&2; exit 1; }
skip() { echo "tool_record_profile: skipped: $*"; exit 77; }

# Busy on a CPU, and a child it waits for (switches, wake-ups).
busy='echo $$ > pid; i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done; sleep 0.05; exit 3'

# A name that is neither: refused before anything starts.
rc=0
"$petw" record --profile NoSuchProfile -o x.etl -- true > out 2> err || rc=$?
[ "$rc" = 2 ] || fail "an unknown profile: exit status $rc"
grep -q "NoSuchProfile: no such file, nor one of the built-in profiles (GeneralProfile, CPU, \
DiskIO, FileIO, Network, VirtualAllocation)" err || fail "no list: $(cat err)"
[ ! -e x.etl ] || fail "a file was written for an unknown profile"

rc=0
"$petw" record --profile CPU -o cpu.etl -- sh -c "$busy" > out 2> err || rc=$?
if [ "$rc" = 1 ] && grep -qE "operation or mode not supported|permission denied" err; then
    skip "$(cat err)"
fi
[ "$rc" = 3 ] || fail "exit status $rc, not the command's 3: $(cat err)"
grep -q "^petw: profile 'CPU.Verbose.File' (built in): kernel \
process,thread,image,cswitch,profile,dispatcher, stacks of cswitch,profile,dispatcher$" err ||
    fail "no mapping line: $(cat err)"
grep -q "not supported yet" err && fail "CPU maps wholly, yet: $(cat err)"
pid=$(cat pid)
grep -q "in session 'NT Kernel Logger'" out || fail "not the kernel logger: $(cat out)"
grep -q "^Kernel: .* of process $pid and its descendants" out ||
    fail "not the command's process tree: $(cat out)"
"$petw" dump cpu.etl --format json > cpu.jsonl
# Ready-thread events come from a tracepoint, which the OS may keep from a
# user: the summary's Kernel line then leaves out dispatcher, and the file
# has none; where it says dispatcher, they must be there.
ready='"event":"ReadyThread"'
grep -q "^Kernel: *[a-z,]*dispatcher" out ||
    { echo "tool_record_profile: note: no dispatcher here: $(grep "^Kernel:" out)"; ready=; }
for what in '"provider":"PerfInfo",[^}]*"event":"SampleProf"' '"event":"CSwitch"' \
    $ready '"provider":"StackWalk"'; do
    grep -q "$what" cpu.jsonl || fail "no $what in the CPU profile's trace"
done
grep '"event":"CSwitch"' cpu.jsonl | grep -q "\"pid\":$pid" ||
    echo "tool_record_profile: note: no CSwitch in the command's process itself"

# --kernel wins over the profile's groups.
rc=0
"$petw" record --profile CPU --kernel profile -o own.etl -- sh -c "$busy" > out 2> err || rc=$?
[ "$rc" = 3 ] || fail "--kernel with --profile: exit status $rc: $(cat err)"
grep -q "^Kernel: *process,profile of process" out ||
    fail "--kernel did not win: $(cat out)"

# A built-in profile with groups petw has no source for: one line each, the
# rest recorded.
rc=0
"$petw" record --profile GeneralProfile.Light -o gen.etl -- sh -c "$busy" > out 2> err || rc=$?
[ "$rc" = 3 ] || fail "GeneralProfile.Light: exit status $rc: $(cat err)"
grep -q "^petw: profile 'GeneralProfile.Light': not supported yet, left out: \
SystemProvider \"SP_General_Light\": Keyword \"MemoryInfo\" (petw has no source for it)$" err ||
    fail "MemoryInfo not reported: $(cat err)"
grep -q "^petw: profile 'GeneralProfile.Light.File' (built in): kernel .*cswitch.*profile" err ||
    fail "no mapping line for GeneralProfile: $(cat err)"
"$petw" dump gen.etl --format json | grep -q '"event":"SampleProf"' ||
    fail "GeneralProfile recorded no samples"

# petw start takes the names too (a session of every process: refused, and
# said so, where the OS keeps their kernel events from this user).
rc=0
"$petw" start prof --profile cpu.light -o start.etl > out 2> err || rc=$?
grep -q "^petw: profile 'CPU.Light.File' (built in): kernel " err || fail "start: $(cat err)"
if [ "$rc" = 0 ]; then
    "$petw" stop prof > out 2> err || fail "stop: $(cat err)"
else
    grep -q "permission denied" err || fail "start: exit status $rc: $(cat err)"
    echo "tool_record_profile: note: a session of every process is refused to this user"
fi
echo "tool_record_profile: built-in profiles record what they map to"
