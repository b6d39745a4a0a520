/* profile.c - a trace's events as a model: processes, threads, images,
 * distinct stacks of CPU samples and per-thread switch times; then each
 * distinct location symbolized once.
 *
 * Allowed dependencies: common/, classes/, consume/, decode/, pdb/, platform/, libdw, libcurl,
 * libmspack.
 *
 * Events arrive in time order (consume merges CPUs and files). The rare
 * ones (Process, Image, ImageId, KernelSymbol) go through the decoder; the
 * frequent ones (SampledProfile, StackWalk, CSwitch, ReadyThread, Thread
 * start) are read at their fixed offsets, in 32- and 64-bit layouts. A
 * sample waits for its thread's StackWalk (written right after it) and
 * is counted with its stack, or alone when the thread's next sample or the
 * end comes first. Memory grows with distinct stacks, locations, threads
 * and images, not with events.
 */
#include <stdio.h>
#include <stdlib.h>

#include "../../base/classes/kernel_class.h"
#include "analysis_internal.h"
#include "petw/consume.h"
#include "petw/decode.h"

#define NONE UINT32_MAX
#define MAX_FRAMES 256

#define ProcessGuid (*PETW__KC_GUID(PETW__KC_PROCESS))
#define ThreadGuid (*PETW__KC_GUID(PETW__KC_THREAD))
#define ImageGuid (*PETW__KC_GUID(PETW__KC_IMAGE))
#define PerfInfoGuid (*PETW__KC_GUID(PETW__KC_PERFINFO))
#define StackWalkGuid (*PETW__KC_GUID(PETW__KC_STACKWALK))
#define DiskIoGuid (*PETW__KC_GUID(PETW__KC_DISK_IO))
static const petw_guid PetwSymbolsGuid = {
    0x784dcbca, 0x471e, 0x55a0, {0xb9, 0xf9, 0x8b, 0x37, 0xe7, 0x96, 0x54, 0x17}};
static const petw_guid KernelTraceControlGuid = {
    0xb3e675d7, 0x2554, 0x4f18, {0x83, 0x0b, 0x27, 0x62, 0x73, 0x25, 0x60, 0xde}};
/* The .NET runtime and its rundown (Microsoft-Windows-DotNETRuntime[Rundown]). */
static const petw_guid ClrGuid = {
    0xe13c0d23, 0xccbc, 0x4e12, {0x93, 0x1b, 0xd9, 0xcc, 0x2e, 0xee, 0x27, 0xe4}};
static const petw_guid ClrRundownGuid = {
    0xa669021c, 0xc450, 0x4609, {0xa0, 0x35, 0x5a, 0xf5, 0x9a, 0xf4, 0xdf, 0x18}};

/* ---- The model ---- */

typedef struct image_file {
    const char *path, *module;
    uint8_t build_id[20];
    uint32_t build_id_size;
    int windows;          /* a Windows path: frames read module!+0xRVA */
    const char *pdb_name; /* its DbgID_RSDS (NULL: none): the PDB's name, GUID, age */
    petw_guid pdb_guid;
    uint32_t pdb_age;
    uint32_t pe_stamp, pe_size; /* its PE header's, from ImageID (pe_known) */
    int pe_known;
} image_file;

typedef struct mapped {
    uint64_t base, end;
    uint32_t file;
} mapped;

typedef struct process_state {
    int started;    /* a Start or DCStart was seen */
    mapped *images; /* in load order: searched newest first */
    uint32_t image_count, image_cap;
} process_state;

typedef struct thread_state {
    int has_pending;
    uint64_t pending_ip;
    uint32_t pending_pid, pending_cpu;
    int64_t pending_time;
    uint64_t pending_key[2]; /* its cached stack's kernel and user keys */
    int keyed;               /* on keyed_threads */
    /* Switch accounting (FILETIME units). */
    int64_t since; /* when the current state began; 0: not known */
    int state;     /* 0 unknown, 1 running, 2 ready, 3 waiting */
    uint32_t readers[4], reader_counts[4];
    /* Off-CPU: the StackWalk that follows a thread's event is that event's
     * (STACK_FOR_*): its sample's, its switch in's (where it had blocked)
     * or, as a waker, its ReadyThread's. */
    int stack_for;
    int64_t blocked_at, readied_at; /* FILETIMEs of its wait; 0: none */
    uint32_t ready_by, ready_stack; /* who readied it and with which stack (NONE) */
    uint32_t woke;                  /* as a waker: the thread it readied last (NONE) */
    int has_wait;                   /* a switch in whose stack is awaited */
    int64_t wait_time;
    uint64_t wait_waiting, wait_ready;
    uint32_t wait_by, wait_by_stack;
} thread_state;

enum { STACK_FOR_NONE, STACK_FOR_SAMPLE, STACK_FOR_SWITCH, STACK_FOR_READY };

typedef struct kernel_symbol {
    uint64_t start, size;
    const char *name, *module;
    uint32_t pid;       /* JIT symbols: their process; kernel symbols: 0 */
    uint64_t module_id; /* .NET methods: their module's ModuleID, named at the end */
} kernel_symbol;

struct petw_profile {
    petw_profile_config c;
    petw__strings strings;
    petw_decoder *decoder;
    petw_symbolizer *symbolizer;
    petw__pdbs *pdbs; /* Windows images' PDBs, opened as their frames are named */
    int error;
    int64_t first, last;
    uint32_t interval;
    uint64_t samples;
    uint64_t truncated; /* samples whose frame-pointer walk was cut (cut_walks) */
    uint64_t events_lost, buffers_lost;
    const petw_profile_hooks *hooks; /* never NULL: the config's, or none */

    petw_profile_process *processes;
    process_state *pstate;
    uint32_t process_count, process_cap;
    petw__map process_by_pid;

    petw_profile_thread *threads;
    thread_state *tstate;
    uint32_t thread_count, thread_cap;
    petw__map thread_by_tid;

    image_file *files;
    uint32_t file_count, file_cap;
    petw__map file_by_key; /* hash of path and build-id */

    petw_profile_location *locations;
    uint32_t *location_file; /* each location's image file, or NONE */
    uint32_t *location_pid;  /* and the process it was first seen in */
    uint32_t location_count, location_cap, location_side_cap;
    petw__map location_by_key;  /* (file, offset) */
    petw__map location_by_addr; /* (pid, address): the image search done once */

    petw_profile_stack *stacks;
    uint32_t stack_count, stack_cap;
    petw__map stack_by_hash;
    uint32_t *frames;
    uint32_t frame_count, frame_cap;

    petw_profile_offcpu *offcpu;
    uint32_t offcpu_count, offcpu_cap;
    petw__map offcpu_by_hash;

    petw_profile_disk *disks;
    uint32_t disk_count, disk_cap;
    petw__map disk_by_pid;
    double disk_ticks_per_100ns; /* HighResResponseTime's clock */

    petw_profile_event_kind *kinds;
    uint32_t kind_count, kind_cap;
    petw__map kind_by_key;
    petw__map pending_start; /* (kind, task, activity or thread) -> index into starts */
    int64_t *starts;
    uint32_t start_count, start_cap;

    kernel_symbol *ksyms;
    uint32_t ksym_count, ksym_cap;
    petw__stackkeys *stackkeys; /* samples waiting for their cached stacks */
    uint32_t *keyed_threads;    /* threads whose pending sample has a key */
    uint32_t keyed_count, keyed_cap;
    int ptr4;            /* the current record's pointers are 4 bytes */
    kernel_symbol *jits; /* from JitSymbol and .NET method events: by process, then address */
    uint32_t jit_count, jit_cap;
    kernel_symbol *clr_modules; /* .NET modules: pid, ModuleID (as start) and name */
    uint32_t clr_module_count, clr_module_cap;
    petw_source_line *lines;
    uint32_t line_count, line_cap;
};

void petw_profile_config_init(petw_profile_config *config)
{
    memset(config, 0, sizeof(*config));
    petw_symbolizer_config_init(&config->symbolizer);
}

static const char *intern(petw_profile *p, const char *s)
{
    const char *r = petw__strings_intern(&p->strings, s ? s : "");
    if (!r)
        p->error = PETW_ENOMEM;
    return r ? r : "";
}

/* PID 0's name when the trace gives none (Windows' rundown names it with
 * nothing): WPA's and TraceEvent's. */
#define IDLE_NAME "Idle"

static uint32_t process_index(petw_profile *p, uint32_t pid, int create)
{
    uint32_t k = petw__map_get(&p->process_by_pid, pid);
    if (k != NONE || !create)
        return k;
    if (petw__grow((void **)&p->processes, &p->process_cap, p->process_count + 1,
                   sizeof(*p->processes))) {
        p->error = PETW_ENOMEM;
        return NONE;
    }
    process_state *ps = realloc(p->pstate, (size_t)p->process_cap * sizeof(*ps));
    if (!ps) {
        p->error = PETW_ENOMEM;
        return NONE;
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

static uint32_t thread_index(petw_profile *p, uint32_t tid, uint32_t pid)
{
    uint32_t k = petw__map_get(&p->thread_by_tid, tid);
    if (k != NONE) {
        if (pid != NONE && pid != 0 && p->threads[k].pid != pid)
            p->threads[k].pid = pid;
        return k;
    }
    if (petw__grow((void **)&p->threads, &p->thread_cap, p->thread_count + 1,
                   sizeof(*p->threads))) {
        p->error = PETW_ENOMEM;
        return NONE;
    }
    thread_state *ts = realloc(p->tstate, (size_t)p->thread_cap * sizeof(*ts));
    if (!ts) {
        p->error = PETW_ENOMEM;
        return NONE;
    }
    p->tstate = ts;
    k = p->thread_count++;
    memset(&p->threads[k], 0, sizeof(p->threads[k]));
    memset(&p->tstate[k], 0, sizeof(p->tstate[k]));
    p->threads[k].tid = tid;
    p->threads[k].pid = pid == NONE ? 0 : pid;
    if (petw__map_put(&p->thread_by_tid, tid, k))
        p->error = PETW_ENOMEM;
    return k;
}

static uint64_t hash_bytes(uint64_t h, const void *data, size_t n)
{
    const uint8_t *b = data;
    for (size_t k = 0; k < n; k++)
        h = (h ^ b[k]) * 0x100000001b3ull;
    return h;
}

/* A path's last component (after its last '/' or '\\'). */
static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/'), *back = strrchr(path, '\\');
    const char *base = slash > back ? slash : back;
    return base ? base + 1 : path;
}

static uint32_t file_index(petw_profile *p, const char *path, const uint8_t *id, uint32_t id_size)
{
    if (id_size > 20)
        id_size = 20;
    uint64_t h = hash_bytes(0xcbf29ce484222325ull, path, strlen(path) + 1);
    if (id_size)
        h = hash_bytes(h, id, id_size);
    for (;; h++) { /* a collision moves on to the next key */
        uint32_t k = petw__map_get(&p->file_by_key, h);
        if (k == NONE)
            break;
        if (!strcmp(p->files[k].path, path) && p->files[k].build_id_size == id_size &&
            (id_size == 0 || !memcmp(p->files[k].build_id, id, id_size)))
            return k;
    }
    if (petw__grow((void **)&p->files, &p->file_cap, p->file_count + 1, sizeof(*p->files))) {
        p->error = PETW_ENOMEM;
        return NONE;
    }
    uint32_t k = p->file_count++;
    image_file *f = &p->files[k];
    memset(f, 0, sizeof(*f));
    f->path = intern(p, path);
    f->module = intern(p, base_name(path));
    f->windows = strchr(path, '\\') != NULL || (path[0] && path[1] == ':');
    if (id_size)
        memcpy(f->build_id, id, id_size);
    f->build_id_size = id_size;
    if (petw__map_put(&p->file_by_key, h, k))
        p->error = PETW_ENOMEM;
    return k;
}

/* ---- Decoded fields ---- */

static const petw_field *field(const petw_decoded_event *ev, const char *name)
{
    for (uint32_t k = 0; k < ev->top_count; k++)
        if (ev->fields[k].name && !strcmp(ev->fields[k].name, name))
            return &ev->fields[k];
    return NULL;
}

static uint64_t field_u(const petw_decoded_event *ev, const char *name)
{
    const petw_field *f = field(ev, name);
    if (!f)
        return 0;
    return f->kind == PETW_VALUE_INT ? (uint64_t)f->v.i
           : (f->kind == PETW_VALUE_UINT || f->kind == PETW_VALUE_HEX || f->kind == PETW_VALUE_BOOL)
               ? f->v.u
               : 0;
}

static const char *field_s(const petw_decoded_event *ev, const char *name)
{
    const petw_field *f = field(ev, name);
    return f && f->kind == PETW_VALUE_STRING ? f->v.s : "";
}

/* ---- Events ---- */

/* A new JIT symbol (NULL when memory runs out). */
static kernel_symbol *new_jit(petw_profile *p)
{
    if (petw__grow((void **)&p->jits, &p->jit_cap, p->jit_count + 1, sizeof(*p->jits))) {
        p->error = PETW_ENOMEM;
        return NULL;
    }
    kernel_symbol *j = &p->jits[p->jit_count++];
    memset(j, 0, sizeof(*j));
    j->module = "[jit]";
    return j;
}

/* The .NET runtime's method events (load, unload, rundown: each names
 * code it compiled, with its address and size) and module events (which
 * name the methods' modules, at the end: a rundown lists modules after
 * their methods). */
static void on_clr(petw_profile *p, const petw_event_record *r, int rundown)
{
    uint16_t id = r->header.descriptor.id;
    int method = id == 143 || id == 144;
    int module = rundown ? id == 153 || id == 154 : id == 152 || id == 153;
    const petw_decoded_event *ev;
    if ((!method && !module) || petw_decode(p->decoder, r, &ev) != 0 || !ev->event_name)
        return;
    if (method) {
        kernel_symbol *j = new_jit(p);
        if (!j)
            return;
        j->pid = r->header.process_id;
        j->start = field_u(ev, "MethodStartAddress");
        j->size = field_u(ev, "MethodSize");
        j->module_id = field_u(ev, "ModuleID");
        const char *ns = field_s(ev, "MethodNamespace"), *name = field_s(ev, "MethodName");
        char full[1024];
        snprintf(full, sizeof(full), "%s%s%s", ns ? ns : "", ns && *ns ? "." : "",
                 name ? name : "?");
        j->name = intern(p, full);
        return;
    }
    if (petw__grow((void **)&p->clr_modules, &p->clr_module_cap, p->clr_module_count + 1,
                   sizeof(*p->clr_modules))) {
        p->error = PETW_ENOMEM;
        return;
    }
    /* Named as PerfView names them: the IL file's name without its extension. */
    const char *path = field_s(ev, "ModuleILPath");
    char name[256];
    snprintf(name, sizeof(name), "%s", base_name(path ? path : ""));
    char *dot = strrchr(name, '.');
    if (dot && (!strcmp(dot, ".dll") || !strcmp(dot, ".exe") || !strcmp(dot, ".DLL") ||
                !strcmp(dot, ".EXE")))
        *dot = 0;
    kernel_symbol *m = &p->clr_modules[p->clr_module_count++];
    memset(m, 0, sizeof(*m));
    m->pid = r->header.process_id;
    m->start = field_u(ev, "ModuleID");
    m->module = intern(p, name);
}

/* Each .NET method's module named from the module events. */
static void name_clr_modules(petw_profile *p)
{
    for (uint32_t k = 0; k < p->jit_count; k++) {
        kernel_symbol *j = &p->jits[k];
        for (uint32_t m = 0; j->module_id && m < p->clr_module_count; m++)
            if (p->clr_modules[m].pid == j->pid && p->clr_modules[m].start == j->module_id &&
                p->clr_modules[m].module[0]) {
                j->module = p->clr_modules[m].module;
                break;
            }
    }
}

static void on_process(petw_profile *p, const petw_event_record *r, int opcode)
{
    const petw_decoded_event *ev;
    if (petw_decode(p->decoder, r, &ev) != 0)
        return;
    uint32_t pid = (uint32_t)field_u(ev, "ProcessId");
    uint32_t k = process_index(p, pid, 1);
    if (k == NONE)
        return;
    petw_profile_process *pr = &p->processes[k];
    if (opcode == PETW__OP_START || opcode == PETW__OP_DCSTART) {
        process_state *ps = &p->pstate[k];
        uint32_t parent = (uint32_t)field_u(ev, "ParentId");
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
            uint32_t from = exec ? NONE : process_index(p, parent, 0);
            if (from != NONE && from != k) {
                process_state *pp = &p->pstate[from];
                if (petw__grow((void **)&ps->images, &ps->image_cap, pp->image_count,
                               sizeof(*ps->images)) == 0) {
                    memcpy(ps->images, pp->images, pp->image_count * sizeof(*ps->images));
                    ps->image_count = pp->image_count;
                } else {
                    p->error = PETW_ENOMEM;
                }
            }
        }
        ps->started = 1;
        pr->parent_pid = parent;
        pr->name = intern(p, field_s(ev, "ImageFileName"));
        pr->command_line = intern(p, field_s(ev, "CommandLine"));
    } else if (opcode == PETW__OP_END) {
        pr->end_time = r->header.timestamp;
    } else if ((opcode == PETW__OP_DCEND || opcode == PETW__OP_PROCESS_DEFUNCT) &&
               (!pr->name || !*pr->name)) {
        /* DCEnd (a process alive when the trace ended: what a circular
         * trace's rundown at the end says) or Defunct (one that exited but
         * is still referenced): who it was, when nothing earlier said. */
        pr->parent_pid = (uint32_t)field_u(ev, "ParentId");
        pr->name = intern(p, field_s(ev, "ImageFileName"));
        pr->command_line = intern(p, field_s(ev, "CommandLine"));
    }
    if (pid == 0 && !pr->name[0])
        pr->name = IDLE_NAME;
    if (p->hooks->process && opcode >= PETW__OP_START && opcode <= PETW__OP_DCSTART)
        p->hooks->process(p->c.hooks_context, p, pid, opcode, r->header.timestamp);
}

static void image_add(petw_profile *p, uint32_t pid, uint64_t base, uint64_t size, uint32_t file)
{
    uint32_t k = process_index(p, pid, 1);
    if (k == NONE || file == NONE)
        return;
    process_state *ps = &p->pstate[k];
    for (uint32_t j = 0; j < ps->image_count; j++) {
        mapped *m = &ps->images[j];
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
    ps->images[ps->image_count++] = (mapped){base, base + size, file};
}

static void on_image(petw_profile *p, const petw_event_record *r, int opcode)
{
    const petw_decoded_event *ev;
    if (petw_decode(p->decoder, r, &ev) != 0)
        return;
    uint32_t pid = (uint32_t)field_u(ev, "ProcessId");
    uint64_t base = field_u(ev, "ImageBase"), size = field_u(ev, "ImageSize");
    if (opcode == PETW__OP_IMAGE_UNLOAD) { /* Unload */
        uint32_t k = process_index(p, pid, 0);
        if (k == NONE)
            return;
        process_state *ps = &p->pstate[k];
        for (uint32_t j = 0; j < ps->image_count; j++)
            if (ps->images[j].base == base) {
                memmove(&ps->images[j], &ps->images[j + 1],
                        (--ps->image_count - j) * sizeof(*ps->images));
                break;
            }
        return;
    }
    if (opcode == PETW__OP_IMAGE_LOAD || opcode == PETW__OP_DCSTART || opcode == PETW__OP_DCEND) {
        uint32_t file = file_index(p, field_s(ev, "FileName"), NULL, 0);
        image_add(p, pid, base, size, file);
        uint32_t stamp = (uint32_t)field_u(ev, "TimeDateStamp");
        if (file != NONE && stamp && !p->files[file].pe_known) {
            p->files[file].pe_stamp = stamp; /* Image v2 and later; ImageID says it too */
            p->files[file].pe_size = (uint32_t)size;
            p->files[file].pe_known = 1;
        }
    }
}

/* The image mapped at `base` in the process an event of KernelTraceControl
 * names (ProcessId, ImageBase), or NULL. */
static image_file *ktc_image(petw_profile *p, const petw_decoded_event *ev)
{
    uint32_t k = process_index(p, (uint32_t)field_u(ev, "ProcessId"), 0);
    uint64_t base = field_u(ev, "ImageBase");
    if (k == NONE)
        return NULL;
    const process_state *ps = &p->pstate[k];
    for (uint32_t j = ps->image_count; j-- > 0;)
        if (ps->images[j].base == base && ps->images[j].file != NONE)
            return &p->files[ps->images[j].file];
    return NULL;
}

/* KernelTraceControl's ImageID: the PE header's time stamp and
 * SizeOfImage, which find the image file itself (its exports). */
static void on_image_id(petw_profile *p, const petw_event_record *r)
{
    const petw_decoded_event *ev;
    image_file *f;
    if (petw_decode(p->decoder, r, &ev) != 0 || !(f = ktc_image(p, ev)))
        return;
    f->pe_stamp = (uint32_t)field_u(ev, "TimeDateStamp");
    f->pe_size = (uint32_t)field_u(ev, "ImageSize");
    f->pe_known = 1;
}

/* KernelTraceControl's DbgID_RSDS: the PDB of the image mapped at ImageBase. */
static void on_rsds(petw_profile *p, const petw_event_record *r)
{
    const petw_decoded_event *ev;
    if (petw_decode(p->decoder, r, &ev) != 0)
        return;
    const petw_field *g = field(ev, "GuidSig");
    uint32_t k = process_index(p, (uint32_t)field_u(ev, "ProcessId"), 0);
    uint64_t base = field_u(ev, "ImageBase");
    if (!g || g->kind != PETW_VALUE_GUID || k == NONE || !*field_s(ev, "PdbFileName"))
        return;
    const process_state *ps = &p->pstate[k];
    for (uint32_t j = ps->image_count; j-- > 0;)
        if (ps->images[j].base == base && ps->images[j].file != NONE) {
            image_file *f = &p->files[ps->images[j].file];
            f->pdb_name = intern(p, field_s(ev, "PdbFileName"));
            f->pdb_guid = g->v.guid;
            f->pdb_age = (uint32_t)field_u(ev, "Age");
            return;
        }
}

static void on_symbols(petw_profile *p, const petw_event_record *r)
{
    const petw_decoded_event *ev;
    if (petw_decode(p->decoder, r, &ev) != 0 || !ev->event_name)
        return;
    if (!strcmp(ev->event_name, "ImageId")) {
        const petw_field *id = field(ev, "BuildId");
        const uint8_t *bits = id && id->kind == PETW_VALUE_BINARY ? id->v.bin.data : NULL;
        uint32_t n = bits ? id->v.bin.size : 0;
        image_add(p, (uint32_t)field_u(ev, "ProcessId"), field_u(ev, "ImageBase"),
                  field_u(ev, "ImageSize"), file_index(p, field_s(ev, "FileName"), bits, n));
    } else if (!strcmp(ev->event_name, "JitSymbol")) {
        kernel_symbol *j = new_jit(p);
        if (!j)
            return;
        j->pid = (uint32_t)field_u(ev, "ProcessId");
        j->start = field_u(ev, "Address");
        j->size = field_u(ev, "Size");
        j->name = intern(p, field_s(ev, "Name"));
    } else if (!strcmp(ev->event_name, "KernelSymbol")) {
        if (petw__grow((void **)&p->ksyms, &p->ksym_cap, p->ksym_count + 1, sizeof(*p->ksyms))) {
            p->error = PETW_ENOMEM;
            return;
        }
        kernel_symbol *k = &p->ksyms[p->ksym_count++];
        k->start = field_u(ev, "Address");
        k->size = field_u(ev, "Size");
        k->name = intern(p, field_s(ev, "Name"));
        k->module = intern(p, field_s(ev, "Module"));
        k->pid = 0;
    }
}

static uint32_t cpu_of(const petw_event_record *r)
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
static uint32_t location_of(petw_profile *p, uint32_t pid, uint64_t address, int ptr4)
{
    uint64_t akey = petw__mix(address) ^ ((uint64_t)pid << 1);
    uint32_t loc = petw__map_get(&p->location_by_addr, akey);
    if (loc != NONE && p->locations[loc].address == address)
        return loc;
    uint32_t file = NONE;
    uint64_t offset = address;
    int kernel = is_kernel_address(address, ptr4);
    for (int pass = 0; pass < 2 && file == NONE; pass++) {
        /* The process's images, then (kernel addresses) the system's: the
         * images Windows lists for process 0 (ntoskrnl, drivers). */
        uint32_t k = process_index(p, pass == 0 ? pid : 0, 0);
        if (k == NONE || (pass == 1 && !kernel))
            continue;
        process_state *ps = &p->pstate[k];
        for (uint32_t j = ps->image_count; j-- > 0;)
            if (address >= ps->images[j].base && address < ps->images[j].end) {
                file = ps->images[j].file;
                offset = address - ps->images[j].base;
                break;
            }
    }
    uint64_t key = file != NONE ? file : kernel ? 0xFFFFFFFEull << 32 : 0xFFFFFFFFull << 32 ^ pid;
    key = petw__mix(key ^ petw__mix(offset));
    for (;; key++) {
        uint32_t k = petw__map_get(&p->location_by_key, key);
        if (k == NONE)
            break;
        const petw_profile_location *l = &p->locations[k];
        /* Addresses in no image are each process's own (JIT code). */
        if (l->offset == offset && l->kernel == kernel && p->location_file[k] == file &&
            (file != NONE || kernel || p->location_pid[k] == pid)) {
            if (petw__map_put(&p->location_by_addr, akey, k))
                p->error = PETW_ENOMEM;
            return k;
        }
    }
    if (petw__grow((void **)&p->locations, &p->location_cap, p->location_count + 1,
                   sizeof(*p->locations))) {
        p->error = PETW_ENOMEM;
        return NONE;
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
            return NONE;
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
    l->path = file == NONE ? "" : p->files[file].path;
    l->module = file == NONE ? (kernel ? "[kernel]" : "[unknown]") : p->files[file].module;
    if (petw__map_put(&p->location_by_key, key, loc) ||
        petw__map_put(&p->location_by_addr, akey, loc))
        p->error = PETW_ENOMEM;
    return loc;
}

static int pid_wanted(petw_profile *p, uint32_t pid)
{
    if (p->c.pid && pid != p->c.pid)
        return 0;
    if (p->c.process_name) {
        uint32_t k = process_index(p, pid, 0);
        if (k == NONE || strcmp(p->processes[k].name, p->c.process_name) != 0)
            return 0;
    }
    return 1;
}

static int in_time(const petw_profile *p, int64_t t)
{
    return (!p->c.start_time || t >= p->c.start_time) && (!p->c.end_time || t <= p->c.end_time);
}

/* The distinct stack of thread `tid` with `n` frames (innermost first),
 * added with no samples when new; NONE when it has no frame (or memory
 * failed). */
static uint32_t stack_of(petw_profile *p, uint32_t tid, uint32_t pid, const uint64_t *frames,
                         uint32_t n, int ptr4)
{
    uint32_t locs[MAX_FRAMES];
    uint32_t m = 0;
    for (uint32_t k = 0; k < n && m < MAX_FRAMES; k++) {
        if (!frames[k] || frames[k] >= 0xFFFFFFFFFFFFF000ull)
            continue;
        uint32_t loc = location_of(p, pid, frames[k], ptr4);
        if (loc == NONE)
            return NONE;
        locs[m++] = loc;
    }
    if (!m)
        return NONE;
    uint64_t h = hash_bytes(petw__mix(((uint64_t)pid << 32) | tid), locs, m * sizeof(uint32_t));
    for (;; h++) {
        uint32_t k = petw__map_get(&p->stack_by_hash, h);
        if (k == NONE)
            break;
        petw_profile_stack *s = &p->stacks[k];
        if (s->pid == pid && s->tid == tid && s->frame_count == m &&
            !memcmp(p->frames + (uintptr_t)s->frames, locs, m * sizeof(uint32_t))) {
            return k;
        }
    }
    if (petw__grow((void **)&p->stacks, &p->stack_cap, p->stack_count + 1, sizeof(*p->stacks)) ||
        petw__grow((void **)&p->frames, &p->frame_cap, p->frame_count + m, sizeof(*p->frames))) {
        p->error = PETW_ENOMEM;
        return NONE;
    }
    /* frames holds an offset into p->frames until the end (it moves). */
    p->stacks[p->stack_count] =
        (petw_profile_stack){pid, tid, 0, m, (const uint32_t *)(uintptr_t)p->frame_count, 0};
    memcpy(p->frames + p->frame_count, locs, m * sizeof(uint32_t));
    p->frame_count += m;
    if (petw__map_put(&p->stack_by_hash, h, p->stack_count++))
        p->error = PETW_ENOMEM;
    return p->stack_count - 1;
}

/* Counts `count` samples of thread `tid` with `n` frames (innermost first),
 * at `times` on `cpus` (NULL: at the thread's pending sample's). */
static void add_sample(petw_profile *p, uint32_t tid, uint32_t pid, const uint64_t *frames,
                       uint32_t n, int ptr4, uint32_t count, const int64_t *times,
                       const uint32_t *cpus)
{
    if (!pid_wanted(p, pid) || (p->c.tid && tid != p->c.tid))
        return;
    uint32_t index = stack_of(p, tid, pid, frames, n, ptr4);
    if (index == NONE)
        return;
    p->stacks[index].samples += count;
    p->samples += count;
    if (p->hooks->sample) {
        uint32_t t = petw__map_get(&p->thread_by_tid, tid);
        const thread_state *ts = t == NONE ? NULL : &p->tstate[t];
        for (uint32_t k = 0; k < count; k++) {
            petw_profile_sample e = {times ? times[k]
                                     : ts  ? ts->pending_time
                                           : 0,
                                     cpus ? cpus[k]
                                     : ts ? ts->pending_cpu
                                          : 0,
                                     tid, pid, index};
            p->hooks->sample(p->c.hooks_context, &e);
        }
    }
    uint32_t t = thread_index(p, tid, pid);
    if (t != NONE)
        p->threads[t].samples += count;
    uint32_t pk = process_index(p, pid, 1);
    if (pk != NONE)
        p->processes[pk].samples += count;
}

/* A cached stack resolved (petw__stackkeys' emit). */
static void add_keyed(void *context, uint32_t pid, uint32_t tid, const uint64_t *frames, uint32_t n,
                      uint32_t count, const int64_t *times, const uint32_t *cpus)
{
    petw_profile *p = context;
    add_sample(p, tid, pid, frames, n, p->ptr4, count, times, cpus);
}

static uint32_t pid_of_thread(petw_profile *p, uint32_t tid)
{
    uint32_t k = petw__map_get(&p->thread_by_tid, tid);
    return k == NONE ? 0 : p->threads[k].pid;
}

/* Thread t's sample, with no stack yet, is counted: alone, or waiting for
 * its cached stack's keys. */
static void flush_pending(petw_profile *p, uint32_t t, int ptr4)
{
    thread_state *ts = &p->tstate[t];
    if (!ts->has_pending)
        return;
    ts->has_pending = 0;
    if (ts->pending_key[0] || ts->pending_key[1]) {
        if (petw__stackkeys_reference(&p->stackkeys, ts->pending_pid, p->threads[t].tid,
                                      ts->pending_ip, ts->pending_key[0], ts->pending_key[1],
                                      ts->pending_time, ts->pending_cpu, p->hooks->sample != NULL))
            p->error = PETW_ENOMEM;
        ts->pending_key[0] = ts->pending_key[1] = 0;
        return;
    }
    add_sample(p, p->threads[t].tid, ts->pending_pid, &ts->pending_ip, 1, ptr4, 1, NULL, NULL);
}

/* Every sample that named a key is waiting for it before a definition. */
static void flush_keyed(petw_profile *p)
{
    for (uint32_t k = 0; k < p->keyed_count; k++) {
        uint32_t t = p->keyed_threads[k];
        p->tstate[t].keyed = 0;
        if (p->tstate[t].pending_key[0] || p->tstate[t].pending_key[1])
            flush_pending(p, t, p->ptr4);
    }
    p->keyed_count = 0;
}

static void on_sample(petw_profile *p, const petw_event_record *r, int ptr4)
{
    const uint8_t *d = r->user_data;
    uint32_t ps = ptr4 ? 4 : 8;
    if (r->user_data_length < ps + 4 || !in_time(p, r->header.timestamp))
        return;
    uint64_t ip = ptr4 ? petw__rd32(d) : petw__rd64(d);
    uint32_t tid = petw__rd32(d + ps);
    uint32_t t = thread_index(p, tid, NONE);
    if (t == NONE)
        return;
    flush_pending(p, t, ptr4);
    thread_state *ts = &p->tstate[t];
    ts->has_pending = 1;
    ts->stack_for = STACK_FOR_SAMPLE;
    ts->pending_ip = ip;
    ts->pending_pid = pid_of_thread(p, tid);
    ts->pending_time = r->header.timestamp;
    ts->pending_cpu = cpu_of(r);
}

/* ---- Off-CPU: waits with the stacks they blocked and were readied with ---- */

/* Thread t's switch in, awaited since its CSwitch, is counted with
 * `stack` (where it had blocked; NONE: no stack came). */
static void add_offcpu(petw_profile *p, uint32_t t, uint32_t stack)
{
    thread_state *ts = &p->tstate[t];
    ts->has_wait = 0;
    const petw_profile_thread *th = &p->threads[t];
    if (!pid_wanted(p, th->pid) || (p->c.tid && th->tid != p->c.tid))
        return;
    uint32_t by = ts->wait_by, by_stack = ts->wait_by_stack;
    uint64_t key[2] = {(uint64_t)th->tid << 32 | stack, (uint64_t)by << 32 | by_stack};
    uint64_t h = hash_bytes(0x6f66666370755f31ull, key, sizeof(key));
    uint32_t k;
    for (;; h++) {
        k = petw__map_get(&p->offcpu_by_hash, h);
        if (k == NONE)
            break;
        const petw_profile_offcpu *o = &p->offcpu[k];
        if (o->tid == th->tid && o->pid == th->pid && o->stack == stack && o->ready_tid == by &&
            o->ready_stack == by_stack)
            break;
    }
    if (k == NONE) {
        if (petw__grow((void **)&p->offcpu, &p->offcpu_cap, p->offcpu_count + 1,
                       sizeof(*p->offcpu)) ||
            petw__map_put(&p->offcpu_by_hash, h, p->offcpu_count)) {
            p->error = PETW_ENOMEM;
            return;
        }
        k = p->offcpu_count++;
        p->offcpu[k] = (petw_profile_offcpu){
            th->pid, th->tid, stack, by ? pid_of_thread(p, by) : 0, by, by_stack, 0, 0, 0, 0};
    }
    petw_profile_offcpu *o = &p->offcpu[k];
    o->waits++;
    o->waiting += ts->wait_waiting;
    o->ready += ts->wait_ready;
    if (ts->wait_waiting > o->waiting_max)
        o->waiting_max = ts->wait_waiting;
    if (stack != NONE)
        p->stacks[stack].offcpu += ts->wait_waiting;
}

/* The StackWalk after thread t's switch in (where it had blocked) or
 * after its ReadyThread as the waker (its own stack then). */
static void on_switch_stack(petw_profile *p, const petw_event_record *r, uint32_t t, uint32_t pid,
                            int ptr4)
{
    thread_state *ts = &p->tstate[t];
    int kind = ts->stack_for;
    ts->stack_for = STACK_FOR_NONE;
    thread_state *v =
        kind == STACK_FOR_READY && ts->woke < p->thread_count ? &p->tstate[ts->woke] : NULL;
    if (kind == STACK_FOR_SWITCH ? !ts->has_wait
                                 : !v || !v->readied_at || v->ready_by != p->threads[t].tid)
        return; /* a switch in that ended no wait, a wake-up of a thread not blocked */
    const uint8_t *d = r->user_data;
    uint32_t ps = ptr4 ? 4 : 8, n = (r->user_data_length - PETW__STACK_FRAMES) / ps;
    uint64_t frames[MAX_FRAMES];
    if (n > MAX_FRAMES)
        n = MAX_FRAMES;
    for (uint32_t k = 0; k < n; k++)
        frames[k] = ptr4 ? petw__rd32(d + PETW__STACK_FRAMES + 4 * k)
                         : petw__rd64(d + PETW__STACK_FRAMES + 8 * k);
    if (!pid)
        pid = p->threads[t].pid;
    uint32_t stack = stack_of(p, p->threads[t].tid, pid, frames, n, ptr4);
    if (kind == STACK_FOR_SWITCH)
        add_offcpu(p, t, stack);
    else
        v->ready_stack = stack;
}

static void on_stack(petw_profile *p, const petw_event_record *r, int ptr4)
{
    const uint8_t *d = r->user_data;
    if (r->user_data_length < 16)
        return;
    uint32_t pid = petw__rd32(d + PETW__STACK_PID), tid = petw__rd32(d + PETW__STACK_TID);
    uint32_t t = petw__map_get(&p->thread_by_tid, tid);
    if (t != NONE &&
        (p->tstate[t].stack_for == STACK_FOR_SWITCH || p->tstate[t].stack_for == STACK_FOR_READY)) {
        on_switch_stack(p, r, t, pid, ptr4);
        return;
    }
    if (t == NONE || !p->tstate[t].has_pending)
        return; /* the stack of an event that is not a kept sample */
    p->tstate[t].has_pending = 0;
    uint32_t ps = ptr4 ? 4 : 8, n = (r->user_data_length - 16u) / ps;
    uint64_t frames[MAX_FRAMES];
    if (n > MAX_FRAMES)
        n = MAX_FRAMES;
    for (uint32_t k = 0; k < n; k++)
        frames[k] = ptr4 ? petw__rd32(d + 16 + 4 * k) : petw__rd64(d + 16 + 8 * k);
    if (p->threads[t].pid == 0 && pid)
        p->threads[t].pid = pid;
    /* The stack starts at the sampled address (Windows and petw both). */
    add_sample(p, tid, pid ? pid : p->tstate[t].pending_pid, frames, n, ptr4, 1, NULL, NULL);
}

/* StackKeyKernel (user 0) or StackKeyUser (user 1): the pending sample's
 * stack is a cache key. The user part comes last: with it, the sample
 * waits for its keys at once. */
static void on_stack_key(petw_profile *p, const petw_event_record *r, int user, int ptr4)
{
    const uint8_t *d = r->user_data;
    if (r->user_data_length < (ptr4 ? 20u : 24u))
        return;
    uint32_t pid = petw__rd32(d + 8), tid = petw__rd32(d + 12);
    uint32_t t = petw__map_get(&p->thread_by_tid, tid);
    if (t != NONE && p->tstate[t].stack_for != STACK_FOR_SAMPLE) {
        p->tstate[t].stack_for = STACK_FOR_NONE; /* a switch's or wake-up's: not kept cached */
        return;
    }
    if (t == NONE || !p->tstate[t].has_pending)
        return; /* the stack of an event that is not a kept sample */
    thread_state *ts = &p->tstate[t];
    ts->pending_key[user] = ptr4 ? petw__rd32(d + 16) : petw__rd64(d + 16);
    if (pid && !ts->pending_pid)
        ts->pending_pid = pid;
    if (user) {
        flush_pending(p, t, ptr4);
    } else if (!ts->keyed) {
        if (petw__grow((void **)&p->keyed_threads, &p->keyed_cap, p->keyed_count + 1,
                       sizeof(*p->keyed_threads))) {
            p->error = PETW_ENOMEM;
            return;
        }
        ts->keyed = 1;
        p->keyed_threads[p->keyed_count++] = t;
    }
}

/* KeyDelete or KeyRundown: a key's frames. */
static void on_stack_key_def(petw_profile *p, const petw_event_record *r, int ptr4)
{
    const uint8_t *d = r->user_data;
    uint32_t ps = ptr4 ? 4 : 8;
    if (r->user_data_length < ps || !p->stackkeys)
        return;
    flush_keyed(p);
    uint32_t n = (r->user_data_length - ps) / ps;
    uint64_t frames[MAX_FRAMES];
    if (n > MAX_FRAMES)
        n = MAX_FRAMES;
    for (uint32_t k = 0; k < n; k++)
        frames[k] = ptr4 ? petw__rd32(d + ps + 4 * k) : petw__rd64(d + ps + 8 * k);
    uint64_t key = ptr4 ? petw__rd32(d) : petw__rd64(d);
    if (petw__stackkeys_define(p->stackkeys, key, frames, n, add_keyed, p))
        p->error = PETW_ENOMEM;
}

/* Switch accounting: time in the state a thread leaves. */
static void leave_state(petw_profile *p, uint32_t t, int64_t now)
{
    thread_state *ts = &p->tstate[t];
    petw_profile_thread *th = &p->threads[t];
    if (ts->state && ts->since && now > ts->since) {
        int64_t a = ts->since > p->c.start_time || !p->c.start_time ? ts->since : p->c.start_time;
        int64_t b = p->c.end_time && now > p->c.end_time ? p->c.end_time : now;
        uint64_t d = b > a ? (uint64_t)(b - a) : 0;
        if (ts->state == 1)
            th->running += d;
        else if (ts->state == 2)
            th->ready += d;
        else
            th->waiting += d;
    }
    ts->since = now;
}

/* Thread t runs again: a wait it had (it blocked, then was readied) waits
 * for the StackWalk that may follow (where it had blocked). */
static void switched_in(petw_profile *p, uint32_t t, int64_t now)
{
    thread_state *ts = &p->tstate[t];
    if (ts->has_wait)
        add_offcpu(p, t, NONE);
    if (ts->blocked_at && now >= ts->blocked_at && in_time(p, now)) {
        int64_t readied = ts->readied_at && ts->readied_at <= now ? ts->readied_at : now;
        ts->wait_waiting = readied > ts->blocked_at ? (uint64_t)(readied - ts->blocked_at) : 0;
        ts->wait_ready = (uint64_t)(now - readied);
        ts->wait_by = ts->readied_at ? ts->ready_by : 0;
        ts->wait_by_stack = ts->readied_at ? ts->ready_stack : NONE;
        ts->wait_time = now;
        ts->has_wait = 1;
    }
    ts->stack_for = STACK_FOR_SWITCH; /* a StackWalk next is its switch's, wait or not */
    ts->blocked_at = ts->readied_at = 0;
}

static void on_cswitch(petw_profile *p, const petw_event_record *r)
{
    const uint8_t *d = r->user_data;
    if (r->user_data_length < 16)
        return;
    int64_t now = r->header.timestamp;
    uint32_t new_tid = petw__rd32(d + PETW__CSWITCH_NEW_TID);
    uint32_t old_tid = petw__rd32(d + PETW__CSWITCH_OLD_TID);
    uint8_t reason = d[PETW__CSWITCH_OLD_WAIT_REASON], state = d[PETW__CSWITCH_OLD_STATE];
    if (p->hooks->cswitch) {
        uint32_t new_pid = r->header.process_id;
        if (!new_pid || new_pid == UINT32_MAX)
            new_pid = pid_of_thread(p, new_tid);
        petw_profile_switch e = {now,
                                 cpu_of(r),
                                 old_tid,
                                 pid_of_thread(p, old_tid),
                                 new_tid,
                                 new_pid,
                                 (int8_t)d[PETW__CSWITCH_NEW_PRIORITY],
                                 (int8_t)d[PETW__CSWITCH_OLD_PRIORITY],
                                 state,
                                 reason};
        p->hooks->cswitch(p->c.hooks_context, &e);
    }
    if (old_tid) {
        uint32_t t = thread_index(p, old_tid, NONE);
        if (t != NONE) {
            thread_state *ts = &p->tstate[t];
            if (ts->has_wait)
                add_offcpu(p, t, NONE); /* its switch in's stack never came */
            if (ts->stack_for == STACK_FOR_SWITCH)
                ts->stack_for = STACK_FOR_NONE;
            leave_state(p, t, now);
            p->tstate[t].state =
                state == PETW__THREAD_STATE_READY || state == PETW__THREAD_STATE_DEFERRED_READY ? 2
                                                                                                : 3;
            if (in_time(p, now)) {
                if (p->tstate[t].state == 2)
                    p->threads[t].preempted++;
                p->threads[t].wait_reasons[reason < 40 ? reason : 39]++;
            }
            ts->blocked_at = ts->state == 3 ? now : 0;
            ts->readied_at = 0;
        }
    }
    if (new_tid) {
        uint32_t t = thread_index(p, new_tid, r->header.process_id ? r->header.process_id : NONE);
        if (t != NONE) {
            leave_state(p, t, now);
            p->tstate[t].state = 1;
            if (in_time(p, now))
                p->threads[t].switches_in++;
            switched_in(p, t, now);
        }
    }
}

static void on_ready(petw_profile *p, const petw_event_record *r)
{
    if (r->user_data_length < 4)
        return;
    int64_t now = r->header.timestamp;
    uint32_t t = thread_index(p, petw__rd32((const uint8_t *)r->user_data + PETW__READY_TID), NONE);
    if (t == NONE)
        return;
    if (p->hooks->wakeup) {
        petw_profile_wakeup e = {now,
                                 cpu_of(r),
                                 p->threads[t].tid,
                                 p->threads[t].pid,
                                 r->header.thread_id,
                                 r->header.process_id};
        p->hooks->wakeup(p->c.hooks_context, &e);
    }
    thread_state *ts = &p->tstate[t];
    if (ts->state == 3) {
        leave_state(p, t, now);
        ts->state = 2;
    }
    if (ts->blocked_at && !ts->readied_at) {
        ts->readied_at = now;
        ts->ready_by = r->header.thread_id;
        ts->ready_stack = NONE;
    }
    uint32_t w = r->header.thread_id ? petw__map_get(&p->thread_by_tid, r->header.thread_id) : NONE;
    if (w != NONE) {
        p->tstate[w].stack_for = STACK_FOR_READY; /* a StackWalk next: the readying stack */
        p->tstate[w].woke = t;
    }
    if (!in_time(p, now))
        return;
    p->threads[t].readied++;
    uint32_t by = r->header.thread_id, slot = 3;
    for (uint32_t k = 0; k < 4; k++) {
        if (ts->readers[k] == by || ts->reader_counts[k] == 0) {
            slot = k;
            break;
        }
        if (ts->reader_counts[k] < ts->reader_counts[slot])
            slot = k;
    }
    if (ts->readers[slot] != by) {
        ts->readers[slot] = by;
        ts->reader_counts[slot] = 0;
    }
    ts->reader_counts[slot]++;
}

/* DiskIo Read/Write v2+: DiskNumber, IrpFlags, TransferSize, Reserved,
 * ByteOffset, FileObject, Irp, HighResResponseTime, IssuingThreadId (v3). */
static void on_disk(petw_profile *p, const petw_event_record *r, int write, int ptr4)
{
    const uint8_t *d = r->user_data;
    uint32_t ps = ptr4 ? 4 : 8, at_time = 24 + 2 * ps;
    if (r->user_data_length < at_time + 8)
        return;
    uint32_t pid = r->header.process_id, tid = r->header.thread_id;
    if (r->user_data_length >= at_time + 12) {
        tid = petw__rd32(d + at_time + 8);
        uint32_t t = petw__map_get(&p->thread_by_tid, tid);
        if (t != NONE && p->threads[t].pid)
            pid = p->threads[t].pid;
    }
    uint64_t bytes = petw__rd32(d + 8);
    uint64_t t100 = (uint64_t)((double)petw__rd64(d + at_time) / p->disk_ticks_per_100ns);
    if (p->hooks->disk_io) {
        petw_profile_disk_io e = {r->header.timestamp, petw__rd32(d), pid, tid, write, bytes,
                                  petw__rd64(d + 16),  t100};
        p->hooks->disk_io(p->c.hooks_context, &e);
    }
    if (pid == UINT32_MAX || !pid_wanted(p, pid) || !in_time(p, r->header.timestamp))
        return;
    uint32_t k = petw__map_get(&p->disk_by_pid, pid);
    if (k == NONE) {
        if (petw__grow((void **)&p->disks, &p->disk_cap, p->disk_count + 1, sizeof(*p->disks)) ||
            petw__map_put(&p->disk_by_pid, pid, p->disk_count)) {
            p->error = PETW_ENOMEM;
            return;
        }
        k = p->disk_count++;
        memset(&p->disks[k], 0, sizeof(p->disks[k]));
        p->disks[k].pid = pid;
    }
    petw_profile_disk *e = &p->disks[k];
    if (write) {
        e->writes++;
        e->write_bytes += bytes;
    } else {
        e->reads++;
        e->read_bytes += bytes;
    }
    e->response_total += t100;
    if (t100 > e->response_max)
        e->response_max = t100;
}

/* A TraceLogging event's name: in its schema (u16 size, tags, name). */
static const char *tl_name(const petw_event_record *r, size_t *len)
{
    for (uint16_t k = 0; k < r->extended_data_count; k++) {
        const petw_extended_item *x = &r->extended_data[k];
        if (x->ext_type != PETW_EXT_TYPE_EVENT_SCHEMA_TL || x->data_size < 4)
            continue;
        const uint8_t *b = (const uint8_t *)(uintptr_t)x->data_ptr;
        uint32_t at = 2;
        while (at < x->data_size && (b[at] & 0x80)) /* tags: 7 bits a byte, chained */
            at++;
        at++;
        if (at >= x->data_size)
            return NULL;
        const void *nul = memchr(b + at, 0, x->data_size - at);
        if (!nul)
            return NULL;
        *len = (size_t)((const uint8_t *)nul - (b + at));
        return (const char *)b + at;
    }
    return NULL;
}

int petw_profile_event_pairs(const petw_event_record *r, uint64_t *key)
{
    const petw_event_descriptor *dd = &r->header.descriptor;
    size_t nlen = 0;
    if ((dd->opcode != 1 && dd->opcode != 2) ||
        (r->header.flags & PETW_EVENT_HEADER_FLAG_CLASSIC_HEADER))
        return 0; /* classic events' Start and End are not an activity's */
    const char *tl = tl_name(r, &nlen);
    if (!dd->task && !tl)
        return 0;
    /* Start/Stop: of one task (TraceLogging: of one event name), by the
     * activity, else by the thread. */
    static const petw_guid none;
    uint64_t k = hash_bytes(0xcbf29ce484222325ull, &r->header.provider_id, 16);
    k = tl ? hash_bytes(k, tl, nlen) : hash_bytes(k, &dd->task, 2);
    k = petw_guid_equal(&r->header.activity_id, &none) ? hash_bytes(k, &r->header.thread_id, 4)
                                                       : hash_bytes(k, &r->header.activity_id, 16);
    if (key)
        *key = k;
    return dd->opcode;
}

static void on_any_event(petw_profile *p, const petw_event_record *r)
{
    const petw_event_descriptor *dd = &r->header.descriptor;
    size_t nlen = 0;
    const char *tl = tl_name(r, &nlen);
    uint64_t key = petw__mix(hash_bytes(0xcbf29ce484222325ull, &r->header.provider_id, 16) ^
                             ((uint64_t)dd->id << 32 | (uint64_t)dd->opcode << 16 | dd->version));
    if (tl)
        key = petw__mix(hash_bytes(key, tl, nlen));
    uint32_t k = NONE;
    for (;; key++) {
        k = petw__map_get(&p->kind_by_key, key);
        if (k == NONE)
            break;
        petw_profile_event_kind *e = &p->kinds[k];
        if (petw_guid_equal(&e->provider_id, &r->header.provider_id) && e->id == dd->id &&
            e->opcode == dd->opcode && e->version == dd->version &&
            (!tl || (strlen(e->name) == nlen && !memcmp(e->name, tl, nlen))))
            break;
    }
    if (k == NONE) {
        if (petw__grow((void **)&p->kinds, &p->kind_cap, p->kind_count + 1, sizeof(*p->kinds)) ||
            petw__map_put(&p->kind_by_key, key, p->kind_count)) {
            p->error = PETW_ENOMEM;
            return;
        }
        k = p->kind_count++;
        petw_profile_event_kind *e = &p->kinds[k];
        memset(e, 0, sizeof(*e));
        e->provider_id = r->header.provider_id;
        e->id = dd->id;
        e->task = dd->task;
        e->opcode = dd->opcode;
        e->version = dd->version;
        e->first = r->header.timestamp;
        /* Names from the decoder, once per kind. */
        const petw_decoded_event *ev = NULL;
        char guid[40];
        snprintf(guid, sizeof(guid), "%08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x",
                 e->provider_id.data1, e->provider_id.data2, e->provider_id.data3,
                 e->provider_id.data4[0], e->provider_id.data4[1], e->provider_id.data4[2],
                 e->provider_id.data4[3], e->provider_id.data4[4], e->provider_id.data4[5],
                 e->provider_id.data4[6], e->provider_id.data4[7]);
        const char *kernel = petw_kernel_class_name(&e->provider_id);
        int ok = petw_decode(p->decoder, r, &ev) == 0;
        e->provider = intern(p, ok && ev->provider_name ? ev->provider_name
                                : kernel                ? kernel
                                                        : guid);
        e->name = intern(p, ok && ev->event_name ? ev->event_name : "");
    }
    petw_profile_event_kind *e = &p->kinds[k];
    e->count++;
    e->last = r->header.timestamp;
    uint64_t pk;
    if (!petw_profile_event_pairs(r, &pk))
        return;
    if (dd->opcode == 1) {
        uint32_t slot = petw__map_get(&p->pending_start, pk);
        if (slot == NONE) {
            if (petw__grow((void **)&p->starts, &p->start_cap, p->start_count + 1,
                           sizeof(*p->starts)) ||
                petw__map_put(&p->pending_start, pk, p->start_count)) {
                p->error = PETW_ENOMEM;
                return;
            }
            slot = p->start_count++;
        }
        p->starts[slot] = r->header.timestamp;
        return;
    }
    uint32_t slot = petw__map_get(&p->pending_start, pk);
    if (slot == NONE || !p->starts[slot])
        return;
    uint64_t d = r->header.timestamp > p->starts[slot]
                     ? (uint64_t)(r->header.timestamp - p->starts[slot])
                     : 0;
    p->starts[slot] = 0; /* a slot is reused by the key's next Start */
    e->pairs++;
    e->pair_total += d;
    if (e->pairs == 1 || d < e->pair_min)
        e->pair_min = d;
    if (d > e->pair_max)
        e->pair_max = d;
}

/* A thread that ended is in no state any more (Linux records no switch
 * out of an exiting thread). */
static void on_thread_end(petw_profile *p, uint32_t tid, int64_t now)
{
    uint32_t t = petw__map_get(&p->thread_by_tid, tid);
    if (t == NONE)
        return;
    leave_state(p, t, now);
    p->tstate[t].state = 0;
}

static void on_thread(petw_profile *p, const petw_event_record *r, int opcode)
{
    const uint8_t *d = r->user_data;
    uint32_t pid = petw__rd32(d), tid = petw__rd32(d + 4);
    if (opcode == PETW__OP_END)
        on_thread_end(p, tid, r->header.timestamp);
    else
        (void)thread_index(p, tid, pid);
    if (p->hooks->thread)
        p->hooks->thread(p->c.hooks_context, tid, pid, opcode, r->header.timestamp);
}

static void on_event(petw_event_record *r, void *context)
{
    petw_profile *p = context;
    if (p->error)
        return;
    int64_t t = r->header.timestamp;
    if (t > 0) {
        if (!p->first || t < p->first)
            p->first = t;
        if (t > p->last)
            p->last = t;
    }
    const petw_guid *g = &r->header.provider_id;
    int opcode = r->header.descriptor.opcode;
    if (in_time(p, t))
        on_any_event(p, r);
    int ptr4 = (r->header.flags & PETW_EVENT_HEADER_FLAG_32_BIT_HEADER) != 0;
    p->ptr4 = ptr4;
    if (petw_guid_equal(g, &PerfInfoGuid)) {
        if (opcode == PETW__OP_PERFINFO_SAMPLED_PROFILE)
            on_sample(p, r, ptr4);
        else if ((opcode == PETW__OP_PERFINFO_COLLECTION_START ||
                  opcode == PETW__OP_PERFINFO_SET_INTERVAL) &&
                 r->user_data_length >= 8 && petw__rd32(r->user_data) == 0 &&
                 petw__rd32((const uint8_t *)r->user_data + 4))
            p->interval = petw__rd32((const uint8_t *)r->user_data + 4); /* ProfileTime's */
    } else if (petw_guid_equal(g, &StackWalkGuid)) {
        if (opcode == PETW__OP_STACKWALK_STACK)
            on_stack(p, r, ptr4);
        else if (opcode == PETW__OP_STACKWALK_KEY_KERNEL || opcode == PETW__OP_STACKWALK_KEY_USER)
            on_stack_key(p, r, opcode == PETW__OP_STACKWALK_KEY_USER, ptr4);
        else if (opcode == PETW__OP_STACKWALK_KEY_DELETE ||
                 opcode == PETW__OP_STACKWALK_KEY_RUNDOWN)
            on_stack_key_def(p, r, ptr4);
    } else if (petw_guid_equal(g, &ThreadGuid)) {
        if (opcode == PETW__OP_THREAD_CSWITCH)
            on_cswitch(p, r);
        else if (opcode == PETW__OP_THREAD_READY)
            on_ready(p, r);
        else if ((opcode >= PETW__OP_START && opcode <= PETW__OP_DCSTART) &&
                 r->user_data_length >= 8)
            on_thread(p, r, opcode);
        else if (p->hooks->event)
            p->hooks->event(p->c.hooks_context, r); /* SetName, and what the model skips */
    } else if (petw_guid_equal(g, &ProcessGuid)) {
        on_process(p, r, opcode);
    } else if (petw_guid_equal(g, &ImageGuid)) {
        on_image(p, r, opcode);
    } else if (petw_guid_equal(g, &PetwSymbolsGuid)) {
        on_symbols(p, r);
    } else if (petw_guid_equal(g, &KernelTraceControlGuid) && opcode == 36) {
        on_rsds(p, r);
    } else if (petw_guid_equal(g, &KernelTraceControlGuid) && opcode == 0) {
        on_image_id(p, r);
    } else if (petw_guid_equal(g, &ClrGuid) || petw_guid_equal(g, &ClrRundownGuid)) {
        on_clr(p, r, petw_guid_equal(g, &ClrRundownGuid));
    } else if (petw_guid_equal(g, &DiskIoGuid)) {
        if (opcode == PETW__OP_DISK_READ || opcode == PETW__OP_DISK_WRITE)
            on_disk(p, r, opcode == PETW__OP_DISK_WRITE, ptr4);
    } else if (p->hooks->event) {
        p->hooks->event(p->c.hooks_context, r);
    }
}

/* ---- Symbolization: each distinct location once ---- */

static int by_pid_start(const void *a, const void *b)
{
    const kernel_symbol *x = a, *y = b;
    if (x->pid != y->pid)
        return x->pid < y->pid ? -1 : 1;
    return x->start < y->start ? -1 : x->start > y->start;
}

/* The symbol of `t` (sorted by process, then start) that holds address a
 * of process pid. */
static const kernel_symbol *symbol_lookup(const kernel_symbol *t, uint32_t n, uint32_t pid,
                                          uint64_t a)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (t[mid].pid < pid || (t[mid].pid == pid && t[mid].start <= a))
            lo = mid + 1;
        else
            hi = mid;
    }
    if (!lo)
        return NULL;
    const kernel_symbol *k = &t[lo - 1];
    return k->pid == pid && a < k->start + k->size ? k : NULL;
}

static void symbolize(petw_profile *p)
{
    if (p->ksym_count)
        qsort(p->ksyms, p->ksym_count, sizeof(*p->ksyms), by_pid_start);
    name_clr_modules(p);
    if (p->jit_count)
        qsort(p->jits, p->jit_count, sizeof(*p->jits), by_pid_start);
    petw_source_line lines[32];
    /* Offsets into p->lines until the end (it moves as it grows). */
    uint32_t *first = calloc(p->location_count + 1u, sizeof(*first));
    if (!first) {
        p->error = PETW_ENOMEM;
        return;
    }
    for (uint32_t k = 0; k < p->location_count; k++) {
        petw_profile_location *l = &p->locations[k];
        uint32_t file = p->location_file[k], n = 0;
        char buf[64];
        if (file == NONE) {
            /* The kernel's functions, or the JIT code a process described. */
            const kernel_symbol *ks =
                l->kernel ? symbol_lookup(p->ksyms, p->ksym_count, 0, l->address)
                          : symbol_lookup(p->jits, p->jit_count, p->location_pid[k], l->address);
            if (ks) {
                lines[0].function = ks->name;
                lines[0].file = NULL;
                lines[0].line = 0;
                n = 1;
                l->module = ks->module[0] ? ks->module : "[kernel]";
                if (!l->kernel)
                    l->path = "";
                l->offset = l->address - ks->start;
            }
        } else if (file != NONE && p->files[file].pdb_name && !p->c.no_symbols) {
            const image_file *f = &p->files[file];
            if (petw__pdbs_lookup(&p->pdbs, &p->c.symbolizer, &f->pdb_guid, f->pdb_age, f->pdb_name,
                                  (uint32_t)l->offset, &p->strings, lines, 32, &n) != 0)
                n = 0;
        } else if (file != NONE && p->symbolizer) {
            const image_file *f = &p->files[file];
            if (petw_symbolizer_lookup(p->symbolizer, f->path, f->build_id, f->build_id_size,
                                       l->offset, lines, 32, &n) != 0)
                n = 0;
        }
        /* A Windows image without a PDB: its own export table, when found. */
        const char *named = NULL;
        if (!n && file != NONE && p->files[file].windows && p->files[file].pe_known &&
            !p->c.no_symbols) {
            const image_file *f = &p->files[file];
            char name[600], full[1100];
            if (petw__pdbs_export(&p->pdbs, &p->c.symbolizer, f->path, f->pe_stamp, f->pe_size,
                                  (uint32_t)l->offset, name, sizeof(name))) {
                snprintf(full, sizeof(full), "%s!%s", l->module, name);
                if (!(named = intern(p, full))) {
                    p->error = PETW_ENOMEM;
                    break;
                }
                /* A function of its own to every view, without a source line. */
                lines[0] = (petw_source_line){.function = named, .file = NULL, .line = 0};
                n = 1;
            }
        }
        first[k] = p->line_count;
        if (n) {
            if (petw__grow((void **)&p->lines, &p->line_cap, p->line_count + n,
                           sizeof(*p->lines))) {
                p->error = PETW_ENOMEM;
                break;
            }
            memcpy(p->lines + p->line_count, lines, n * sizeof(*lines));
            p->line_count += n;
            l->line_count = n;
            l->name = lines[n - 1].function;
        } else {
            int win = file != NONE && p->files[file].windows;
            snprintf(buf, sizeof(buf), win ? "!+0x%llx" : "+0x%llx",
                     (unsigned long long)(file == NONE ? l->address : l->offset));
            char name[1100];
            snprintf(name, sizeof(name), "%s%s", l->module, buf);
            l->name = intern(p, name);
        }
    }
    for (uint32_t k = 0; k < p->location_count; k++)
        p->locations[k].lines = p->locations[k].line_count ? p->lines + first[k] : NULL;
    free(first);
}

/* Linux's user stacks are frame-pointer walks: through code built without
 * frame pointers they go on with whatever the stack holds (a string read
 * as the address 0x7370616d2f). As perf does, a walk ends at the first
 * caller in no mapping: a user address in no image that no JIT event
 * names, or a kernel address above a user frame; its samples count as
 * truncated. Stacks in Windows images are left whole: Windows walks them
 * with unwind data, and a frame in no image there is JIT code. The stacks
 * keep their numbers (the hooks reported them). */
static void cut_walks(petw_profile *p)
{
    for (uint32_t k = 0; k < p->stack_count; k++) {
        petw_profile_stack *s = &p->stacks[k];
        int elf = 0, windows = 0;
        for (uint32_t j = 0; j < s->frame_count; j++) {
            uint32_t file = p->location_file[s->frames[j]];
            if (file != NONE && !p->locations[s->frames[j]].kernel) {
                elf |= !p->files[file].windows;
                windows |= p->files[file].windows;
            }
        }
        if (!elf || windows)
            continue;
        for (uint32_t j = 1; j < s->frame_count; j++) {
            const petw_profile_location *l = &p->locations[s->frames[j]];
            const petw_profile_location *callee = &p->locations[s->frames[j - 1]];
            if ((!l->kernel && p->location_file[s->frames[j]] == NONE && !l->line_count) ||
                (l->kernel && !callee->kernel)) {
                s->frame_count = j;
                p->truncated += s->samples;
                break;
            }
        }
    }
}

/* Reads `count` files, or (paths NULL) the one trace in `data`. */
static int read_model(const char *const *paths, uint32_t count, const void *data, size_t size,
                      const petw_profile_config *config, petw_profile **out)
{
    *out = NULL;
    petw_profile *p = calloc(1, sizeof(*p));
    PETW__RETURN_IF(!p, PETW_ENOMEM);
    if (config)
        p->c = *config;
    else
        petw_profile_config_init(&p->c);
    p->interval = 10000;
    static const petw_profile_hooks no_hooks;
    p->hooks = p->c.hooks ? p->c.hooks : &no_hooks;
    int rc = 0;
    if (p->c.decoder)
        p->decoder = p->c.decoder; /* the caller's, with its manifests */
    else
        rc = petw_decoder_new(&p->decoder);
    petw_trace *traces[64] = {0};
    uint32_t opened = 0;
    petw_trace_config tc;
    petw_trace_config_init(&tc);
    tc.on_event = on_event;
    tc.context = p;
    for (; rc == 0 && opened < count; opened++)
        rc = paths ? petw_trace_open(paths[opened], &tc, &traces[opened])
                   : petw_trace_open_memory(data, size, &tc, &traces[opened]);
    p->disk_ticks_per_100ns = 1.0;
    if (rc == 0) {
        /* HighResResponseTime counts the session clock's ticks. */
        const petw_logfile_info *li = petw_trace_info(traces[0]);
        double hz = li->reserved_flags == 2   ? 1e7
                    : li->reserved_flags == 3 ? (double)li->cpu_speed_mhz * 1e6
                                              : (double)li->perf_freq;
        if (hz > 0)
            p->disk_ticks_per_100ns = hz / 1e7;
        for (uint32_t k = 0; k < count; k++) {
            p->events_lost += petw_trace_info(traces[k])->events_lost;
            p->buffers_lost += petw_trace_info(traces[k])->buffers_lost;
        }
    }
    if (rc == 0)
        rc = petw_trace_process(traces, count, 0, 0);
    for (uint32_t k = 0; k < count; k++)
        petw_trace_close(traces[k]);
    for (uint32_t t = 0; rc == 0 && t < p->thread_count; t++) {
        flush_pending(p, t, p->ptr4);
        if (p->tstate[t].has_wait)
            add_offcpu(p, t, NONE);
    }
    if (rc == 0)
        petw__stackkeys_finish(p->stackkeys, add_keyed, p);
    for (uint32_t t = 0; rc == 0 && t < p->thread_count; t++) {
        /* The threads' last states end with the trace; readiers ranked. */
        leave_state(p, t, p->last);
        thread_state *ts = &p->tstate[t];
        for (uint32_t k = 0; k < 4; k++)
            if (ts->reader_counts[k] > p->threads[t].top_reader_count) {
                p->threads[t].top_reader_count = ts->reader_counts[k];
                p->threads[t].top_reader_tid = ts->readers[k];
            }
    }
    for (uint32_t k = 0; k < p->stack_count; k++)
        p->stacks[k].frames = p->frames + (uintptr_t)p->stacks[k].frames;
    if (rc == 0 && !p->c.no_symbols && petw_symbolizer_new(&p->c.symbolizer, &p->symbolizer) != 0)
        p->symbolizer = NULL; /* no libdw in this build: module+offset frames */
    if (rc == 0)
        symbolize(p);
    if (rc == 0)
        cut_walks(p);
    if (rc == 0)
        rc = p->error;
    if (!p->c.decoder)
        petw_decoder_free(p->decoder);
    p->decoder = NULL;
    if (rc != 0) {
        petw_profile_free(p);
        return rc;
    }
    *out = p;
    return 0;
}

int petw_profile_read(const char *const *paths, uint32_t count, const petw_profile_config *config,
                      petw_profile **out)
{
    PETW__RETURN_IF(!paths || !count || count > 64 || !out, PETW_EINVAL);
    return read_model(paths, count, NULL, 0, config, out);
}

int petw_profile_read_memory(const void *data, size_t size, const petw_profile_config *config,
                             petw_profile **out)
{
    PETW__RETURN_IF(!data || !out, PETW_EINVAL);
    return read_model(NULL, 1, data, size, config, out);
}

void petw_profile_free(petw_profile *p)
{
    if (!p)
        return;
    if (!p->c.decoder)
        petw_decoder_free(p->decoder);
    petw_symbolizer_free(p->symbolizer);
    petw__pdbs_free(p->pdbs);
    for (uint32_t k = 0; k < p->process_count; k++)
        free(p->pstate[k].images);
    free(p->processes);
    free(p->pstate);
    free(p->threads);
    free(p->tstate);
    free(p->files);
    free(p->locations);
    free(p->location_file);
    free(p->location_pid);
    free(p->jits);
    free(p->clr_modules);
    free(p->stacks);
    free(p->frames);
    free(p->ksyms);
    free(p->lines);
    free(p->disks);
    free(p->offcpu);
    petw__map_free(&p->offcpu_by_hash);
    free(p->kinds);
    free(p->starts);
    free(p->keyed_threads);
    petw__stackkeys_free(p->stackkeys);
    petw__map_free(&p->disk_by_pid);
    petw__map_free(&p->kind_by_key);
    petw__map_free(&p->pending_start);
    petw__map_free(&p->process_by_pid);
    petw__map_free(&p->thread_by_tid);
    petw__map_free(&p->file_by_key);
    petw__map_free(&p->location_by_key);
    petw__map_free(&p->location_by_addr);
    petw__map_free(&p->stack_by_hash);
    petw__strings_free(&p->strings);
    free(p);
}

uint32_t petw_profile_interval(const petw_profile *p)
{
    return p->interval;
}

void petw_profile_bounds(const petw_profile *p, int64_t *first, int64_t *last)
{
    *first = p->first;
    *last = p->last;
}

void petw_profile_lost(const petw_profile *p, uint64_t *events, uint64_t *buffers)
{
    *events = p->events_lost;
    *buffers = p->buffers_lost;
}

uint64_t petw_profile_samples(const petw_profile *p)
{
    return p->samples;
}

uint64_t petw_profile_truncated(const petw_profile *p)
{
    return p->truncated;
}

uint32_t petw_profile_process_count(const petw_profile *p)
{
    return p->process_count;
}

const petw_profile_process *petw_profile_process_at(const petw_profile *p, uint32_t index)
{
    return index < p->process_count ? &p->processes[index] : NULL;
}

const petw_profile_process *petw_profile_process_find(const petw_profile *p, uint32_t pid)
{
    uint32_t k = petw__map_get(&p->process_by_pid, pid);
    return k == NONE ? NULL : &p->processes[k];
}

uint32_t petw_profile_thread_count(const petw_profile *p)
{
    return p->thread_count;
}

const petw_profile_thread *petw_profile_thread_at(const petw_profile *p, uint32_t index)
{
    return index < p->thread_count ? &p->threads[index] : NULL;
}

uint32_t petw_profile_location_count(const petw_profile *p)
{
    return p->location_count;
}

const petw_profile_location *petw_profile_location_at(const petw_profile *p, uint32_t index)
{
    return index < p->location_count ? &p->locations[index] : NULL;
}

uint32_t petw_profile_stack_count(const petw_profile *p)
{
    return p->stack_count;
}

const petw_profile_stack *petw_profile_stack_at(const petw_profile *p, uint32_t index)
{
    return index < p->stack_count ? &p->stacks[index] : NULL;
}

uint32_t petw_profile_offcpu_count(const petw_profile *p)
{
    return p->offcpu_count;
}

const petw_profile_offcpu *petw_profile_offcpu_at(const petw_profile *p, uint32_t index)
{
    return index < p->offcpu_count ? &p->offcpu[index] : NULL;
}

uint32_t petw_profile_disk_count(const petw_profile *p)
{
    return p->disk_count;
}

const petw_profile_disk *petw_profile_disk_at(const petw_profile *p, uint32_t index)
{
    return index < p->disk_count ? &p->disks[index] : NULL;
}

uint32_t petw_profile_event_kind_count(const petw_profile *p)
{
    return p->kind_count;
}

const petw_profile_event_kind *petw_profile_event_kind_at(const petw_profile *p, uint32_t index)
{
    return index < p->kind_count ? &p->kinds[index] : NULL;
}
