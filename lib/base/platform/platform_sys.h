/* SPDX-License-Identifier: MIT */
/* platform_sys.h - the operating system's own events for the system provider
 * (perf events and tracepoints on Linux) and the machine's configuration.
 * Part of platform.h, which includes it (include either).
 */
#ifndef PETW_PLATFORM_SYS_H
#define PETW_PLATFORM_SYS_H

#include "platform.h"

/* ---- The operating system's own events (the system provider) ----
 * Linux: perf_event_open, one ring per CPU (no kernel module, no daemon).
 * Windows builds have none (PETW_ENOTSUP): use PETW_USE_NATIVE_ETW's
 * NT Kernel Logger there. Records come out neutral (petw__sys_record);
 * lib/write/system/ turns them into the NT Kernel Logger's event classes.
 * Which tracepoints to open, their format files' layouts and what their
 * raw records say are system/'s (system_tracepoint.c): here they are
 * opened by id and their samples delivered raw (TRACEPOINT records). */
enum {
    PETW__SYSREC_FORK = 1,     /* a thread or process was created */
    PETW__SYSREC_EXIT,         /* a thread or process ended */
    PETW__SYSREC_EXEC,         /* a process ran a new program (name in `text`) */
    PETW__SYSREC_MMAP,         /* an executable file mapping */
    PETW__SYSREC_SWITCH,       /* a context switch (out of `tid`, or into it) */
    PETW__SYSREC_SAMPLE,       /* a CPU sample: ip and call chain */
    PETW__SYSREC_WAKEUP,       /* `tid` woke `other_tid` (sched_waking) */
    PETW__SYSREC_DISK_ISSUE,   /* a block request went to the device */
    PETW__SYSREC_DISK,         /* a block request completed */
    PETW__SYSREC_LOST,         /* the OS lost `count` records */
    PETW__SYSREC_SWITCH_STACK, /* `tid` is about to leave the CPU: its call chain (sched_switch) */
    PETW__SYSREC_FAULT,        /* a page fault of `tid` at `addr`, program counter `ip`
                                * (PETW__SYS_FAULT_*) */
    PETW__SYSREC_MAP,          /* a mapping that is not an executable file's (MMAP's fields;
                                * `text` "//anon", "[heap]"... for anonymous memory) */
    PETW__SYSREC_VM_ENTER,     /* `tid` called mmap, munmap, brk or mremap (`count`:
                                * PETW__SYS_VM_*): its arguments in `args` */
    PETW__SYSREC_VM_EXIT,      /* that call returned `addr` */
    PETW__SYSREC_NET,          /* a socket's state change, send, receive or retransmit (`net`) */
    PETW__SYSREC_TRACEPOINT,   /* tracepoint `tracepoint` (its index in petw__sys_config's
                                * list) fired in `tid`: its raw record in `raw`, laid out as
                                * its format file says; its call chain when asked */
};

#define PETW__SYS_SWITCH_OUT 0x1u     /* SWITCH: the thread left the CPU */
#define PETW__SYS_SWITCH_PREEMPT 0x2u /* SWITCH out: it was still runnable */
#define PETW__SYS_MAX_FRAMES 192u
#define PETW__SYS_BUILD_ID_MAX 20u /* a GNU build-id: SHA-1's 20 bytes at most */
#define PETW__SYS_DISK_READ 0u
#define PETW__SYS_DISK_WRITE 1u
#define PETW__SYS_DISK_OTHER 2u    /* a flush or discard */
#define PETW__SYS_FAULT_MINOR 0x1u /* FAULT: resolved without reading (at its end) */
#define PETW__SYS_FAULT_MAJOR 0x2u /* FAULT: resolved by reading its page (at its end) */
#define PETW__SYS_FAULT_START 0x4u /* FAULT: a fault begins (asked with hard_faults) */
#define PETW__SYS_VM_MMAP 0u       /* args: addr, len, prot, flags, fd, offset */
#define PETW__SYS_VM_MUNMAP 1u     /* args: addr, len */
#define PETW__SYS_VM_BRK 2u        /* args: the new break (0: a query) */
#define PETW__SYS_VM_MREMAP 3u     /* args: addr, old_len, new_len, flags, new_addr */

/* NET records: what happened to an IPv4 or IPv6 TCP or UDP socket. */
enum {
    PETW__SYS_NET_STATE = 1,  /* a TCP state change (old_state to new_state, TCP_* of Linux) */
    PETW__SYS_NET_SEND,       /* bytes a send call queued */
    PETW__SYS_NET_RECV,       /* bytes a receive call returned */
    PETW__SYS_NET_RETRANSMIT, /* a TCP segment sent again (bytes unknown: 0) */
};
typedef struct petw__sys_net {
    uint32_t op;                  /* PETW__SYS_NET_* */
    uint64_t sk;                  /* the kernel's socket: its identity */
    uint16_t family, protocol;    /* AF_INET (2) or AF_INET6 (10); IPPROTO_TCP (6) or UDP (17) */
    int32_t old_state, new_state; /* STATE */
    uint64_t bytes;               /* SEND, RECV */
    int tuple;                    /* 1: the addresses and ports below are known */
    uint16_t sport, dport;        /* the local and remote ports (host order) */
    uint8_t saddr[16], daddr[16]; /* local and remote addresses (network order;
                                   * IPv4's in the first 4 bytes) */
} petw__sys_net;

typedef struct petw__sys_record {
    uint32_t kind; /* PETW__SYSREC_* */
    uint32_t cpu;
    int64_t time_ns; /* petw__monotonic_ns()'s clock */
    uint32_t pid, tid;
    uint32_t other_pid, other_tid; /* FORK: the parent; SWITCH: the thread
                                    * switched to (out) or from (in), 0 if unknown */
    uint32_t flags;                /* PETW__SYS_SWITCH_* */
    uint64_t addr, len, pgoff;     /* MMAP; SAMPLE: addr = ip. DISK*: addr =
                                    * byte offset, len = bytes, pgoff = device */
    uint64_t count;                /* LOST; DISK*: PETW__SYS_DISK_* */
    const uint64_t *frames;        /* SAMPLE, SWITCH_STACK, WAKEUP (asked): call chain,
                                    * innermost first */
    uint32_t frame_count;
    const char *text;        /* EXEC: the program's name; MMAP: the file's path */
    const uint8_t *build_id; /* MMAP: the file's GNU build-id as the kernel gave it,
                              * build_id_size bytes; 0 when it gave none (system/
                              * then reads it from the file) */
    uint32_t build_id_size;
    uint64_t ip;              /* FAULT: the program counter */
    uint64_t args[6];         /* VM_ENTER: the call's arguments */
    const petw__sys_net *net; /* NET */
    uint32_t tracepoint;      /* TRACEPOINT: which one */
    const uint8_t *raw;       /* TRACEPOINT: its raw record, raw_size bytes */
    uint32_t raw_size;
} petw__sys_record;

/* A tracepoint to open, on every CPU, into each CPU's ring. */
#define PETW__SYS_MAX_TRACEPOINTS 32u
typedef struct petw__sys_tracepoint {
    uint64_t id;    /* petw__tracepoint_id's */
    int stacks;     /* its samples carry the call chain of the thread it fired in */
    uint32_t group; /* 0; else the tracepoints of one group open all or none */
} petw__sys_tracepoint;

typedef struct petw__sys_config {
    uint32_t target_pid;    /* 0: every process; else it and its descendants */
    int tasks;              /* FORK, EXIT, EXEC */
    int mmaps;              /* MMAP */
    int switches;           /* SWITCH */
    int net;                /* NET from the network BPF program (UDP datagrams) */
    uint64_t sample_ns;     /* SAMPLE every this many ns of CPU time; 0: none */
    int sample_stacks;      /* SAMPLE with call chains */
    uint32_t pages_per_cpu; /* ring size; 0: a default that fits the OS's limit */
    int faults;             /* FAULT (MAJOR), and MAP for every mapping */
    int minor_faults;       /* FAULT (MINOR) too */
    int fault_starts;       /* FAULT (START) too: a hard fault's duration */
    /* TRACEPOINT: these (at most PETW__SYS_MAX_TRACEPOINTS) */
    const petw__sys_tracepoint *tracepoints;
    uint32_t tracepoint_count;
} petw__sys_config;

/* What was granted (the OS may give less than asked). */
typedef struct petw__sys_info {
    int kernel_excluded;     /* kernel code neither sampled nor in call chains */
    int faults;              /* granted (perf's page-fault software events) */
    int fault_starts;        /* granted: hard faults have their start */
    uint32_t tracepoints_on; /* bit k: the config's tracepoint k opened */
    /* UDP datagrams with their endpoints, from the BPF program
     * platform_net.bpf.c; net_bpf_why says why not. */
    int net_bpf;
    char net_bpf_why[160];
} petw__sys_info;

typedef struct petw__sys petw__sys;
/* Tracepoint `name` ("group/event") in tracefs (mounted where the kernel
 * offers it when nobody did, as root): its id into *id; 0, or -1 when the
 * kernel lacks it, there is no tracefs, or PETW_NO_TRACEPOINTS (names
 * separated by commas, for the tests) names it. Windows: -1. */
int petw__tracepoint_id(const char *name, uint64_t *id);
/* The text of tracepoint `name`'s format file into `buf` (NUL-terminated,
 * `size` bytes at most with the NUL); its length, 0 when there is none
 * (as petw__tracepoint_id). */
size_t petw__tracepoint_format(const char *name, char *buf, size_t size);
/* 1 when tracefs is there and this user may not read it (the OS keeps
 * every tracepoint from petw then), else 0. Windows: 0. */
int petw__tracefs_denied(void);
/* Opens the JIT map a process wrote for profilers (Linux: /tmp/perf-PID.map,
 * lines "START SIZE name", hex numbers, as perf reads them) for reading,
 * following no link, when it is a regular file owned by `owner` (the
 * process's user) or by root: /tmp is everyone's. Returns the stream, a
 * FILE * (platform.h does not include <stdio.h>) the caller fcloses, or
 * NULL when there is none to believe (Windows: none). */
void *petw__sys_jit_map_open(uint32_t pid, uint32_t owner);
/* Opens the collection: PETW_ENOTSUP (no such facility: no perf events,
 * a Windows build), PETW_EACCES (the
 * OS refuses: system-wide needs root, CAP_PERFMON or perf_event_paranoid
 * <= 0), PETW_ENOMEM. Collection starts at once. */
int petw__sys_open(const petw__sys_config *c, petw__sys **out, petw__sys_info *info);
/* Waits up to `timeout_ms` for records to read (0 when some may be ready). */
void petw__sys_wait(petw__sys *s, uint32_t timeout_ms);
/* Reads every record ready on every CPU, calling `fn` for each in its CPU's
 * order; returns how many. Pointers in a record live until `fn` returns. */
typedef void (*petw__sys_fn)(void *ctx, const petw__sys_record *r);
uint64_t petw__sys_read(petw__sys *s, petw__sys_fn fn, void *ctx);
/* Stops collecting and reads what is left, as petw__sys_read; then a LOST
 * record counts what the OS recorded as happening but never delivered
 * (tracepoint samples it dropped). Call once, before petw__sys_close. */
void petw__sys_drain(petw__sys *s, petw__sys_fn fn, void *ctx);
/* Frees (records not read are lost and not counted: drain first). */
void petw__sys_close(petw__sys *s);

/* ---- The machine's configuration (a system session's SystemConfig) ---- */
typedef struct petw__sys_machine {
    uint32_t mhz;       /* the processors' maximum speed, 0 when unknown */
    uint32_t cpus;      /* logical processors configured */
    uint32_t mem_mb;    /* physical memory, MiB */
    uint32_t page_size; /* bytes; also the mapping granularity */
    uint64_t smt_mask;  /* bit k: CPU k shares its core (k < 64) */
    char host[256];     /* the host name (UTF-8) */
    char domain[134];   /* the NIS domain name, "" when none */
} petw__sys_machine;
/* Fills `m`: PETW_ENOTSUP where the OS cannot say. */
int petw__sys_machine_info(petw__sys_machine *m);

/* A physical disk: a block device backed by hardware. */
typedef struct petw__sys_disk {
    uint32_t number;      /* its device number as DISK records carry it */
    uint32_t sector_size; /* logical block size, bytes */
    uint64_t bytes;       /* capacity */
    uint32_t partitions;
    uint32_t write_cache; /* 1: write-back cache on */
    uint32_t scsi[4];     /* host, channel, target, LUN; 0 when not SCSI */
    char model[256];      /* vendor and model, else the kernel's name */
} petw__sys_disk;
/* A mounted file system on one of those disks (or a partition of one). */
typedef struct petw__sys_volume {
    uint32_t disk;        /* its disk's `number` */
    uint32_t partition;   /* 0: the whole disk */
    uint64_t start, size; /* bytes from the disk's start; its length */
    uint32_t sector_size, cluster_size;
    uint64_t free_clusters, total_clusters;
    char fs[16]; /* the file system's type ("ext4") */
} petw__sys_volume;
typedef void (*petw__sys_disk_fn)(void *ctx, const petw__sys_disk *d);
typedef void (*petw__sys_volume_fn)(void *ctx, const petw__sys_volume *v);
/* Every physical disk, then every volume mounted from one (each device
 * once); PETW_ENOTSUP where the OS cannot list them. */
int petw__sys_disks(petw__sys_disk_fn disk, petw__sys_volume_fn volume, void *ctx);

#endif /* PETW_PLATFORM_SYS_H */
