/* SPDX-License-Identifier: MIT */
/* bpf_probe.bpf.c - the BPF loader's test program: each getppid() of a
 * process in the `scope` map is one record {tgid, tid, n} in the ring
 * buffer `events`; a program on a tracepoint no kernel has shows that such
 * programs are left out, not failed. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, 16);
    __type(key, __u32);
    __type(value, __u32);
} scope SEC(".maps");

struct {
    __uint(type, BPF_MAP_TYPE_RINGBUF);
    __uint(max_entries, 1 << 16);
} events SEC(".maps");

struct probe_record {
    __u32 tgid, tid;
    __u64 n;
};

__u64 count;

SEC("tracepoint/syscalls/sys_enter_getppid")
int on_getppid(void *ctx)
{
    __u64 id = bpf_get_current_pid_tgid();
    __u32 tgid = id >> 32;
    if (!bpf_map_lookup_elem(&scope, &tgid))
        return 0;
    struct probe_record *r = bpf_ringbuf_reserve(&events, sizeof(*r), 0);
    if (!r)
        return 0;
    r->tgid = tgid;
    r->tid = (__u32)id;
    r->n = __sync_fetch_and_add(&count, 1);
    bpf_ringbuf_submit(r, 0);
    return 0;
}

SEC("tracepoint/petw_no_such_group/no_such_event")
int on_nothing(void *ctx)
{
    return 0;
}

char LICENSE[] SEC("license") = "GPL";
