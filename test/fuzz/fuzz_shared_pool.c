/* SPDX-License-Identifier: MIT */
/* libFuzzer target: a session host reading a shared pool that a provider
 * process wrote (lib/write/ring/ring.c, petw__pool_host_*) and salvaging a dead
 * writer's buffers (petw__etl_salvage_records). A malicious provider
 * controls every byte of the pool, header included; the host trusts only
 * its own geometry.
 *
 * Input: bytes 0-1 (little-endian) pick the buffer size (4096..65536, a
 * multiple of 8), byte 2 the buffer count (1..16), byte 3 the CPU count
 * (1..8); the host plans and formats a pool of exactly that geometry, then
 * the rest of the input overwrites the whole pool, repeated to fill it (no
 * rest: the formatted pool as it is). Then everything the host does with a
 * pool, live and after its writer died, with every index it gets back and
 * every walk checked against the geometry; the allocation is exactly the
 * pool's size, so ASan sees any access outside it. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/base/format/etl.h"
#include "../../lib/write/ring/ring.h"

#if defined(_WIN32)
#include <malloc.h>
#define pool_alloc(bytes) _aligned_malloc((bytes), PETW__CACHE_LINE)
#define pool_free(p) _aligned_free(p)
#else
#define pool_alloc(bytes) aligned_alloc(PETW__CACHE_LINE, (bytes))
#define pool_free(p) free(p)
#endif

#define HDR PETW__BUFFER_HEADER_SIZE

/* Fills mem[0, bytes) with fill[0, n) over and over. */
static void cycle_fill(uint8_t *mem, size_t bytes, const uint8_t *fill, size_t n)
{
    size_t k = n < bytes ? n : bytes;
    memcpy(mem, fill, k);
    /* k stays a multiple of n: the copy keeps the period. */
    while (k < bytes) {
        size_t c = k < bytes - k ? k : bytes - k;
        memcpy(mem + k, mem, c);
        k += c;
    }
}

/* Every record salvage copied is a complete one, inside what it returned. */
static void check_salvaged(const uint8_t *out, uint32_t used)
{
    for (uint32_t p = HDR; p < used;) {
        uint16_t size = petw__rd16(out + p), type = petw__rd16(out + p + 2);
        if (size < 8 || type == 0 || p + PETW__ALIGN8(size) > used)
            __builtin_trap();
        p += PETW__ALIGN8(size);
    }
}

static void check_index(uint32_t b, const petw__pool_geometry *g)
{
    if (b != PETW__BUF_NONE && b >= g->buffer_count)
        __builtin_trap();
}

/* take_ready: at most buffer_count entries, each an index of the pool. */
static uint32_t take_ready(petw__pool *p, const petw__pool_geometry *g, uint32_t *ready)
{
    uint32_t n = petw__pool_host_take_ready(p, g, ready);
    if (n > g->buffer_count)
        __builtin_trap();
    for (uint32_t i = 0; i < n; i++)
        if (ready[i] >= g->buffer_count)
            __builtin_trap();
    return n;
}

/* Room the host keeps per pool: sized by the host's geometry, exactly. */
typedef struct host_room {
    uint32_t *ready, *cpu_off;
    uint8_t *is_free, *scratch;
} host_room;

/* Everything the host does with a pool, live and after its writer died. */
static void host_side(petw__pool *p, const petw__pool_geometry *g, const host_room *r)
{
    const uint8_t *mem = (const uint8_t *)p;
    uint32_t count = g->buffer_count, bs = g->buffer_size;

    /* Live: what is ready, how full each buffer is, closing every CPU. */
    uint32_t n = take_ready(p, g, r->ready);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t committed;
        petw__pool_host_used(p, g, r->ready[i], &committed);
    }
    for (uint32_t b = 0; b < count; b++) {
        petw__pool_host_used(p, g, b, NULL);
        volatile int64_t sealed = petw__pool_host_sealed(p, g, b);
        (void)sealed;
    }
    /* A buffering pool's retained queue: at most `max` valid indexes. */
    for (uint32_t max = 1; max <= count + 1; max += count) {
        uint32_t k = petw__pool_host_take_retained(p, g, r->ready, max);
        if (k > max || k > count)
            __builtin_trap();
        for (uint32_t i = 0; i < k; i++)
            check_index(r->ready[i], g);
    }
    volatile uint64_t overwritten = petw__pool_host_overwritten(p);
    volatile int64_t horizon = petw__pool_host_horizon(p);
    (void)overwritten;
    (void)horizon;
    for (uint32_t c = 0; c < g->cpu_count; c++) {
        uint32_t closed;
        uint32_t mine = petw__pool_host_close_cpu(p, g, c, &closed);
        check_index(mine, g);
        check_index(closed, g);
        if (mine != PETW__BUF_NONE && mine != closed)
            __builtin_trap(); /* the host delivers only what it closed */
        if (mine != PETW__BUF_NONE)
            petw__pool_host_used(p, g, mine, NULL);
    }

    /* Dead: where each CPU wrote, what is free, what was lost, salvage. */
    for (uint32_t c = 0; c < g->cpu_count; c++) {
        uint32_t off, b = petw__pool_host_cpu_buffer(p, g, c, &off);
        check_index(b, g);
        if (b != PETW__BUF_NONE)
            r->cpu_off[b] = off;
    }
    petw__pool_host_mark_free(p, g, r->is_free);
    for (uint32_t b = 0; b < count; b++)
        if (r->is_free[b] > 1)
            __builtin_trap();
    volatile uint32_t lost_events = petw__pool_host_lost(p);
    (void)lost_events;
    uint32_t lost = 0;
    for (uint32_t b = 0; b < count; b++) {
        uint32_t end = petw__pool_host_used(p, g, b, NULL);
        if (end == 0)
            end = r->cpu_off[b];
        if (end > bs)
            end = bs;
        const uint8_t *buf = petw__pool_host_buffer(p, g, b);
        if (buf < mem + g->data || buf + bs > mem + g->commit_bytes)
            __builtin_trap();
        uint32_t used = petw__etl_salvage_records(buf, end, r->scratch, &lost);
        if (used > bs || (end >= HDR && used > end))
            __builtin_trap();
        check_salvaged(r->scratch, used);
    }

    /* Given back: the ready ones (at most two) and the last buffer, then
     * the stacks as they are now (a free on a corrupt stack may cycle). */
    for (uint32_t i = 0; i < n && i < 2; i++)
        petw__pool_host_free(p, g, r->ready[i]);
    petw__pool_host_free(p, g, count - 1);
    take_ready(p, g, r->ready);
    memset(r->is_free, 0, count);
    petw__pool_host_mark_free(p, g, r->is_free);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 4)
        return 0;
    uint32_t bs =
        4096 + (((uint32_t)data[0] | (uint32_t)data[1] << 8) % ((65536 - 4096) / 8 + 1)) * 8;
    uint32_t count = 1 + data[2] % 16, cpus = 1 + data[3] % 8;
    petw__pool_geometry g;
    if (petw__pool_plan(bs, count, count, cpus, &g) != 0)
        __builtin_trap(); /* every geometry above is a valid one */
    /* commit_bytes is whole pages: a multiple of the alignment. */
    size_t bytes = (size_t)g.commit_bytes;
    uint8_t *mem = pool_alloc(bytes);
    host_room r = {malloc(sizeof(uint32_t) * count), calloc(count, sizeof(uint32_t)),
                   calloc(count, 1), malloc(bs)};
    if (mem && r.ready && r.cpu_off && r.is_free && r.scratch) {
        memset(mem, 0, bytes);
        petw__pool_format((petw__pool *)(void *)mem, &g);
        if (size > 4)
            cycle_fill(mem, bytes, data + 4, size - 4);
        host_side((petw__pool *)(void *)mem, &g, &r);
    }
    pool_free(mem);
    free(r.ready);
    free(r.cpu_off);
    free(r.is_free);
    free(r.scratch);
    return 0;
}
