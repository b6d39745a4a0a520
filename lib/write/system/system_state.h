/* SPDX-License-Identifier: MIT */
/* system_state.h - a system provider's state, shared by its files: the
 * thread and the OS's records (system.c), processes, threads and images
 * (system_task.c), and the SystemConfig events (system_config.c).
 *
 * Allowed dependencies: common/, platform/, classes/, ring/, format/, libuv.
 */
#ifndef PETW_SYSTEM_STATE_H
#define PETW_SYSTEM_STATE_H

#include <stdatomic.h>
#include <uv.h>

#include "../../base/classes/kernel_class.h"
#include "../../base/platform/platform.h"
#include "system.h"
#include "system_internal.h"
#include "system_net.h"
#include "system_tracepoint.h"

/* HookIds, of the classes' table (classes/kernel_class.h). */
#define HOOK_PROCESS(op) PETW__HOOK(PETW__GROUP_PROCESS, PETW__OP_##op)
#define HOOK_THREAD(op) PETW__HOOK(PETW__GROUP_THREAD, PETW__OP_##op)
#define HOOK_IMAGE(op) PETW__HOOK(PETW__GROUP_IMAGE, PETW__OP_##op)
#define HOOK_CONFIG(op) PETW__HOOK(PETW__GROUP_CONFIG, PETW__OP_CONFIG_##op)
#define HOOK_DISK(op) PETW__HOOK(PETW__GROUP_DISK_IO, PETW__OP_DISK_##op)
#define HOOK_PERFINFO(op) PETW__HOOK(PETW__GROUP_PERFINFO, PETW__OP_PERFINFO_##op)
#define HOOK_STACKWALK PETW__HOOK(PETW__GROUP_STACKWALK, PETW__OP_STACKWALK_STACK)

#define POLL_MS 20
#define NAME_SLOTS 65536u   /* processes whose name and parent are known */
#define DISK_SLOTS 4096u    /* block requests in flight */
#define BLOCKED_SLOTS 1024u /* threads off a CPU whose stack waits for their switch in */

/* The call chain a thread left its CPU with (sched_switch), written after
 * the CSwitch that puts it back on one: Windows' CSwitch stack, the new
 * thread's, is where it had blocked. */
typedef struct blocked_stack {
    uint32_t tid_plus_one; /* 0: empty */
    uint32_t frame_count;
    int64_t time_ns;
    uint64_t frames[PETW__SYS_MAX_FRAMES];
} blocked_stack;

typedef struct disk_request {
    uint64_t dev_plus_one, offset; /* 0: empty */
    int64_t issued_ns;
    uint32_t pid, tid;
} disk_request;

typedef struct proc_name {
    uint32_t pid; /* 0: empty */
    uint32_t ppid;
    uint32_t uid; /* its owner when last seen (for its end, when /proc has it no more) */
    char name[16];
} proc_name;

struct petw__system {
    petw__system_config c;
    uint32_t flags;
    petw__sys *sys;
    uv_thread_t thread;
    _Atomic int stop; /* relaxed: a flag polled every POLL_MS; the join orders the rest */
    /* Session clock from CLOCK_MONOTONIC: exact (the same clock), or
     * through the latest pair read together (petw__clock_pair), at the
     * rate measured since the first pair once a second has passed. */
    uint32_t clock;
    int exact;
    double ticks_per_ns;
    int64_t anchor_ns, anchor_ticks;
    int64_t first_ns, first_ticks; /* first_ns 0: no pair yet */
    int rundown_end;               /* the rundown in progress writes DCEnd, not DCStart */
    proc_name *names;              /* with PETW_SYSTEM_PROCESS */
    disk_request *disk;            /* with PETW_SYSTEM_DISK_IO */
    blocked_stack *blocked;        /* with CSwitch stacks */
    petw__system_ident ident;      /* with PETW_SYSTEM_IMAGE_LOAD: ImageId, KernelSymbol */
    petw__system_memory *mem;      /* with the PageFault class's groups */
    petw__system_file *file;       /* with PETW_SYSTEM_FILE_IO */
    petw__system_net *net;         /* with PETW_SYSTEM_NETWORK_TCPIP */
    petw__system_tracepoints
        tracepoints; /* the tracepoints asked, their layouts, what was granted */
    uint8_t build_id[PETW__SYS_BUILD_ID_MAX]; /* an image's, read from its file */
    uint8_t payload[0xFFFF];
};

/* system.c: session clock ticks at `ns` (CLOCK_MONOTONIC). */
int64_t petw__system_time(const petw__system *s, int64_t ns);
/* system.c: one record, the header of `type` (SYSTEM64, COMPACT64 or
 * PERFINFO64) then n payload bytes, into CPU `cpu`'s buffer. A full ring
 * counts the loss itself. */
void petw__system_emit(petw__system *s, uint32_t cpu, uint8_t type, uint16_t hook, uint8_t version,
                       uint32_t pid, uint32_t tid, int64_t ns, const uint8_t *payload, uint32_t n);

/* system_task.c: processes, threads and images. The name table: pid's
 * entry (inserted when `insert`), or NULL. */
proc_name *petw__system_name_slot(petw__system *s, uint32_t pid, int insert);
/* A new task (FORK), a task's end (EXIT), a new program (EXEC), a mapped
 * file (MMAP), as Process, Thread and Image events. */
void petw__system_on_task_start(petw__system *s, const petw__sys_record *r);
void petw__system_on_task_end(petw__system *s, const petw__sys_record *r);
void petw__system_on_exec(petw__system *s, const petw__sys_record *r);
void petw__system_on_mmap(petw__system *s, const petw__sys_record *r);
/* The rundown's records (ctx: the provider): DCStart, or DCEnd while
 * rundown_end is set. */
void petw__system_on_rundown(void *ctx, const petw__sys_record *r);

/* system_config.c: the SystemConfig events (CPU, disks, volumes), written
 * when the session stops. */
void petw__system_write_config(petw__system *s);

#endif
