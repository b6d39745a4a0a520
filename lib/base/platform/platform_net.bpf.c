/* SPDX-License-Identifier: MIT */
/* platform_net.bpf.c - the UDP datagrams of the processes in scope, each
 * with its bytes and both endpoints, from the syscall tracepoints (which
 * every kernel with BPF has; kprobes and BPF trampolines may be missing):
 * at the entry of sendto, recvfrom, sendmsg, recvmsg, write and read the
 * descriptor and the caller's address buffer (sendto's destination,
 * recvfrom's source, a msghdr's msg_name), at the return, when the descriptor is a UDP
 * socket and bytes moved, one record (platform_net_bpf.h) into the ring
 * buffer `events`: the remote endpoint from that buffer (read then, when
 * the kernel has filled it), else the connected peer's; the local one
 * the socket's. Other calls on a UDP socket (writev, readv, sendmmsg,
 * recvmmsg, sendfile) are not seen here.
 * The processes followed, and the task's descriptor table, are
 * platform_task.bpf.h's; the kernel structures read here are declared
 * with preserve_access_index (CO-RE). */
#include <linux/bpf.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>

#include "platform_net_bpf.h"

struct in6_addr {
    __u8 petw_bytes[16]; /* only the field's place is relocated, never this */
};
struct sock_common {
    __be32 skc_daddr;
    __be32 skc_rcv_saddr;
    __be16 skc_dport;
    __u16 skc_num;
    unsigned short skc_family;
    struct in6_addr skc_v6_daddr;
    struct in6_addr skc_v6_rcv_saddr;
} __attribute__((preserve_access_index));
struct sock {
    struct sock_common __sk_common;
    __u16 sk_protocol;
} __attribute__((preserve_access_index));
struct socket {
    struct sock *sk;
} __attribute__((preserve_access_index));
struct file {
    void *private_data;
} __attribute__((preserve_access_index));
#include "platform_task.bpf.h"

struct {
    __uint(type, BPF_MAP_TYPE_RINGBUF);
    __uint(max_entries, 1 << 22);
} events SEC(".maps");

/* counters[0]: records the ring had no room for (read at the end). */
struct {
    __uint(type, BPF_MAP_TYPE_ARRAY);
    __uint(max_entries, 1);
    __type(key, __u32);
    __type(value, __u64);
} counters SEC(".maps");

static __always_inline void emit(struct sock *sk, void *addr, long ret, __u16 op)
{
    __u64 id = bpf_get_current_pid_tgid();
    petw__net_bpf_record *r = bpf_ringbuf_reserve(&events, sizeof(*r), 0);
    if (!r) {
        __u32 zero = 0;
        __u64 *lost = bpf_map_lookup_elem(&counters, &zero);
        /* A count alone (the BPF target has no relaxed form): orders
         * nothing, no pair; read once the programs are detached. */
        if (lost)
            __sync_fetch_and_add(lost, 1);
        return;
    }
    __builtin_memset(r, 0, sizeof(*r));
    r->time_ns = bpf_ktime_get_ns();
    r->sk = (__u64)sk;
    r->pid = id >> 32;
    r->tid = (__u32)id;
    r->cpu = bpf_get_smp_processor_id();
    r->bytes = (__u32)ret;
    r->op = op;
    r->protocol = 17;
    __u16 family = BPF_CORE_READ(sk, __sk_common.skc_family);
    r->family = family;
    r->tuple = 1;
    r->sport = BPF_CORE_READ(sk, __sk_common.skc_num);
    __be16 dport = BPF_CORE_READ(sk, __sk_common.skc_dport);
    if (family == 10) {
        bpf_probe_read_kernel(r->saddr, 16, &sk->__sk_common.skc_v6_rcv_saddr);
        bpf_probe_read_kernel(r->daddr, 16, &sk->__sk_common.skc_v6_daddr);
    } else {
        bpf_probe_read_kernel(r->saddr, 4, &sk->__sk_common.skc_rcv_saddr);
        bpf_probe_read_kernel(r->daddr, 4, &sk->__sk_common.skc_daddr);
    }
    /* The call's own address (a sockaddr_in or sockaddr_in6 in the
     * caller's memory: family, port, then the address at 4 or 8). */
    __u8 sa[24];
    if (addr && bpf_probe_read_user(sa, sizeof(sa), addr) == 0) {
        __u16 f = (__u16)(sa[0] | sa[1] << 8);
        if (f == 2 && family == 2) {
            __builtin_memcpy(r->daddr, sa + 4, 4);
            dport = (__be16)(sa[2] | sa[3] << 8);
        } else if (f == 10 && family == 10) {
            __builtin_memcpy(r->daddr, sa + 8, 16);
            dport = (__be16)(sa[2] | sa[3] << 8);
        }
    }
    r->dport = (__u16)((dport & 0xff) << 8 | dport >> 8);
    bpf_ringbuf_submit(r, 0);
}

/* A call in flight, by thread: its descriptor and the caller's address
 * buffer (or msghdr), from its entry to its return. */
struct call {
    __u64 fd, addr;
    __u32 msghdr, flags;
};

struct {
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, 16384);
    __type(key, __u32);
    __type(value, struct call);
} calls SEC(".maps");

static __always_inline void enter(long fd, unsigned long addr, __u32 msghdr, __u32 flags)
{
    __u64 id = bpf_get_current_pid_tgid();
    if (fd < 0 || (flags & 2) || !in_scope(id >> 32)) /* MSG_PEEK leaves the data queued */
        return;
    __u32 tid = (__u32)id;
    struct call c = {(__u64)fd, (__u64)addr, msghdr, flags};
    bpf_map_update_elem(&calls, &tid, &c, BPF_ANY);
}

/* The socket behind descriptor `fd` of the current task when it is a UDP
 * one, else 0. */
static __always_inline struct sock *udp_sock_of(__u64 fd)
{
    struct file *f = file_of((long)fd);
    if (!f)
        return 0;
    struct socket *so = (struct socket *)BPF_CORE_READ(f, private_data);
    struct sock *sk = so ? BPF_CORE_READ(so, sk) : 0;
    if (!sk || BPF_CORE_READ(sk, sk_protocol) != 17)
        return 0;
    __u16 family = BPF_CORE_READ(sk, __sk_common.skc_family);
    return family == 2 || family == 10 ? sk : 0;
}

static __always_inline void leave(long ret, __u16 op)
{
    __u32 tid = (__u32)bpf_get_current_pid_tgid();
    struct call *c = bpf_map_lookup_elem(&calls, &tid);
    if (!c)
        return;
    struct call k = *c;
    bpf_map_delete_elem(&calls, &tid);
    if (ret <= 0)
        return;
    struct sock *sk = udp_sock_of(k.fd);
    if (!sk)
        return; /* not a socket, or not UDP: the tracepoints' */
    void *addr = (void *)k.addr;
    if (k.msghdr && addr) { /* a msghdr in user memory: msg_name first */
        void *name = 0;
        bpf_probe_read_user(&name, sizeof(name), addr);
        addr = name;
    }
    emit(sk, addr, ret, op);
}

SEC("tracepoint/syscalls/sys_enter_sendto")
int on_sendto(struct sys_enter *ctx)
{
    enter((long)ctx->args[0], ctx->args[4], 0, 0);
    return 0;
}
SEC("tracepoint/syscalls/sys_exit_sendto")
int on_sendto_exit(struct sys_exit *ctx)
{
    leave(ctx->ret, PETW__NET_BPF_SEND);
    return 0;
}
SEC("tracepoint/syscalls/sys_enter_recvfrom")
int on_recvfrom(struct sys_enter *ctx)
{
    enter((long)ctx->args[0], ctx->args[4], 0, (__u32)ctx->args[3]);
    return 0;
}
SEC("tracepoint/syscalls/sys_exit_recvfrom")
int on_recvfrom_exit(struct sys_exit *ctx)
{
    leave(ctx->ret, PETW__NET_BPF_RECV);
    return 0;
}
SEC("tracepoint/syscalls/sys_enter_sendmsg")
int on_sendmsg(struct sys_enter *ctx)
{
    enter((long)ctx->args[0], ctx->args[1], 1, 0);
    return 0;
}
SEC("tracepoint/syscalls/sys_exit_sendmsg")
int on_sendmsg_exit(struct sys_exit *ctx)
{
    leave(ctx->ret, PETW__NET_BPF_SEND);
    return 0;
}
SEC("tracepoint/syscalls/sys_enter_recvmsg")
int on_recvmsg(struct sys_enter *ctx)
{
    enter((long)ctx->args[0], ctx->args[1], 1, (__u32)ctx->args[2]);
    return 0;
}
SEC("tracepoint/syscalls/sys_exit_recvmsg")
int on_recvmsg_exit(struct sys_exit *ctx)
{
    leave(ctx->ret, PETW__NET_BPF_RECV);
    return 0;
}

SEC("tracepoint/syscalls/sys_enter_write")
int on_write(struct sys_enter *ctx)
{
    enter((long)ctx->args[0], 0, 0, 0);
    return 0;
}
SEC("tracepoint/syscalls/sys_exit_write")
int on_write_exit(struct sys_exit *ctx)
{
    leave(ctx->ret, PETW__NET_BPF_SEND);
    return 0;
}
SEC("tracepoint/syscalls/sys_enter_read")
int on_read(struct sys_enter *ctx)
{
    enter((long)ctx->args[0], 0, 0, 0);
    return 0;
}
SEC("tracepoint/syscalls/sys_exit_read")
int on_read_exit(struct sys_exit *ctx)
{
    leave(ctx->ret, PETW__NET_BPF_RECV);
    return 0;
}

SEC("raw_tracepoint/sched_process_fork")
int on_fork(struct bpf_raw_tracepoint_args *ctx)
{
    __u32 parent = bpf_get_current_pid_tgid() >> 32;
    if (!bpf_map_lookup_elem(&scope, &parent))
        return 0;
    struct task_struct *child = (struct task_struct *)ctx->args[1];
    __u32 pid = (__u32)BPF_CORE_READ(child, tgid);
    __u8 one = 1;
    bpf_map_update_elem(&scope, &pid, &one, BPF_ANY);
    return 0;
}

SEC("raw_tracepoint/sched_process_exit")
int on_exit(struct bpf_raw_tracepoint_args *ctx)
{
    __u64 id = bpf_get_current_pid_tgid();
    __u32 pid = id >> 32;
    if ((__u32)id == pid)
        bpf_map_delete_elem(&scope, &pid);
    return 0;
}

char LICENSE[] SEC("license") = "GPL";
