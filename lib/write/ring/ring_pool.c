/* SPDX-License-Identifier: MIT */
/* ring_pool.c - a ring's lifetime: the slot table and its claims, the
 * pool's geometry and format, start (a pool of its own) or attach (a
 * session host's shared pool), growth, and release. Control thread (and the
 * flusher, for growth and release); see ring.h. */
#include <stdlib.h>

#include "ring.h"

petw__ring petw__ring_table[PETW__MAX_RINGS];

static void counters_init(petw__ring_counters *k)
{
    atomic_init(&k->events_lost, 0);
    atomic_init(&k->lost_pending, 0);
    atomic_init(&k->events_overwritten, 0);
    atomic_init(&k->overwrite_horizon, INT64_MIN);
}

int petw__ring_init(petw__ring *ring, uint32_t cpu_count)
{
    memset(ring, 0, sizeof(*ring));
    ring->cpu_count = cpu_count ? cpu_count : 1;
    /* Never freed (writers may race a stop); over-allocate to align. */
    size_t bytes = sizeof(petw__ring_cpu) * ring->cpu_count + PETW__CACHE_LINE;
    uint8_t *raw = calloc(1, bytes);
    if (!raw)
        return PETW_ENOMEM;
    void *mem = raw + (PETW__CACHE_LINE - ((uintptr_t)raw % PETW__CACHE_LINE)) % PETW__CACHE_LINE;
    ring->own_cpus = mem;
    for (uint32_t i = 0; i < ring->cpu_count; i++) {
        atomic_init(&ring->own_cpus[i].word, PETW__WORD(0, PETW__BUF_DEAD, 0));
    }
    atomic_init(&ring->cpus, ring->own_cpus);
    ring->counters = &ring->own_counters;
    atomic_init(&ring->pool, NULL);
    atomic_init(&ring->gen, 0);
    atomic_init(&ring->slow_refs, 0);
    atomic_init(&ring->delivering, 0);
    counters_init(&ring->own_counters);
    atomic_init(&ring->capacity, 0);
    return 0;
}

static uint64_t round_up(uint64_t v, uint64_t to)
{
    return (v + to - 1) / to * to;
}

int petw__pool_plan(uint32_t buffer_size, uint32_t buffer_count, uint32_t buffer_limit,
                    uint32_t cpu_count, petw__pool_geometry *g)
{
    if (buffer_count < 1 || buffer_limit < buffer_count || buffer_limit > PETW__MAX_POOL_BUFFERS ||
        buffer_size < PETW__BUFFER_HEADER_SIZE + 0x60 || buffer_size > PETW__CTRL_MAX_BUFFER ||
        (buffer_size & 7) || cpu_count > PETW__MAX_POOL_BUFFERS)
        return PETW_EINVAL;
    uint64_t page = petw__page_size();
    g->buffer_size = buffer_size;
    g->buffer_count = buffer_count;
    g->buffer_limit = buffer_limit;
    g->cpu_count = cpu_count;
    g->ctrl = round_up(sizeof(petw__pool), PETW__CACHE_LINE);
    g->link = g->ctrl + (uint64_t)PETW__CTRL_STRIDE * buffer_limit;
    /* 8-aligned: the metadata and the retained queue hold 64-bit atomics. */
    g->meta = round_up(g->link + 4ull * buffer_limit, 8);
    g->retained = g->meta + sizeof(petw__buffer_meta) * buffer_limit;
    g->cpu = round_up(g->retained + sizeof(petw__retained_slot) * buffer_limit, PETW__CACHE_LINE);
    g->data = round_up(g->cpu + sizeof(petw__ring_cpu) * cpu_count, page);
    g->reserve_bytes = round_up(g->data + (uint64_t)buffer_size * buffer_limit, page);
    g->commit_bytes = round_up(g->data + (uint64_t)buffer_size * buffer_count, page);
    return g->reserve_bytes > SIZE_MAX ? PETW_ENOMEM : 0;
}

void petw__pool_format(petw__pool *pool, const petw__pool_geometry *g)
{
    pool->magic = PETW__POOL_MAGIC;
    pool->version = PETW__POOL_VERSION;
    pool->cpu_count = g->cpu_count;
    pool->header_bytes = sizeof(petw__pool);
    pool->cpu_offset = g->cpu;
    pool->total_bytes = g->commit_bytes;
    pool->buffer_size = g->buffer_size;
    pool->buffer_limit = g->buffer_limit;
    pool->reserved_bytes = g->reserve_bytes;
    pool->ctrl_offset = g->ctrl;
    pool->link_offset = g->link;
    pool->meta_offset = g->meta;
    pool->retained_offset = g->retained;
    pool->data_offset = g->data;
    atomic_init(&pool->buffer_count, g->buffer_count);
    atomic_init(&pool->free_head, 0);
    atomic_init(&pool->free_count, 0);
    atomic_init(&pool->ready_head, 0);
    atomic_init(&pool->retained_head, 0);
    atomic_init(&pool->retained_tail, 0);
    counters_init(&pool->counters);
    for (uint32_t i = 0; i < g->buffer_limit; i++) {
        atomic_init(petw__pool_ctrl(pool, i), 0);
        atomic_init(&petw__pool_link(pool)[i], 0);
        atomic_init(&petw__pool_retained(pool)[i].sequence, i);
        atomic_init(&petw__pool_retained(pool)[i].buffer, 0);
        atomic_init(&petw__pool_meta(pool)[i].generation, 0);
        atomic_init(&petw__pool_meta(pool)[i].uses, 0);
        atomic_init(&petw__pool_meta(pool)[i].deliveries, 0);
        atomic_init(&petw__pool_meta(pool)[i].sealed_timestamp, 0);
    }
    petw__ring_cpu *cpus = (petw__ring_cpu *)((char *)pool + g->cpu);
    for (uint32_t i = 0; i < g->cpu_count; i++)
        atomic_init(&cpus[i].word, PETW__WORD(0, PETW__BUF_DEAD, 0));
    for (uint32_t i = g->buffer_count; i-- > 0;)
        petw__ring_free_buffer(pool, i);
}

/* The next generation of a ring slot (never 0). */
static uint16_t next_gen(petw__ring *ring)
{
    uint16_t gen = (uint16_t)(atomic_load_explicit(&ring->gen, memory_order_relaxed) + 1);
    return gen ? gen : 1;
}

/* Publishes `gen` in every CPU word of `cpus`. */
static void publish(petw__ring *ring, petw__ring_cpu *cpus, uint16_t gen)
{
    ring->clock_tsc = (uint32_t)petw__clock_is_measured(ring->clock);
    atomic_store_explicit(&ring->gen, gen, memory_order_relaxed);
    for (uint32_t i = 0; i < ring->cpu_count; i++) {
        /* release: publishes pool, capacity, policy, counters and the pool's
         * contents to any writer whose acquire load sees this generation. */
        atomic_store_explicit(&cpus[i].word, PETW__WORD(gen, PETW__BUF_NONE, 0),
                              memory_order_release);
    }
}

/* The ring's copies of where the pool's buffers and control words lie
 * (see petw__ring.data), before the generation's release. */
static void set_layout(petw__ring *ring, petw__pool *pool, uint64_t data_offset,
                       uint64_t ctrl_offset, uint32_t buffer_size)
{
    ring->data = (uint8_t *)pool + data_offset;
    ring->ctrl = (uint8_t *)pool + ctrl_offset;
    ring->buffer_size = buffer_size;
}

int petw__ring_start(petw__ring *ring, uint32_t buffer_size, uint32_t buffer_count,
                     uint32_t buffer_limit, uint16_t *gen_out)
{
    petw__pool_geometry g;
    int rc = petw__pool_plan(buffer_size, buffer_count, buffer_limit, 0, &g);
    if (rc)
        return rc;
    void *mem = petw__vm_reserve((size_t)g.reserve_bytes);
    if (!mem)
        return PETW_ENOMEM;
    if (petw__vm_commit(mem, (size_t)g.commit_bytes) != 0) {
        petw__vm_release(mem, (size_t)g.reserve_bytes);
        return PETW_ENOMEM;
    }
    petw__pool *pool = mem;
    /* Touch every page now: a first-touch page fault is a kernel entry, and
     * it must not happen inside EventWrite. */
    memset(pool, 0, (size_t)g.commit_bytes);
    petw__pool_format(pool, &g);

    uint16_t gen = next_gen(ring);
    atomic_store_explicit(&ring->capacity, buffer_size - PETW__BUFFER_HEADER_SIZE,
                          memory_order_relaxed);
    ring->counters = &ring->own_counters;
    atomic_store_explicit(&ring->own_counters.events_lost, 0, memory_order_relaxed);
    atomic_store_explicit(&ring->own_counters.lost_pending, 0, memory_order_relaxed);
    atomic_store_explicit(&ring->own_counters.events_overwritten, 0, memory_order_relaxed);
    atomic_store_explicit(&ring->own_counters.overwrite_horizon, INT64_MIN, memory_order_relaxed);
    atomic_store_explicit(&ring->pool, pool, memory_order_relaxed);
    set_layout(ring, pool, g.data, g.ctrl, g.buffer_size);
    /* release: a writer that loads the own words sees them (pairs with
     * petw__ring_reserve's acquire load of the pointer). */
    atomic_store_explicit(&ring->cpus, ring->own_cpus, memory_order_release);
    publish(ring, ring->own_cpus, gen);
    *gen_out = gen;
    return 0;
}

int petw__ring_attach_shared(petw__ring *ring, petw__pool *pool, uint16_t *gen_out)
{
    if (pool->cpu_count < ring->cpu_count)
        return PETW_EINVAL;
    uint16_t gen = next_gen(ring);
    petw__ring_cpu *cpus = (petw__ring_cpu *)((char *)pool + pool->cpu_offset);
    atomic_store_explicit(&ring->capacity, pool->buffer_size - PETW__BUFFER_HEADER_SIZE,
                          memory_order_relaxed);
    ring->counters = &pool->counters;
    atomic_store_explicit(&ring->pool, pool, memory_order_relaxed);
    set_layout(ring, pool, pool->data_offset, pool->ctrl_offset, pool->buffer_size);
    /* release: pairs with petw__ring_reserve's acquire load of the pointer;
     * the words behind it are published with release by publish(). */
    atomic_store_explicit(&ring->cpus, cpus, memory_order_release);
    publish(ring, cpus, gen);
    *gen_out = gen;
    return 0;
}

void petw__ring_detach_shared(petw__ring *ring)
{
    /* release: as in petw__ring_start; the own words carry an old
     * generation (or DEAD), so a writer that reads them leaves. */
    atomic_store_explicit(&ring->cpus, ring->own_cpus, memory_order_release);
    ring->counters = &ring->own_counters;
    atomic_store_explicit(&ring->pool, NULL, memory_order_relaxed);
}

int petw__ring_grow(petw__ring *ring, uint32_t count)
{
    petw__pool *pool = atomic_load_explicit(&ring->pool, memory_order_relaxed);
    uint32_t have = atomic_load_explicit(&pool->buffer_count, memory_order_relaxed);
    if (count <= have)
        return 0;
    if (count > pool->buffer_limit)
        return PETW_EINVAL;
    uint64_t page = petw__page_size();
    uint64_t from = (pool->data_offset + (uint64_t)pool->buffer_size * have) / page * page;
    uint64_t to = round_up(pool->data_offset + (uint64_t)pool->buffer_size * count, page);
    if (petw__vm_commit((char *)pool + from, (size_t)(to - from)) != 0)
        return PETW_ENOMEM;
    /* Prefault the new buffers (not the bytes of live ones sharing a page). */
    memset(petw__pool_buffer(pool, have), 0, (size_t)pool->buffer_size * (count - have));
    /* release (conservative): pairs with do_detach's acquire load, which runs
     * on this same flusher thread; petw__ring_free_buffer below publishes
     * the buffers. */
    atomic_store_explicit(&pool->buffer_count, count, memory_order_release);
    for (uint32_t i = count; i-- > have;)
        petw__ring_free_buffer(pool, i);
    return 0;
}

void petw__ring_release(petw__ring *ring)
{
    /* acquire: pairs with the deliverer's release decrement, so its last
     * pool accesses happen before the free. A deliverer cannot arrive after
     * this point: every buffer is back, so nothing is left to deliver. */
    while (atomic_load_explicit(&ring->delivering, memory_order_acquire) != 0)
        petw__yield();
    /* acquire (conservative): pairs with nothing, petw__ring_start stores the
     * pointer relaxed; this thread got the pool through the attach request
     * (or started it). Relaxed would do. */
    petw__pool *pool = atomic_load_explicit(&ring->pool, memory_order_acquire);
    atomic_store_explicit(&ring->pool, NULL, memory_order_relaxed);
    if (pool)
        petw__vm_release(pool, (size_t)pool->reserved_bytes);
}

/* Which ring slots are taken (by an in-process session or a shared one's
 * attachment). Control lock only. */
static uint8_t ring_claimed[PETW__MAX_RINGS];
static int rings_ready;

int petw__ring_claim(uint32_t cpu_count, uint32_t *slot)
{
    for (uint32_t i = 0; !rings_ready && i < PETW__MAX_RINGS; i++) {
        int rc = petw__ring_init(&petw__ring_table[i], cpu_count);
        if (rc)
            return rc;
    }
    rings_ready = 1;
    for (uint32_t i = 0; i < PETW__MAX_RINGS; i++) {
        if (!ring_claimed[i]) {
            ring_claimed[i] = 1;
            *slot = i;
            return 0;
        }
    }
    return PETW_ELIMIT;
}

void petw__ring_unclaim(uint32_t slot)
{
    if (slot < PETW__MAX_RINGS)
        ring_claimed[slot] = 0;
}
