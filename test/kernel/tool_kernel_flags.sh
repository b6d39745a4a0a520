#!/bin/sh
# SPDX-License-Identifier: MIT
# tool_kernel_flags.sh PETW: the kernel options of `petw start` and `petw
# record` (--kernel, --stacks, --profile-interval-us, --kernel-scope) take
# the group names in any case and `all`, and refuse an unknown name, an
# empty one, stacks or an interval without their group, and a scope without
# --kernel: a usage error (exit status 2) that names the culprit, before
# any session starts.
set -eu
petw=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
export PETW_RUNTIME_DIR="$dir/run"

# refused EXPECTED_TEXT ARGS...: exit status 2 and EXPECTED_TEXT on stderr.
refused() {
    want=$1
    shift
    rc=0
    "$petw" "$@" > out 2> err || rc=$?
    if [ "$rc" != 2 ] || ! grep -qF -- "$want" err; then
        echo "petw $*: exit status $rc, stderr:" >&2
        cat err >&2
        exit 1
    fi
}

refused "unknown kernel event group 'bogus' in 'process,bogus'" \
    start k --kernel process,bogus -o k.etl
refused "unknown kernel event group 'disks'" record --kernel disks -o k.etl -- true
refused "unknown kernel event group ''" start k --kernel process,,thread -o k.etl
refused "unknown kernel event group ''" start k --kernel= -o k.etl
refused "--stacks: unknown kernel event group 'stack'" \
    start k --kernel profile --stacks stack -o k.etl
refused "--stacks needs --kernel" start k -p Some.Provider --stacks profile -o k.etl
refused "--stacks cswitch: not in --kernel" \
    record --kernel profile --stacks profile,cswitch -o k.etl -- true
refused "--profile-interval-us needs --kernel profile" \
    start k --kernel cswitch --profile-interval-us 100 -o k.etl
refused "not a sampling interval in microseconds (10-1000000): '5'" \
    start k --kernel profile --profile-interval-us 5 -o k.etl
refused "--kernel-scope needs --kernel" record --kernel-scope process -o k.etl -- true
refused "--kernel-scope: 'thread' is not system or process" \
    record --kernel cswitch --kernel-scope=thread -o k.etl -- true
refused "option '--kernel' needs a value" start k -o k.etl --kernel
refused "--stacks dispatcher: not in --kernel" \
    record --kernel cswitch --stacks cswitch,readythread -o k.etl -- true
refused "'REGISTRY': petw does not record that kernel class yet" \
    start k --kernel proc_thread,REGISTRY -o k.etl

# Every name (any case, xperf's too) and `all` pass: what stops these is
# the missing output, checked after the options.
refused "no output" start --kernel Process,THREAD,image,cswitch,profile,disk,dispatcher
refused "no output" start --kernel all --stacks profile,cswitch --profile-interval-us 250
refused "no output" start --kernel proc_thread,loader,disk_io
refused "no output" start --kernel file,FILE_IO,File_IO_Init,DISK_FILE_IO,FileName
refused "no output" start --kernel SysProf --stacks Profile
refused "no output" start --kernel cswitch,dispatcher --stacks CSwitch,ReadyThread
# xperf's Latency group: what it maps to, and what it lacks here, said.
refused "its DPC and INTERRUPT are not recorded" start --kernel Latency
# The memory groups, petw's names and xperf's.
refused "no output" start --kernel memory
refused "no output" start --kernel PAGE_FAULTS,HARD_FAULTS,VIRT_ALLOC,ALL_FAULTS
refused "no output" start k --kernel=all --stacks=profile
test ! -e "$dir/run" || test -z "$(ls -A "$dir/run")"
test ! -e k.etl
echo "tool_kernel_flags: kernel group names parsed, bad ones refused with a usage error"
