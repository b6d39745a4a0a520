/* SPDX-License-Identifier: MIT */
/* libFuzzer target: the analysis pipeline on an untrusted trace (what
 * `petw report` and `petw convert --to folded|pprof|flamegraph` read): the
 * model (lib/read/analysis/profile*.c: kernel records read at their offsets,
 * samples paired with stacks, images, switch times), then every view and
 * export the tools write, into a memory stream; then the model's read again
 * with every hook (what `--to perfetto` streams from), each touching what
 * it is given. No symbol files are opened
 * (no_symbols): a trace's paths must not make the fuzzer read the disk.
 * Whatever the input, reading returns 0 or an error and nothing reads or
 * writes out of bounds. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <petw/analysis.h>

#include "views/analysis_tool.h"

static uint64_t seen; /* what the hooks touched, so no read is optimized out */

static void on_process(void *c, const petw_profile *p, uint32_t pid, int opcode, int64_t time)
{
    const petw_profile_process *pr = petw_profile_process_find(p, pid);
    seen += (uint64_t)c + (pr ? strlen(pr->name) + strlen(pr->command_line) : 0) + opcode + time;
}
static void on_thread(void *c, uint32_t tid, uint32_t pid, int opcode, int64_t time)
{
    seen += (uint64_t)c + tid + pid + opcode + time;
}
static void on_switch(void *c, const petw_profile_switch *s)
{
    seen += (uint64_t)c + s->old_tid + s->new_pid + s->old_state + s->wait_reason + s->cpu;
}
static void on_wakeup(void *c, const petw_profile_wakeup *w)
{
    seen += (uint64_t)c + w->tid + w->by_tid + w->pid + w->by_pid;
}
static void on_sample(void *c, const petw_profile_sample *s)
{
    seen += (uint64_t)c + s->stack + s->tid + s->cpu;
}
static void on_disk(void *c, const petw_profile_disk_io *d)
{
    seen += (uint64_t)c + d->bytes + d->offset + d->latency + d->disk;
}
static void on_file(void *c, const petw_profile_file_io *f)
{
    (void)c;
    if (f->end < f->start || !f->name || f->kind < 0 || f->kind >= PETW_FILE_OP_KINDS)
        abort(); /* the model hands out operations that end after they begin */
}

static void on_net(void *c, const petw_profile_net_op *o)
{
    seen += (uint64_t)c + o->bytes + o->connid + o->local_port + o->remote[15];
}
static void on_event(void *c, const petw_event_record *r)
{
    seen += (uint64_t)c + (uint64_t)petw_profile_event_pairs(r, NULL);
}
static void on_fault(void *c, const petw_profile_fault *f)
{
    seen += (uint64_t)c + f->address + f->duration + f->offset + (f->file ? strlen(f->file) : 0);
}
static void on_vm(void *c, const petw_profile_vm *v)
{
    seen += (uint64_t)c + v->base + v->size + (uint64_t)v->mapped_now;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    petw_profile_config c;
    petw_profile_config_init(&c);
    c.no_symbols = 1;
    petw_profile *p;
    if (petw_profile_read_memory(data, size, &c, &p) != 0)
        return 0;
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    if (out) {
        view_args a = {.format = table_find("json"), .out = out};
        (void)report_cpu(p, &a);
        a.by = "thread";
        (void)report_cpu(p, &a);
        a.format = table_find("text");
        (void)report_wait(p, &a);
        (void)report_offcpu(p, &a);
        (void)report_processes(p, &a);
        (void)report_disk(p, &a);
        (void)report_file(p, &a);
        (void)report_net(p, &a);
        (void)report_events(p, &a);
        (void)report_diff(p, p, &a);
        a.by = NULL;
        (void)report_memory(p, &a);
        a.by = "file";
        (void)report_memory(p, &a);
        a.by = "thread";
        if (petw_profile_location_count(p)) {
            a.callers_of = petw_profile_location_at(p, 0)->name;
            (void)report_cpu(p, &a);
            (void)report_offcpu(p, &a);
        }
        for (int v = VALUE_SAMPLES; v <= VALUE_BOTH; v++) {
            (void)export_folded(p, out, v);
            (void)export_pprof(p, out, v);
            (void)export_flamegraph(p, out, "fuzz", v);
        }
        fclose(out);
    }
    free(text);
    uint32_t stacks = petw_profile_stack_count(p);
    petw_profile_free(p);
    static const petw_profile_hooks hooks = {on_process, on_thread, on_switch, on_wakeup,
                                             on_sample,  on_disk,   on_event,  on_fault,
                                             on_vm,      on_file,   on_net};
    c.hooks = &hooks;
    if (petw_profile_read_memory(data, size, &c, &p) == 0) {
        if (petw_profile_stack_count(p) != stacks)
            abort(); /* two reads number their stacks alike */
        petw_profile_free(p);
    }
    return 0;
}
