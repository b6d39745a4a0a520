/* SPDX-License-Identifier: MIT */
/* ring.c - the writer's slow path: open a buffer on a CPU (closing a full
 * one, or taking one as the loss policy says), deliver completed buffers to
 * the ready stack or the retained queue, close and kill CPUs; the free stack
 * they pop and push. The pool's lifetime is ring_pool.c's, the retained
 * queue's readers ring_retained.c's, the flusher's side ring_reader.c's, a
 * session host's ring_host.c's. The memory-ordering argument is in
 * docs/design.md; each atomic below names what it orders. */
#include "ring.h"
#include "ring_internal.h"

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

uint32_t petw__ring_free_pop(petw__pool *pool)
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

void petw__ring_deliver(petw__ring *ring, petw__pool *pool, uint32_t buffer)
{
    petw__ring_deliver_sealed(ring, pool, buffer, 0);
}

/* Delivers a buffer whose last record is no later than `sealed` (0: now;
 * only a buffering ring keeps the time, for its overwrite horizon). */
void petw__ring_deliver_sealed(petw__ring *ring, petw__pool *pool, uint32_t buffer, int64_t sealed)
{
    /* relaxed: ordered before the push below, whose consumer (the flusher,
     * then the stop) acquires it; see petw__ring_release. */
    atomic_fetch_add_explicit(&ring->delivering, 1, memory_order_relaxed);
    petw__buffer_meta *meta = &petw__pool_meta(pool)[buffer];
    PETW__TSAN_RELEASE(meta); /* the buffer's records, to its next writer: see ring.h */
    int buffering = ring->policy == PETW_LOSS_OVERWRITE_OLDEST;
    int wake = 1;
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
        /* A stack we found holding buffers needs no wake-up (a system call
         * when the flusher sleeps): whoever pushed its bottom one found it
         * empty and wakes the flusher (or host) after that push, and the
         * exchange that takes that buffer takes the whole stack, ours with
         * it, as our CAS put ours above it before any exchange took it. So a
         * writer faster than the flusher wakes it once per batch, not once
         * per buffer. */
        wake = head == 0;
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
    if (on_ready && wake)
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
        uint32_t b = petw__ring_free_pop(pool);
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
            b = petw__ring_free_pop(pool);
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
    uint32_t fresh = petw__ring_free_pop(pool);
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
