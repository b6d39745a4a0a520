/* SPDX-License-Identifier: MIT */
/* platform_net_bpf.h - what platform_net.bpf.c and platform_sys_linux.c
 * share: the record each send or receive call writes into the ring
 * buffer, and the keys of the `config` map. */
#ifndef PETW_PLATFORM_NET_BPF_H
#define PETW_PLATFORM_NET_BPF_H

#define PETW__NET_BPF_ALL 0     /* config: 1 follows every process (but SELF) */
#define PETW__NET_BPF_SELF 1    /* config: petw's own process */
#define PETW__NET_BPF_STOPPED 2 /* config: 1 once the session stops */

#define PETW__NET_BPF_SEND 1
#define PETW__NET_BPF_RECV 2

typedef struct petw__net_bpf_record {
    __u64 time_ns; /* CLOCK_MONOTONIC (bpf_ktime_get_ns) */
    __u64 sk;
    __u32 pid, tid, cpu;
    __u32 bytes;
    __u16 family, protocol; /* AF_INET 2 or AF_INET6 10; 6 or 17 */
    __u16 op;               /* PETW__NET_BPF_SEND, _RECV */
    __u16 sport, dport;     /* local and remote port, host order */
    __u16 tuple;            /* 1: the addresses and ports are known */
    __u8 saddr[16], daddr[16];
} petw__net_bpf_record;

#endif
