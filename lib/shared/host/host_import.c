/* SPDX-License-Identifier: MIT */
/* host_import.c - a session host's import of its providers' buffers: taken
 * off each pool's ready stack, checked against the pool's geometry, copied
 * into the session's ring (petw__ring_import) and given back zeroed; a
 * dead writer's buffers salvaged; flushes that wait to see what the
 * providers had written delivered.
 *
 * Allowed dependencies: common/, platform/, ring/, format/, provider/,
 * session/, consume/, registry/, agent/.
 */
#include <stdio.h>
#include <stdlib.h>

#include "../../base/format/etl.h"
#include "../../write/session/session_internal.h"
#include "host_state.h"

/* ---- importing a provider's buffers ---- */

/* Folds the pool's counters into the session's: lost events, and for a
 * buffering session the events its writers overwrote and the horizon
 * below which they may be gone (so a snapshot keeps one contiguous run
 * across every process). The counts are untrusted: used as counts. */
static void fold_counters(host *h, remote *r)
{
    uint32_t now = petw__pool_host_lost(r->shm.addr);
    uint32_t delta = now - r->lost_seen;
    r->lost_seen = now;
    if (delta && delta < (1u << 31))
        petw__session_add_lost(h->session, delta);
    if (h->policy != PETW_LOSS_OVERWRITE_OLDEST)
        return;
    uint64_t ow = petw__pool_host_overwritten(r->shm.addr);
    uint64_t more = ow - r->overwritten_seen;
    r->overwritten_seen = ow;
    if (more && more < (1ull << 62))
        /* relaxed: a counter, read as the writers' own (query, stop). */
        atomic_fetch_add_explicit(&h->ring->own_counters.events_overwritten, more,
                                  memory_order_relaxed);
    petw__ring_raise_horizon(h->ring, petw__pool_host_horizon(r->shm.addr));
}

/* Imports buffer b (`used` bytes) and gives it back. 0, or PETW_ENOBUFS
 * when the session has no free buffer now (b stays with the caller). */
static int import_one(host *h, remote *r, uint32_t b, uint32_t used, int64_t sealed)
{
    if (used > PETW__BUFFER_HEADER_SIZE && used <= r->g.buffer_size) {
        uint8_t *buf = petw__pool_host_buffer(r->shm.addr, &r->g, b);
        uint16_t cpu = petw__pool_host_cpu_of(r->shm.addr, &r->g, b);
        int rc = petw__ring_import(h->ring, buf, used, cpu, sealed);
        if (rc == PETW_ENOBUFS)
            return rc;
    }
    petw__pool_host_free(r->shm.addr, &r->g, b);
    return 0;
}

/* Keeps buffer b for a later import; a buffer already kept (named twice by
 * a hostile pool) is not kept twice. */
static void keep_pending(remote *r, uint32_t b)
{
    if (!r->is_pending[b] && r->npending < r->g.buffer_count) {
        r->is_pending[b] = 1;
        r->pending[r->npending++] = b;
    }
}

/* A buffering pool keeps completed buffers in its retained queue, so its
 * writers can recycle the oldest the host has not taken yet. The host
 * takes one at a time and gives it back before the next: with a buffer
 * per CPU being written and one here, a pool of cpus + 2 buffers or more
 * (pool_buffers gives 2 x cpus + 2) always has one a writer can recycle,
 * so a writer never loses an event for lack of space. A buffering
 * session's ring recycles its own oldest, so the import always succeeds. */
static void harvest_retained(host *h, remote *r)
{
    uint32_t b;
    for (uint32_t i = 0; i < r->g.buffer_count; i++) {
        if (petw__pool_host_take_retained(r->shm.addr, &r->g, &b, 1) == 0)
            break;
        uint32_t used = petw__pool_host_used(r->shm.addr, &r->g, b, NULL);
        if (import_one(h, r, b, used, petw__pool_host_sealed(r->shm.addr, &r->g, b)) == 0)
            continue;
        /* Not expected (see above), but never silent. */
        if (used <= r->g.buffer_size)
            petw__session_add_lost(
                h->session,
                petw__etl_count_records(petw__pool_host_buffer(r->shm.addr, &r->g, b), used));
        petw__pool_host_free(r->shm.addr, &r->g, b);
    }
    fold_counters(h, r);
}

/* Imports what is ready; what does not fit waits in r->pending. */
void petw__host_harvest(host *h, remote *r)
{
    uint32_t kept = 0;
    for (uint32_t i = 0; i < r->npending; i++) {
        uint32_t b = r->pending[i];
        if (kept || import_one(h, r, b, petw__pool_host_used(r->shm.addr, &r->g, b, NULL), 0))
            r->pending[kept++] = b;
        else
            r->is_pending[b] = 0;
    }
    r->npending = kept;
    if (h->policy == PETW_LOSS_OVERWRITE_OLDEST) {
        harvest_retained(h, r);
        return;
    }
    uint32_t *ready = h->scratch ? (uint32_t *)(void *)h->scratch : NULL;
    uint32_t n = petw__pool_host_take_ready(r->shm.addr, &r->g, ready);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t b = ready[i];
        if (r->is_pending[b])
            continue; /* named twice: a hostile pool */
        if (r->npending ||
            import_one(h, r, b, petw__pool_host_used(r->shm.addr, &r->g, b, NULL), 0))
            keep_pending(r, b);
    }
    fold_counters(h, r);
}

/* Closes every CPU's buffer of the pool (the flush timer, a flush);
 * imports those the host itself completed. */
void petw__host_close_remote(host *h, remote *r)
{
    for (uint32_t c = 0; c < r->g.cpu_count; c++) {
        uint32_t closed;
        uint32_t mine = petw__pool_host_close_cpu(r->shm.addr, &r->g, c, &closed);
        if (mine != PETW__BUF_NONE && !r->is_pending[mine]) {
            uint32_t used = petw__pool_host_used(r->shm.addr, &r->g, mine, NULL);
            if (import_one(h, r, mine, used, 0)) /* 0: completed now, by us */
                keep_pending(r, mine);
        }
    }
}

/* Notes, before a flush closes the pool's CPU buffers, every buffer opened
 * more often than delivered: a CPU's current buffer (closed next), or one
 * a writer completed and has not delivered yet (preempted between its
 * reservation and its commit, or before its delivery). Every event
 * reserved before this is in one of them or already delivered. */
static void note_undelivered(remote *r)
{
    for (uint32_t b = 0; b < r->g.buffer_count; b++) {
        uint32_t uses, delivered;
        petw__pool_host_uses(r->shm.addr, &r->g, b, &uses, &delivered);
        r->want[b] = (int32_t)(uses - delivered) > 0 ? uses : 0;
    }
}

/* Whether a buffer noted by note_undelivered is still not delivered. */
static int undelivered(remote *r)
{
    for (uint32_t b = 0; b < r->g.buffer_count; b++) {
        if (!r->want[b])
            continue;
        uint32_t uses, delivered;
        petw__pool_host_uses(r->shm.addr, &r->g, b, &uses, &delivered);
        if ((int32_t)(delivered - r->want[b]) >= 0)
            r->want[b] = 0;
        else
            return 1;
    }
    return 0;
}

/* Imports into the session, waiting for the flusher when it is full. */
static void import_wait(host *h, const uint8_t *data, uint32_t used, uint16_t cpu)
{
    for (int i = 0; i < 5000; i++) {
        if (petw__ring_import(h->ring, data, used, cpu, 0) != PETW_ENOBUFS)
            return;
        petw__sleep_ms(1);
    }
    petw__session_add_lost(h->session, petw__etl_count_records(data, used));
}

/* The provider is gone (or said it detached): everything it committed is
 * imported, everything it had reserved and not committed is counted lost. */
void petw__host_drain_gone(host *h, remote *r)
{
    for (int i = 0; i < 5000; i++) {
        petw__host_harvest(h, r);
        if (!r->npending)
            break;
        petw__sleep_ms(1);
    }
    uint32_t count = r->g.buffer_count;
    uint8_t *skip = calloc(count, 1);
    uint32_t *cpu_off = calloc(count, sizeof(uint32_t));
    if (skip && cpu_off) {
        petw__pool_host_mark_free(r->shm.addr, &r->g, skip);
        for (uint32_t i = 0; i < r->npending; i++)
            skip[r->pending[i]] = 1;
        for (uint32_t c = 0; c < r->g.cpu_count; c++) {
            uint32_t off, b = petw__pool_host_cpu_buffer(r->shm.addr, &r->g, c, &off);
            if (b != PETW__BUF_NONE)
                cpu_off[b] = off;
        }
        uint32_t lost = 0;
        for (uint32_t b = 0; b < count; b++) {
            if (skip[b])
                continue;
            uint32_t end = petw__pool_host_used(r->shm.addr, &r->g, b, NULL);
            if (end == 0)
                end = cpu_off[b];
            if (end > r->g.buffer_size)
                end = r->g.buffer_size;
            if (end <= PETW__BUFFER_HEADER_SIZE)
                continue;
            uint32_t used = petw__etl_salvage_records(petw__pool_host_buffer(r->shm.addr, &r->g, b),
                                                      end, h->scratch, &lost);
            if (used > PETW__BUFFER_HEADER_SIZE)
                import_wait(h, h->scratch, used, 0);
        }
        petw__session_add_lost(h->session, lost);
    }
    free(skip);
    free(cpu_off);
    fold_counters(h, r);
    petw__shm_close(&r->shm);
    petw__handle_close(r->sock);
    petw__handle_close(r->wake);
    free(r->pending);
    free(r->is_pending);
    free(r->want);
    memset(r, 0, sizeof(*r));
}

void petw__host_harvest_all(host *h)
{
    for (uint32_t i = 0; i < MAX_REMOTES; i++)
        if (h->remotes[i].used)
            petw__host_harvest(h, &h->remotes[i]);
}

/* A flush: close every CPU's buffer everywhere, wait until the writers
 * delivered every buffer that held an event reserved before the close
 * (also those a writer completed earlier and had not delivered yet: a
 * writer preempted between its reservation and its commit, or before its
 * delivery), import everything. Without that wait a snapshot could lack
 * such a buffer while holding newer ones, a hole in its run of events. The
 * writers are other processes, so the wait is bounded (200 ms, as the
 * in-process snapshot's wait for sealed buffers); it ends as soon as the
 * last one arrives. */
void petw__host_flush_remotes(host *h)
{
    for (uint32_t i = 0; i < MAX_REMOTES; i++)
        if (h->remotes[i].used)
            note_undelivered(&h->remotes[i]);
    for (uint32_t i = 0; i < MAX_REMOTES; i++)
        if (h->remotes[i].used)
            petw__host_close_remote(h, &h->remotes[i]);
    for (int round = 0; round < 2000; round++) {
        petw__host_harvest_all(h);
        int waiting = 0;
        for (uint32_t i = 0; i < MAX_REMOTES && !waiting; i++)
            waiting = h->remotes[i].used && undelivered(&h->remotes[i]);
        if (!waiting)
            break;
        petw__sleep_us(100);
    }
    petw__host_harvest_all(h);
}
