/* SPDX-License-Identifier: MIT */
/* profile.c - a trace's events as a model: processes, threads, images,
 * distinct stacks of CPU samples and per-thread switch times; then each
 * distinct location symbolized once. This file reads the traces, sends each
 * event to the part of the model it feeds (by its kernel class and opcode),
 * and gives the model out; the parts are profile_tables.c (processes,
 * threads, images, locations), profile_stacks.c (samples and stacks),
 * profile_sched.c (switches, waits, off-CPU), profile_events.c (disk I/O,
 * event kinds), profile_clr.c (.NET and JIT symbols) and profile_symbols.c
 * (the symbolization driver).
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

#define ProcessGuid (*PETW__KC_GUID(PETW__KC_PROCESS))
#define ThreadGuid (*PETW__KC_GUID(PETW__KC_THREAD))
#define ImageGuid (*PETW__KC_GUID(PETW__KC_IMAGE))
#define PerfInfoGuid (*PETW__KC_GUID(PETW__KC_PERFINFO))
#define StackWalkGuid (*PETW__KC_GUID(PETW__KC_STACKWALK))
#define DiskIoGuid (*PETW__KC_GUID(PETW__KC_DISK_IO))
#define PageFaultGuid (*PETW__KC_GUID(PETW__KC_PAGE_FAULT))
#define FileIoGuid (*PETW__KC_GUID(PETW__KC_FILE_IO))
#define TcpIpGuid (*PETW__KC_GUID(PETW__KC_TCPIP))
#define UdpIpGuid (*PETW__KC_GUID(PETW__KC_UDPIP))
#define KernelTraceControlGuid (*PETW__KC_GUID(PETW__KC_KERNEL_TRACE_CONTROL))
static const petw_guid PetwSymbolsGuid = {
    0x784dcbca, 0x471e, 0x55a0, {0xb9, 0xf9, 0x8b, 0x37, 0xe7, 0x96, 0x54, 0x17}};
/* The .NET runtime and its rundown (Microsoft-Windows-DotNETRuntime[Rundown]). */
static const petw_guid ClrGuid = {
    0xe13c0d23, 0xccbc, 0x4e12, {0x93, 0x1b, 0xd9, 0xcc, 0x2e, 0xee, 0x27, 0xe4}};
static const petw_guid ClrRundownGuid = {
    0xa669021c, 0xc450, 0x4609, {0xa0, 0x35, 0x5a, 0xf5, 0x9a, 0xf4, 0xdf, 0x18}};

void petw_profile_config_init(petw_profile_config *config)
{
    memset(config, 0, sizeof(*config));
    petw_symbolizer_config_init(&config->symbolizer);
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
    if (petw__profile_in_time(p, t))
        petw__profile_on_any_event(p, r);
    int ptr4 = (r->header.flags & PETW_EVENT_HEADER_FLAG_32_BIT_HEADER) != 0;
    p->ptr4 = ptr4;
    if (petw_guid_equal(g, &PerfInfoGuid)) {
        if (opcode == PETW__OP_PERFINFO_SAMPLED_PROFILE)
            petw__profile_on_sample(p, r, ptr4);
        else if ((opcode == PETW__OP_PERFINFO_COLLECTION_START ||
                  opcode == PETW__OP_PERFINFO_SET_INTERVAL) &&
                 r->user_data_length >= 8 && petw__rd32(r->user_data) == 0 &&
                 petw__rd32((const uint8_t *)r->user_data + 4))
            p->interval = petw__rd32((const uint8_t *)r->user_data + 4); /* ProfileTime's */
    } else if (petw_guid_equal(g, &StackWalkGuid)) {
        if (opcode == PETW__OP_STACKWALK_STACK)
            petw__profile_on_stack(p, r, ptr4);
        else if (opcode == PETW__OP_STACKWALK_KEY_KERNEL || opcode == PETW__OP_STACKWALK_KEY_USER)
            petw__profile_on_stack_key(p, r, opcode == PETW__OP_STACKWALK_KEY_USER, ptr4);
        else if (opcode == PETW__OP_STACKWALK_KEY_DELETE ||
                 opcode == PETW__OP_STACKWALK_KEY_RUNDOWN)
            petw__profile_on_stack_key_def(p, r, ptr4);
    } else if (petw_guid_equal(g, &ThreadGuid)) {
        if (opcode == PETW__OP_THREAD_CSWITCH)
            petw__profile_on_cswitch(p, r);
        else if (opcode == PETW__OP_THREAD_READY)
            petw__profile_on_ready(p, r);
        else if ((opcode >= PETW__OP_START && opcode <= PETW__OP_DCSTART) &&
                 r->user_data_length >= 8)
            petw__profile_on_thread(p, r, opcode);
        else if (p->hooks->event)
            p->hooks->event(p->c.hooks_context, r); /* SetName, and what the model skips */
    } else if (petw_guid_equal(g, &ProcessGuid)) {
        petw__profile_on_process(p, r, opcode);
    } else if (petw_guid_equal(g, &ImageGuid)) {
        petw__profile_on_image(p, r, opcode);
    } else if (petw_guid_equal(g, &PetwSymbolsGuid)) {
        petw__profile_on_symbols(p, r);
    } else if (petw_guid_equal(g, &KernelTraceControlGuid) && opcode == PETW__OP_KTC_DBGID_RSDS) {
        petw__profile_on_rsds(p, r);
    } else if (petw_guid_equal(g, &KernelTraceControlGuid) && opcode == PETW__OP_KTC_IMAGE_ID) {
        petw__profile_on_image_id(p, r);
    } else if (petw_guid_equal(g, &ClrGuid) || petw_guid_equal(g, &ClrRundownGuid)) {
        petw__profile_on_clr(p, r, petw_guid_equal(g, &ClrRundownGuid));
    } else if (petw_guid_equal(g, &DiskIoGuid)) {
        if (opcode == PETW__OP_DISK_READ || opcode == PETW__OP_DISK_WRITE)
            petw__profile_on_disk(p, r, opcode == PETW__OP_DISK_WRITE, ptr4);
    } else if (petw_guid_equal(g, &PageFaultGuid)) {
        petw__profile_on_page_fault(p, r, ptr4);
    } else if (petw_guid_equal(g, PETW__KC_GUID(PETW__KC_FILE_IO))) {
        petw__profile_on_file_name(p, r, ptr4); /* the names HardFault's FileObjects have */
        petw__profile_on_file(p, r, opcode, ptr4);
    } else if (petw_guid_equal(g, &TcpIpGuid) || petw_guid_equal(g, &UdpIpGuid)) {
        petw__profile_on_net(p, r, petw_guid_equal(g, &UdpIpGuid), ptr4);
    } else if (p->hooks->event) {
        p->hooks->event(p->c.hooks_context, r);
    }
}

/* Sets up a new model: its configuration, hooks and decoder. */
static int init_model(petw_profile *p, const petw_profile_config *config)
{
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
    return rc;
}

/* Opens the traces (`count` files, or the one in `data`), takes the clock
 * and the losses from their headers and feeds their events to the model. */
static int read_traces(petw_profile *p, const char *const *paths, uint32_t count, const void *data,
                       size_t size)
{
    int rc = 0;
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
        p->mem_trace = traces[0];
        for (uint32_t k = 0; k < count; k++) {
            p->events_lost += petw_trace_info(traces[k])->events_lost;
            p->buffers_lost += petw_trace_info(traces[k])->buffers_lost;
        }
    }
    if (rc == 0)
        rc = petw_trace_process(traces, count, 0, 0);
    p->mem_trace = NULL; /* the traces close below */
    for (uint32_t k = 0; k < count; k++)
        petw_trace_close(traces[k]);
    return rc;
}

/* After the last event: pending samples and waits, keyed stacks and files
 * settled, threads' last states and top readiers, stacks' frames pointed,
 * then symbolization and the walks cut. Returns rc, else the model's error. */
static int finish_model(petw_profile *p, int rc)
{
    for (uint32_t t = 0; rc == 0 && t < p->thread_count; t++) {
        petw__profile_flush_pending(p, t, p->ptr4);
        if (p->tstate[t].has_wait)
            petw__profile_add_offcpu(p, t, PETW__MAP_NONE);
    }
    if (rc == 0)
        petw__stackkeys_finish(p->stackkeys, petw__profile_add_keyed, p);
    if (rc == 0)
        petw__profile_files_finish(p);
    if (rc == 0)
        petw__profile_memory_finish(p);
    for (uint32_t t = 0; rc == 0 && t < p->thread_count; t++) {
        /* The threads' last states end with the trace; readiers ranked. */
        petw__profile_leave_state(p, t, p->last);
        petw__thread_state *ts = &p->tstate[t];
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
        petw__profile_symbolize(p);
    if (rc == 0)
        petw__profile_cut_walks(p);
    if (rc == 0)
        rc = p->error;
    return rc;
}

/* Reads `count` files, or (paths NULL) the one trace in `data`. */
static int read_model(const char *const *paths, uint32_t count, const void *data, size_t size,
                      const petw_profile_config *config, petw_profile **out)
{
    *out = NULL;
    petw_profile *p = calloc(1, sizeof(*p));
    PETW__RETURN_IF(!p, PETW_ENOMEM);
    int rc = init_model(p, config);
    if (rc == 0)
        rc = read_traces(p, paths, count, data, size);
    rc = finish_model(p, rc);
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
    petw__profile_files_free(p);
    free(p->offcpu);
    petw__map_free(&p->offcpu_by_hash);
    free(p->kinds);
    free(p->starts);
    free(p->keyed_threads);
    petw__stackkeys_free(p->stackkeys);
    petw__map_free(&p->disk_by_pid);
    petw__profile_memory_free(p);
    free(p->nets);
    petw__map_free(&p->net_by_key);
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
    return k == PETW__MAP_NONE ? NULL : &p->processes[k];
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

uint32_t petw_profile_memory_count(const petw_profile *p)
{
    return p->mem_count;
}

const petw_profile_memory *petw_profile_memory_at(const petw_profile *p, uint32_t index)
{
    return index < p->mem_count ? &p->mems[index] : NULL;
}

uint32_t petw_profile_memory_file_count(const petw_profile *p)
{
    return p->mem_file_count;
}

const petw_profile_memory_file *petw_profile_memory_file_at(const petw_profile *p, uint32_t index)
{
    return index < p->mem_file_count ? &p->mem_files[index] : NULL;
}

uint64_t petw_profile_memory_skipped(const petw_profile *p)
{
    return p->mem_skipped;
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
