/* SPDX-License-Identifier: MIT */
/* system_tracepoint.h - the tracepoints the system provider records: which
 * to open for what, their layouts (read from their format files), and
 * their raw records as the OS's neutral records (petw__sys_record).
 *
 * Allowed dependencies: common/, platform/, classes/, ring/, format/, libuv.
 */
#ifndef PETW_SYSTEM_TRACEPOINT_H
#define PETW_SYSTEM_TRACEPOINT_H

#include "../../base/platform/platform.h"

/* The tracepoints read (tracefs's names in system_tracepoint.c). */
enum {
    PETW__TP_WAKING, /* sched/sched_waking */
    PETW__TP_ISSUE,  /* block/block_rq_issue */
    PETW__TP_COMPLETE,
    PETW__TP_SWITCH, /* sched/sched_switch */
    /* The virtual memory calls: each one's entry, then its exit (in PETW__SYS_VM_* order). */
    PETW__TP_VM_FIRST,
    PETW__TP_VM_LAST = PETW__TP_VM_FIRST + 7,
    PETW__TP_SOCK_STATE, /* the network's: the last ones */
    PETW__TP_SOCK_SEND,
    PETW__TP_SOCK_RECV,
    PETW__TP_TCP_RETRANSMIT,
    PETW__TP_COUNT
};

#define PETW__TP_VM_ARGS 6
/* What is read of a tracepoint, at the offsets its format file gives
 * (they change between kernel versions); -1 when absent. */
typedef struct petw__system_tracepoint_layout {
    int32_t pid;         /* sched_waking: the woken thread */
    int32_t dev, sector; /* block: device, first sector */
    int32_t nr_sector, rwbs;
    int32_t arg[PETW__TP_VM_ARGS]; /* syscalls: the fields after __syscall_nr, in order
                                    * (exit: ret) */
    uint32_t args;
    /* sock, tcp: the socket (skaddr or sk), states, ports, family,
     * protocol, addresses, a call's result and flags */
    int32_t sk, oldstate, newstate, sport, dport, family, protocol;
    int32_t saddr, daddr, saddr_v6, daddr_v6, ret, flags;
} petw__system_tracepoint_layout;

/* What the system provider asks of the tracepoints. */
typedef struct petw__system_tracepoint_want {
    int wakeups;       /* WAKEUP */
    int wakeup_stacks; /* WAKEUP with the waker's call chain */
    int switch_stacks; /* SWITCH_STACK */
    int disk;          /* DISK_ISSUE, DISK */
    int vm;            /* VM_ENTER, VM_EXIT */
    int net;           /* NET: TCP states, bytes, retransmits */
} petw__system_tracepoint_want;

/* A session's tracepoints: the ones asked, in petw__sys_config's list, and
 * what the OS granted. */
typedef struct petw__system_tracepoints {
    petw__sys_tracepoint asked[PETW__TP_COUNT];
    uint32_t asked_count;
    int which[PETW__TP_COUNT]; /* an asked one's PETW__TP_* */
    petw__system_tracepoint_layout layout[PETW__TP_COUNT];
    int net_bpf; /* UDP's sends and receives come from the BPF program instead */
    petw__sys_net net;
    /* Granted (after petw__system_tracepoints_granted): */
    int wakeups, disk, switch_stacks, vm;
    /* NET, granted in parts (tracepoints of different kernels): TCP state
     * changes with their addresses (inet_sock_set_state), bytes sent and
     * received (sock_send_length, sock_recv_length: Linux 6.3+), TCP
     * retransmits (tcp_retransmit_skb). */
    int net_states, net_bytes, net_retransmits;
} petw__system_tracepoints;

/* The tracepoints `want` needs that this kernel has, their layouts read,
 * into t and sc's tracepoint list (sc must outlive petw__sys_open). */
void petw__system_tracepoints_ask(petw__system_tracepoints *t,
                                  const petw__system_tracepoint_want *want, petw__sys_config *sc);
/* What petw__sys_open granted (`info`) as t's granted fields. */
void petw__system_tracepoints_granted(petw__system_tracepoints *t, const petw__sys_info *info);
/* A TRACEPOINT record `in` as the record it says into *out (its pointers
 * into t or `in`); 0 when it says nothing recorded (a field missing or out
 * of bounds, a failed call, another family or protocol). */
int petw__system_tracepoints_decode(petw__system_tracepoints *t, const petw__sys_record *in,
                                    petw__sys_record *out);

/* Parses a tracepoint's format file text (the fields' names and
 * offsets) into *l. */
void petw__system_tracepoint_parse(const char *format, petw__system_tracepoint_layout *l);

#endif
