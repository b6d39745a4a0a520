/* SPDX-License-Identifier: MIT */
/* system_task.c - the system provider's processes, threads and images:
 * process names (the rundown's and exec's, inherited at fork), and the
 * Process, Thread and Image events of the OS's records and of the rundown.
 *
 * Allowed dependencies: common/, platform/, classes/, ring/, format/, libuv.
 */
#include <stdio.h>
#include <stdlib.h>

/* system_state.h first: it includes <uv.h>, which on Windows wants
 * <winsock2.h> before <windows.h>. */
#include "system_state.h"

#include "../../base/format/etl.h"

/* ---- Process names (the rundown's and exec's, inherited at fork) ---- */

proc_name *petw__system_name_slot(petw__system *s, uint32_t pid, int insert)
{
    if (!s->names || !pid)
        return NULL;
    uint32_t h = (pid * 2654435761u) & (NAME_SLOTS - 1);
    for (uint32_t k = 0; k < 64; k++) {
        proc_name *e = &s->names[(h + k) & (NAME_SLOTS - 1)];
        if (e->pid == pid)
            return e;
        if (e->pid == 0) {
            if (!insert)
                return NULL;
            e->pid = pid;
            return e;
        }
    }
    return NULL;
}

static void name_set(petw__system *s, uint32_t pid, uint32_t ppid, const char *name)
{
    proc_name *e = petw__system_name_slot(s, pid, 1);
    if (!e)
        return;
    e->ppid = ppid;
    e->uid = petw__sys_owner(pid);
    snprintf(e->name, sizeof(e->name), "%s", name ? name : "");
}

/* ---- Payloads ---- */

/* Process_TypeGroup1 v4. */
static uint32_t process_payload(petw__system *s, uint32_t pid, uint32_t ppid, const char *name)
{
    uint8_t *p = s->payload;
    memset(p, 0, 40);
    petw__wr64(p, pid); /* UniqueProcessKey: the kernel's object; the pid stands in */
    petw__wr32(p + 8, pid);
    petw__wr32(p + 12, ppid);
    /* SessionId, ExitStatus (not known), DirectoryTableBase, Flags: 0. */
    uint32_t at = 36;
    uint32_t uid = petw__sys_owner(pid);
    if (uid == UINT32_MAX) {
        proc_name *e = petw__system_name_slot(s, pid, 0);
        uid = e ? e->uid : UINT32_MAX;
    }
    if (uid == UINT32_MAX) {
        petw__wr32(p + at, 0); /* no SID */
        at += 4;
    } else {
        /* TOKEN_USER {Sid pointer, Attributes}, then S-1-22-1-uid (a Unix
         * user, as petw's enable filters name it). */
        memset(p + at, 0, 16);
        /* The Sid pointer: a kernel address on Windows, never 0 (0 means
         * no SID to readers); none exists here, so 1. */
        petw__wr64(p + at, 1);
        at += 16;
        const uint8_t sid[8] = {1, 2, 0, 0, 0, 0, 0, 22};
        memcpy(p + at, sid, 8);
        petw__wr32(p + at + 8, 1);
        petw__wr32(p + at + 12, uid);
        at += 16;
    }
    size_t n = strlen(name ? name : "");
    memcpy(p + at, name ? name : "", n + 1);
    at += (uint32_t)n + 1;
    char cmd[4096];
    petw__sys_cmdline(pid, cmd, sizeof(cmd));
    at += 2 * ((uint32_t)petw__utf8_to_utf16le(cmd, p + at, 4096) + 1);
    memset(p + at, 0, 4); /* PackageFullName, ApplicationId: empty */
    return at + 4;
}

/* Thread_TypeGroup1 v3: the stack and start addresses are not known. */
static uint32_t thread_payload(petw__system *s, uint32_t pid, uint32_t tid)
{
    uint8_t *p = s->payload;
    memset(p, 0, 72);
    petw__wr32(p, pid);
    petw__wr32(p + 4, tid);
    return 72;
}

/* Image_Load v3: ImageBase is where the file's offset 0 lies (the mapping
 * less its file offset: the ELF's load base), ImageSize reaches the end of
 * the executable mapping. */
static uint32_t image_payload(petw__system *s, const petw__sys_record *r)
{
    uint8_t *p = s->payload;
    memset(p, 0, 56);
    uint64_t base = r->addr >= r->pgoff ? r->addr - r->pgoff : r->addr;
    petw__wr64(p, base);
    petw__wr64(p + 8, r->len + (r->addr - base));
    petw__wr32(p + 16, r->pid);
    petw__wr64(p + 32, base); /* DefaultBase */
    size_t units = petw__utf8_to_utf16le(r->text ? r->text : "", p + 56, 4096);
    return 56 + 2 * ((uint32_t)units + 1);
}

/* ---- Disk I/O: a request's issue, then its completion (DiskIo v3) ---- */

/* A new task: Process/Start for a process (its parent's name until it
 * execs), Thread/Start for every thread. */
void petw__system_on_task_start(petw__system *s, const petw__sys_record *r)
{
    uint32_t f = s->flags;
    int process = r->pid == r->tid;
    proc_name *parent = petw__system_name_slot(s, r->other_pid, 0);
    const char *name = parent ? parent->name : "";
    if (process && (f & PETW_SYSTEM_PROCESS)) {
        char copy[16];
        snprintf(copy, sizeof(copy), "%s", name);
        name_set(s, r->pid, r->other_pid, copy);
        uint32_t n = process_payload(s, r->pid, r->other_pid, copy);
        petw__system_emit(s, r->cpu, PETW__HDR_SYSTEM64, HOOK_PROCESS(START), PETW__VERSION_PROCESS,
                          r->other_pid, r->other_tid, r->time_ns, s->payload, n);
    }
    if (f & PETW_SYSTEM_THREAD) {
        uint32_t n = thread_payload(s, r->pid, r->tid);
        petw__system_emit(s, r->cpu, PETW__HDR_SYSTEM64, HOOK_THREAD(START), PETW__VERSION_THREAD,
                          r->pid, r->tid, r->time_ns, s->payload, n);
    }
}

/* A task's end: Thread/End, and Process/End for a process's last. */
void petw__system_on_task_end(petw__system *s, const petw__sys_record *r)
{
    uint32_t f = s->flags;
    if (f & PETW_SYSTEM_THREAD) {
        uint32_t n = thread_payload(s, r->pid, r->tid);
        petw__system_emit(s, r->cpu, PETW__HDR_SYSTEM64, HOOK_THREAD(END), PETW__VERSION_THREAD,
                          r->pid, r->tid, r->time_ns, s->payload, n);
    }
    if (r->pid == r->tid && (f & PETW_SYSTEM_PROCESS)) {
        proc_name *e = petw__system_name_slot(s, r->pid, 0);
        uint32_t n = process_payload(s, r->pid, e ? e->ppid : r->other_pid, e ? e->name : "");
        petw__system_emit(s, r->cpu, PETW__HDR_SYSTEM64, HOOK_PROCESS(END), PETW__VERSION_PROCESS,
                          r->pid, r->tid, r->time_ns, s->payload, n);
        if (e && (f & PETW_SYSTEM_PROFILE)) /* its JIT map, while its pid means it */
            petw__system_ident_jit(&s->ident, s->c.ring, s->c.ring_gen,
                                   petw__system_time(s, r->time_ns), r->pid, e->uid);
        if (e)
            e->pid = UINT32_MAX; /* a tombstone: probing goes on past it */
    }
}

/* A new program in the same process: Windows has no exec, so a new
 * Process/Start with the same id carries its name and command line. */
void petw__system_on_exec(petw__system *s, const petw__sys_record *r)
{
    if (!(s->flags & PETW_SYSTEM_PROCESS))
        return;
    proc_name *e = petw__system_name_slot(s, r->pid, 0);
    uint32_t ppid = e ? e->ppid : 0;
    name_set(s, r->pid, ppid, r->text);
    uint32_t n = process_payload(s, r->pid, ppid, r->text);
    petw__system_emit(s, r->cpu, PETW__HDR_SYSTEM64, HOOK_PROCESS(START), PETW__VERSION_PROCESS,
                      r->pid, r->tid, r->time_ns, s->payload, n);
}

/* A mapped file: Image/Load, and its ImageId events. */
void petw__system_on_mmap(petw__system *s, const petw__sys_record *r)
{
    if (!(s->flags & PETW_SYSTEM_IMAGE_LOAD))
        return;
    uint32_t n = image_payload(s, r);
    petw__system_emit(s, r->cpu, PETW__HDR_SYSTEM64, PETW__HOOK_IMAGE_LOAD, PETW__VERSION_IMAGE,
                      r->pid, r->tid, r->time_ns, s->payload, n);
    petw__system_ident_image(&s->ident, s->c.ring, s->c.ring_gen, r->cpu,
                             petw__system_time(s, r->time_ns), r);
}

/* The rundowns: DCStart events for what exists when collection starts,
 * DCEnd events for what still exists when the session ends. */
void petw__system_on_rundown(void *ctx, const petw__sys_record *r)
{
    petw__system *s = ctx;
    uint32_t f = s->flags, cpu = 0;
    int end = s->rundown_end;
    if (s->mem && !end && r->kind != PETW__SYSREC_FORK)
        petw__system_memory_record(s->mem, r); /* the mappings faults fall in */
    if (r->kind == PETW__SYSREC_FORK) {
        if (r->pid == r->tid) {
            if (!end)
                name_set(s, r->pid, r->other_pid, r->text);
            if (f & PETW_SYSTEM_PROCESS) {
                uint32_t n = process_payload(s, r->pid, r->other_pid, r->text);
                petw__system_emit(s, cpu, PETW__HDR_SYSTEM64,
                                  end ? HOOK_PROCESS(DCEND) : HOOK_PROCESS(DCSTART),
                                  PETW__VERSION_PROCESS, r->pid, r->tid, r->time_ns, s->payload, n);
            }
        }
        if (f & PETW_SYSTEM_THREAD) {
            uint32_t n = thread_payload(s, r->pid, r->tid);
            petw__system_emit(s, cpu, PETW__HDR_SYSTEM64,
                              end ? HOOK_THREAD(DCEND) : HOOK_THREAD(DCSTART), PETW__VERSION_THREAD,
                              r->pid, r->tid, r->time_ns, s->payload, n);
        }
    } else if (r->kind == PETW__SYSREC_MMAP && (f & PETW_SYSTEM_IMAGE_LOAD)) {
        uint32_t n = image_payload(s, r);
        petw__system_emit(s, cpu, PETW__HDR_SYSTEM64, end ? HOOK_IMAGE(DCEND) : HOOK_IMAGE(DCSTART),
                          PETW__VERSION_IMAGE, r->pid, r->tid, r->time_ns, s->payload, n);
        petw__system_ident_image(&s->ident, s->c.ring, s->c.ring_gen, cpu,
                                 petw__system_time(s, r->time_ns), r);
    }
}
