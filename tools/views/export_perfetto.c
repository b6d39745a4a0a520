/* SPDX-License-Identifier: MIT */
/* export_perfetto.c - `petw convert --to perfetto`: the trace as Perfetto's
 * native protobuf trace (a stream of TracePackets, Perfetto's published
 * protos/perfetto/trace/ field numbers), which ui.perfetto.dev opens.
 *
 * Two reads of the files: the first builds the model with symbols (names
 * of processes, their command lines, threads, the distinct stacks and
 * their frames); the second reads them again without symbols and streams
 * the timeline out through the model's hooks, so memory stays bounded by
 * what the model holds (threads, images, distinct stacks) and per-CPU
 * buffers, never by the number of events. The two reads number the
 * stacks alike.
 *
 * Sequences: 1 the tracks (process and thread descriptors, the process
 * tree) and the providers' events; 2 the CPU samples (PerfSample) and the
 * interned frames, mappings and callstacks they name; 3 scheduling, as
 * Perfetto's ETW records (EtwTraceEventBundle: CSwitch and ReadyThread, per
 * CPU): its importer turns them into per-CPU slices and thread states with
 * the Windows states and wait reasons, and wakers, as the trace says them
 * (docs/perfetto.md says why not ftrace's sched_switch). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "perfetto_internal.h"

#define BUNDLE_AT (64u << 10)
#define MAX_CPUS 4096

/* Every process and thread of the model, and the process tree (2:
 * ProcessTree: processes (1) with pid, ppid, cmdline; threads (2) with tid
 * and tgid), which names threads and parents as Linux's process scan does. */
static void describe_all(perfetto *x)
{
    const petw_profile *p = x->model;
    for (uint32_t k = 0; k < petw_profile_process_count(p); k++) {
        uint32_t pid = petw_profile_process_at(p, k)->pid;
        if (pid)
            perfetto_describe_process(x, pid);
    }
    for (uint32_t k = 0; k < petw_profile_thread_count(p); k++) {
        const petw_profile_thread *t = petw_profile_thread_at(p, k);
        if (t->tid)
            perfetto_describe_thread(x, t->tid, t->pid, NULL);
    }
    size_t at = perfetto_packet_begin(x, SEQ_TRACKS, 0);
    size_t tree = proto_begin(&x->b, 2);
    for (uint32_t k = 0; k < petw_profile_process_count(p); k++) {
        const petw_profile_process *pr = petw_profile_process_at(p, k);
        size_t m = proto_begin(&x->b, 1);
        proto_field_int(&x->b, 1, (int32_t)pr->pid);
        proto_field_int(&x->b, 2, (int32_t)pr->parent_pid);
        const char *cmd = pr->command_line[0] ? pr->command_line : pr->name;
        if (cmd[0])
            proto_field_string(&x->b, 3, cmd);
        proto_end(&x->b, m);
    }
    for (uint32_t k = 0; k < petw_profile_thread_count(p); k++) {
        const petw_profile_thread *t = petw_profile_thread_at(p, k);
        if (!t->tid || !t->pid)
            continue;
        size_t m = proto_begin(&x->b, 2);
        proto_field_int(&x->b, 1, (int32_t)t->tid);
        proto_field_int(&x->b, 3, (int32_t)t->pid);
        proto_end(&x->b, m);
    }
    proto_end(&x->b, tree);
    perfetto_packet_end(x, at);
}

/* ---- Scheduling: EtwTraceEventBundle (95) per CPU ---- */

static void bundle_flush(perfetto *x, uint32_t cpu)
{
    sbuf *e = &x->cpus[cpu];
    if (!e->len)
        return;
    if (e->failed)
        x->error = 1;
    size_t at = perfetto_packet_begin(x, SEQ_SCHED, 0);
    size_t bundle = proto_begin(&x->b, 95);
    proto_field_varint(&x->b, 1, cpu); /* cpu */
    sbuf_put(&x->b, e->data, e->len);  /* the events (2) */
    proto_end(&x->b, bundle);
    perfetto_packet_end(x, at);
    e->len = 0;
}

/* Starts an EtwTraceEvent in CPU `cpu`'s bundle: timestamp (1), cpu (4),
 * thread_id (5); NULL for a CPU number past any machine's. */
static sbuf *etw_event_begin(perfetto *x, uint32_t cpu, int64_t time, uint32_t tid, size_t *at)
{
    if (cpu >= MAX_CPUS)
        return NULL;
    if (cpu >= x->cpu_count) {
        sbuf *c = realloc(x->cpus, (cpu + 1) * sizeof(*c));
        if (!c) {
            x->error = 1;
            return NULL;
        }
        memset(c + x->cpu_count, 0, (cpu + 1 - x->cpu_count) * sizeof(*c));
        x->cpus = c;
        x->cpu_count = cpu + 1;
    }
    sbuf *e = &x->cpus[cpu];
    if (e->len >= BUNDLE_AT)
        bundle_flush(x, cpu);
    *at = proto_begin(e, 2);
    proto_field_varint(e, 1, perfetto_ns(time));
    proto_field_varint(e, 4, cpu);
    proto_field_varint(e, 5, tid);
    return e;
}

static void on_cswitch(void *context, const petw_profile_switch *s)
{
    perfetto *x = context;
    size_t at;
    sbuf *e = etw_event_begin(x, s->cpu, s->time, s->old_tid, &at);
    if (!e)
        return;
    size_t cs = proto_begin(e, 2);           /* c_switch: CSwitchEtwEvent */
    proto_field_varint(e, 1, s->new_tid);    /* new_thread_id */
    proto_field_varint(e, 2, s->old_tid);    /* old_thread_id */
    proto_field_sint(e, 3, s->new_priority); /* new_thread_priority */
    proto_field_sint(e, 4, s->old_priority); /* old_thread_priority */
    proto_field_varint(e, 8, s->old_state);  /* old_thread_state */
    proto_field_int(e, 11, s->wait_reason);  /* old_thread_wait_reason_int */
    proto_end(e, cs);
    proto_end(e, at);
    x->switches++;
    if (s->new_tid)
        perfetto_describe_thread(x, s->new_tid, s->new_pid, NULL);
}

static void on_wakeup(void *context, const petw_profile_wakeup *w)
{
    perfetto *x = context;
    size_t at;
    sbuf *e = etw_event_begin(x, w->cpu, w->time, w->by_tid, &at);
    if (!e)
        return;
    size_t rt = proto_begin(e, 3);    /* ready_thread: ReadyThreadEtwEvent */
    proto_field_varint(e, 1, w->tid); /* t_thread_id */
    proto_end(e, rt);
    proto_end(e, at);
    x->wakeups++;
}

/* ---- Lifetimes: instants on the process's and thread's tracks ---- */

static void lifetime_instant(perfetto *x, uint64_t track, int64_t time, const char *name)
{
    size_t at = perfetto_packet_begin(x, SEQ_TRACKS, time);
    size_t te = proto_begin(&x->b, 11);        /* track_event */
    proto_field_varint(&x->b, 9, 3);           /* type: TYPE_INSTANT */
    proto_field_varint(&x->b, 11, track);      /* track_uuid */
    proto_field_string(&x->b, 22, "lifetime"); /* categories */
    proto_field_string(&x->b, 23, name);       /* name */
    proto_end(&x->b, te);
    perfetto_packet_end(x, at);
}

static void on_process(void *context, const petw_profile *p, uint32_t pid, int opcode, int64_t time)
{
    perfetto *x = context;
    (void)p;
    if (opcode == 3 || !pid) /* a rundown: running since before the trace */
        return;
    perfetto_describe_process(x, pid);
    lifetime_instant(x, TRACK_PROCESS(pid), time, opcode == 1 ? "process start" : "process end");
}

static void on_thread(void *context, uint32_t tid, uint32_t pid, int opcode, int64_t time)
{
    perfetto *x = context;
    if (opcode == 3 || !tid)
        return;
    perfetto_describe_thread(x, tid, pid, NULL);
    lifetime_instant(x, TRACK_THREAD(tid), time, opcode == 1 ? "thread start" : "thread end");
}

/* ---- CPU samples: PerfSample (66) on sequence 2 ---- */

static void on_sample(void *context, const petw_profile_sample *s)
{
    perfetto *x = context;
    size_t at = perfetto_packet_begin(x, SEQ_SAMPLES, s->time);
    proto_field_varint(&x->b, 13, 2); /* sequence_flags: SEQ_NEEDS_INCREMENTAL_STATE */
    size_t ps = proto_begin(&x->b, 66);
    proto_field_varint(&x->b, 1, s->cpu);                 /* cpu */
    proto_field_varint(&x->b, 2, s->pid);                 /* pid */
    proto_field_varint(&x->b, 3, s->tid);                 /* tid */
    proto_field_varint(&x->b, 4, (uint64_t)s->stack + 1); /* callstack_iid */
    proto_end(&x->b, ps);
    perfetto_packet_end(x, at);
    x->samples++;
}

/* ---- Interned data (12) for the samples: mappings (19) and their paths
 * (17), frames (6) and their function names (5) and source files (18),
 * callstacks (7), in packets of a bounded size ---- */

#define INTERN_CHUNK 512 /* entries per packet */

static size_t interned_begin(perfetto *x, int first, size_t *packet)
{
    *packet = perfetto_packet_begin(x, SEQ_SAMPLES, 0);
    /* sequence_flags: SEQ_INCREMENTAL_STATE_CLEARED first, then NEEDS_INCREMENTAL_STATE */
    proto_field_varint(&x->b, 13, first ? 1 : 2);
    return proto_begin(&x->b, 12);
}

static void interned_end(perfetto *x, size_t interned, size_t packet)
{
    proto_end(&x->b, interned);
    perfetto_packet_end(x, packet);
}

static void interned_string(sbuf *b, uint32_t field, uint64_t iid, const char *s)
{
    size_t at = proto_begin(b, field); /* InternedString: iid (1), str (2) */
    proto_field_varint(b, 1, iid);
    proto_field_string(b, 2, s);
    proto_end(b, at);
}

static const char *module_key(const void *items, uint32_t k)
{
    return ((const char *const *)items)[k];
}

/* One mapping per image file name; *mapping_of[k] is location k's. */
static int write_mappings(perfetto *x, uint32_t *mapping_of)
{
    const petw_profile *p = x->model;
    const char **mods = NULL;
    uint32_t nmod = 0, cap = 0;
    key_index index = {0};
    int rc = 0;
    for (uint32_t k = 0; k < petw_profile_location_count(p) && !rc; k++) {
        const char *m = petw_profile_location_at(p, k)->module;
        uint32_t slot;
        int found = key_index_find(&index, m, nmod, module_key, mods, &slot);
        if (found > 0) {
            mapping_of[k] = key_index_at(&index, slot) + 1;
            continue;
        }
        if (found < 0 ||
            (nmod == cap && !(mods = realloc(mods, (cap = cap ? 2 * cap : 64) * sizeof(*mods))))) {
            rc = -1;
            break;
        }
        mods[nmod] = m;
        key_index_add(&index, slot, nmod);
        mapping_of[k] = ++nmod;
    }
    for (uint32_t k = 0; k < nmod && !rc; k += INTERN_CHUNK) {
        size_t packet, in = interned_begin(x, k == 0, &packet);
        for (uint32_t j = k; j < nmod && j < k + INTERN_CHUNK; j++) {
            interned_string(&x->b, 17, j + 1, mods[j]);
            size_t m = proto_begin(&x->b, 19); /* Mapping: iid (1), path_string_ids (7) */
            proto_field_varint(&x->b, 1, j + 1);
            proto_field_varint(&x->b, 7, j + 1);
            proto_end(&x->b, m);
        }
        interned_end(x, in, packet);
    }
    free(mods);
    key_index_free(&index);
    return rc;
}

/* Location k's frames: one per function, inlined ones first; iids from
 * first[k] + 1. */
static void write_frames(perfetto *x, const uint32_t *mapping_of, const uint32_t *first)
{
    const petw_profile *p = x->model;
    uint32_t n = petw_profile_location_count(p);
    for (uint32_t k = 0; k < n; k += INTERN_CHUNK) {
        size_t packet, in = interned_begin(x, 0, &packet);
        for (uint32_t j = k; j < n && j < k + INTERN_CHUNK; j++) {
            const petw_profile_location *l = petw_profile_location_at(p, j);
            uint32_t lines = l->line_count ? l->line_count : 1;
            for (uint32_t i = 0; i < lines; i++) {
                uint64_t iid = (uint64_t)first[j] + i + 1;
                const petw_source_line *sl = l->line_count ? &l->lines[i] : NULL;
                interned_string(&x->b, 5, iid, sl ? sl->function : l->name);
                if (sl && sl->file)
                    interned_string(&x->b, 18, iid, sl->file);
                size_t f = proto_begin(&x->b, 6);
                proto_field_varint(&x->b, 1, iid);           /* iid */
                proto_field_varint(&x->b, 2, iid);           /* function_name_id */
                proto_field_varint(&x->b, 3, mapping_of[j]); /* mapping_id */
                proto_field_varint(&x->b, 4, l->offset);     /* rel_pc */
                if (sl && sl->file)
                    proto_field_varint(&x->b, 5, iid); /* source_path_iid */
                if (sl && sl->line)
                    proto_field_varint(&x->b, 6, sl->line); /* line_number */
                proto_end(&x->b, f);
            }
        }
        interned_end(x, in, packet);
    }
}

/* Callstack: iid (1) the stack's index + 1, frame_ids (2) root first. */
static void write_callstacks(perfetto *x, const uint32_t *first)
{
    const petw_profile *p = x->model;
    uint32_t n = petw_profile_stack_count(p);
    for (uint32_t k = 0; k < n; k += INTERN_CHUNK) {
        size_t packet, in = interned_begin(x, 0, &packet);
        for (uint32_t j = k; j < n && j < k + INTERN_CHUNK; j++) {
            const petw_profile_stack *s = petw_profile_stack_at(p, j);
            size_t c = proto_begin(&x->b, 7);
            proto_field_varint(&x->b, 1, (uint64_t)j + 1);
            for (uint32_t f = s->frame_count; f-- > 0;) {
                uint32_t loc = s->frames[f];
                const petw_profile_location *l = petw_profile_location_at(p, loc);
                for (uint32_t i = l->line_count ? l->line_count : 1; i-- > 0;)
                    proto_field_varint(&x->b, 2, (uint64_t)first[loc] + i + 1);
            }
            proto_end(&x->b, c);
        }
        interned_end(x, in, packet);
    }
}

static int write_interned(perfetto *x)
{
    uint32_t n = petw_profile_location_count(x->model);
    uint32_t *mapping_of = calloc(n + 1u, sizeof(*mapping_of));
    uint32_t *first = calloc(n + 1u, sizeof(*first));
    int rc = mapping_of && first ? 0 : -1;
    for (uint32_t k = 0, at = 0; !rc && k < n; k++) {
        const petw_profile_location *l = petw_profile_location_at(x->model, k);
        first[k] = at;
        at += l->line_count ? l->line_count : 1;
    }
    if (!rc && n == 0) { /* the sequence's state is cleared all the same */
        size_t packet, in = interned_begin(x, 1, &packet);
        interned_end(x, in, packet);
    }
    if (!rc && n)
        rc = write_mappings(x, mapping_of);
    if (!rc) {
        write_frames(x, mapping_of, first);
        write_callstacks(x, first);
    }
    free(mapping_of);
    free(first);
    return rc;
}

/* ---- Statistics: TraceStats (35), BufferStats (1) of the one buffer:
 * lost events as trace_writer_packet_loss (19), lost buffers as
 * chunks_discarded (18) ---- */

static void write_stats(perfetto *x)
{
    uint64_t events, buffers;
    petw_profile_lost(x->model, &events, &buffers);
    size_t at = perfetto_packet_begin(x, SEQ_TRACKS, 0);
    size_t ts = proto_begin(&x->b, 35);
    size_t bs = proto_begin(&x->b, 1);
    proto_field_varint(&x->b, 19, events);
    proto_field_varint(&x->b, 18, buffers);
    proto_end(&x->b, bs);
    proto_end(&x->b, ts);
    perfetto_packet_end(x, at);
}

/* ---- The export ---- */

/* The second read: the timeline through the model's hooks. */
static int stream(perfetto *x, model_args *m)
{
    static const petw_profile_hooks hooks = {
        on_process,     on_thread,           on_cswitch,        on_wakeup,
        on_sample,      perfetto_on_disk_io, perfetto_on_event, perfetto_on_fault,
        perfetto_on_vm, perfetto_on_file_io, perfetto_on_net};
    petw_profile_config c = m->config;
    c.no_symbols = 1;
    c.hooks = &hooks;
    c.hooks_context = x;
    c.decoder = x->decoder;
    petw_profile *again = NULL;
    int rc = petw_profile_read((const char *const *)m->files, (uint32_t)m->nfiles, &c, &again);
    if (rc == 0 && petw_profile_stack_count(again) != petw_profile_stack_count(x->model))
        rc = PETW_ECORRUPT; /* the files changed between the reads */
    petw_profile_free(again);
    return rc;
}

int export_perfetto(model_args *m, const petw_profile *p, const perfetto_args *a, FILE *out)
{
    perfetto x = {0};
    x.out = out;
    x.model = p;
    x.args = a;
    x.decoder = decoder_create(&m->manifests);
    if (!x.decoder)
        return -1;
    {
        /* The first packet clears the tracks' sequence's state. */
        size_t at = perfetto_packet_begin(&x, SEQ_TRACKS, 0);
        proto_field_varint(&x.b, 13, 1);
        perfetto_packet_end(&x, at);
    }
    describe_all(&x);
    if (write_interned(&x) != 0)
        x.error = 1;
    int rc = x.error ? 0 : stream(&x, m);
    perfetto_events_end(&x);
    for (uint32_t k = 0; k < x.cpu_count; k++)
        bundle_flush(&x, k);
    write_stats(&x);
    perfetto_flush(&x);
    if (rc)
        fprintf(stderr, "petw: cannot read %s: %s\n", m->files[0], petw_strerror(rc));
    else if (!x.error)
        fprintf(stderr,
                "petw: %" PRIu64 " context switches, %" PRIu64 " wake-ups, %" PRIu64
                " samples, %" PRIu64 " events (%" PRIu64 " slices), %" PRIu64 " disk I/Os, %" PRIu64
                " counter values, %" PRIu64 " page faults, %" PRIu64
                " mapped-bytes values, %" PRIu64 " file I/Os\n",
                x.switches, x.wakeups, x.samples, x.events, x.slices, x.disk_ios, x.counter_values,
                x.faults, x.memory_values, x.file_ios);
    if (!rc && !x.error && x.net_ops)
        fprintf(stderr, "petw: %" PRIu64 " network events (TcpIp, UdpIp)\n", x.net_ops);
    for (uint32_t k = 0; k < x.cpu_count; k++)
        sbuf_free(&x.cpus[k]);
    free(x.cpus);
    free(x.disks);
    free(x.processes.slots);
    free(x.threads.slots);
    free(x.memory_tracks.slots);
    sbuf_free(&x.b);
    sbuf_free(&x.scratch);
    petw_decoder_free(x.decoder);
    return rc || x.error ? -1 : 0;
}
