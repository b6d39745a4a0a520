/* SPDX-License-Identifier: MIT */
/* platform_sys_linux.h - what the files of the OS's own events on Linux
 * share: platform_sys_linux.c opens the perf events, platform_sys_read_linux.c
 * reads their rings (nothing outside lib/base/platform/ sees it).
 */
#ifndef PETW_PLATFORM_SYS_LINUX_H
#define PETW_PLATFORM_SYS_LINUX_H

#include <linux/perf_event.h>
#include <poll.h>
#include <stdint.h>

#include "platform.h"

/* The record layouts these files ask for (sample_type below). */
#define PETW__PERF_SAMPLE_TYPE                                                                     \
    (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU)
/* sample_id_all's trailer: {pid, tid}, time, {cpu, res}, identifier. */
#define PETW__PERF_TRAILER_BYTES 32u

#define PETW__SYS_TP_FDS ((int)PETW__SYS_MAX_TRACEPOINTS)
/* perf's page-fault software events: minor and major faults (each at its
 * end, with the address), and every fault at its start. */
enum { PETW__PERF_FAULT_MIN, PETW__PERF_FAULT_MAJ, PETW__PERF_FAULT_ANY, PETW__PERF_FAULT_COUNT };

typedef struct petw__sys_cpu {
    int fd;        /* the side-band event: owns the ring */
    int sample_fd; /* cpu-clock sampling into the same ring, or -1 */
    int tp_fd[PETW__SYS_TP_FDS];
    uint64_t tp_id[PETW__SYS_TP_FDS];   /* each tracepoint event's sample id here */
    uint64_t tp_seen[PETW__SYS_TP_FDS]; /* its samples read (its count says how many fired) */
    int fault_fd[PETW__PERF_FAULT_COUNT];
    uint64_t fault_id[PETW__PERF_FAULT_COUNT], fault_seen[PETW__PERF_FAULT_COUNT];
    uint8_t *base; /* the ring's mapping: metadata page, then data */
    uint64_t data_size;
    uint64_t head, tail; /* during a read: what is there, and how far read */
} petw__sys_cpu;

struct petw__sys {
    uint32_t cpu_count;
    petw__sys_tracepoint tp[PETW__SYS_TP_FDS]; /* the config's */
    uint32_t tp_count;
    int tp_on[PETW__SYS_TP_FDS];
    int fault_on[PETW__PERF_FAULT_COUNT];
    petw__sys_cpu *cpus;
    struct pollfd *polls;
    uint8_t *scratch; /* one record copied out of a wrapped ring */
    uint64_t frames[PETW__SYS_MAX_FRAMES];
    char text[4096 + 8];
    uint8_t build_id[PETW__SYS_BUILD_ID_MAX];
    petw__sys_net net;
    petw__bpf *net_bpf;  /* platform_net.bpf.c: UDP datagrams with their endpoints */
    petw__sys_fn bpf_fn; /* where a read pass sends its records */
    void *bpf_ctx;
};

#endif
