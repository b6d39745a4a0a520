/* SPDX-License-Identifier: MIT */
/* profile_memory.c - memory by process (the PageFault class: soft and hard
 * faults, the hard faults' reads and their time, VirtualAlloc and
 * VirtualFree sizes and the peak they reach) and hard faults by process and
 * file (HardFault's FileObject, named by FileIo's Name, FileCreate and
 * FileRundown events). Memory grows with processes and files, never with
 * faults.
 *
 * Allowed dependencies: common/, classes/, consume/, decode/, pdb/, platform/, libdw, libcurl,
 * libmspack.
 */
#include <stdio.h>
#include <stdlib.h>

#include "../../base/classes/kernel_class.h"
#include "analysis_internal.h"
#include "petw/consume.h"

static petw_profile_memory *mem_of(petw_profile *p, uint32_t pid)
{
    uint32_t k = petw__map_get(&p->mem_by_pid, pid);
    if (k == PETW__MAP_NONE) {
        if (petw__grow((void **)&p->mems, &p->mem_cap, p->mem_count + 1, sizeof(*p->mems)) ||
            petw__map_put(&p->mem_by_pid, pid, p->mem_count)) {
            p->error = PETW_ENOMEM;
            return NULL;
        }
        k = p->mem_count++;
        memset(&p->mems[k], 0, sizeof(p->mems[k]));
        p->mems[k].pid = pid;
    }
    return &p->mems[k];
}

/* The row of process `pid`'s hard faults in file `name` (interned: its
 * address is its identity), or, while the trace has not named the file
 * (Windows' FileRundown comes at its end), in FileObject `object`:
 * petw__profile_memory_finish names those rows. */
static petw_profile_memory_file *file_of(petw_profile *p, uint32_t pid, const char *name,
                                         uint64_t object)
{
    uint64_t id = name[0] ? (uint64_t)(uintptr_t)name : object;
    uint64_t key = petw__mix(id) ^ pid;
    uint32_t k = petw__map_get(&p->mem_file_by_key, key);
    /* A collision of two keys is told apart by a linear look along the same key chain. */
    while (k != PETW__MAP_NONE && (p->mem_files[k].pid != pid || p->mem_files[k].file != name ||
                                   (!name[0] && p->mem_files[k].object != object))) {
        key = petw__mix(key + 1);
        k = petw__map_get(&p->mem_file_by_key, key);
    }
    if (k == PETW__MAP_NONE) {
        if (petw__grow((void **)&p->mem_files, &p->mem_file_cap, p->mem_file_count + 1,
                       sizeof(*p->mem_files)) ||
            petw__map_put(&p->mem_file_by_key, key, p->mem_file_count)) {
            p->error = PETW_ENOMEM;
            return NULL;
        }
        k = p->mem_file_count++;
        memset(&p->mem_files[k], 0, sizeof(p->mem_files[k]));
        p->mem_files[k].pid = pid;
        p->mem_files[k].file = name;
        p->mem_files[k].object = object;
    }
    return &p->mem_files[k];
}

static const char *name_of(const petw_profile *p, uint64_t object);

void petw__profile_memory_finish(petw_profile *p)
{
    /* Rows of files unnamed when their faults came: the name the trace
     * gave later (the file model's, by FileKey, or a Name event's), added
     * to the process's row of that name where there is one. */
    uint32_t out = 0;
    for (uint32_t i = 0; i < p->mem_file_count; i++) {
        petw_profile_memory_file r = p->mem_files[i];
        if (!r.file[0] && r.object) {
            const char *later = petw_profile_file_name(p, r.object);
            const char *mine = name_of(p, r.object);
            r.file = later && later[0] ? later : mine;
        }
        uint32_t j = 0;
        while (r.file[0] && j < out &&
               (p->mem_files[j].pid != r.pid || strcmp(p->mem_files[j].file, r.file)))
            j++;
        if (r.file[0] && j < out) {
            petw_profile_memory_file *f = &p->mem_files[j];
            f->hard_faults += r.hard_faults;
            f->bytes += r.bytes;
            f->time_total += r.time_total;
            if (r.time_max > f->time_max)
                f->time_max = r.time_max;
        } else {
            p->mem_files[out++] = r;
        }
    }
    p->mem_file_count = out;
}

/* The process of thread `tid` when the record names none. */
static uint32_t pid_of(const petw_profile *p, uint32_t pid, uint32_t tid)
{
    if (pid && pid != UINT32_MAX)
        return pid;
    uint32_t t = petw__map_get(&p->thread_by_tid, tid);
    return t != PETW__MAP_NONE && p->threads[t].pid ? p->threads[t].pid : pid;
}

static const char *name_of(const petw_profile *p, uint64_t object)
{
    uint32_t k = object ? petw__map_get(&p->file_name_by_object, object) : PETW__MAP_NONE;
    return k != PETW__MAP_NONE ? p->file_names[k] : "";
}

/* FileIo Name, FileCreate, FileRundown (v2, v3): FileObject, FileName. */
void petw__profile_on_file_name(petw_profile *p, const petw_event_record *r, int ptr4)
{
    int op = r->header.descriptor.opcode;
    if (op != PETW__OP_FILE_NAME && op != 32 /* FileCreate */ && op != PETW__OP_FILE_RUNDOWN)
        return;
    uint32_t ps = ptr4 ? 4 : 8;
    const uint8_t *d = r->user_data;
    if (r->user_data_length < ps + 2)
        return;
    uint64_t object = ptr4 ? petw__rd32(d) : petw__rd64(d);
    char path[1024];
    size_t units = (r->user_data_length - ps) / 2, n = 0;
    /* UTF-16 to UTF-8, up to the NUL (or the payload's end). */
    for (size_t k = 0; k < units && n + 4 < sizeof(path); k++) {
        uint32_t c = petw__rd16(d + ps + 2 * k);
        if (!c)
            break;
        if (c >= 0xD800 && c < 0xDC00 && k + 1 < units) {
            uint32_t lo = petw__rd16(d + ps + 2 * (k + 1));
            if (lo >= 0xDC00 && lo < 0xE000) {
                c = 0x10000 + ((c - 0xD800) << 10) + (lo - 0xDC00);
                k++;
            }
        }
        if (c < 0x80) {
            path[n++] = (char)c;
        } else if (c < 0x800) {
            path[n++] = (char)(0xC0 | c >> 6);
            path[n++] = (char)(0x80 | (c & 0x3F));
        } else if (c < 0x10000) {
            path[n++] = (char)(0xE0 | c >> 12);
            path[n++] = (char)(0x80 | ((c >> 6) & 0x3F));
            path[n++] = (char)(0x80 | (c & 0x3F));
        } else {
            path[n++] = (char)(0xF0 | c >> 18);
            path[n++] = (char)(0x80 | ((c >> 12) & 0x3F));
            path[n++] = (char)(0x80 | ((c >> 6) & 0x3F));
            path[n++] = (char)(0x80 | (c & 0x3F));
        }
    }
    path[n] = 0;
    if (!n)
        return;
    const char *name = petw__strings_intern(&p->strings, path);
    if (!name) {
        p->error = PETW_ENOMEM;
        return;
    }
    uint32_t k = petw__map_get(&p->file_name_by_object, object);
    if (k != PETW__MAP_NONE) {
        p->file_names[k] = name; /* the object now names another file */
        return;
    }
    if (petw__grow((void **)&p->file_names, &p->file_name_cap, p->file_name_count + 1,
                   sizeof(*p->file_names)) ||
        petw__map_put(&p->file_name_by_object, object, p->file_name_count)) {
        p->error = PETW_ENOMEM;
        return;
    }
    p->file_names[p->file_name_count++] = name;
}

static void on_fault(petw_profile *p, const petw_event_record *r, int op, uint32_t ps)
{
    const uint8_t *d = r->user_data;
    if (r->user_data_length < PETW__PF_SIZE(ps)) {
        p->mem_skipped++;
        return;
    }
    uint32_t pid = pid_of(p, r->header.process_id, r->header.thread_id);
    uint64_t va = ps == 4 ? petw__rd32(d + PETW__PF_VA) : petw__rd64(d + PETW__PF_VA);
    if (p->hooks->fault) {
        petw_profile_fault f = {
            r->header.timestamp, pid, r->header.thread_id, (uint8_t)op, va, 0, NULL, 0};
        p->hooks->fault(p->c.hooks_context, &f);
    }
    if (!petw__profile_pid_wanted(p, pid) || !petw__profile_in_time(p, r->header.timestamp))
        return;
    petw_profile_memory *m = mem_of(p, pid);
    if (!m)
        return;
    switch (op) {
    case PETW__OP_PF_TRANSITION:
        m->transition++;
        break;
    case PETW__OP_PF_DEMAND_ZERO:
        m->demand_zero++;
        break;
    case PETW__OP_PF_COPY_ON_WRITE:
        m->copy_on_write++;
        break;
    case PETW__OP_PF_GUARD_PAGE:
        m->guard_page++;
        break;
    case PETW__OP_PF_HARD_PAGE_FAULT:
        m->hard_faults++;
        return;
    default:
        m->access_violation++;
        return;
    }
    m->soft_faults++;
}

static void on_hard_fault(petw_profile *p, const petw_event_record *r, uint32_t ps)
{
    const uint8_t *d = r->user_data;
    if (r->user_data_length < PETW__HF_SIZE(ps)) {
        p->mem_skipped++;
        return;
    }
    uint32_t tid = petw__rd32(d + PETW__HF_TID(ps));
    uint32_t pid = pid_of(p, r->header.process_id, tid);
    int64_t initial = (int64_t)petw__rd64(d + PETW__HF_INITIAL_TIME);
    uint64_t object = ps == 4 ? petw__rd32(d + PETW__HF_FILE_OBJECT(ps))
                              : petw__rd64(d + PETW__HF_FILE_OBJECT(ps));
    uint64_t va = ps == 4 ? petw__rd32(d + PETW__HF_VA) : petw__rd64(d + PETW__HF_VA);
    uint32_t bytes = petw__rd32(d + PETW__HF_BYTE_COUNT(ps));
    /* Its start in this trace's clock; absurd starts (after the end, or
     * before the trace) give no duration. */
    int64_t start = p->mem_trace ? petw_trace_timestamp_to_filetime(p->mem_trace, initial) : 0;
    uint64_t duration = start > 0 && start <= r->header.timestamp &&
                                r->header.timestamp - start < 36000000000ll /* an hour */
                            ? (uint64_t)(r->header.timestamp - start)
                            : 0;
    const char *file = name_of(p, object);
    if (p->hooks->fault) {
        petw_profile_fault f = {r->header.timestamp,
                                pid,
                                tid,
                                PETW__OP_PF_HARD_FAULT,
                                va,
                                duration,
                                file,
                                petw__rd64(d + PETW__HF_READ_OFFSET)};
        p->hooks->fault(p->c.hooks_context, &f);
    }
    if (!petw__profile_pid_wanted(p, pid) || !petw__profile_in_time(p, r->header.timestamp))
        return;
    petw_profile_memory *m = mem_of(p, pid);
    petw_profile_memory_file *f = file_of(p, pid, file, object);
    if (!m || !f)
        return;
    m->hard_reads++;
    m->hard_read_bytes += bytes;
    m->hard_time_total += duration;
    if (duration > m->hard_time_max)
        m->hard_time_max = duration;
    f->hard_faults++;
    f->bytes += bytes;
    f->time_total += duration;
    if (duration > f->time_max)
        f->time_max = duration;
}

static void on_virtual_alloc(petw_profile *p, const petw_event_record *r, int free_op, uint32_t ps)
{
    const uint8_t *d = r->user_data;
    if (r->user_data_length < PETW__VA_SIZE(ps)) {
        p->mem_skipped++;
        return;
    }
    uint64_t base = ps == 4 ? petw__rd32(d + PETW__VA_BASE) : petw__rd64(d + PETW__VA_BASE);
    uint64_t size =
        ps == 4 ? petw__rd32(d + PETW__VA_SIZE_AT(ps)) : petw__rd64(d + PETW__VA_SIZE_AT(ps));
    uint32_t pid = petw__rd32(d + PETW__VA_PID(ps));
    uint32_t flags = petw__rd32(d + PETW__VA_FLAGS(ps));
    /* Regions are whole pages (4 KB or larger), within an address space. */
    if (size % 4096 || size > (ps == 4 ? (uint64_t)UINT32_MAX : (uint64_t)1 << 56)) {
        p->mem_skipped++;
        return;
    }
    if (!pid || pid == UINT32_MAX)
        pid = pid_of(p, r->header.process_id, r->header.thread_id);
    if (!petw__profile_pid_wanted(p, pid) || !petw__profile_in_time(p, r->header.timestamp))
        return;
    petw_profile_memory *m = mem_of(p, pid);
    if (!m)
        return;
    if (free_op) {
        m->frees++;
        m->unmapped_bytes += size;
        m->net -= (int64_t)size;
    } else {
        m->allocs++;
        m->mapped_bytes += size;
        m->net += (int64_t)size;
        if (m->net > m->peak)
            m->peak = m->net;
    }
    if (p->hooks->vm) {
        petw_profile_vm v = {
            r->header.timestamp, pid, r->header.thread_id, free_op, base, size, flags, m->net};
        p->hooks->vm(p->c.hooks_context, &v);
    }
}

void petw__profile_on_page_fault(petw_profile *p, const petw_event_record *r, int ptr4)
{
    uint32_t ps = ptr4 ? 4 : 8;
    int op = r->header.descriptor.opcode;
    if (op >= PETW__OP_PF_TRANSITION && op <= PETW__OP_PF_ACCESS_VIOLATION)
        on_fault(p, r, op, ps);
    else if (op == PETW__OP_PF_HARD_FAULT)
        on_hard_fault(p, r, ps);
    else if (op == PETW__OP_PF_VIRTUAL_ALLOC || op == PETW__OP_PF_VIRTUAL_FREE)
        on_virtual_alloc(p, r, op == PETW__OP_PF_VIRTUAL_FREE, ps);
    else if (p->hooks->event)
        p->hooks->event(p->c.hooks_context, r); /* ImageLoadBacked, memory-info events */
}

void petw__profile_memory_free(petw_profile *p)
{
    free(p->mems);
    free(p->mem_files);
    free(p->file_names);
    petw__map_free(&p->mem_by_pid);
    petw__map_free(&p->mem_file_by_key);
    petw__map_free(&p->file_name_by_object);
}
