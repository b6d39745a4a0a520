/* SPDX-License-Identifier: MIT */
/* output_chrome_kernel.c - the kernel records (the NT Kernel Logger's
 * classes) in a Chrome trace, as a timeline of the system, read through
 * their decoded fields: Process Start/DCStart name their process
 * (ImageFileName, with the command line as its label) and Thread
 * Start/DCStart their thread, and tie the thread to its process; each
 * CSwitch ends the slice of the thread that ran on its CPU and starts one
 * for the new thread (a track per CPU in a "CPUs" process; the idle thread
 * gets none); each SampledProfile is an instant on the thread it sampled,
 * with the StackWalk event that follows it for that thread (same time) as
 * its "stack" argument. */
#include "output_chrome.h"

static id_entry *id_find(id_map *m, uint32_t id)
{
    if (!m->cap)
        return NULL;
    for (size_t i = (id * 2654435761u) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
        if (!m->e[i].used)
            return NULL;
        if (m->e[i].id == id)
            return &m->e[i];
    }
}

/* The entry of `id`, added when new; NULL when memory ran out. */
static id_entry *id_add(id_map *m, uint32_t id)
{
    id_entry *e = id_find(m, id);
    if (e)
        return e;
    if (2 * (m->count + 1) > m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 256;
        id_map grown = {calloc(cap, sizeof(id_entry)), 0, cap};
        if (!grown.e)
            return NULL;
        for (size_t i = 0; i < m->cap; i++)
            if (m->e[i].used)
                *id_add(&grown, m->e[i].id) = m->e[i];
        free(m->e);
        *m = grown;
    }
    size_t i = (id * 2654435761u) & (m->cap - 1);
    while (m->e[i].used)
        i = (i + 1) & (m->cap - 1);
    m->e[i].used = 1;
    m->e[i].id = id;
    m->count++;
    return &m->e[i];
}

static void id_map_free(id_map *m)
{
    for (size_t i = 0; i < m->cap; i++)
        free(m->e[i].name);
    free(m->e);
    m->e = NULL;
    m->count = m->cap = 0;
}

/* The top-level field `name` of a decoded event, or NULL. */
static const petw_field *field_named(const petw_decoded_event *ev, const char *name)
{
    for (uint32_t i = 0; i < ev->top_count; i++)
        if (ev->fields[i].name && !strcmp(ev->fields[i].name, name))
            return &ev->fields[i];
    return NULL;
}

/* An integer field's value: 1 and `*out`, or 0 when there is none. */
static int field_uint(const petw_decoded_event *ev, const char *name, uint64_t *out)
{
    const petw_field *f = field_named(ev, name);
    if (!f)
        return 0;
    switch (f->kind) {
    case PETW_VALUE_UINT:
    case PETW_VALUE_HEX:
    case PETW_VALUE_BOOL:
        *out = f->v.u;
        return 1;
    case PETW_VALUE_INT:
        *out = (uint64_t)f->v.i;
        return 1;
    default:
        return 0;
    }
}

/* The process of thread `tid`, or NO_PROCESS when no record told. A
 * thread whose ID is a process's is that process's first thread (Linux;
 * Windows draws thread and process IDs from one table, so never there). */
static uint32_t thread_process(chrome_state *c, uint32_t tid)
{
    id_entry *e = id_find(&c->threads, tid);
    if (e)
        return e->pid;
    return id_find(&c->processes, tid) ? tid : NO_PROCESS;
}

static const char *process_image(chrome_state *c, uint32_t pid)
{
    id_entry *e = id_find(&c->processes, pid);
    return e ? e->name : NULL;
}

/* "app.exe (77)", "process 1234 (77)" or "thread 77". */
static void thread_label(chrome_state *c, uint32_t tid, char *out, size_t size)
{
    uint32_t pid = thread_process(c, tid);
    const char *image = pid != NO_PROCESS ? process_image(c, pid) : NULL;
    if (image)
        snprintf(out, size, "%s (%u)", image, tid);
    else if (pid != NO_PROCESS)
        snprintf(out, size, "process %u (%u)", pid, tid);
    else
        snprintf(out, size, "thread %u", tid);
}

/* Process Start/DCStart: the process's name, from its image. */
static void process_start(output *o, chrome_state *c, const petw_decoded_event *ev)
{
    uint64_t pid;
    const petw_field *image = field_named(ev, "ImageFileName");
    if (!field_uint(ev, "ProcessId", &pid) || pid >= NO_PROCESS - 1 || !image ||
        image->kind != PETW_VALUE_STRING || !image->v.s[0])
        return;
    id_entry *e = id_add(&c->processes, (uint32_t)pid);
    char *name = e ? malloc(strlen(image->v.s) + 1) : NULL;
    if (name) {
        strcpy(name, image->v.s);
        free(e->name);
        e->name = name;
    }
    chrome_process_named(c, (uint32_t)pid); /* no "process N" record after this one */
    chrome_metadata(o, "process_name", (uint32_t)pid, 0, image->v.s, 0);
    const petw_field *cmd = field_named(ev, "CommandLine");
    if (cmd && cmd->kind == PETW_VALUE_STRING && cmd->v.s[0])
        chrome_metadata(o, "process_labels", (uint32_t)pid, 0, cmd->v.s, 0);
    /* A process that runs a new program (Linux's exec) starts again: its
     * first thread, named after the old image, takes the new one. */
    id_entry *first = id_find(&c->threads, (uint32_t)pid);
    if (first && first->pid == (uint32_t)pid)
        chrome_metadata(o, "thread_name", (uint32_t)pid, (uint32_t)pid, image->v.s, 0);
    output_record(o);
}

/* Thread Start/DCStart: the thread's process, and its name. */
static void thread_start(output *o, chrome_state *c, const petw_decoded_event *ev)
{
    uint64_t pid, tid;
    char text[64];
    if (!field_uint(ev, "ProcessId", &pid) || !field_uint(ev, "TThreadId", &tid) ||
        pid >= NO_PROCESS - 1)
        return;
    id_entry *e = id_add(&c->threads, (uint32_t)tid);
    if (e)
        e->pid = (uint32_t)pid;
    const char *image = process_image(c, (uint32_t)pid);
    if (image)
        snprintf(text, sizeof(text), "%s", image);
    else
        snprintf(text, sizeof(text), "thread %u", (unsigned)tid);
    chrome_name_process(o, c, (uint32_t)pid);
    chrome_metadata(o, "thread_name", (uint32_t)pid, (uint32_t)tid, text, 0);
    output_record(o);
}

/* The track of CPU `cpu`: its name records the first time. Returns 0, or
 * -1 when memory ran out. */
static int cpu_track(output *o, chrome_state *c, unsigned cpu)
{
    char text[32];
    if (cpu < c->cpu_count)
        return 0;
    uint8_t *grown = realloc(c->cpu_running, cpu + 1);
    if (!grown)
        return -1;
    memset(grown + c->cpu_count, 0, cpu + 1 - c->cpu_count);
    c->cpu_running = grown;
    if (!chrome_process_named(c, CPU_PROCESS))
        chrome_metadata(o, "process_name", CPU_PROCESS, 0, "CPUs", 0);
    for (size_t i = c->cpu_count; i <= cpu; i++) {
        snprintf(text, sizeof(text), "CPU %u", (unsigned)i);
        chrome_metadata(o, "thread_name", CPU_PROCESS, (uint32_t)i, text, 0);
        chrome_metadata(o, "thread_sort_index", CPU_PROCESS, (uint32_t)i, NULL, i);
    }
    c->cpu_count = cpu + 1;
    return 0;
}

static void end_cpu_slice(output *o, chrome_state *c, unsigned cpu, double ts)
{
    sbuf *b = &o->line;
    if (o->records++)
        sbuf_puts(b, ",\n");
    sbuf_puts(b, "{\"ph\":\"E\",\"pid\":");
    sbuf_u64(b, CPU_PROCESS);
    sbuf_puts(b, ",\"tid\":");
    sbuf_u64(b, cpu);
    sbuf_puts(b, ",\"ts\":");
    chrome_put_ts(b, ts);
    sbuf_putc(b, '}');
    output_record(o);
    c->cpu_running[cpu] = 0;
}

/* CSwitch: the thread that ran on the record's CPU stops, the new one
 * starts (a slice named after it, with the record's fields). */
static int context_switch(output *o, chrome_state *c, const petw_event_record *r,
                          const petw_decoded_event *ev)
{
    uint64_t tid;
    unsigned cpu = record_cpu(r);
    char label[160];
    if (!field_uint(ev, "NewThreadId", &tid) || cpu_track(o, c, cpu) != 0)
        return 0;
    if (c->cpu_running[cpu])
        end_cpu_slice(o, c, cpu, c->last_ts);
    if (tid == 0) { /* the idle thread: the CPU's track stays empty */
        output_record(o);
        return 1;
    }
    thread_label(c, (uint32_t)tid, label, sizeof(label));
    sbuf *b = &o->line;
    if (o->records++)
        sbuf_puts(b, ",\n");
    sbuf_puts(b, "{\"ph\":\"B\",\"name\":");
    json_string(b, label);
    sbuf_puts(b, ",\"cat\":\"CSwitch\",\"ts\":");
    chrome_put_ts(b, c->last_ts);
    sbuf_puts(b, ",\"pid\":");
    sbuf_u64(b, CPU_PROCESS);
    sbuf_puts(b, ",\"tid\":");
    sbuf_u64(b, cpu);
    sbuf_puts(b, ",\"args\":{");
    uint32_t pid = thread_process(c, (uint32_t)tid);
    if (pid != NO_PROCESS) {
        sbuf_puts(b, "\"ProcessId\":");
        sbuf_u64(b, pid);
        sbuf_putc(b, ',');
    }
    json_members(b, ev, 0, ev->top_count);
    sbuf_puts(b, "}}");
    output_record(o);
    c->cpu_running[cpu] = 1;
    return 1;
}

/* Writes the oldest pending sample (index 0: they are kept in arrival
 * order) or the one at `*at`, with `stack` (a StackWalk's "Stack" array) as
 * its stack when not NULL. */
static void finish_sample(output *o, chrome_state *c, size_t at, const petw_decoded_event *ev,
                          const petw_field *stack)
{
    pending_sample *p = &c->pending[at];
    sbuf *b = &o->line;
    if (p->json) {
        if (o->records++)
            sbuf_puts(b, ",\n");
        sbuf_puts(b, p->json);
        if (stack) {
            sbuf_puts(b, ",\"stack\":");
            json_value(b, ev, stack);
        }
        sbuf_puts(b, "}}");
        output_record(o);
    }
    free(p->json);
    memmove(p, p + 1, (c->pending_count - at - 1) * sizeof(*p));
    c->pending_count--;
}

/* SampledProfile: an instant on the sampled thread, held until its stack
 * comes. */
static int profile_sample(output *o, chrome_state *c, const petw_event_record *r,
                          const petw_decoded_event *ev, const slice *s)
{
    uint64_t tid;
    if (!field_uint(ev, "ThreadId", &tid))
        return 0;
    /* A thread's stack follows its sample before its next sample. */
    for (size_t i = 0; i < c->pending_count; i++)
        if (c->pending[i].tid == (uint32_t)tid) {
            finish_sample(o, c, i, NULL, NULL);
            break;
        }
    if (c->pending_count == MAX_PENDING_SAMPLES)
        finish_sample(o, c, 0, NULL, NULL);
    uint32_t pid = thread_process(c, (uint32_t)tid);
    chrome_name_process(o, c, pid);
    output_record(o);
    sbuf *b = &c->scratch;
    b->len = 0;
    b->failed = 0;
    sbuf_puts(b, "{\"ph\":\"i\",\"s\":\"t\",\"name\":");
    json_string(b, s->name);
    sbuf_puts(b, ",\"cat\":");
    json_provider(b, r, ev);
    sbuf_puts(b, ",\"ts\":");
    chrome_put_ts(b, c->last_ts);
    sbuf_puts(b, ",\"pid\":");
    sbuf_u64(b, pid);
    sbuf_puts(b, ",\"tid\":");
    sbuf_u64(b, tid);
    sbuf_puts(b, ",\"args\":{");
    json_members(b, ev, 0, ev->top_count);
    sbuf_putc(b, 0);
    pending_sample *p = &c->pending[c->pending_count++];
    p->tid = (uint32_t)tid;
    p->time = r->header.timestamp;
    p->json = b->failed ? NULL : malloc(b->len);
    if (p->json)
        memcpy(p->json, b->data, b->len);
    else
        o->error = PETW_ENOMEM;
    return 1;
}

/* StackWalk Stack: the frames of the pending sample it belongs to (its
 * thread, at its time: EventTimeStamp is the sample's raw time, or the
 * record has the sample's time). Returns 0 when it belongs to none. */
static int stack_walk(output *o, chrome_state *c, const petw_event_record *r,
                      const petw_decoded_event *ev)
{
    uint64_t tid, raw;
    const petw_field *stack = field_named(ev, "Stack");
    if (!field_uint(ev, "StackThread", &tid) || !field_uint(ev, "EventTimeStamp", &raw) || !stack)
        return 0;
    for (size_t i = 0; i < c->pending_count; i++)
        if (c->pending[i].tid == (uint32_t)tid &&
            (!o->same_time || c->pending[i].time == r->header.timestamp ||
             o->same_time(o->time_context, (int64_t)raw, c->pending[i].time))) {
            finish_sample(o, c, i, ev, stack);
            return 1;
        }
    return 0;
}

/* Renders a kernel record its own way. Returns 1 when done, 0 to show it
 * as any other record (an instant). */
/* VirtualAlloc, VirtualFree: the process's bytes mapped less unmapped as
 * a counter record (C) "Mapped bytes"; the record stays an instant too. */
static void virtual_alloc(output *o, chrome_state *c, const petw_event_record *r,
                          const petw_decoded_event *ev, int free_op)
{
    uint64_t pid, size;
    if (!field_uint(ev, "ProcessId", &pid) || !field_uint(ev, "RegionSize", &size) ||
        pid > UINT32_MAX || size % 4096 || size > (uint64_t)1 << 56)
        return; /* no region's size (whole pages within an address space) */
    id_entry *e = id_add(&c->memory, (uint32_t)pid);
    if (!e)
        return;
    e->mapped += free_op ? -(int64_t)size : (int64_t)size;
    sbuf *b = &o->line;
    sbuf_puts(b, ",\n{\"ph\":\"C\",\"name\":\"Mapped bytes\",\"ts\":");
    chrome_put_ts(b, c->last_ts);
    sbuf_puts(b, ",\"pid\":");
    sbuf_u64(b, pid);
    sbuf_puts(b, ",\"tid\":0,\"args\":{\"bytes\":");
    char num[32];
    snprintf(num, sizeof(num), "%lld", (long long)e->mapped);
    sbuf_puts(b, num);
    sbuf_puts(b, "}}");
    o->records++;
    (void)r;
}

int chrome_kernel_event(output *o, chrome_state *c, const petw_event_record *r,
                        const petw_decoded_event *ev)
{
    const char *class = petw_kernel_class_name(&r->header.provider_id);
    const char *event = ev && ev->has_schema ? ev->event_name : NULL;
    if (!class || !event)
        return 0;
    /* A stack comes right after its sample: samples that waited long
     * enough have none. */
    while (c->pending_count && r->header.timestamp - c->pending[0].time > STACK_WAIT)
        finish_sample(o, c, 0, NULL, NULL);
    /* A record with a real thread tells its process. */
    const petw_event_header *h = &r->header;
    if (h->thread_id && h->thread_id != UINT32_MAX && h->process_id != UINT32_MAX &&
        !id_find(&c->threads, h->thread_id)) {
        id_entry *e = id_add(&c->threads, h->thread_id);
        if (e)
            e->pid = h->process_id;
    }
    if (!strcmp(class, "Process") && (!strcmp(event, "Start") || !strcmp(event, "DCStart")))
        process_start(o, c, ev);
    else if (!strcmp(class, "Thread") && (!strcmp(event, "Start") || !strcmp(event, "DCStart")))
        thread_start(o, c, ev);
    else if (!strcmp(class, "Thread") && !strcmp(event, "CSwitch"))
        return context_switch(o, c, r, ev);
    else if (!strcmp(class, "PerfInfo") && !strcmp(event, "SampleProf")) {
        slice s = {0};
        chrome_name_slice(&s, r, ev);
        return profile_sample(o, c, r, ev, &s);
    } else if (!strcmp(class, "StackWalk") && !strcmp(event, "Stack"))
        return stack_walk(o, c, r, ev);
    else if (!strcmp(class, "PageFault") &&
             (!strcmp(event, "VirtualAlloc") || !strcmp(event, "VirtualFree")))
        virtual_alloc(o, c, r, ev, !strcmp(event, "VirtualFree"));
    return 0;
}

void chrome_kernel_end(output *o, chrome_state *c)
{
    while (c->pending_count)
        finish_sample(o, c, 0, NULL, NULL);
    for (size_t cpu = 0; cpu < c->cpu_count; cpu++)
        if (c->cpu_running[cpu])
            end_cpu_slice(o, c, (unsigned)cpu, c->last_ts);
}

void chrome_kernel_free(chrome_state *c)
{
    id_map_free(&c->threads);
    id_map_free(&c->processes);
    id_map_free(&c->memory);
    free(c->cpu_running);
}
