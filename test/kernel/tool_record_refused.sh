#!/bin/sh
# SPDX-License-Identifier: MIT
# tool_record_refused.sh PETW: a kernel group `petw record` was asked for
# and the OS does not give is never left out silently: the summary's Kernel
# line names only the groups recorded, and their stacks only, and each group
# left out has a "Not recorded:" line with the reason. With the tracepoints
# of dispatcher, disk and net absent (PETW_NO_TRACEPOINTS) the three are
# said so, naming their tracepoints; run as root, it also records as
# "nobody" (the OS keeps tracefs, and so every tracepoint, from an ordinary
# user), where every group asked must be either recorded or said not to be,
# and the tracepoint groups' lines say this user may not read tracefs.
# Exit status 77 (skipped) where the system refuses this user the events of
# its own command.
set -eu
petw=$1
dir=$(mktemp -d)
cleanup() { rm -rf "$dir"; }
trap cleanup EXIT
cd "$dir"
fail() { echo "tool_record_refused: $*" >&2; exit 1; }
skip() { echo "tool_record_refused: skipped: $*"; exit 77; }

# Every group of `$1` (comma-separated) is in out's Kernel line or in one of
# its "Not recorded:" lines (each exactly once), and the stacks it lists are
# of groups it recorded.
check_said() {
    kernel=$(grep "^Kernel:" out | awk '{print $2}')
    [ -n "$kernel" ] || fail "no Kernel line: $(cat out)"
    for g in $(echo "$1" | tr , ' '); do
        in_kernel=0
        echo ",$kernel," | grep -q ",$g," && in_kernel=1
        said=$(grep -c "^Not recorded: *\([a-z_]*, \)*$g[ ,]" out || true)
        [ $((in_kernel + said)) = 1 ] ||
            fail "$g: recorded $in_kernel, said not recorded $said times: $(cat out)"
    done
    stacks=$(sed -n 's/^Kernel:.*(stacks: \([a-z_,]*\)).*/\1/p' out)
    for s in $(echo "$stacks" | tr , ' '); do
        echo ",$kernel," | grep -q ",$s," || fail "stacks of $s, not recorded: $(cat out)"
    done
}

# The tracepoints of dispatcher, disk and net absent.
rc=0
PETW_RUNTIME_DIR="$dir/rt" \
PETW_NO_TRACEPOINTS=sched/sched_waking,block/block_rq_issue,sock/inet_sock_set_state,\
sock/sock_send_length,sock/sock_recv_length,tcp/tcp_retransmit_skb \
    "$petw" record --kernel process,thread,dispatcher,disk,net --stacks dispatcher \
    -o absent.etl -- true > out 2> err || rc=$?
if [ "$rc" = 1 ] && grep -qE "operation or mode not supported|permission denied" err; then
    skip "$(cat err)"
fi
[ "$rc" = 0 ] || fail "exit status $rc: $(cat err)"
grep -q "^Kernel: *process,thread of process" out || fail "not process,thread alone: $(cat out)"
grep -q "(stacks:" out && fail "stacks listed, of no group recorded: $(cat out)"
grep -q "^Not recorded: *dispatcher (the OS gives no sched:sched_waking tracepoint" out ||
    fail "dispatcher left out unsaid: $(cat out)"
grep -q "^Not recorded: *disk (the OS gives no block:block_rq_issue/complete tracepoints" out ||
    fail "disk left out unsaid: $(cat out)"
grep -q "^Not recorded: *net (the OS gives no sock:inet_sock_set_state, .*tcp_retransmit_skb" out ||
    fail "net left out unsaid: $(cat out)"
check_said process,thread,dispatcher,disk,net
if [ "$(id -u)" = 0 ] && grep -q "may not read tracefs" out; then
    fail "root told it may not read tracefs: $(cat out)"
fi
echo "tool_record_refused: tracepoints absent: $(grep -c '^Not recorded:' out) groups said"

# As an ordinary user, when this is root and can become one.
if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null || ! id nobody >/dev/null 2>&1; then
    echo "tool_record_refused: not root or no 'nobody': the ordinary user's run skipped"
    exit 0
fi
chmod 755 "$dir"
mkdir -m 777 "$dir/user"
rc=0
HOME="$dir/user" TMPDIR="$dir/user" PETW_RUNTIME_DIR="$dir/user/rt" \
    setpriv --reuid=nobody --regid=nogroup --clear-groups \
    "$petw" record --kernel process,thread,cswitch,dispatcher,disk,net,virt_alloc \
    --stacks cswitch,dispatcher -o "$dir/user/user.etl" -- true > out 2> err || rc=$?
if [ "$rc" != 0 ]; then
    echo "tool_record_refused: as nobody: exit status $rc ($(cat err)): that run skipped"
    exit 0
fi
check_said process,thread,cswitch,dispatcher,disk,net,virt_alloc
if ! setpriv --reuid=nobody --regid=nogroup --clear-groups test -r /sys/kernel/tracing/events &&
    [ -d /sys/kernel/tracing/events ]; then
    for g in dispatcher disk net virt_alloc; do
        grep -q "^Not recorded: *$g (.*: this user may not read tracefs" out ||
            fail "$g: no reason as nobody: $(cat out)"
    done
fi
echo "tool_record_refused: as nobody: $(grep "^Kernel:" out | cut -c1-60)..., \
$(grep -c '^Not recorded:' out) groups said"
