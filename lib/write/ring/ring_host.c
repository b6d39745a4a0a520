/* SPDX-License-Identifier: MIT */
/* ring_host.c - a session host's side of a shared pool (see
 * docs/shared-memory.md). The pool is written by another process, which
 * may be buggy, malicious or dead: every index read from it is checked
 * against the host's own geometry, every walk is bounded, and nothing here
 * trusts the header. */
#include "ring.h"

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
