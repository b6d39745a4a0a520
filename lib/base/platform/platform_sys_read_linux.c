/* SPDX-License-Identifier: MIT */
/* platform_sys_read_linux.c - the OS's own events on Linux, read: each
 * CPU's perf ring, its records merged by time across CPUs and parsed into
 * neutral records (petw__sys_record); a tracepoint's raw record goes out
 * as it is (lib/write/system/ reads it). platform_sys_linux.c opens them.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "platform_sys_linux.h"

/* The trailer every non-sample record ends with. */
static void trailer(const uint8_t *rec, uint32_t size, petw__sys_record *r)
{
    const uint8_t *t = rec + size - PETW__PERF_TRAILER_BYTES;
    r->pid = petw__ld32(t);
    r->tid = petw__ld32(t + 4);
    r->time_ns = (int64_t)petw__ld64(t + 8);
    r->cpu = petw__ld32(t + 16);
}

/* A tracepoint's sample: {pid, tid} of the thread it fired in, its time
 * and CPU, its call chain when asked, then its raw record (which
 * lib/write/system/ reads at the offsets its format file gives). */
static void tracepoint(petw__sys *s, int k, const uint8_t *p, uint32_t body, petw__sys_fn fn,
                       void *ctx)
{
    petw__sys_record r;
    memset(&r, 0, sizeof(r));
    uint32_t at = 40; /* then [nr, ips[nr]] when it has call chains, then {size, raw} */
    if (s->tp[k].stacks) {
        if (body < at + 8)
            return;
        uint64_t nr = petw__ld64(p + at);
        if (nr > (body - at - 8) / 8)
            return;
        for (uint64_t j = 0; j < nr && r.frame_count < PETW__SYS_MAX_FRAMES; j++) {
            uint64_t ip = petw__ld64(p + at + 8 + 8 * j);
            if (ip < (uint64_t)PERF_CONTEXT_MAX) /* not a context marker (kernel, user) */
                s->frames[r.frame_count++] = ip;
        }
        r.frames = s->frames;
        at += 8 + 8 * (uint32_t)nr;
    }
    if (body < at + 4)
        return;
    uint32_t raw_size = petw__ld32(p + at);
    const uint8_t *raw = p + at + 4;
    if (raw_size > body - at - 4)
        return;
    r.kind = PETW__SYSREC_TRACEPOINT;
    r.tracepoint = (uint32_t)k;
    r.raw = raw;
    r.raw_size = raw_size;
    r.pid = petw__ld32(p + 16);
    r.tid = petw__ld32(p + 20);
    r.time_ns = (int64_t)petw__ld64(p + 24);
    r.cpu = petw__ld32(p + 32);
    fn(ctx, &r);
}

/* A page-fault event's sample: identifier, ip, {pid, tid}, time, addr, {cpu, res}. */
static void fault(petw__sys *s, int k, const uint8_t *p, uint32_t body, petw__sys_fn fn, void *ctx)
{
    static const uint32_t kinds[PETW__PERF_FAULT_COUNT] = {
        PETW__SYS_FAULT_MINOR, PETW__SYS_FAULT_MAJOR, PETW__SYS_FAULT_START};
    if (body < 48)
        return;
    petw__sys_record r;
    memset(&r, 0, sizeof(r));
    r.kind = PETW__SYSREC_FAULT;
    r.flags = kinds[k];
    r.ip = petw__ld64(p + 8);
    r.pid = petw__ld32(p + 16);
    r.tid = petw__ld32(p + 20);
    r.time_ns = (int64_t)petw__ld64(p + 24);
    r.addr = petw__ld64(p + 32);
    r.cpu = petw__ld32(p + 40);
    fn(ctx, &r);
}

/* A sample: identifier, ip, {pid, tid}, time, {cpu, res}, then a
 * tracepoint's {size, raw data} or the sampler's [nr, ips[nr]]. A
 * page-fault or tracepoint event's goes to its parser; the sampler's is a
 * SAMPLE record. */
static void sample_record(petw__sys *s, petw__sys_cpu *ring, const uint8_t *p, uint32_t body,
                          petw__sys_fn fn, void *ctx)
{
    petw__sys_record r;
    memset(&r, 0, sizeof(r));
    if (body < 40)
        return;
    for (int k = 0; k < PETW__PERF_FAULT_COUNT; k++) /* their address moves the CPU: by the ring */
        if (s->fault_on[k] && ring->fault_id[k] == petw__ld64(p)) {
            ring->fault_seen[k]++;
            fault(s, k, p, body, fn, ctx);
            return;
        }
    uint32_t cpu = petw__ld32(p + 32);
    if (cpu < s->cpu_count) {
        uint64_t id = petw__ld64(p);
        for (uint32_t k = 0; k < s->tp_count; k++)
            if (s->tp_on[k] && s->cpus[cpu].tp_id[k] == id) {
                s->cpus[cpu].tp_seen[k]++;
                tracepoint(s, (int)k, p, body, fn, ctx);
                return;
            }
    }
    r.kind = PETW__SYSREC_SAMPLE;
    r.addr = petw__ld64(p + 8);
    r.pid = petw__ld32(p + 16);
    r.tid = petw__ld32(p + 20);
    r.time_ns = (int64_t)petw__ld64(p + 24);
    r.cpu = petw__ld32(p + 32);
    if (body >= 48) {
        uint64_t nr = petw__ld64(p + 40);
        if (nr > (body - 48) / 8)
            nr = (body - 48) / 8;
        for (uint64_t k = 0; k < nr && r.frame_count < PETW__SYS_MAX_FRAMES; k++) {
            uint64_t ip = petw__ld64(p + 48 + 8 * k);
            if (ip >= (uint64_t)PERF_CONTEXT_MAX)
                continue; /* a context marker (kernel, user), not a frame */
            s->frames[r.frame_count++] = ip;
        }
        r.frames = s->frames;
    }
    fn(ctx, &r);
}

/* An MMAP2 record: pid, tid, addr, len, pgoff, maj, min, ino, ino_gen,
 * prot, flags, filename, trailer. An executable file's mapping is an
 * MMAP record (an image), any other a MAP record while major faults are
 * followed; 1 when *r is one, 0 when the mapping is not recorded. */
static int mmap_record(petw__sys *s, const uint8_t *rec, uint32_t size, petw__sys_record *r)
{
    const struct perf_event_header *h = (const void *)rec;
    const uint8_t *p = rec + sizeof(*h);
    uint32_t body = size - (uint32_t)sizeof(*h);
    const uint32_t fixed = 8 + 24 + 24 + 8;
    if (body < fixed + PETW__PERF_TRAILER_BYTES)
        return 0;
    uint32_t prot = petw__ld32(p + 56);
    /* Anonymous executable memory (a JIT): no image, as in the rundown. */
    int anon = body > fixed + 6 + PETW__PERF_TRAILER_BYTES && memcmp(p + fixed, "//anon", 6) == 0;
    int image = (prot & PROT_EXEC) && !anon;
    if (!image && !s->fault_on[PETW__PERF_FAULT_MAJ])
        return 0;
    trailer(rec, size, r);
    r->kind = image ? PETW__SYSREC_MMAP : PETW__SYSREC_MAP;
    r->pid = petw__ld32(p);
    r->tid = petw__ld32(p + 4);
    r->addr = petw__ld64(p + 8);
    r->len = petw__ld64(p + 16);
    r->pgoff = petw__ld64(p + 24);
    size_t n = body - fixed - PETW__PERF_TRAILER_BYTES;
    if (n > sizeof(s->text) - 1)
        n = sizeof(s->text) - 1;
    memcpy(s->text, p + fixed, n);
    s->text[n] = 0;
    r->text = s->text;
    /* With the kernel's build-id (misc bit), {maj, min, ino, ino_gen}
     * is {u8 size, u8, u16, u8 build_id[20]}; else lib/write/system/ reads it
     * from the file. */
    if (!image) {
        r->build_id = s->build_id;
        return 1;
    }
    if ((h->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) && p[32] && p[32] <= 20) {
        memcpy(s->build_id, p + 36, p[32]);
        r->build_id_size = p[32];
    }
    r->build_id = s->build_id;
    return 1;
}

static void parse(petw__sys *s, petw__sys_cpu *ring, const uint8_t *rec, uint32_t size,
                  petw__sys_fn fn, void *ctx)
{
    const struct perf_event_header *h = (const void *)rec;
    petw__sys_record r;
    memset(&r, 0, sizeof(r));
    const uint8_t *p = rec + sizeof(*h);
    uint32_t body = size - (uint32_t)sizeof(*h);
    switch (h->type) {
    case PERF_RECORD_SAMPLE:
        sample_record(s, ring, p, body, fn, ctx);
        return;
    case PERF_RECORD_FORK:
    case PERF_RECORD_EXIT:
        /* pid, ppid, tid, ptid, time, trailer */
        if (body < 24 + PETW__PERF_TRAILER_BYTES)
            return;
        trailer(rec, size, &r);
        r.kind = h->type == PERF_RECORD_FORK ? PETW__SYSREC_FORK : PETW__SYSREC_EXIT;
        r.pid = petw__ld32(p);
        r.other_pid = petw__ld32(p + 4);
        r.tid = petw__ld32(p + 8);
        r.other_tid = petw__ld32(p + 12);
        r.time_ns = (int64_t)petw__ld64(p + 16);
        break;
    case PERF_RECORD_COMM: {
        if (!(h->misc & PERF_RECORD_MISC_COMM_EXEC) || body < 8 + PETW__PERF_TRAILER_BYTES)
            return; /* a thread renamed itself: no kernel class says so */
        trailer(rec, size, &r);
        r.kind = PETW__SYSREC_EXEC;
        r.pid = petw__ld32(p);
        r.tid = petw__ld32(p + 4);
        size_t n = body - 8 - PETW__PERF_TRAILER_BYTES;
        if (n > 16)
            n = 16;
        memcpy(s->text, p + 8, n);
        s->text[n] = 0;
        r.text = s->text;
        break;
    }
    case PERF_RECORD_MMAP2:
        if (!mmap_record(s, rec, size, &r))
            return;
        break;
    case PERF_RECORD_SWITCH:
    case PERF_RECORD_SWITCH_CPU_WIDE:
        if (body < PETW__PERF_TRAILER_BYTES)
            return;
        trailer(rec, size, &r);
        r.kind = PETW__SYSREC_SWITCH;
        if (h->type == PERF_RECORD_SWITCH_CPU_WIDE && body >= 8 + PETW__PERF_TRAILER_BYTES) {
            r.other_pid = petw__ld32(p);
            r.other_tid = petw__ld32(p + 4);
        }
        if (h->misc & PERF_RECORD_MISC_SWITCH_OUT)
            r.flags |= PETW__SYS_SWITCH_OUT;
        if (h->misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT)
            r.flags |= PETW__SYS_SWITCH_PREEMPT;
        break;
    case PERF_RECORD_LOST:
        if (body < 16 + PETW__PERF_TRAILER_BYTES)
            return;
        trailer(rec, size, &r);
        r.kind = PETW__SYSREC_LOST;
        r.count = petw__ld64(p + 8);
        break;
    case PERF_RECORD_LOST_SAMPLES:
        if (body < 8 + PETW__PERF_TRAILER_BYTES)
            return;
        trailer(rec, size, &r);
        r.kind = PETW__SYSREC_LOST;
        r.count = petw__ld64(p);
        break;
    default:
        return;
    }
    fn(ctx, &r);
}

/* A byte of a CPU's ring at stream position `pos`. */
static void ring_copy(const petw__sys_cpu *sc, uint64_t pos, void *out, size_t n)
{
    const struct perf_event_mmap_page *meta = (const void *)sc->base;
    const uint8_t *data = sc->base + meta->data_offset;
    for (size_t k = 0; k < n; k++)
        ((uint8_t *)out)[k] = data[(pos + k) % sc->data_size];
}

/* The time of the record at `pos` (size `size`): a sample says it after
 * identifier, ip and ids; every other record in its sample_id trailer. */
static int64_t ring_time(const petw__sys_cpu *sc, uint64_t pos, const struct perf_event_header *h)
{
    uint64_t t = 0;
    if (h->type == PERF_RECORD_SAMPLE && h->size >= 40)
        ring_copy(sc, pos + 32, &t, 8);
    else if (h->size >= sizeof(*h) + PETW__PERF_TRAILER_BYTES)
        ring_copy(sc, pos + h->size - 24, &t, 8);
    return (int64_t)t;
}

uint64_t petw__sys_read(petw__sys *s, petw__sys_fn fn, void *ctx)
{
    /* What each CPU holds now; then the records of all CPUs merged by
     * time, so a process's fork on one CPU comes before its exec on
     * another. */
    for (uint32_t i = 0; i < s->cpu_count; i++) {
        petw__sys_cpu *sc = &s->cpus[i];
        if (!sc->base)
            continue;
        struct perf_event_mmap_page *meta = (void *)sc->base;
        /* acquire: pairs with the kernel's store of data_head after it
         * wrote the records below it. */
        sc->head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
        sc->tail = meta->data_tail;
    }
    uint64_t n = 0;
    for (;;) {
        petw__sys_cpu *best = NULL;
        struct perf_event_header bh;
        int64_t bt = 0;
        for (uint32_t i = 0; i < s->cpu_count; i++) {
            petw__sys_cpu *sc = &s->cpus[i];
            struct perf_event_header h;
            if (!sc->base || sc->tail + sizeof(h) > sc->head)
                continue;
            ring_copy(sc, sc->tail, &h, sizeof(h));
            if (h.size < sizeof(h) || sc->tail + h.size > sc->head) {
                sc->tail = sc->head; /* malformed: drop what is left */
                continue;
            }
            int64_t t = ring_time(sc, sc->tail, &h);
            if (!best || t < bt) {
                best = sc;
                bh = h;
                bt = t;
            }
        }
        if (!best)
            break;
        const struct perf_event_mmap_page *meta = (const void *)best->base;
        uint64_t at = best->tail % best->data_size;
        const uint8_t *rec = best->base + meta->data_offset + at;
        if (at + bh.size > best->data_size) { /* wraps: copy it out */
            ring_copy(best, best->tail, s->scratch, bh.size);
            rec = s->scratch;
        }
        parse(s, best, rec, bh.size, fn, ctx);
        best->tail += bh.size;
        n++;
    }
    if (s->net_bpf) { /* the BPF program's records, after the pass's */
        s->bpf_fn = fn;
        s->bpf_ctx = ctx;
        int got = petw__bpf_poll(s->net_bpf, 0);
        n += got > 0 ? (uint64_t)got : 0;
        s->bpf_fn = NULL;
    }
    for (uint32_t i = 0; i < s->cpu_count; i++) {
        petw__sys_cpu *sc = &s->cpus[i];
        if (!sc->base)
            continue;
        struct perf_event_mmap_page *meta = (void *)sc->base;
        /* release: our reads of the records happen before the kernel may
         * overwrite them. */
        __atomic_store_n(&meta->data_tail, sc->tail, __ATOMIC_RELEASE);
    }
    return n;
}
