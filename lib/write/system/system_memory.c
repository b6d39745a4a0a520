/* SPDX-License-Identifier: MIT */
/* system_memory.c - the system provider's PageFault class: the OS's page
 * faults and virtual memory calls as Windows' PageFault events.
 *
 * Allowed dependencies: common/, platform/, classes/, ring/, format/, libuv.
 *
 * Faults (PETW_SYSTEM_PAGE_FAULTS): a minor fault is a TransitionFault when
 * its page lies in a file mapping (it was in the page cache, as a page on
 * Windows' standby list) and a DemandZeroFault elsewhere (anonymous memory;
 * Linux does not tell a copy on write from a first touch); a major fault is
 * a HardPageFault. Hard faults (PETW_SYSTEM_HARD_FAULTS): a HardFault at the
 * read's end, whose InitialTime is the fault's start (the same thread's
 * fault event at that page just before), ReadOffset the page's offset in the
 * file the process maps there, FileObject that file (named once by a FileIo
 * Name event) and ByteCount one page (Linux says not how much it read
 * ahead). To know the files, every process's mappings are followed: the
 * rundown's, the OS's mapping records, copied at fork, dropped at exec.
 * Virtual memory (PETW_SYSTEM_VIRTUAL_ALLOC): mmap is a VirtualAlloc
 * (MEM_RESERVE alone for PROT_NONE, else MEM_COMMIT | MEM_RESERVE), munmap a
 * VirtualFree (MEM_RELEASE), brk the pages the break gained or lost, mremap
 * the pages it added or removed in place, or a VirtualFree of the old range
 * and a VirtualAlloc of the new when it moved. Sizes in whole pages.
 *
 * Memory is bounded by processes, threads and files, never by faults.
 */
#include <stdlib.h>
#include <string.h>

#include "../../base/classes/kernel_class.h"
#include "../../base/format/etl.h"
#include "system_internal.h"

#define PS 8               /* the 64-bit layouts */
#define THREAD_SLOTS 4096u /* threads in a memory call, threads in a fault */
#define THREAD_PROBES 16u
#define SLOT_GONE UINT32_MAX /* a thread slot freed (probing goes on past it) */
#define PROC_SLOTS 8192u     /* processes whose mappings are followed */
#define FILE_SLOTS 65536u    /* files seen mapped */
#define MAX_MAPS_PER_PROC 65536u
#define FILE_OBJECT_BASE 0xFFFFE00000000000ull /* a kernel-looking pointer per file */

typedef struct mapping {
    uint64_t start, end, pgoff;
    uint32_t file; /* index into files + 1; 0: anonymous */
} mapping;

typedef struct mem_proc {
    uint32_t pid; /* 0: empty; UINT32_MAX: removed */
    int brk_known;
    uint64_t brk;
    mapping *maps; /* sorted by start, not overlapping; file mappings only */
    uint32_t count, cap;
} mem_proc;

/* A thread in a memory call (its entry seen, its exit not yet). */
typedef struct mem_call {
    uint32_t tid_plus_one; /* first: see tid_slot */
    uint32_t call;         /* PETW__SYS_VM_* */
    uint64_t args[6];
} mem_call;

/* A thread in a fault (its start seen, its end not yet). */
typedef struct mem_start {
    uint32_t tid_plus_one; /* first: see tid_slot */
    uint64_t page;
    int64_t ns;
} mem_start;

typedef struct mem_file {
    char *path; /* NULL: empty */
    int named;  /* its FileIo Name was written */
} mem_file;

struct petw__system_memory {
    uint32_t flags;
    petw__system_emit_fn emit;
    petw__system_ticks_fn ticks;
    void *ctx;
    uint64_t page;
    mem_proc *procs;
    mem_call *calls;   /* THREAD_SLOTS */
    mem_start *starts; /* THREAD_SLOTS */
    mem_file *files;
    uint32_t file_count;
    uint8_t payload[8200];
};

petw__system_memory *petw__system_memory_new(uint32_t flags, petw__system_emit_fn emit,
                                             petw__system_ticks_fn ticks, void *ctx)
{
    petw__system_memory *m = calloc(1, sizeof(*m));
    if (!m)
        return NULL;
    m->flags = flags;
    m->emit = emit;
    m->ticks = ticks;
    m->ctx = ctx;
    m->page = petw__page_size();
    if (!m->page || (m->page & (m->page - 1)))
        m->page = 4096;
    m->calls = calloc(THREAD_SLOTS, sizeof(*m->calls));
    m->starts = calloc(THREAD_SLOTS, sizeof(*m->starts));
    if (flags & (PETW_SYSTEM_PAGE_FAULTS | PETW_SYSTEM_HARD_FAULTS | PETW_SYSTEM_VIRTUAL_ALLOC))
        m->procs = calloc(PROC_SLOTS, sizeof(*m->procs));
    if (flags & (PETW_SYSTEM_PAGE_FAULTS | PETW_SYSTEM_HARD_FAULTS))
        m->files = calloc(FILE_SLOTS, sizeof(*m->files));
    if (!m->calls || !m->starts || !m->procs ||
        (!m->files && (flags & (PETW_SYSTEM_PAGE_FAULTS | PETW_SYSTEM_HARD_FAULTS)))) {
        petw__system_memory_free(m);
        return NULL;
    }
    return m;
}

void petw__system_memory_free(petw__system_memory *m)
{
    if (!m)
        return;
    for (uint32_t k = 0; m->procs && k < PROC_SLOTS; k++)
        free(m->procs[k].maps);
    for (uint32_t k = 0; m->files && k < FILE_SLOTS; k++)
        free(m->files[k].path);
    free(m->procs);
    free(m->calls);
    free(m->starts);
    free(m->files);
    free(m);
}

/* ---- Tables ---- */

static mem_proc *proc_slot(petw__system_memory *m, uint32_t pid, int insert)
{
    if (!pid || pid == UINT32_MAX)
        return NULL;
    uint32_t h = (pid * 2654435761u) & (PROC_SLOTS - 1);
    mem_proc *tomb = NULL;
    for (uint32_t k = 0; k < 64; k++) {
        mem_proc *e = &m->procs[(h + k) & (PROC_SLOTS - 1)];
        if (e->pid == pid)
            return e;
        if (e->pid == UINT32_MAX && !tomb)
            tomb = e;
        if (e->pid == 0) {
            if (!insert)
                return NULL;
            e = tomb ? tomb : e;
            e->pid = pid;
            return e;
        }
    }
    if (insert && tomb) {
        tomb->pid = pid;
        return tomb;
    }
    return NULL; /* full here: the process's faults name no file */
}

static void proc_clear(mem_proc *p)
{
    free(p->maps);
    p->maps = NULL;
    p->count = p->cap = 0;
    p->brk_known = 0;
    p->brk = 0;
}

/* Thread `tid`'s slot in `table` (THREAD_SLOTS items of `size` bytes, each
 * beginning with its thread's id + 1; 0 never used, SLOT_GONE freed), or
 * NULL; with `insert` a new one when it has none (cleared): the first free
 * slot of its probes, else its first, whose thread then loses what it had
 * (its call or fault start is not known, never wrong: the id is checked).
 * Entries live from a call's entry (a fault's start) to its exit (end), so
 * the tables hold the threads inside one, few. */
static uint32_t *tid_slot(void *table, size_t size, uint32_t tid, int insert)
{
    if (tid >= UINT32_MAX - 1)
        return NULL;
    uint8_t *b = table;
    uint32_t h = (tid * 2654435761u) & (THREAD_SLOTS - 1), *free_slot = NULL;
    for (uint32_t k = 0; k < THREAD_PROBES; k++) {
        uint32_t *t = (uint32_t *)(void *)(b + ((h + k) & (THREAD_SLOTS - 1)) * size);
        if (*t == tid + 1)
            return t;
        if ((*t == 0 || *t == SLOT_GONE) && !free_slot)
            free_slot = t;
        if (*t == 0)
            break;
    }
    if (!insert)
        return NULL;
    if (!free_slot)
        free_slot = (uint32_t *)(void *)(b + h * size);
    memset(free_slot, 0, size);
    *free_slot = tid + 1;
    return free_slot;
}

static uint32_t file_intern(petw__system_memory *m, const char *path)
{
    if (!m->files || !path || path[0] != '/' || path[1] == '/')
        return 0; /* anonymous ("//anon"), or the heap, stack, vdso */
    uint64_t h = 1469598103934665603ull;
    for (const char *c = path; *c; c++)
        h = (h ^ (uint8_t)*c) * 1099511628211ull;
    for (uint32_t k = 0; k < 64; k++) {
        uint32_t i = (uint32_t)(h + k) & (FILE_SLOTS - 1);
        mem_file *f = &m->files[i];
        if (f->path && !strcmp(f->path, path))
            return i + 1;
        if (!f->path) {
            size_t n = strlen(path);
            if (!(f->path = malloc(n + 1)))
                return 0;
            memcpy(f->path, path, n + 1);
            m->file_count++;
            return i + 1;
        }
    }
    return 0; /* full: faults there name no file */
}

/* Puts [start, end) in p's mappings: what it overlaps goes (trimmed at the
 * edges); a file mapping (file != 0) is then added. */
static void map_set(mem_proc *p, uint64_t start, uint64_t end, uint64_t pgoff, uint32_t file)
{
    if (end <= start)
        return;
    uint32_t n = 0;
    if (p->count >= MAX_MAPS_PER_PROC)
        return; /* too many: the old mappings stay (a fault may then misname its file) */
    /* Worst case one split adds one entry, plus the new one. */
    mapping *out = malloc((p->count + 2) * sizeof(*out));
    if (!out)
        return;
    int added = !file;
    for (uint32_t k = 0; k < p->count; k++) {
        mapping e = p->maps[k];
        if (!added && e.start >= start) {
            out[n++] = (mapping){start, end, pgoff, file};
            added = 1;
        }
        if (e.end <= start || e.start >= end) {
            out[n++] = e;
            continue;
        }
        if (e.start < start) /* the part below */
            out[n++] = (mapping){e.start, start, e.pgoff, e.file};
        if (e.end > end) { /* the part above */
            if (!added) {
                out[n++] = (mapping){start, end, pgoff, file};
                added = 1;
            }
            out[n++] = (mapping){end, e.end, e.pgoff + (end - e.start), e.file};
        }
    }
    if (!added)
        out[n++] = (mapping){start, end, pgoff, file};
    free(p->maps);
    p->maps = out;
    p->count = n;
    p->cap = p->count + 2;
}

static const mapping *map_find(const mem_proc *p, uint64_t addr)
{
    uint32_t lo = 0, hi = p ? p->count : 0;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        const mapping *e = &p->maps[mid];
        if (addr < e->start)
            hi = mid;
        else if (addr >= e->end)
            lo = mid + 1;
        else
            return e;
    }
    return NULL;
}

/* ---- Events ---- */

static void emit_va(petw__system_memory *m, const petw__sys_record *r, uint16_t op, uint64_t base,
                    uint64_t size, uint32_t flags)
{
    if (!size)
        return;
    uint8_t *p = m->payload;
    petw__wr64(p + PETW__VA_BASE, base);
    petw__wr64(p + PETW__VA_SIZE_AT(PS), size);
    petw__wr32(p + PETW__VA_PID(PS), r->pid);
    petw__wr32(p + PETW__VA_FLAGS(PS), flags);
    m->emit(m->ctx, r->cpu, PETW__HDR_SYSTEM64, PETW__HOOK(PETW__GROUP_PAGE_FAULT, op),
            PETW__VERSION_PAGE_FAULT, r->pid, r->tid, r->time_ns, p, PETW__VA_SIZE(PS));
}

static uint64_t page_up(const petw__system_memory *m, uint64_t v)
{
    return v > UINT64_MAX - (m->page - 1) ? v & ~(m->page - 1) : (v + m->page - 1) & ~(m->page - 1);
}

static int failed(uint64_t ret)
{
    return ret >= (uint64_t)-4095; /* -errno */
}

static void on_vm_exit(petw__system_memory *m, const petw__sys_record *r)
{
    mem_call *t = (mem_call *)(void *)tid_slot(m->calls, sizeof(*m->calls), r->tid, 0);
    if (!t || t->call != r->count)
        return; /* its entry was not seen (before the session, or its slot was taken) */
    t->tid_plus_one = SLOT_GONE;
    uint32_t call = t->call;
    uint64_t a[6];
    memcpy(a, t->args, sizeof(a));
    uint64_t ret = r->addr;
    mem_proc *p = proc_slot(m, r->pid, 1);
    int va = (m->flags & PETW_SYSTEM_VIRTUAL_ALLOC) != 0;
    const uint32_t alloc = PETW__MEM_COMMIT | PETW__MEM_RESERVE;
    switch (call) {
    case PETW__SYS_VM_MMAP:
        if (failed(ret))
            return;
        /* args[2]: prot; PROT_NONE (0) reserves without committing */
        if (va)
            emit_va(m, r, PETW__OP_PF_VIRTUAL_ALLOC, ret, page_up(m, a[1]),
                    a[2] ? alloc : PETW__MEM_RESERVE);
        break;
    case PETW__SYS_VM_MUNMAP:
        if (ret != 0)
            return;
        if (va)
            emit_va(m, r, PETW__OP_PF_VIRTUAL_FREE, a[0], page_up(m, a[1]), PETW__MEM_RELEASE);
        if (p)
            map_set(p, a[0], a[0] + page_up(m, a[1]), 0, 0);
        break;
    case PETW__SYS_VM_BRK: {
        /* The break as the call left it; the pages between the old and the
         * new one were mapped or unmapped (a first break seen is only noted). */
        if (!p)
            return;
        uint64_t old = page_up(m, p->brk), now = page_up(m, ret);
        if (va && p->brk_known && now > old)
            emit_va(m, r, PETW__OP_PF_VIRTUAL_ALLOC, old, now - old, alloc);
        else if (va && p->brk_known && now < old)
            emit_va(m, r, PETW__OP_PF_VIRTUAL_FREE, now, old - now, PETW__MEM_RELEASE);
        p->brk = ret;
        p->brk_known = 1;
        break;
    }
    case PETW__SYS_VM_MREMAP: {
        if (failed(ret))
            return;
        uint64_t old_len = page_up(m, a[1]), new_len = page_up(m, a[2]);
        if (!va)
            break;
        if (ret == a[0]) {
            if (new_len > old_len)
                emit_va(m, r, PETW__OP_PF_VIRTUAL_ALLOC, a[0] + old_len, new_len - old_len, alloc);
            else if (new_len < old_len)
                emit_va(m, r, PETW__OP_PF_VIRTUAL_FREE, a[0] + new_len, old_len - new_len,
                        PETW__MEM_RELEASE);
        } else {
            emit_va(m, r, PETW__OP_PF_VIRTUAL_FREE, a[0], old_len, PETW__MEM_RELEASE);
            emit_va(m, r, PETW__OP_PF_VIRTUAL_ALLOC, ret, new_len, alloc);
        }
        break;
    }
    default:
        break;
    }
}

/* FileIo Name: the file's FileObject and path, once, before its first use. */
static uint64_t file_object(petw__system_memory *m, const petw__sys_record *r, uint32_t file)
{
    if (!file)
        return 0;
    mem_file *f = &m->files[file - 1];
    uint64_t object = FILE_OBJECT_BASE | (uint64_t)file << 4;
    if (!f->named) {
        uint8_t *p = m->payload;
        petw__wr64(p + PETW__FILE_NAME_KEY, object);
        size_t units = petw__utf8_to_utf16le(f->path, p + PETW__FILE_NAME_TEXT(PS), 4000);
        m->emit(m->ctx, r->cpu, PETW__HDR_SYSTEM64,
                PETW__HOOK(PETW__GROUP_FILE_IO, PETW__OP_FILE_NAME), PETW__VERSION_FILE_NAME,
                r->pid, r->tid, r->time_ns, p,
                PETW__FILE_NAME_TEXT(PS) + 2 * ((uint32_t)units + 1));
        f->named = 1;
    }
    return object;
}

static void on_fault(petw__system_memory *m, const petw__sys_record *r)
{
    uint64_t page = r->addr & ~(m->page - 1);
    if (r->flags & PETW__SYS_FAULT_START) {
        mem_start *t = (mem_start *)(void *)tid_slot(m->starts, sizeof(*m->starts), r->tid, 1);
        if (t) {
            t->page = page;
            t->ns = r->time_ns;
        }
        return;
    }
    /* The fault is over: its thread's start goes (read below for a hard one). */
    mem_start *t = (mem_start *)(void *)tid_slot(m->starts, sizeof(*m->starts), r->tid, 0);
    mem_start begun = {0, 0, 0};
    if (t) {
        begun = *t;
        t->tid_plus_one = SLOT_GONE;
    }
    mem_proc *p = proc_slot(m, r->pid, 0);
    const mapping *e = map_find(p, r->addr);
    int major = (r->flags & PETW__SYS_FAULT_MAJOR) != 0;
    if (m->flags & PETW_SYSTEM_PAGE_FAULTS) {
        uint8_t *q = m->payload;
        petw__wr64(q + PETW__PF_VA, r->addr);
        petw__wr64(q + PETW__PF_PC(PS), r->ip);
        uint16_t op = major ? PETW__OP_PF_HARD_PAGE_FAULT
                      : e   ? PETW__OP_PF_TRANSITION
                            : PETW__OP_PF_DEMAND_ZERO;
        m->emit(m->ctx, r->cpu, PETW__HDR_SYSTEM64, PETW__HOOK(PETW__GROUP_PAGE_FAULT, op),
                PETW__VERSION_PAGE_FAULT, r->pid, r->tid, r->time_ns, q, PETW__PF_SIZE(PS));
    }
    if (!major || !(m->flags & PETW_SYSTEM_HARD_FAULTS))
        return;
    int64_t start = r->time_ns; /* its start unknown: no duration */
    if (begun.tid_plus_one && begun.page == page && begun.ns <= r->time_ns)
        start = begun.ns;
    uint64_t object = e ? file_object(m, r, e->file) : 0;
    uint8_t *q = m->payload;
    petw__wr64(q + PETW__HF_INITIAL_TIME, (uint64_t)m->ticks(m->ctx, start));
    petw__wr64(q + PETW__HF_READ_OFFSET, e ? e->pgoff + (page - e->start) : 0);
    petw__wr64(q + PETW__HF_VA, r->addr);
    petw__wr64(q + PETW__HF_FILE_OBJECT(PS), object);
    petw__wr32(q + PETW__HF_TID(PS), r->tid);
    petw__wr32(q + PETW__HF_BYTE_COUNT(PS), (uint32_t)m->page);
    m->emit(m->ctx, r->cpu, PETW__HDR_SYSTEM64,
            PETW__HOOK(PETW__GROUP_PAGE_FAULT, PETW__OP_PF_HARD_FAULT), PETW__VERSION_PAGE_FAULT,
            r->pid, r->tid, r->time_ns, q, PETW__HF_SIZE(PS));
}

void petw__system_memory_record(petw__system_memory *m, const petw__sys_record *r)
{
    switch (r->kind) {
    case PETW__SYSREC_FORK: {
        if (r->pid != r->tid)
            break;
        /* A new process has its parent's mappings and break. */
        mem_proc *parent = proc_slot(m, r->other_pid, 0), *child = proc_slot(m, r->pid, 1);
        if (!child || child == parent)
            break;
        proc_clear(child);
        if (parent && parent->count && (child->maps = malloc(parent->count * sizeof(mapping)))) {
            memcpy(child->maps, parent->maps, parent->count * sizeof(mapping));
            child->count = child->cap = parent->count;
        }
        if (parent) {
            child->brk = parent->brk;
            child->brk_known = parent->brk_known;
        }
        break;
    }
    case PETW__SYSREC_EXEC: {
        mem_proc *p = proc_slot(m, r->pid, 0);
        if (p)
            proc_clear(p); /* a new program: new mappings and break follow */
        break;
    }
    case PETW__SYSREC_EXIT: {
        /* A thread in a call or fault when it ended frees its slots. */
        uint32_t *c = tid_slot(m->calls, sizeof(*m->calls), r->tid, 0),
                 *f = tid_slot(m->starts, sizeof(*m->starts), r->tid, 0);
        if (c)
            *c = SLOT_GONE;
        if (f)
            *f = SLOT_GONE;
        if (r->pid == r->tid) {
            mem_proc *p = proc_slot(m, r->pid, 0);
            if (p) {
                proc_clear(p);
                p->pid = UINT32_MAX;
            }
        }
        break;
    }
    case PETW__SYSREC_MMAP:
    case PETW__SYSREC_MAP: {
        if (!m->files)
            break;
        mem_proc *p = proc_slot(m, r->pid, 1);
        if (p && r->len && r->addr + r->len > r->addr)
            map_set(p, r->addr, r->addr + r->len, r->pgoff, file_intern(m, r->text));
        break;
    }
    case PETW__SYSREC_FAULT:
        on_fault(m, r);
        break;
    case PETW__SYSREC_VM_ENTER: {
        mem_call *t = (mem_call *)(void *)tid_slot(m->calls, sizeof(*m->calls), r->tid, 1);
        if (t) {
            t->call = (uint32_t)r->count;
            memcpy(t->args, r->args, sizeof(t->args));
        }
        break;
    }
    case PETW__SYSREC_VM_EXIT:
        on_vm_exit(m, r);
        break;
    default:
        break;
    }
}
