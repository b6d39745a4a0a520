/* SPDX-License-Identifier: MIT */
/* system.c - the system provider: the OS's records (platform/'s
 * petw__sys_*) as the NT Kernel Logger's event classes in a session.
 *
 * Allowed dependencies: common/, platform/, classes/, ring/, format/, libuv.
 *
 * Every event is a classic kernel record, as Windows writes them: a
 * SYSTEM64 header (Process, Thread, Image), COMPACT64 (CSwitch) or
 * PERFINFO64 (SampledProfile, StackWalk), HookId = group << 8 | opcode,
 * the class version in the Version word's low byte, the payload in the
 * class's 64-bit layout (lib/base/classes/kernel_class.c, the classes' table).
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <uv.h>

#include "../../base/classes/kernel_class.h"
#include "../../base/format/etl.h"
#include "../../base/platform/platform.h"
#include "system.h"
#include "system_internal.h"
#include "system_net.h"
#include "system_tracepoint.h"
#include "system_state.h"

int64_t petw__system_time(const petw__system *s, int64_t ns)
{
    if (s->exact)
        return ns;
    return s->anchor_ticks + (int64_t)((double)(ns - s->anchor_ns) * s->ticks_per_ns);
}

/* Events are converted through the latest pair: one whose two reads a
 * preemption separated would move every event converted through it (and
 * so put a thread's events out of order), hence petw__clock_pair. */
static void anchor(petw__system *s)
{
    if (s->exact)
        return;
    petw__clock_pair(s->clock, &s->anchor_ticks, &s->anchor_ns);
    if (!s->first_ns) {
        s->first_ns = s->anchor_ns;
        s->first_ticks = s->anchor_ticks;
    } else if (s->anchor_ns - s->first_ns >= 1000000000LL && s->anchor_ticks > s->first_ticks) {
        s->ticks_per_ns =
            (double)(s->anchor_ticks - s->first_ticks) / (double)(s->anchor_ns - s->first_ns);
    }
}

/* One record: the header of `type` (SYSTEM64, COMPACT64 or PERFINFO64),
 * then n payload bytes, into CPU `cpu`'s buffer. A full ring counts the
 * loss itself. */
void petw__system_emit(petw__system *s, uint32_t cpu, uint8_t type, uint16_t hook, uint8_t version,
                       uint32_t pid, uint32_t tid, int64_t ns, const uint8_t *payload, uint32_t n)
{
    uint32_t size = petw__etl_system_header_size(type) + n;
    if (size > 0xFFFF)
        return;
    petw__ring *ring = s->c.ring;
    petw__reservation res;
    if (petw__ring_reserve_on(ring, s->c.ring_gen, cpu, PETW__ALIGN8(size), &res) != 0)
        return;
    uint8_t *r = res.record;
    petw__etl_record_open(r, size, PETW__ALIGN8(size));
    petw__etl_system_fields(r, type, size, hook, pid, tid, petw__system_time(s, ns));
    memcpy(r + petw__etl_system_header_size(type), payload, n);
    petw__etl_record_close(r, petw__etl_system_head(type, version));
    petw__ring_commit(ring, &res);
}

/* petw__system_emit, session_time and the lost count for system_memory.c and system_file.c. */
static void emit_cb(void *ctx, uint32_t cpu, uint8_t type, uint16_t hook, uint8_t version,
                    uint32_t pid, uint32_t tid, int64_t ns, const uint8_t *payload, uint32_t n)
{
    petw__system_emit(ctx, cpu, type, hook, version, pid, tid, ns, payload, n);
}

static int64_t ticks_cb(void *ctx, int64_t ns)
{
    return petw__system_time(ctx, ns);
}

#define MEMORY_FLAGS (PETW_SYSTEM_PAGE_FAULTS | PETW_SYSTEM_HARD_FAULTS | PETW_SYSTEM_VIRTUAL_ALLOC)
#define FAULT_FLAGS (PETW_SYSTEM_PAGE_FAULTS | PETW_SYSTEM_HARD_FAULTS)

static void lost_cb(void *ctx, uint64_t n)
{
    petw__system *s = ctx;
    /* relaxed: counters, as the ring's own. */
    petw__ring_counters *k = s->c.ring->counters;
    atomic_fetch_add_explicit(&k->events_lost, n > UINT32_MAX ? UINT32_MAX : (uint32_t)n,
                              memory_order_relaxed);
    atomic_store_explicit(&k->lost_pending, 1, memory_order_relaxed);
}

static disk_request *disk_slot(petw__system *s, uint64_t dev, uint64_t offset, int insert)
{
    uint64_t h = (dev * 0x9E3779B97F4A7C15ull) ^ (offset * 0xC2B2AE3D27D4EB4Full);
    for (uint32_t k = 0; k < 16; k++) {
        disk_request *e = &s->disk[(h + k) & (DISK_SLOTS - 1)];
        if (e->dev_plus_one == dev + 1 && e->offset == offset)
            return e;
        if (insert && e->dev_plus_one == 0)
            return e;
    }
    /* Full here: the oldest guess is overwritten (a completion then lacks
     * its issuing thread and response time, never more). */
    return insert ? &s->disk[h & (DISK_SLOTS - 1)] : NULL;
}

/* StackWalk_Event after the event of thread `tid` at `ns`: that event's
 * timestamp, the thread's process and id, then the frames. */
static void emit_stack(petw__system *s, uint32_t cpu, uint32_t pid, uint32_t tid, int64_t ns,
                       const uint64_t *frames, uint32_t n)
{
    uint8_t *p = s->payload;
    petw__system_ident_note(&s->ident, frames, n);
    petw__wr64(p + PETW__STACK_TIME, (uint64_t)petw__system_time(s, ns));
    petw__wr32(p + PETW__STACK_PID, pid);
    petw__wr32(p + PETW__STACK_TID, tid);
    for (uint32_t k = 0; k < n; k++)
        petw__wr64(p + PETW__STACK_FRAMES + 8 * k, frames[k]);
    petw__system_emit(s, cpu, PETW__HDR_PERFINFO64, HOOK_STACKWALK, PETW__VERSION_STACKWALK, pid,
                      tid, ns, p, PETW__STACK_FRAMES + 8 * n);
}

static blocked_stack *blocked_slot(petw__system *s, uint32_t tid)
{
    return &s->blocked[(tid * 2654435761u) & (BLOCKED_SLOTS - 1)];
}

static void on_disk(petw__system *s, const petw__sys_record *r)
{
    if (r->kind == PETW__SYSREC_DISK_ISSUE) {
        disk_request *e = disk_slot(s, r->pgoff, r->addr, 1);
        *e = (disk_request){r->pgoff + 1, r->addr, r->time_ns, r->pid, r->tid};
        return;
    }
    if (r->count == PETW__SYS_DISK_OTHER)
        return; /* flushes and discards: not DiskIo Read/Write */
    disk_request *e = disk_slot(s, r->pgoff, r->addr, 0);
    uint32_t pid = e ? e->pid : r->pid, tid = e ? e->tid : r->tid;
    uint8_t *p = s->payload;
    memset(p, 0, 52);
    petw__wr32(p, (uint32_t)r->pgoff); /* DiskNumber: the Linux device number */
    petw__wr32(p + 8, (uint32_t)r->len);
    petw__wr64(p + 16, r->addr);
    petw__wr64(p + 32, r->pgoff << 40 ^ r->addr); /* Irp: the request's identity */
    if (e) {                                      /* HighResResponseTime, in clock ticks */
        petw__wr64(p + 40, (uint64_t)((double)(r->time_ns - e->issued_ns) *
                                      (s->exact ? 1.0 : s->ticks_per_ns)));
        e->dev_plus_one = 0;
    }
    petw__wr32(p + 48, tid); /* IssuingThreadId */
    petw__system_emit(s, r->cpu, PETW__HDR_SYSTEM64,
                      r->count == PETW__SYS_DISK_WRITE ? HOOK_DISK(WRITE) : HOOK_DISK(READ),
                      PETW__VERSION_DISK, pid, tid, r->time_ns, p, 52);
}

/* ---- From the OS's records ---- */

/* A context switch: CSwitch, then the stack the new thread had blocked
 * with, when one was kept. */
static void on_switch(petw__system *s, const petw__sys_record *r)
{
    if (!(s->flags & PETW_SYSTEM_CSWITCH))
        return;
    /* System-wide, the switch-out record names both threads; following
     * one process, each side is seen alone (the other thread is 0). */
    int out = (r->flags & PETW__SYS_SWITCH_OUT) != 0;
    if (!out && !s->c.target_pid)
        return; /* the switch-out record said it (the idle thread is 0) */
    uint32_t new_tid = out ? r->other_tid : r->tid, old_tid = out ? r->tid : r->other_tid;
    uint32_t new_pid = out ? r->other_pid : r->pid;
    int preempt = (r->flags & PETW__SYS_SWITCH_PREEMPT) != 0;
    uint8_t *p = s->payload;
    memset(p, 0, PETW__CSWITCH_SIZE);
    petw__wr32(p + PETW__CSWITCH_NEW_TID, new_tid);
    petw__wr32(p + PETW__CSWITCH_OLD_TID, old_tid);
    p[PETW__CSWITCH_OLD_WAIT_REASON] =
        preempt ? PETW__WAIT_PREEMPTED : PETW__WAIT_EXECUTIVE; /* OldThreadWaitReason */
    p[PETW__CSWITCH_OLD_STATE] =
        preempt ? PETW__THREAD_STATE_READY : PETW__THREAD_STATE_WAITING; /* OldThreadState */
    petw__system_emit(s, r->cpu, PETW__HDR_COMPACT64, HOOK_THREAD(THREAD_CSWITCH),
                      PETW__VERSION_CSWITCH, new_pid, new_tid, r->time_ns, p, PETW__CSWITCH_SIZE);
    blocked_stack *b = s->blocked && new_tid ? blocked_slot(s, new_tid) : NULL;
    if (b && b->tid_plus_one == new_tid + 1 && b->time_ns <= r->time_ns) {
        emit_stack(s, r->cpu, new_pid, new_tid, r->time_ns, b->frames, b->frame_count);
        b->tid_plus_one = 0;
    }
}

/* The stack a thread leaves its CPU with: kept for the thread's switch in
 * (another thread's, hashed to the same slot, replaces it: that switch
 * then has no stack). */
static void on_switch_stack(petw__system *s, const petw__sys_record *r)
{
    if (s->blocked && r->tid && r->frame_count) {
        blocked_stack *b = blocked_slot(s, r->tid);
        b->tid_plus_one = r->tid + 1;
        b->frame_count = r->frame_count;
        b->time_ns = r->time_ns;
        memcpy(b->frames, r->frames, r->frame_count * sizeof(*r->frames));
    }
}

/* A CPU sample: SampledProfile, and its stack when stacks were asked. */
static void on_sample(petw__system *s, const petw__sys_record *r)
{
    if (!(s->flags & PETW_SYSTEM_PROFILE))
        return;
    uint8_t *p = s->payload;
    petw__wr64(p, r->addr);
    petw__wr32(p + 8, r->tid);
    petw__wr16(p + 12, 1); /* Count */
    petw__wr16(p + 14, 0);
    /* The kernel functions to name at the end (KernelSymbol events). */
    petw__system_ident_note(&s->ident, &r->addr, 1);
    petw__system_ident_note(&s->ident, r->frames, r->frame_count);
    petw__system_emit(s, r->cpu, PETW__HDR_PERFINFO64, HOOK_PERFINFO(SAMPLED_PROFILE),
                      PETW__VERSION_PERFINFO, r->pid, r->tid, r->time_ns, p, 16);
    if ((s->c.stack_flags & PETW_SYSTEM_PROFILE) && r->frame_count)
        emit_stack(s, r->cpu, r->pid, r->tid, r->time_ns, r->frames, r->frame_count);
}

/* A wakeup: ReadyThread, the thread made runnable; Linux gives no
 * priority boost, so AdjustReason, AdjustIncrement and Flag are 0. */
static void on_wakeup(petw__system *s, const petw__sys_record *r)
{
    if (!(s->flags & PETW_SYSTEM_DISPATCHER))
        return;
    uint8_t *p = s->payload;
    memset(p, 0, PETW__READY_SIZE);
    petw__wr32(p + PETW__READY_TID, r->other_tid);
    petw__system_emit(s, r->cpu, PETW__HDR_COMPACT64, HOOK_THREAD(THREAD_READY),
                      PETW__VERSION_READY_THREAD, r->pid, r->tid, r->time_ns, p, PETW__READY_SIZE);
    /* The readying thread's stack (WPA's ReadyThreadStack). */
    if ((s->c.stack_flags & PETW_SYSTEM_DISPATCHER) && r->frame_count)
        emit_stack(s, r->cpu, r->pid, r->tid, r->time_ns, r->frames, r->frame_count);
}

/* A network record, as the TcpIp/UdpIp event system_net.c makes of it. */
static void on_net(petw__system *s, const petw__sys_record *r)
{
    if (!s->net)
        return;
    uint16_t hook;
    uint32_t pid;
    uint32_t n = petw__system_net_event(s->net, r, s->payload, &hook, &pid);
    /* An event of another process than the thread it came in (an Accept
     * or Disconnect the kernel made in a softirq): no thread in the
     * header, as Windows logs those from a DPC. */
    if (n)
        petw__system_emit(s, r->cpu, PETW__HDR_SYSTEM64, hook, PETW__VERSION_NET, pid,
                          pid == r->pid ? r->tid : UINT32_MAX, r->time_ns, s->payload, n);
}

/* The OS dropped records before petw saw them: lost events, one per
 * record (relaxed: counters, as the ring's own). */
static void on_lost(petw__system *s, const petw__sys_record *r)
{
    petw__ring_counters *k = s->c.ring->counters;
    uint64_t n = r->count > UINT32_MAX ? UINT32_MAX : r->count;
    atomic_fetch_add_explicit(&k->events_lost, (uint32_t)n, memory_order_relaxed);
    atomic_store_explicit(&k->lost_pending, 1, memory_order_relaxed);
}

static void on_record(void *ctx, const petw__sys_record *r)
{
    petw__system *s = ctx;
    petw__sys_record said;
    if (r->kind == PETW__SYSREC_TRACEPOINT) {
        if (!petw__system_tracepoints_decode(&s->tracepoints, r, &said))
            return;
        r = &said;
    } else if (r->kind == PETW__SYSREC_MMAP && !r->build_id_size &&
               (s->flags & PETW_SYSTEM_IMAGE_LOAD)) { /* the kernel gave none: the file's */
        said = *r;
        said.build_id = s->build_id;
        said.build_id_size = petw__system_build_id(r->text, s->build_id);
        r = &said;
    }
    if (s->mem)
        petw__system_memory_record(s->mem, r);
    switch (r->kind) {
    case PETW__SYSREC_FORK:
        petw__system_on_task_start(s, r);
        break;
    case PETW__SYSREC_EXIT:
        petw__system_on_task_end(s, r);
        break;
    case PETW__SYSREC_EXEC:
        petw__system_on_exec(s, r);
        break;
    case PETW__SYSREC_MMAP:
        petw__system_on_mmap(s, r);
        break;
    case PETW__SYSREC_SWITCH:
        on_switch(s, r);
        break;
    case PETW__SYSREC_SWITCH_STACK:
        on_switch_stack(s, r);
        break;
    case PETW__SYSREC_SAMPLE:
        on_sample(s, r);
        break;
    case PETW__SYSREC_WAKEUP:
        on_wakeup(s, r);
        break;
    case PETW__SYSREC_DISK_ISSUE:
    case PETW__SYSREC_DISK:
        if (s->flags & PETW_SYSTEM_DISK_IO)
            on_disk(s, r);
        break;
    case PETW__SYSREC_NET:
        on_net(s, r);
        break;
    case PETW__SYSREC_LOST:
        on_lost(s, r);
        break;
    default:
        break;
    }
}

static void thread_main(void *arg)
{
    petw__system *s = arg;
    /* relaxed: see the field; the last pass below reads what is left. */
    while (!atomic_load_explicit(&s->stop, memory_order_relaxed)) {
        if (s->sys)
            petw__sys_wait(s->sys, POLL_MS);
        else
            petw__sleep_ms(POLL_MS);
        anchor(s);
        if (s->sys)
            petw__sys_read(s->sys, on_record, s);
        petw__system_file_read(s->file);
    }
    anchor(s);
    if (s->sys)
        petw__sys_drain(s->sys, on_record, s);
    petw__system_file_stop(s->file);
    s->file = NULL;
}

/* What the OS is asked to record, of the groups granted; `interval` is
 * the sampling interval in 100 ns. */
static petw__sys_config sys_config(const petw__system *s, const petw__system_config *c,
                                   uint64_t interval)
{
    petw__sys_config sc = {
        .target_pid = c->target_pid,
        .tasks = (s->flags & (PETW_SYSTEM_PROCESS | PETW_SYSTEM_THREAD)) != 0,
        .mmaps = (s->flags & PETW_SYSTEM_IMAGE_LOAD) != 0,
        .switches = (s->flags & PETW_SYSTEM_CSWITCH) != 0,
        .sample_ns = (s->flags & PETW_SYSTEM_PROFILE) ? interval * 100 : 0,
        .sample_stacks = (c->stack_flags & PETW_SYSTEM_PROFILE) != 0,
        .faults = (s->flags & FAULT_FLAGS) != 0,
        .minor_faults = (s->flags & PETW_SYSTEM_PAGE_FAULTS) != 0,
        .fault_starts = (s->flags & PETW_SYSTEM_HARD_FAULTS) != 0,
        .net = (s->flags & PETW_SYSTEM_NETWORK_TCPIP) != 0,
    };
    return sc;
}

/* The classes that need tracepoints (system_tracepoint.c). */
static petw__system_tracepoint_want tp_want(const petw__system *s, const petw__system_config *c)
{
    petw__system_tracepoint_want w = {
        .wakeups = (s->flags & PETW_SYSTEM_DISPATCHER) != 0,
        .wakeup_stacks = (c->stack_flags & PETW_SYSTEM_DISPATCHER) != 0,
        .switch_stacks = (s->flags & c->stack_flags & PETW_SYSTEM_CSWITCH) != 0,
        .disk = (s->flags & PETW_SYSTEM_DISK_IO) != 0,
        .vm = (s->flags & PETW_SYSTEM_VIRTUAL_ALLOC) != 0,
        .net = (s->flags & PETW_SYSTEM_NETWORK_TCPIP) != 0,
    };
    return w;
}

/* Frees a provider that did not start, and whatever it had opened. */
static void system_free(petw__system *s)
{
    petw__system_file_stop(s->file);
    petw__sys_close(s->sys);
    petw__system_memory_free(s->mem);
    free(s->names);
    free(s->disk);
    free(s->net);
    free(s->blocked);
    free(s);
}

/* File I/O, when asked: without BPF (or its rights) file I/O is not
 * recorded, the rest is. Returns PETW_SYSTEM_LIMIT_NO_FILE_IO then, or 0. */
static uint32_t start_file_io(petw__system *s, uint32_t target_pid)
{
    const uint32_t file_flags =
        PETW_SYSTEM_FILE_IO | PETW_SYSTEM_FILE_IO_INIT | PETW_SYSTEM_DISK_FILE_IO;
    if (!(s->flags & file_flags))
        return 0;
    char why[256];
    if (petw__system_file_start(emit_cb, lost_cb, s, target_pid, &s->file, why, sizeof(why)) != 0) {
        s->flags &= ~file_flags;
        return PETW_SYSTEM_LIMIT_NO_FILE_IO;
    }
    return 0;
}

/* Tracepoint groups the OS refused or lacks are not recorded. */
static void drop_refused(petw__system *s, const petw__sys_info *info)
{
    const petw__system_tracepoints *t = &s->tracepoints;
    if (!t->wakeups)
        s->flags &= ~PETW_SYSTEM_DISPATCHER;
    if (!t->disk)
        s->flags &= ~PETW_SYSTEM_DISK_IO;
    if (!info->faults)
        s->flags &= ~FAULT_FLAGS;
    if (!t->vm)
        s->flags &= ~PETW_SYSTEM_VIRTUAL_ALLOC;
    if (!(t->net_states || t->net_bytes || t->net_retransmits))
        s->flags &= ~PETW_SYSTEM_NETWORK_TCPIP;
}

/* PerfInfo CollectionStart v3 (SampledProfileInterval): the sampling
 * interval, as Windows logs it at a profile's start: Source 0
 * (ProfileTime), NewInterval and OldInterval in 100 ns, SourceName. */
static void write_collection_start(petw__system *s, uint64_t interval)
{
    uint8_t *p = s->payload;
    petw__wr32(p, 0);
    petw__wr32(p + 4, (uint32_t)interval);
    petw__wr32(p + 8, (uint32_t)interval);
    size_t units = petw__utf8_to_utf16le("Timer", p + 12, 16);
    petw__system_emit(s, 0, PETW__HDR_SYSTEM64, HOOK_PERFINFO(COLLECTION_START),
                      PETW__VERSION_COLLECTION, 0, 0, petw__monotonic_ns(), p,
                      12 + 2 * ((uint32_t)units + 1));
}

/* The PETW_SYSTEM_LIMIT_* bits: what was asked and the OS gives only in
 * part. */
static uint32_t limits_of(const petw__system *s, const petw__sys_config *sc,
                          const petw__system_tracepoint_want *want, const petw__sys_info *info,
                          uint32_t file_limit)
{
    const petw__system_tracepoints *t = &s->tracepoints;
    uint32_t limits =
        (info->kernel_excluded ? PETW_SYSTEM_LIMIT_USER_ONLY : 0) |
        (want->switch_stacks && !t->switch_stacks ? PETW_SYSTEM_LIMIT_NO_SWITCH_STACKS : 0) |
        (sc->faults && !info->faults ? PETW_SYSTEM_LIMIT_NO_FAULTS : 0) |
        (want->vm && !t->vm ? PETW_SYSTEM_LIMIT_NO_VIRTUAL_ALLOC : 0) |
        (sc->fault_starts && info->faults && !info->fault_starts ? PETW_SYSTEM_LIMIT_NO_FAULT_TIMES
                                                                 : 0) |
        file_limit;
    const int net = t->net_states || t->net_bytes || t->net_retransmits;
    uint32_t refused = (want->wakeups && !t->wakeups ? PETW_SYSTEM_LIMIT_NO_DISPATCHER : 0) |
                       (want->disk && !t->disk ? PETW_SYSTEM_LIMIT_NO_DISK_IO : 0) |
                       (want->net && !net ? PETW_SYSTEM_LIMIT_NO_NETWORK : 0);
    limits |= refused;
    /* Why tracepoints are missing, when it is that this user may not read
     * them. */
    if ((refused ||
         (limits & (PETW_SYSTEM_LIMIT_NO_SWITCH_STACKS | PETW_SYSTEM_LIMIT_NO_VIRTUAL_ALLOC))) &&
        petw__tracefs_denied())
        limits |= PETW_SYSTEM_LIMIT_TRACEPOINTS_DENIED;
    if (s->flags & PETW_SYSTEM_NETWORK_TCPIP)
        limits |= (t->net_bytes ? 0 : PETW_SYSTEM_LIMIT_NET_NO_BYTES) |
                  (t->net_states ? 0 : PETW_SYSTEM_LIMIT_NET_NO_CONNECTIONS) |
                  (t->net_retransmits ? 0 : PETW_SYSTEM_LIMIT_NET_NO_RETRANSMITS) |
                  (info->net_bpf ? 0 : PETW_SYSTEM_LIMIT_NET_NO_UDP_ADDRESSES);
    return limits;
}

/* Opens the OS's records the groups granted need (their tracepoints chosen
 * by system_tracepoint.c), then file I/O; what the OS refuses or lacks
 * leaves s->flags. 0, or petw__sys_open's error. */
static int open_records(petw__system *s, petw__sys_config *sc,
                        const petw__system_tracepoint_want *want, petw__sys_info *info,
                        uint32_t *file_limit)
{
    memset(info, 0, sizeof(*info));
    int need_sys = sc->tasks || sc->mmaps || sc->switches || sc->sample_ns || want->wakeups ||
                   want->disk || sc->faults || want->vm || sc->net || want->switch_stacks;
    if (need_sys)
        petw__system_tracepoints_ask(&s->tracepoints, want, sc);
    int rc = need_sys ? petw__sys_open(sc, &s->sys, info) : 0;
    *file_limit = rc == 0 ? start_file_io(s, s->c.target_pid) : 0;
    if (rc == 0) {
        petw__system_tracepoints_granted(&s->tracepoints, info);
        drop_refused(s, info);
    }
    return rc;
}

int petw__system_start(const petw__system_config *c, petw__system **out, uint32_t *granted,
                       uint32_t *limits)
{
    *out = NULL;
    *granted = c->flags & PETW_SYSTEM_SUPPORTED;
    *limits = 0;
    PETW__RETURN_IF(!*granted, PETW_ENOTSUP);
    petw__system *s = calloc(1, sizeof(*s));
    PETW__RETURN_IF(!s, PETW_ENOMEM);
    s->c = *c;
    s->flags = *granted;
    s->clock = c->ring->clock;
    s->exact = s->clock != PETW_CLOCK_SYSTEM && !petw__clock_is_measured(s->clock) &&
               petw__clock_frequency(s->clock) == 1000000000;
    s->ticks_per_ns = (double)petw__clock_frequency(s->clock) / 1e9;
    anchor(s);
    petw__system_ident_init(&s->ident);
    if (s->flags & (PETW_SYSTEM_PROCESS | PETW_SYSTEM_THREAD)) {
        s->names = calloc(NAME_SLOTS, sizeof(*s->names));
        if (!s->names) {
            free(s);
            return PETW_ENOMEM;
        }
    }
    uint64_t interval = c->interval_100ns ? c->interval_100ns : 10000;
    if (interval < 100) /* 10 us: below it the samples would be the load */
        interval = 100;
    petw__sys_config sc = sys_config(s, c, interval);
    petw__system_tracepoint_want want = tp_want(s, c);
    if ((want.disk && !(s->disk = calloc(DISK_SLOTS, sizeof(*s->disk)))) ||
        (want.net && !(s->net = calloc(1, sizeof(*s->net)))) ||
        (want.switch_stacks && !(s->blocked = calloc(BLOCKED_SLOTS, sizeof(*s->blocked))))) {
        free(s->disk);
        free(s->net);
        free(s->names);
        free(s);
        return PETW_ENOMEM;
    }
    petw__sys_info info;
    uint32_t file_limit = 0;
    int rc = open_records(s, &sc, &want, &info, &file_limit);
    if (rc == 0 && !s->flags)
        rc = PETW_ENOTSUP;
    if (rc == 0 && (s->flags & MEMORY_FLAGS) &&
        !(s->mem = petw__system_memory_new(s->flags & MEMORY_FLAGS, emit_cb, ticks_cb, s)))
        rc = PETW_ENOMEM;
    if (rc == 0 && (s->flags & (PETW_SYSTEM_PROCESS | PETW_SYSTEM_THREAD | PETW_SYSTEM_IMAGE_LOAD |
                                FAULT_FLAGS))) {
        /* After the OS started recording, so nothing falls between the two
         * (what starts meanwhile may appear in both, as on Windows). */
        anchor(s);
        rc = petw__system_rundown(c->target_pid, (s->flags & FAULT_FLAGS) != 0,
                                  petw__system_on_rundown, s);
    }
    if (rc == 0 && (s->flags & PETW_SYSTEM_PROFILE))
        write_collection_start(s, interval);
    /* Before the thread starts, which reads s->blocked without a lock. */
    if (rc == 0 && !s->tracepoints.switch_stacks) { /* no sched_switch: no stack to keep */
        free(s->blocked);
        s->blocked = NULL;
    }
    if (rc == 0 && uv_thread_create(&s->thread, thread_main, s) != 0)
        rc = PETW_ENOMEM;
    if (rc != 0) {
        system_free(s);
        return rc;
    }
    *granted = s->flags;
    *limits = limits_of(s, &sc, &want, &info, file_limit);
    *out = s;
    return 0;
}

void petw__system_stop(petw__system *s, int end)
{
    if (!s)
        return;
    atomic_store_explicit(&s->stop, 1, memory_order_relaxed);
    uv_thread_join(&s->thread);
    petw__sys_close(s->sys);
    if (end) {
        anchor(s);
        if (s->flags & (PETW_SYSTEM_PROCESS | PETW_SYSTEM_THREAD | PETW_SYSTEM_IMAGE_LOAD)) {
            s->rundown_end = 1;
            (void)petw__system_rundown(s->c.target_pid, 0, petw__system_on_rundown, s);
        }
        petw__system_ident_kernel(&s->ident, s->c.ring, s->c.ring_gen,
                                  petw__system_time(s, petw__monotonic_ns()));
        for (uint32_t k = 0; s->names && (s->flags & PETW_SYSTEM_PROFILE) && k < NAME_SLOTS; k++)
            if (s->names[k].pid && s->names[k].pid != UINT32_MAX) /* the JIT maps of the living */
                petw__system_ident_jit(&s->ident, s->c.ring, s->c.ring_gen,
                                       petw__system_time(s, petw__monotonic_ns()), s->names[k].pid,
                                       s->names[k].uid);
        petw__system_write_config(s);
    }
    free(s->ident.kernel);
    petw__system_memory_free(s->mem);
    free(s->names);
    free(s->disk);
    free(s->net);
    free(s->blocked);
    free(s);
}
