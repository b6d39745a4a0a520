/* SPDX-License-Identifier: MIT */
/* ring_reader.c - the flusher's side of a ring: it takes the ready
 * buffers, reads their sizes and record counts, and a session host adds
 * buffers made elsewhere (an import from a shared pool) as a writer would
 * deliver them. */
#include "ring.h"
#include "ring_internal.h"

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
    uint32_t b = petw__ring_free_pop(pool);
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
    petw__ring_deliver_sealed(ring, pool, b, sealed);
    return 0;
}
