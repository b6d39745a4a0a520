/* SPDX-License-Identifier: MIT */
/* ring_retained.c - a buffering ring's retained queue from its readers'
 * side: a writer short of buffers takes the oldest, a snapshot reads and
 * copies what the queue holds, and the overwrite horizon says which events
 * the taken buffers held. Writers append to it (ring.c's retain). */
#include "ring.h"

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
