/* SPDX-License-Identifier: MIT */
/* ring.c - the ring's slow paths: open/close buffers, free and ready stacks,
 * pool allocation. The memory-ordering argument is in docs/design.md; each
 * atomic below names what it orders. */
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

static void free_push(petw__pool *pool, uint32_t buffer)
{
    _Atomic uint32_t *link = petw__pool_link(pool);
    /* relaxed load: the CAS validates it. */
    uint64_t head = atomic_load_explicit(&pool->free_head, memory_order_relaxed);
    uint64_t next;
    do {
        atomic_store_explicit(&link[buffer], (uint32_t)head, memory_order_relaxed);
        next = (((head >> 32) + 1) << 32) | (buffer + 1u);
        /* release: the buffer's last use (the flusher's write, or a failed
         * open) happens before whoever pops it next. */
    } while (!atomic_compare_exchange_weak_explicit(&pool->free_head, &head, next,
                                                    memory_order_release, memory_order_relaxed));
    /* release: pairs with do_detach's acquire load of free_count, so a buffer
     * counted free had its last use before the pool is released. */
    atomic_fetch_add_explicit(&pool->free_count, 1, memory_order_release);
}

static uint32_t free_pop(petw__pool *pool)
{
    _Atomic uint32_t *link = petw__pool_link(pool);
    /* acquire: pairs with free_push's release. */
    uint64_t head = atomic_load_explicit(&pool->free_head, memory_order_acquire);
    for (;;) {
        uint32_t top = (uint32_t)head;
        if (top == 0)
            return PETW__BUF_NONE;
        /* The link may be stale if `top` was popped and pushed again since we
         * read head; then the tag changed and the CAS fails. */
        uint32_t next = atomic_load_explicit(&link[top - 1], memory_order_relaxed);
        uint64_t want = (((head >> 32) + 1) << 32) | next;
        /* acquire: pairs with free_push's release CAS (the buffer's last use
         * before our reuse); on failure too, as the reloaded head feeds the
         * next link read. */
        if (atomic_compare_exchange_weak_explicit(&pool->free_head, &head, want,
                                                  memory_order_acquire, memory_order_acquire)) {
            atomic_fetch_sub_explicit(&pool->free_count, 1, memory_order_relaxed);
            PETW__TSAN_ACQUIRE(&petw__pool_meta(pool)[top - 1]); /* see ring.h */
            return top - 1;
        }
    }
}

void petw__ring_free_buffer(petw__pool *pool, uint32_t buffer)
{
    free_push(pool, buffer);
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
        free_push(pool, i);
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
     * on this same flusher thread; free_push below publishes the buffers. */
    atomic_store_explicit(&pool->buffer_count, count, memory_order_release);
    for (uint32_t i = count; i-- > have;)
        free_push(pool, i);
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

/* Appends a completed buffer to the retained queue (any thread). The queue
 * holds at most buffer_limit buffers, so it is never full. */
static void retain(petw__pool *pool, uint32_t buffer)
{
    petw__retained_slot *q = petw__pool_retained(pool);
    uint64_t pos = atomic_load_explicit(&pool->retained_tail, memory_order_relaxed);
    petw__retained_slot *slot;
    for (;;) {
        slot = &q[pos % pool->buffer_limit];
        /* acquire: pairs with the release that freed this slot (a take). */
        uint64_t seq = atomic_load_explicit(&slot->sequence, memory_order_acquire);
        int64_t dif = (int64_t)(seq - pos);
        if (dif == 0 &&
            atomic_compare_exchange_weak_explicit(&pool->retained_tail, &pos, pos + 1,
                                                  memory_order_relaxed, memory_order_relaxed))
            break;
        if (dif != 0)
            pos = atomic_load_explicit(&pool->retained_tail, memory_order_relaxed);
    }
    atomic_store_explicit(&slot->buffer, buffer, memory_order_relaxed);
    /* release: the buffer's records (acquired by the delivering RMW) and
     * meta before anyone who sees the slot filled. */
    atomic_store_explicit(&slot->sequence, pos + 1, memory_order_release);
}

/* Raises the overwrite horizon to a retained buffer's completion time (a
 * monotonic max). relaxed: ordered for snapshots by the release operations
 * that follow it in petw__ring_take_oldest (head CAS, slot release,
 * generation bump), which the snapshot's reads acquire. */
static void raise_horizon(petw__ring *ring, petw__buffer_meta *m)
{
    petw__ring_raise_horizon(ring,
                             atomic_load_explicit(&m->sealed_timestamp, memory_order_relaxed));
}

uint32_t petw__ring_take_oldest(petw__ring *ring, petw__pool *pool)
{
    petw__retained_slot *q = petw__pool_retained(pool);
    uint64_t pos = atomic_load_explicit(&pool->retained_head, memory_order_relaxed);
    petw__retained_slot *slot;
    for (;;) {
        slot = &q[pos % pool->buffer_limit];
        /* acquire: pairs with retain's release of the filled slot. */
        uint64_t seq = atomic_load_explicit(&slot->sequence, memory_order_acquire);
        int64_t dif = (int64_t)(seq - (pos + 1));
        if (dif < 0) {
            /* Empty, unless a writer has claimed this position and is about
             * to publish it (two stores away): then wait for it, so nobody
             * counts a loss while a buffer is on its way. acquire
             * (conservative): retain's tail CAS is relaxed, no pair. */
            if (atomic_load_explicit(&pool->retained_tail, memory_order_acquire) <= pos)
                return PETW__BUF_NONE;
            petw__yield();
            continue;
        }
        if (dif == 0) {
            /* Raise the horizon to this buffer's seal before taking it, so a
             * snapshot that sees it gone (head past it, its slot reused, or
             * its generation bumped) also sees the horizon cover it. If
             * another thread takes it first, it raises the same value. */
            uint32_t cand = atomic_load_explicit(&slot->buffer, memory_order_relaxed);
            raise_horizon(ring, &petw__pool_meta(pool)[cand]);
            /* release on success: the horizon before the new head; pairs
             * with petw__ring_retained_at's acquire load of the head. */
            if (atomic_compare_exchange_weak_explicit(&pool->retained_head, &pos, pos + 1,
                                                      memory_order_release, memory_order_relaxed))
                break;
        } else {
            pos = atomic_load_explicit(&pool->retained_head, memory_order_relaxed);
        }
    }
    uint32_t b = atomic_load_explicit(&slot->buffer, memory_order_relaxed);
    raise_horizon(ring, &petw__pool_meta(pool)[b]); /* no-op unless the slot changed */
    /* release: frees the slot for position pos + limit; pairs with retain's
     * (and petw__ring_retained_at's) acquire load of the sequence. */
    atomic_store_explicit(&slot->sequence, pos + pool->buffer_limit, memory_order_release);
    petw__buffer_meta *m = &petw__pool_meta(pool)[b];
    /* release (+ fence): a snapshot that copied this buffer sees the bump
     * before any new record lands in it. release: pairs with
     * petw__ring_copy_retained's acquire load of g0. */
    atomic_fetch_add_explicit(&m->generation, 1, memory_order_release);
    /* release fence: the bump before the buffer's next records; pairs with
     * the acquire fence in petw__ring_copy_retained. */
    atomic_thread_fence(memory_order_release);
    atomic_fetch_add_explicit(&ring->counters->events_overwritten,
                              petw__ring_buffer_records(pool, b), memory_order_relaxed);
    return b;
}

uint32_t petw__ring_retained_at(petw__pool *pool, uint64_t pos)
{
    petw__retained_slot *slot = &petw__pool_retained(pool)[pos % pool->buffer_limit];
    for (;;) {
        /* acquire: pairs with retain's release of the filled slot (the buffer
         * index and the buffer's records), or take_oldest's freeing it. */
        uint64_t seq = atomic_load_explicit(&slot->sequence, memory_order_acquire);
        if (seq == pos + 1)
            return atomic_load_explicit(&slot->buffer, memory_order_relaxed);
        /* head: acquire, pairs with take_oldest's release head CAS: a buffer
         * seen taken has its completion time in the horizon. */
        if ((int64_t)(seq - (pos + 1)) > 0 ||
            atomic_load_explicit(&pool->retained_head, memory_order_acquire) > pos)
            return PETW__BUF_NONE; /* taken (recycled) already */
        petw__yield();             /* a writer is between claiming and publishing */
    }
}

/* A sequence-lock read of a buffer another thread may be reusing: the bytes
 * may be torn, and the generation check tells. It is deliberately not
 * instrumented by TSan (the race is the point, and is checked). */
#if defined(__clang__) || defined(__GNUC__)
__attribute__((no_sanitize("thread"), noinline))
#endif
static void
racy_copy(uint8_t *out, const volatile uint8_t *in, size_t n)
{
    for (size_t i = 0; i < n; i++)
        out[i] = in[i];
}

int petw__ring_copy_retained(petw__pool *pool, uint32_t buffer, uint8_t *out, uint32_t *used,
                             uint16_t *cpu)
{
    petw__buffer_meta *m = &petw__pool_meta(pool)[buffer];
    /* acquire: keeps the reads below after g0 (sequence-lock begin); pairs
     * with the release bump of the generation in petw__ring_take_oldest. */
    uint32_t g0 = atomic_load_explicit(&m->generation, memory_order_acquire);
    *used = petw__ring_buffer_used(pool, buffer);
    *cpu = atomic_load_explicit(&m->cpu, memory_order_relaxed);
    if (*used < PETW__BUFFER_HEADER_SIZE || *used > pool->buffer_size)
        return -1;
    racy_copy(out, petw__pool_buffer(pool, buffer), *used);
    /* acquire fence: the copy's reads before the generation reload; pairs
     * with petw__ring_take_oldest's release fence after the bump (a copy that
     * read a byte of the buffer's next use sees the new generation). */
    atomic_thread_fence(memory_order_acquire);
    /* acquire: a copy seen torn (generation bumped) also sees the horizon
     * take_oldest raised before the bump (release). */
    return atomic_load_explicit(&m->generation, memory_order_acquire) == g0 ? 0 : -1;
}

static void deliver_sealed(petw__ring *ring, petw__pool *pool, uint32_t buffer, int64_t sealed);

void petw__ring_deliver(petw__ring *ring, petw__pool *pool, uint32_t buffer)
{
    deliver_sealed(ring, pool, buffer, 0);
}

/* Delivers a buffer whose last record is no later than `sealed` (0: now;
 * only a buffering ring keeps the time, for its overwrite horizon). */
static void deliver_sealed(petw__ring *ring, petw__pool *pool, uint32_t buffer, int64_t sealed)
{
    /* relaxed: ordered before the push below, whose consumer (the flusher,
     * then the stop) acquires it; see petw__ring_release. */
    atomic_fetch_add_explicit(&ring->delivering, 1, memory_order_relaxed);
    petw__buffer_meta *meta = &petw__pool_meta(pool)[buffer];
    PETW__TSAN_RELEASE(meta); /* the buffer's records, to its next writer: see ring.h */
    int buffering = ring->policy == PETW_LOSS_OVERWRITE_OLDEST;
    if (buffering) {
        /* Keep it right here, so a writer can always recycle the oldest
         * without waiting for the flusher. */
        atomic_store_explicit(&meta->sealed_timestamp, sealed ? sealed : petw__ring_clock(ring),
                              memory_order_relaxed);
        retain(pool, buffer);
    } else {
        _Atomic uint32_t *link = petw__pool_link(pool);
        uint32_t head = atomic_load_explicit(&pool->ready_head, memory_order_relaxed);
        do {
            atomic_store_explicit(&link[buffer], head, memory_order_relaxed);
            /* release: the buffer's records (made visible to us by the
             * acq_rel commit/close RMW) happen before the flusher's acquire
             * exchange. */
        } while (!atomic_compare_exchange_weak_explicit(
            &pool->ready_head, &head, buffer + 1u, memory_order_release, memory_order_relaxed));
    }
    /* release: whoever waits for this count (a flush or snapshot) finds the
     * buffer on the ready stack or in the retained queue. */
    atomic_fetch_add_explicit(&meta->deliveries, 1, memory_order_release);
    /* The wake-up function is read before we leave: after the decrement
     * below, the session may stop and its slot restart with new fields. An
     * in-process buffering ring has none (nobody takes its buffers); a
     * shared one wakes the session host, which takes them. */
    petw__ring_ready_fn on_ready = ring->on_ready;
    /* release: our pool accesses happen before the pool is freed. */
    atomic_fetch_sub_explicit(&ring->delivering, 1, memory_order_release);
    if (on_ready)
        on_ready(ring); /* uses no field of the ring (petw__flusher_wake) */
}

/* Sets `final` of a buffer that its CPU word no longer names; delivers it
 * when every writer already committed. */
static void close_buffer(petw__ring *ring, petw__pool *pool, uint32_t buffer, uint32_t final)
{
    /* acq_rel: acquire the records of writers that committed before us (we
     * may deliver); release is not needed by anyone but keeps the RMW simple.
     * seq_cst is not needed: the committed/final decision is made by whichever
     * RMW comes last in this word's modification order. */
    uint64_t old = atomic_fetch_add_explicit(petw__pool_ctrl(pool, buffer), PETW__CTRL_CLOSE(final),
                                             memory_order_acq_rel);
    if (PETW__CTRL_COMMITTED(old) == final)
        petw__ring_deliver(ring, pool, buffer);
}

/* The blocking policy (petw's extension): wake the flusher and poll the
 * free stack until a buffer comes back, the timeout passes, or the session
 * stops. The only place where EventWrite may sleep, by the user's choice. */
static uint32_t wait_for_free(petw__ring *ring, petw__ring_cpu *c, uint16_t gen, petw__pool *pool)
{
    int64_t deadline = petw__clock_reference() + (int64_t)ring->block_timeout_us * 1000;
    uint32_t spins = 0;
    for (;;) {
        ring->on_ready(ring);
        if (spins++ < 16)
            petw__yield();
        else
            petw__sleep_us(50);
        uint32_t b = free_pop(pool);
        if (b != PETW__BUF_NONE)
            return b;
        /* acquire (conservative): pairs with petw__ring_close_cpu's DEAD CAS
         * (kill) or petw__ring_start's store; only gen and DEAD are used. */
        uint64_t w = atomic_load_explicit(&c->word, memory_order_acquire);
        if (PETW__WORD_GEN(w) != gen || PETW__WORD_BUF(w) == PETW__BUF_DEAD ||
            petw__clock_reference() >= deadline)
            return PETW__BUF_NONE;
    }
}

/* Buffering, no free buffer: the oldest retained one. In a shared pool
 * the session host takes retained buffers too and gives them back free, so
 * both can be empty for an instant while a buffer moves from one to the
 * other (the host holds one at a time: see host.c's harvest_retained);
 * every round that finds neither saw the host move one, so a bounded
 * number of rounds finds one unless every buffer is being written. */
static uint32_t recycle(petw__ring *ring, petw__pool *pool)
{
    uint32_t count = atomic_load_explicit(&pool->buffer_count, memory_order_relaxed);
    for (uint32_t round = 0; round <= count; round++) {
        uint32_t b = petw__ring_take_oldest(ring, pool);
        if (b == PETW__BUF_NONE)
            b = free_pop(pool);
        if (b != PETW__BUF_NONE)
            return b;
    }
    return PETW__BUF_NONE;
}

static void fill_reservation(petw__reservation *res, petw__pool *pool, uint32_t buffer,
                             uint32_t offset, uint32_t size)
{
    res->pool = pool;
    res->buffer = buffer;
    res->size = size;
    res->record = petw__pool_buffer(pool, buffer) + offset;
    res->ctrl = petw__pool_ctrl(pool, buffer);
}

/* The slow path's new buffer for CPU cpu, as the ring's loss policy finds
 * one, initialized but not yet published (the caller's release CAS does),
 * or PETW__BUF_NONE with the event counted as lost. */
static uint32_t take_fresh(petw__ring *ring, petw__ring_cpu *c, uint16_t gen, uint32_t cpu,
                           petw__pool *pool)
{
    uint32_t fresh = free_pop(pool);
    if (fresh == PETW__BUF_NONE && ring->policy == PETW_LOSS_OVERWRITE_OLDEST)
        fresh = recycle(ring, pool);
    if (fresh == PETW__BUF_NONE && ring->policy == PETW_LOSS_BLOCK)
        fresh = wait_for_free(ring, c, gen, pool);
    if (fresh == PETW__BUF_NONE) {
        /* relaxed: a counter read by the controller after the session is
         * quiescent (stop) or as an approximate live value (query). */
        atomic_fetch_add_explicit(&ring->counters->events_lost, 1, memory_order_relaxed);
        atomic_store_explicit(&ring->counters->lost_pending, 1, memory_order_relaxed);
        return PETW__BUF_NONE;
    }
    /* Not yet visible to anyone: plain initialization, published by the
     * caller's release CAS. */
    atomic_store_explicit(petw__pool_ctrl(pool, fresh), PETW__BUFFER_HEADER_SIZE,
                          memory_order_relaxed);
    petw__buffer_meta *meta = &petw__pool_meta(pool)[fresh];
    atomic_store_explicit(&meta->cpu, (uint16_t)cpu, memory_order_relaxed);
    atomic_store_explicit(&meta->flags, 0, memory_order_relaxed);
    /* relaxed: published with the buffer by the caller's release CAS. */
    atomic_fetch_add_explicit(&meta->uses, 1, memory_order_relaxed);
    return fresh;
}

/* One CAS loop over the CPU word's states (gone, plain reserve, full,
 * none): each transition sits next to the atomic that makes it; taking a
 * new buffer (take_fresh) changes no state and is done apart. */
int petw__ring_reserve_slow(petw__ring *ring, uint16_t gen, uint32_t cpu, uint32_t size,
                            petw__reservation *res)
{
    /* acquire: pairs with petw__ring_attach_shared's release store. */
    petw__ring_cpu *c = &atomic_load_explicit(&ring->cpus, memory_order_acquire)[cpu];
    int rc;
    /* seq_cst pair with petw__ring_kill: either kill sees our ref and waits
     * for us, or we see the DEAD word it stored and leave. */
    atomic_fetch_add_explicit(&ring->slow_refs, 1, memory_order_seq_cst);
    uint64_t w = atomic_load_explicit(&c->word, memory_order_seq_cst);
    for (;;) {
        uint32_t buf = PETW__WORD_BUF(w), off = PETW__WORD_OFF(w);
        if (PETW__WORD_GEN(w) != gen || buf == PETW__BUF_DEAD) {
            rc = PETW__RING_GONE;
            break;
        }
        petw__pool *pool = atomic_load_explicit(&ring->pool, memory_order_relaxed);
        if (size > pool->buffer_size - PETW__BUFFER_HEADER_SIZE) {
            rc = PETW_EMOREDATA;
            break;
        }
        if (buf != PETW__BUF_NONE) {
            if (off + size <= pool->buffer_size) {
                /* Someone else switched buffers meanwhile: plain reserve.
                 * acquire: as petw__ring_reserve's CAS, pairs with the release
                 * CAS below that published the buffer. */
                if (atomic_compare_exchange_weak_explicit(
                        &c->word, &w, w + size, memory_order_acquire, memory_order_acquire)) {
                    fill_reservation(res, pool, buf, off, size);
                    rc = 0;
                    break;
                }
                continue;
            }
            /* Full: detach it from the CPU, then close it. */
            uint64_t none = PETW__WORD(gen, PETW__BUF_NONE, 0);
            /* acq_rel: we read nothing through it, but the CAS must not be
             * reordered with close_buffer's RMW below. */
            if (!atomic_compare_exchange_strong_explicit(&c->word, &w, none, memory_order_acq_rel,
                                                         memory_order_acquire))
                continue;
            close_buffer(ring, pool, buf, off);
            w = none;
        }
        uint32_t fresh = take_fresh(ring, c, gen, cpu, pool);
        if (fresh == PETW__BUF_NONE) {
            rc = PETW_ENOBUFS;
            break;
        }
        petw__buffer_meta *meta = &petw__pool_meta(pool)[fresh];
        uint64_t mine = PETW__WORD(gen, fresh, PETW__BUFFER_HEADER_SIZE + size);
        /* release: publishes the control word and meta init to writers that
         * acquire this word. */
        if (!atomic_compare_exchange_strong_explicit(&c->word, &w, mine, memory_order_acq_rel,
                                                     memory_order_acquire)) {
            /* Nobody saw this use: take it back. */
            atomic_fetch_sub_explicit(&meta->uses, 1, memory_order_relaxed);
            free_push(pool, fresh);
            continue;
        }
        fill_reservation(res, pool, fresh, PETW__BUFFER_HEADER_SIZE, size);
        rc = 0;
        break;
    }
    /* release: our last pool accesses (pop, init) happen before kill's
     * acquire read of 0. A reservation we return keeps the pool alive on its
     * own (see petw__ring_commit). */
    atomic_fetch_sub_explicit(&ring->slow_refs, 1, memory_order_release);
    return rc;
}

void petw__ring_close_cpu(petw__ring *ring, uint32_t cpu, int kill)
{
    /* acquire: pairs with petw__ring_attach_shared's release store. */
    petw__ring_cpu *c = &atomic_load_explicit(&ring->cpus, memory_order_acquire)[cpu];
    uint16_t gen = atomic_load_explicit(&ring->gen, memory_order_relaxed);
    /* acquire (conservative): pairs with petw__ring_reserve_slow's release
     * CAS (or petw__ring_start's store); the CAS below acquires on success. */
    uint64_t w = atomic_load_explicit(&c->word, memory_order_acquire);
    for (;;) {
        uint32_t buf = PETW__WORD_BUF(w), off = PETW__WORD_OFF(w);
        if (PETW__WORD_GEN(w) != gen || buf == PETW__BUF_DEAD)
            return;
        if (!kill && (buf == PETW__BUF_NONE || off == PETW__BUFFER_HEADER_SIZE))
            return; /* nothing to flush */
        uint64_t next = PETW__WORD(gen, kill ? PETW__BUF_DEAD : PETW__BUF_NONE, 0);
        /* seq_cst: with kill, this store is the one the slow path's seq_cst
         * load must see or be seen by (petw__ring_reserve_slow). */
        if (atomic_compare_exchange_strong_explicit(&c->word, &w, next, memory_order_seq_cst,
                                                    memory_order_acquire)) {
            if (buf != PETW__BUF_NONE)
                close_buffer(ring, atomic_load_explicit(&ring->pool, memory_order_relaxed), buf,
                             off);
            return;
        }
    }
}

void petw__ring_kill(petw__ring *ring)
{
    for (uint32_t i = 0; i < ring->cpu_count; i++)
        petw__ring_close_cpu(ring, i, 1);
    /* seq_cst: see petw__ring_reserve_slow. Writers in the slow path finish
     * in a bounded number of steps (they never wait), so this spin is short. */
    while (atomic_load_explicit(&ring->slow_refs, memory_order_seq_cst) != 0)
        petw__yield();
}

uint32_t petw__ring_take_ready(petw__ring *ring, uint32_t *out)
{
    petw__pool *pool = atomic_load_explicit(&ring->pool, memory_order_relaxed);
    if (!pool)
        return 0;
    /* acquire: pairs with petw__ring_deliver's release push. */
    uint32_t top = atomic_exchange_explicit(&pool->ready_head, 0, memory_order_acquire);
    uint32_t n = 0;
    _Atomic uint32_t *link = petw__pool_link(pool);
    while (top != 0 && n < pool->buffer_limit) {
        out[n++] = top - 1;
        top = atomic_load_explicit(&link[top - 1], memory_order_relaxed);
    }
    /* The stack gives newest first. */
    for (uint32_t i = 0; i < n / 2; i++) {
        uint32_t t = out[i];
        out[i] = out[n - 1 - i];
        out[n - 1 - i] = t;
    }
    return n;
}

uint32_t petw__ring_buffer_used(petw__pool *pool, uint32_t buffer)
{
    /* acquire: already ordered by take_ready; relaxed would do. */
    return PETW__CTRL_FINAL(
        atomic_load_explicit(petw__pool_ctrl(pool, buffer), memory_order_acquire));
}

uint32_t petw__ring_buffer_records(petw__pool *pool, uint32_t buffer)
{
    /* acquire: as petw__ring_buffer_used. */
    return PETW__CTRL_RECORDS(
        atomic_load_explicit(petw__pool_ctrl(pool, buffer), memory_order_acquire));
}

int petw__ring_import(petw__ring *ring, const uint8_t *data, uint32_t used, uint16_t cpu,
                      int64_t sealed)
{
    petw__pool *pool = atomic_load_explicit(&ring->pool, memory_order_relaxed);
    if (!pool || used < PETW__BUFFER_HEADER_SIZE || used > pool->buffer_size)
        return PETW_EINVAL;
    uint32_t b = free_pop(pool);
    if (b == PETW__BUF_NONE && ring->policy == PETW_LOSS_OVERWRITE_OLDEST)
        b = petw__ring_take_oldest(ring, pool);
    if (b == PETW__BUF_NONE)
        return PETW_ENOBUFS;
    memcpy(petw__pool_buffer(pool, b) + PETW__BUFFER_HEADER_SIZE, data + PETW__BUFFER_HEADER_SIZE,
           used - PETW__BUFFER_HEADER_SIZE);
    petw__buffer_meta *meta = &petw__pool_meta(pool)[b];
    atomic_store_explicit(&meta->cpu, cpu, memory_order_relaxed);
    atomic_store_explicit(&meta->flags, 0, memory_order_relaxed);
    /* relaxed: a flush waiting for this use reads it after the delivery's
     * release increment (petw__ring_deliver). */
    atomic_fetch_add_explicit(&meta->uses, 1, memory_order_relaxed);
    /* relaxed: published by petw__ring_deliver's release push. */
    /* The records counted in our copy (not in the source, which another
     * process may still be changing). */
    uint64_t records = ring->count_records(petw__pool_buffer(pool, b), used);
    atomic_store_explicit(petw__pool_ctrl(pool, b), PETW__CTRL_CLOSE(used) | (records << 22) | used,
                          memory_order_relaxed);
    deliver_sealed(ring, pool, b, sealed);
    return 0;
}

/* ---- a session host's side of a shared pool ----
 * The pool is written by another process, which may be buggy, malicious or
 * dead: every index read from it is checked against the host's own
 * geometry, every walk is bounded, and nothing here trusts the header. */

static _Atomic uint32_t *g_link(petw__pool *p, const petw__pool_geometry *g)
{
    return (_Atomic uint32_t *)((char *)p + g->link);
}

static _Atomic uint64_t *g_ctrl(petw__pool *p, const petw__pool_geometry *g, uint32_t b)
{
    return (_Atomic uint64_t *)((char *)p + g->ctrl + (uint64_t)b * PETW__CTRL_STRIDE);
}

static _Atomic uint64_t *g_word(petw__pool *p, const petw__pool_geometry *g, uint32_t cpu)
{
    return &((petw__ring_cpu *)((char *)p + g->cpu))[cpu].word;
}

uint8_t *petw__pool_host_buffer(petw__pool *p, const petw__pool_geometry *g, uint32_t b)
{
    return (uint8_t *)p + g->data + (uint64_t)b * g->buffer_size;
}

uint32_t petw__pool_host_take_ready(petw__pool *p, const petw__pool_geometry *g, uint32_t *out)
{
    /* acquire: pairs with petw__ring_deliver's release push (the writer's
     * records before the index). */
    uint32_t top = atomic_exchange_explicit(&p->ready_head, 0, memory_order_acquire);
    uint32_t n = 0;
    while (top != 0 && top <= g->buffer_count && n < g->buffer_count) {
        out[n++] = top - 1;
        top = atomic_load_explicit(&g_link(p, g)[top - 1], memory_order_relaxed);
    }
    for (uint32_t i = 0; i < n / 2; i++) {
        uint32_t t = out[i];
        out[i] = out[n - 1 - i];
        out[n - 1 - i] = t;
    }
    return n;
}

uint32_t petw__pool_host_take_retained(petw__pool *p, const petw__pool_geometry *g, uint32_t *out,
                                       uint32_t max)
{
    petw__retained_slot *q = (petw__retained_slot *)((char *)p + g->retained);
    uint32_t n = 0;
    if (max > g->buffer_count)
        max = g->buffer_count;
    /* Bounded: a hostile pool's head and sequences may say anything. */
    for (uint32_t tries = 0; n < max && tries < 4 * g->buffer_count + 64; tries++) {
        /* acquire: pairs with petw__ring_take_oldest's release head CAS: a
         * buffer a writer recycled before we saw the head past it has its
         * completion time in the pool's horizon, which the host folds into
         * its session after taking (fold_counters). */
        uint64_t pos = atomic_load_explicit(&p->retained_head, memory_order_acquire);
        petw__retained_slot *slot = &q[pos % g->buffer_limit];
        /* acquire: pairs with retain's release of the filled slot (the
         * writer's records and the buffer index before it). */
        uint64_t seq = atomic_load_explicit(&slot->sequence, memory_order_acquire);
        if ((int64_t)(seq - (pos + 1)) < 0)
            break; /* empty, or a writer is publishing it: its wake-up follows */
        if (seq != pos + 1)
            continue; /* the head moved meanwhile */
        /* acquire on failure, as the head load above (and so on success:
         * C11 wants it no weaker); the slot's acquire above ordered the
         * contents. A writer recycling the oldest races on this CAS, and one
         * of us wins. */
        if (!atomic_compare_exchange_strong_explicit(&p->retained_head, &pos, pos + 1,
                                                     memory_order_acquire, memory_order_acquire))
            continue;
        uint32_t b = atomic_load_explicit(&slot->buffer, memory_order_relaxed);
        /* release: frees the slot for position pos + limit; pairs with
         * retain's acquire load of the sequence (our read of `buffer`
         * happens before a writer refills it). */
        atomic_store_explicit(&slot->sequence, pos + g->buffer_limit, memory_order_release);
        if (b < g->buffer_count)
            out[n++] = b;
    }
    return n;
}

uint32_t petw__pool_host_used(petw__pool *p, const petw__pool_geometry *g, uint32_t b,
                              uint32_t *committed)
{
    /* acquire: the records of every committer before the count we read. */
    uint64_t c = atomic_load_explicit(g_ctrl(p, g, b), memory_order_acquire);
    if (committed)
        *committed = PETW__CTRL_COMMITTED(c);
    return PETW__CTRL_FINAL(c);
}

void petw__pool_host_free(petw__pool *p, const petw__pool_geometry *g, uint32_t b)
{
    /* Zeroed, so a record that a writer killed mid-way leaves shows it is
     * incomplete (see petw__pool_host_walk). */
    memset(petw__pool_host_buffer(p, g, b), 0, g->buffer_size);
    _Atomic uint32_t *link = g_link(p, g);
    uint64_t head = atomic_load_explicit(&p->free_head, memory_order_relaxed);
    uint64_t next;
    do {
        atomic_store_explicit(&link[b], (uint32_t)head, memory_order_relaxed);
        next = (((head >> 32) + 1) << 32) | (b + 1u);
        /* release: our zeroing happens before the writer that pops it. */
    } while (!atomic_compare_exchange_weak_explicit(&p->free_head, &head, next,
                                                    memory_order_release, memory_order_relaxed));
    /* relaxed: a statistic of the writer's side. */
    atomic_fetch_add_explicit(&p->free_count, 1, memory_order_relaxed);
}

uint32_t petw__pool_host_close_cpu(petw__pool *p, const petw__pool_geometry *g, uint32_t cpu,
                                   uint32_t *closed)
{
    _Atomic uint64_t *word = g_word(p, g, cpu);
    *closed = PETW__BUF_NONE;
    /* acquire: pairs with the writer's release CAS that opened the buffer. */
    uint64_t w = atomic_load_explicit(word, memory_order_acquire);
    for (;;) {
        uint32_t buf = PETW__WORD_BUF(w), off = PETW__WORD_OFF(w);
        if (buf >= g->buffer_count || off <= PETW__BUFFER_HEADER_SIZE || off > g->buffer_size)
            return PETW__BUF_NONE;
        uint64_t next = PETW__WORD(PETW__WORD_GEN(w), PETW__BUF_NONE, 0);
        /* acq_rel: as petw__ring_close_cpu; ordered before the RMW below. */
        if (atomic_compare_exchange_strong_explicit(word, &w, next, memory_order_acq_rel,
                                                    memory_order_acquire)) {
            /* acq_rel: acquire the committers' records if we come last. */
            uint64_t old = atomic_fetch_add_explicit(g_ctrl(p, g, buf), PETW__CTRL_CLOSE(off),
                                                     memory_order_acq_rel);
            *closed = buf;
            if (PETW__CTRL_COMMITTED(old) != off)
                return PETW__BUF_NONE;
            petw__buffer_meta *m = (petw__buffer_meta *)((char *)p + g->meta);
            /* We deliver it: count the delivery as a writer would, so the
             * writers' process, waiting for its buffers before it detaches
             * (agent.c's wait_delivered), does not wait for this one.
             * release: pairs with that wait's acquire load. */
            atomic_fetch_add_explicit(&m[buf].deliveries, 1, memory_order_release);
            return buf;
        }
    }
}

uint32_t petw__pool_host_cpu_buffer(petw__pool *p, const petw__pool_geometry *g, uint32_t cpu,
                                    uint32_t *offset)
{
    /* acquire (conservative): the writer is gone when this is used. */
    uint64_t w = atomic_load_explicit(g_word(p, g, cpu), memory_order_acquire);
    *offset = PETW__WORD_OFF(w);
    return PETW__WORD_BUF(w) < g->buffer_count ? PETW__WORD_BUF(w) : PETW__BUF_NONE;
}

void petw__pool_host_mark_free(petw__pool *p, const petw__pool_geometry *g, uint8_t *is_free)
{
    /* acquire (conservative): the writer is gone when this is used. */
    uint32_t top = (uint32_t)atomic_load_explicit(&p->free_head, memory_order_acquire);
    for (uint32_t n = 0; top != 0 && top <= g->buffer_count && n < g->buffer_count; n++) {
        if (is_free[top - 1])
            break; /* a cycle: a corrupt stack */
        is_free[top - 1] = 1;
        top = atomic_load_explicit(&g_link(p, g)[top - 1], memory_order_relaxed);
    }
}

int64_t petw__pool_host_sealed(petw__pool *p, const petw__pool_geometry *g, uint32_t b)
{
    petw__buffer_meta *m = (petw__buffer_meta *)((char *)p + g->meta);
    return atomic_load_explicit(&m[b].sealed_timestamp, memory_order_relaxed);
}

uint16_t petw__pool_host_cpu_of(petw__pool *p, const petw__pool_geometry *g, uint32_t b)
{
    const petw__buffer_meta *m = (const petw__buffer_meta *)((char *)p + g->meta);
    return atomic_load_explicit(&((petw__buffer_meta *)m)[b].cpu, memory_order_relaxed);
}

void petw__pool_host_uses(petw__pool *p, const petw__pool_geometry *g, uint32_t b, uint32_t *uses,
                          uint32_t *deliveries)
{
    petw__buffer_meta *m = (petw__buffer_meta *)((char *)p + g->meta);
    /* acquire: pairs with petw__ring_deliver's release increment (and the
     * host's own in petw__pool_host_close_cpu): a delivery counted here is
     * in the retained queue or on the ready stack. */
    *deliveries = atomic_load_explicit(&m[b].deliveries, memory_order_acquire);
    /* relaxed: only compared with later delivery counts. */
    *uses = atomic_load_explicit(&m[b].uses, memory_order_relaxed);
}

uint32_t petw__pool_host_lost(petw__pool *p)
{
    return atomic_load_explicit(&p->counters.events_lost, memory_order_relaxed);
}

uint64_t petw__pool_host_overwritten(petw__pool *p)
{
    return atomic_load_explicit(&p->counters.events_overwritten, memory_order_relaxed);
}

int64_t petw__pool_host_horizon(petw__pool *p)
{
    return atomic_load_explicit(&p->counters.overwrite_horizon, memory_order_relaxed);
}

void petw__ring_raise_horizon(petw__ring *ring, int64_t to)
{
    _Atomic int64_t *horizon = &ring->counters->overwrite_horizon;
    int64_t h = atomic_load_explicit(horizon, memory_order_relaxed);
    /* relaxed: a monotonic max. Writers recycling a buffer order it for
     * snapshots by the releases that follow (raise_horizon); a session host
     * folds its providers' horizons in on the thread that asks for the
     * snapshot, before it asks. */
    while (to > h && !atomic_compare_exchange_weak_explicit(horizon, &h, to, memory_order_relaxed,
                                                            memory_order_relaxed)) {
    }
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
