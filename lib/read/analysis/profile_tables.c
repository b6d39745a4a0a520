/* SPDX-License-Identifier: MIT */
/* profile_tables.c - the profile model's tables: processes (with the
 * images mapped in each), threads, image files and their identity (build
 * id, PE time stamp and size, PDB), and the locations of sampled addresses;
 * filled from the Process, Image and KernelTraceControl events.
 *
 * Allowed dependencies: common/, classes/, consume/, decode/, pdb/, platform/, libdw, libcurl,
 * libmspack.
 */
#include <stdio.h>
#include <stdlib.h>

#include "../../base/classes/kernel_class.h"
#include "analysis_internal.h"
#include "petw/consume.h"
#include "petw/decode.h"

const char *petw__profile_intern(petw_profile *p, const char *s)
{
    const char *r = petw__strings_intern(&p->strings, s ? s : "");
    if (!r)
        p->error = PETW_ENOMEM;
    return r ? r : "";
}

/* PID 0's name when the trace gives none (Windows' rundown names it with
 * nothing): WPA's and TraceEvent's. */
#define IDLE_NAME "Idle"

uint32_t petw__profile_process_index(petw_profile *p, uint32_t pid, int create)
{
    uint32_t k = petw__map_get(&p->process_by_pid, pid);
    if (k != PETW__MAP_NONE || !create)
        return k;
    if (petw__grow((void **)&p->processes, &p->process_cap, p->process_count + 1,
                   sizeof(*p->processes))) {
        p->error = PETW_ENOMEM;
        return PETW__MAP_NONE;
    }
    petw__process_state *ps = realloc(p->pstate, (size_t)p->process_cap * sizeof(*ps));
    if (!ps) {
        p->error = PETW_ENOMEM;
        return PETW__MAP_NONE;
    }
    p->pstate = ps;
    k = p->process_count++;
    memset(&p->processes[k], 0, sizeof(p->processes[k]));
    memset(&p->pstate[k], 0, sizeof(p->pstate[k]));
    p->processes[k].pid = pid;
    p->processes[k].name = pid == 0 ? IDLE_NAME : "";
    p->processes[k].command_line = "";
    if (petw__map_put(&p->process_by_pid, pid, k))
        p->error = PETW_ENOMEM;
    return k;
}

uint32_t petw__profile_thread_index(petw_profile *p, uint32_t tid, uint32_t pid)
{
    uint32_t k = petw__map_get(&p->thread_by_tid, tid);
    if (k != PETW__MAP_NONE) {
        if (pid != PETW__MAP_NONE && pid != 0 && p->threads[k].pid != pid)
            p->threads[k].pid = pid;
        return k;
    }
    if (petw__grow((void **)&p->threads, &p->thread_cap, p->thread_count + 1,
                   sizeof(*p->threads))) {
        p->error = PETW_ENOMEM;
        return PETW__MAP_NONE;
    }
    petw__thread_state *ts = realloc(p->tstate, (size_t)p->thread_cap * sizeof(*ts));
    if (!ts) {
        p->error = PETW_ENOMEM;
        return PETW__MAP_NONE;
    }
    p->tstate = ts;
    k = p->thread_count++;
    memset(&p->threads[k], 0, sizeof(p->threads[k]));
    memset(&p->tstate[k], 0, sizeof(p->tstate[k]));
    p->threads[k].tid = tid;
    p->threads[k].pid = pid == PETW__MAP_NONE ? 0 : pid;
    if (petw__map_put(&p->thread_by_tid, tid, k))
        p->error = PETW_ENOMEM;
    return k;
}

uint64_t petw__profile_hash_bytes(uint64_t h, const void *data, size_t n)
{
    const uint8_t *b = data;
    for (size_t k = 0; k < n; k++)
        h = (h ^ b[k]) * 0x100000001b3ull;
    return h;
}

/* A path's last component (after its last '/' or '\\'). */
const char *petw__profile_base_name(const char *path)
{
    const char *slash = strrchr(path, '/'), *back = strrchr(path, '\\');
    const char *base = slash > back ? slash : back;
    return base ? base + 1 : path;
}

uint32_t petw__profile_file_index(petw_profile *p, const char *path, const uint8_t *id,
                                  uint32_t id_size)
{
    if (id_size > 20)
        id_size = 20;
    uint64_t h = petw__profile_hash_bytes(0xcbf29ce484222325ull, path, strlen(path) + 1);
    if (id_size)
        h = petw__profile_hash_bytes(h, id, id_size);
    for (;; h++) { /* a collision moves on to the next key */
        uint32_t k = petw__map_get(&p->file_by_key, h);
        if (k == PETW__MAP_NONE)
            break;
        if (!strcmp(p->files[k].path, path) && p->files[k].build_id_size == id_size &&
            (id_size == 0 || !memcmp(p->files[k].build_id, id, id_size)))
            return k;
    }
    if (petw__grow((void **)&p->files, &p->file_cap, p->file_count + 1, sizeof(*p->files))) {
        p->error = PETW_ENOMEM;
        return PETW__MAP_NONE;
    }
    uint32_t k = p->file_count++;
    petw__image_file *f = &p->files[k];
    memset(f, 0, sizeof(*f));
    f->path = petw__profile_intern(p, path);
    f->module = petw__profile_intern(p, petw__profile_base_name(path));
    f->windows = strchr(path, '\\') != NULL || (path[0] && path[1] == ':');
    if (id_size)
        memcpy(f->build_id, id, id_size);
    f->build_id_size = id_size;
    if (petw__map_put(&p->file_by_key, h, k))
        p->error = PETW_ENOMEM;
    return k;
}

/* ---- Decoded fields ---- */

const petw_field *petw__profile_field(const petw_decoded_event *ev, const char *name)
{
    for (uint32_t k = 0; k < ev->top_count; k++)
        if (ev->fields[k].name && !strcmp(ev->fields[k].name, name))
            return &ev->fields[k];
    return NULL;
}

uint64_t petw__profile_field_u(const petw_decoded_event *ev, const char *name)
{
    const petw_field *f = petw__profile_field(ev, name);
    if (!f)
        return 0;
    return f->kind == PETW_VALUE_INT ? (uint64_t)f->v.i
           : (f->kind == PETW_VALUE_UINT || f->kind == PETW_VALUE_HEX || f->kind == PETW_VALUE_BOOL)
               ? f->v.u
               : 0;
}

const char *petw__profile_field_s(const petw_decoded_event *ev, const char *name)
{
    const petw_field *f = petw__profile_field(ev, name);
    return f && f->kind == PETW_VALUE_STRING ? f->v.s : "";
}

void petw__profile_on_process(petw_profile *p, const petw_event_record *r, int opcode)
{
    const petw_decoded_event *ev;
    if (petw_decode(p->decoder, r, &ev) != 0)
        return;
    uint32_t pid = (uint32_t)petw__profile_field_u(ev, "ProcessId");
    uint32_t k = petw__profile_process_index(p, pid, 1);
    if (k == PETW__MAP_NONE)
        return;
    petw_profile_process *pr = &p->processes[k];
    if (opcode == PETW__OP_START || opcode == PETW__OP_DCSTART) {
        petw__process_state *ps = &p->pstate[k];
        uint32_t parent = (uint32_t)petw__profile_field_u(ev, "ParentId");
        if (opcode == PETW__OP_START) {
            int exec = ps->started && !pr->end_time;
            pr->start_time = r->header.timestamp;
            pr->end_time = 0;
            ps->image_count = 0;
            /* A Start for a running process is a new program in it (Linux's
             * exec): its images go. A new process (Linux: a fork) starts
             * with its parent's: the child of a fork runs in a copy of them,
             * and no Image event says so. A Windows process then loads its
             * own, found first (the newest image wins). */
            uint32_t from = exec ? PETW__MAP_NONE : petw__profile_process_index(p, parent, 0);
            if (from != PETW__MAP_NONE && from != k) {
                petw__process_state *pp = &p->pstate[from];
                if (petw__grow((void **)&ps->images, &ps->image_cap, pp->image_count,
                               sizeof(*ps->images)) == 0) {
                    if (pp->image_count) /* none: ps->images may be NULL */
                        memcpy(ps->images, pp->images, pp->image_count * sizeof(*ps->images));
                    ps->image_count = pp->image_count;
                } else {
                    p->error = PETW_ENOMEM;
                }
            }
        }
        ps->started = 1;
        pr->parent_pid = parent;
        pr->name = petw__profile_intern(p, petw__profile_field_s(ev, "ImageFileName"));
        pr->command_line = petw__profile_intern(p, petw__profile_field_s(ev, "CommandLine"));
    } else if (opcode == PETW__OP_END) {
        pr->end_time = r->header.timestamp;
    } else if ((opcode == PETW__OP_DCEND || opcode == PETW__OP_PROCESS_DEFUNCT) &&
               (!pr->name || !*pr->name)) {
        /* DCEnd (a process alive when the trace ended: what a circular
         * trace's rundown at the end says) or Defunct (one that exited but
         * is still referenced): who it was, when nothing earlier said. */
        pr->parent_pid = (uint32_t)petw__profile_field_u(ev, "ParentId");
        pr->name = petw__profile_intern(p, petw__profile_field_s(ev, "ImageFileName"));
        pr->command_line = petw__profile_intern(p, petw__profile_field_s(ev, "CommandLine"));
    }
    if (pid == 0 && !pr->name[0])
        pr->name = IDLE_NAME;
    if (p->hooks->process && opcode >= PETW__OP_START && opcode <= PETW__OP_DCSTART)
        p->hooks->process(p->c.hooks_context, p, pid, opcode, r->header.timestamp);
}

void petw__profile_image_add(petw_profile *p, uint32_t pid, uint64_t base, uint64_t size,
                             uint32_t file)
{
    uint32_t k = petw__profile_process_index(p, pid, 1);
    if (k == PETW__MAP_NONE || file == PETW__MAP_NONE)
        return;
    petw__process_state *ps = &p->pstate[k];
    for (uint32_t j = 0; j < ps->image_count; j++) {
        petw__mapped *m = &ps->images[j];
        if (m->base == base) { /* the same image again (DCStart after Load) */
            m->end = base + size;
            m->file = file;
            return;
        }
    }
    if (petw__grow((void **)&ps->images, &ps->image_cap, ps->image_count + 1,
                   sizeof(*ps->images))) {
        p->error = PETW_ENOMEM;
        return;
    }
    ps->images[ps->image_count++] = (petw__mapped){base, base + size, file};
}

void petw__profile_on_image(petw_profile *p, const petw_event_record *r, int opcode)
{
    const petw_decoded_event *ev;
    if (petw_decode(p->decoder, r, &ev) != 0)
        return;
    uint32_t pid = (uint32_t)petw__profile_field_u(ev, "ProcessId");
    uint64_t base = petw__profile_field_u(ev, "ImageBase"),
             size = petw__profile_field_u(ev, "ImageSize");
    if (opcode == PETW__OP_IMAGE_UNLOAD) { /* Unload */
        uint32_t k = petw__profile_process_index(p, pid, 0);
        if (k == PETW__MAP_NONE)
            return;
        petw__process_state *ps = &p->pstate[k];
        for (uint32_t j = 0; j < ps->image_count; j++)
            if (ps->images[j].base == base) {
                memmove(&ps->images[j], &ps->images[j + 1],
                        (--ps->image_count - j) * sizeof(*ps->images));
                break;
            }
        return;
    }
    if (opcode == PETW__OP_IMAGE_LOAD || opcode == PETW__OP_DCSTART || opcode == PETW__OP_DCEND) {
        uint32_t file = petw__profile_file_index(p, petw__profile_field_s(ev, "FileName"), NULL, 0);
        petw__profile_image_add(p, pid, base, size, file);
        uint32_t stamp = (uint32_t)petw__profile_field_u(ev, "TimeDateStamp");
        if (file != PETW__MAP_NONE && stamp && !p->files[file].pe_known) {
            p->files[file].pe_stamp = stamp; /* Image v2 and later; ImageID says it too */
            p->files[file].pe_size = (uint32_t)size;
            p->files[file].pe_known = 1;
        }
    }
}

/* The image mapped at `base` in the process an event of KernelTraceControl
 * names (ProcessId, ImageBase), or NULL. */
static petw__image_file *ktc_image(petw_profile *p, const petw_decoded_event *ev)
{
    uint32_t k =
        petw__profile_process_index(p, (uint32_t)petw__profile_field_u(ev, "ProcessId"), 0);
    uint64_t base = petw__profile_field_u(ev, "ImageBase");
    if (k == PETW__MAP_NONE)
        return NULL;
    const petw__process_state *ps = &p->pstate[k];
    for (uint32_t j = ps->image_count; j-- > 0;)
        if (ps->images[j].base == base && ps->images[j].file != PETW__MAP_NONE)
            return &p->files[ps->images[j].file];
    return NULL;
}

/* KernelTraceControl's ImageID: the PE header's time stamp and
 * SizeOfImage, which find the image file itself (its exports). */
void petw__profile_on_image_id(petw_profile *p, const petw_event_record *r)
{
    const petw_decoded_event *ev;
    petw__image_file *f;
    if (petw_decode(p->decoder, r, &ev) != 0 || !(f = ktc_image(p, ev)))
        return;
    f->pe_stamp = (uint32_t)petw__profile_field_u(ev, "TimeDateStamp");
    f->pe_size = (uint32_t)petw__profile_field_u(ev, "ImageSize");
    f->pe_known = 1;
}

/* KernelTraceControl's DbgID_RSDS: the PDB of the image mapped at ImageBase. */
void petw__profile_on_rsds(petw_profile *p, const petw_event_record *r)
{
    const petw_decoded_event *ev;
    if (petw_decode(p->decoder, r, &ev) != 0)
        return;
    const petw_field *g = petw__profile_field(ev, "GuidSig");
    uint32_t k =
        petw__profile_process_index(p, (uint32_t)petw__profile_field_u(ev, "ProcessId"), 0);
    uint64_t base = petw__profile_field_u(ev, "ImageBase");
    if (!g || g->kind != PETW_VALUE_GUID || k == PETW__MAP_NONE ||
        !*petw__profile_field_s(ev, "PdbFileName"))
        return;
    const petw__process_state *ps = &p->pstate[k];
    for (uint32_t j = ps->image_count; j-- > 0;)
        if (ps->images[j].base == base && ps->images[j].file != PETW__MAP_NONE) {
            petw__image_file *f = &p->files[ps->images[j].file];
            f->pdb_name = petw__profile_intern(p, petw__profile_field_s(ev, "PdbFileName"));
            f->pdb_guid = g->v.guid;
            f->pdb_age = (uint32_t)petw__profile_field_u(ev, "Age");
            return;
        }
}

uint32_t petw__profile_cpu_of(const petw_event_record *r)
{
    return (r->header.flags & PETW_EVENT_HEADER_FLAG_PROCESSOR_INDEX)
               ? r->buffer_context.u.processor_index
               : r->buffer_context.u.p.processor_number;
}

static int is_kernel_address(uint64_t a, int ptr4)
{
    return ptr4 ? a >= 0x80000000u : a >= 0xFFFF800000000000ull;
}

/* The location of `address` in process `pid` (one image search per
 * distinct address of a process). */
uint32_t petw__profile_location_of(petw_profile *p, uint32_t pid, uint64_t address, int ptr4)
{
    uint64_t akey = petw__mix(address) ^ ((uint64_t)pid << 1);
    uint32_t loc = petw__map_get(&p->location_by_addr, akey);
    if (loc != PETW__MAP_NONE && p->locations[loc].address == address)
        return loc;
    uint32_t file = PETW__MAP_NONE;
    uint64_t offset = address;
    int kernel = is_kernel_address(address, ptr4);
    for (int pass = 0; pass < 2 && file == PETW__MAP_NONE; pass++) {
        /* The process's images, then (kernel addresses) the system's: the
         * images Windows lists for process 0 (ntoskrnl, drivers). */
        uint32_t k = petw__profile_process_index(p, pass == 0 ? pid : 0, 0);
        if (k == PETW__MAP_NONE || (pass == 1 && !kernel))
            continue;
        petw__process_state *ps = &p->pstate[k];
        for (uint32_t j = ps->image_count; j-- > 0;)
            if (address >= ps->images[j].base && address < ps->images[j].end) {
                file = ps->images[j].file;
                offset = address - ps->images[j].base;
                break;
            }
    }
    uint64_t key = file != PETW__MAP_NONE ? file
                   : kernel               ? 0xFFFFFFFEull << 32
                                          : 0xFFFFFFFFull << 32 ^ pid;
    key = petw__mix(key ^ petw__mix(offset));
    for (;; key++) {
        uint32_t k = petw__map_get(&p->location_by_key, key);
        if (k == PETW__MAP_NONE)
            break;
        const petw_profile_location *l = &p->locations[k];
        /* Addresses in no image are each process's own (JIT code). */
        if (l->offset == offset && l->kernel == kernel && p->location_file[k] == file &&
            (file != PETW__MAP_NONE || kernel || p->location_pid[k] == pid)) {
            if (petw__map_put(&p->location_by_addr, akey, k))
                p->error = PETW_ENOMEM;
            return k;
        }
    }
    if (petw__grow((void **)&p->locations, &p->location_cap, p->location_count + 1,
                   sizeof(*p->locations))) {
        p->error = PETW_ENOMEM;
        return PETW__MAP_NONE;
    }
    if (p->location_count + 1 > p->location_side_cap) {
        uint32_t n = p->location_side_cap ? 2 * p->location_side_cap : 64;
        uint32_t *f = realloc(p->location_file, n * sizeof(*f));
        if (f)
            p->location_file = f;
        uint32_t *q = f ? realloc(p->location_pid, n * sizeof(*q)) : NULL;
        if (q)
            p->location_pid = q;
        if (!f || !q) {
            p->error = PETW_ENOMEM;
            return PETW__MAP_NONE;
        }
        p->location_side_cap = n;
    }
    loc = p->location_count++;
    p->location_file[loc] = file;
    p->location_pid[loc] = pid;
    petw_profile_location *l = &p->locations[loc];
    memset(l, 0, sizeof(*l));
    l->address = address;
    l->offset = offset;
    l->kernel = kernel;
    l->path = file == PETW__MAP_NONE ? "" : p->files[file].path;
    l->module =
        file == PETW__MAP_NONE ? (kernel ? "[kernel]" : "[unknown]") : p->files[file].module;
    if (petw__map_put(&p->location_by_key, key, loc) ||
        petw__map_put(&p->location_by_addr, akey, loc))
        p->error = PETW_ENOMEM;
    return loc;
}

int petw__profile_pid_wanted(petw_profile *p, uint32_t pid)
{
    if (p->c.pid && pid != p->c.pid)
        return 0;
    if (p->c.process_name) {
        uint32_t k = petw__profile_process_index(p, pid, 0);
        if (k == PETW__MAP_NONE || strcmp(p->processes[k].name, p->c.process_name) != 0)
            return 0;
    }
    return 1;
}

int petw__profile_in_time(const petw_profile *p, int64_t t)
{
    return (!p->c.start_time || t >= p->c.start_time) && (!p->c.end_time || t <= p->c.end_time);
}
