/* SPDX-License-Identifier: MIT */
/* flush_snapshot.c - a buffering session's snapshot: the newest contiguous
 * run of its retained buffers, copied and written to a file of its own. */
#include <stdlib.h>
#include <string.h>

#include "../../base/format/etl_record.h"
#include "../../base/platform/platform.h"
#include "flush_internal.h"

/* Keeps the records of an unpacked buffer whose timestamps lie in
 * (after, upto], packed from 0x48; returns the new used size. */
static uint32_t keep_window(uint8_t *buf, uint32_t used, int64_t after, int64_t upto,
                            uint32_t *kept)
{
    uint32_t pos = PETW__BH_SIZE, out = PETW__BH_SIZE;
    petw__etl_record rec;
    const char *why;
    *kept = 0;
    while (petw__etl_next_record(buf, used, &pos, &rec, &why) == 1) {
        if (rec.timestamp <= after || rec.timestamp > upto)
            continue;
        uint32_t len = PETW__ALIGN8(rec.size);
        memmove(buf + out, buf + rec.offset, len);
        out += len;
        (*kept)++;
    }
    return out;
}

/* Writes the snapshot's copies [first, n) to a new file at `path`,
 * keeping each buffer's records in (after, upto]. */
static int write_snapshot(petw__flush_target *t, const char *path, uint8_t *copies,
                          const uint32_t *used, const uint16_t *cpu, uint32_t first, uint32_t n,
                          int64_t after, int64_t upto)
{
    petw__ring *ring = t->ring;
    uint32_t size = atomic_load_explicit(&ring->pool, memory_order_relaxed)->buffer_size;
    petw__file f;
    int rc = petw__file_create_private(path, &f), opened = rc == 0;
    uint32_t written = 0;
    uint64_t offset = size;
    int64_t seq = 0;
    for (uint32_t i = first; i < n && rc == 0; i++) {
        uint8_t *buf = copies + (size_t)i * size;
        uint32_t kept, u = keep_window(buf, used[i], after, upto, &kept);
        if (kept == 0)
            continue;
        petw__etl_buffer_info bi;
        bi.buffer_size = size;
        bi.used = u;
        bi.timestamp = upto;
        bi.sequence = ++seq;
        bi.cpu = cpu[i];
        bi.logger_id = ring->logger_id;
        bi.flags = 0;
        bi.petw_flags = t->petw_flags & PETW_SESSION_CHECKSUM;
        bi.zstd_level = 0;
        uint32_t out_size;
        const uint8_t *out = petw__etl_seal_buffer(buf, &bi, NULL, &out_size);
        rc = petw__file_pwrite(&f, out, out_size, offset);
        offset += out_size;
        written++;
    }
    if (opened) {
        if (rc == 0) {
            const char *saved_name = t->info.log_file_name;
            t->info.log_file_name = path;
            petw__flush_write_header_to(t, &f, written, petw__flush_lost_now(t));
            t->info.log_file_name = saved_name;
        }
        if (petw__file_close(&f) != 0 && rc == 0)
            rc = PETW_EIO;
    }
    return rc;
}

/* Whether buffer `b` is some CPU's current buffer. */
static int is_current(const petw__ring *ring, uint32_t b)
{
    for (uint32_t c = 0; c < ring->cpu_count; c++)
        /* acquire: as in petw__flush_close_and_wait. */
        if (PETW__WORD_BUF(atomic_load_explicit(&ring->own_cpus[c].word, memory_order_acquire)) ==
            b)
            return 1;
    return 0;
}

/* Waits for buffers that a writer sealed but has not yet put in the
 * retained queue (preempted between its last commit and petw__ring_deliver):
 * a snapshot that copied the queue without one of them would lack its
 * events while keeping older ones of other buffers. Such a buffer is opened
 * more often than delivered and is no CPU's current buffer. A buffer that
 * became current after the close looks the same until its CPU word is read
 * again, so the wait is bounded (200 ms); it ends at once when no buffer is
 * pending. */
static void wait_sealed(petw__ring *ring, petw__pool *pool)
{
    petw__buffer_meta *meta = petw__pool_meta(pool);
    for (int round = 0; round < 2000; round++) {
        int pending = 0;
        for (uint32_t b = 0; b < pool->buffer_limit && !pending; b++) {
            /* acquire: pairs with petw__ring_deliver's release increment. */
            uint32_t d = atomic_load_explicit(&meta[b].deliveries, memory_order_acquire);
            /* relaxed: a use opened before the close happens before the
             * close's acquire of its CPU word (the word's later values were
             * written by writers that acquired the one naming it). */
            uint32_t u = atomic_load_explicit(&meta[b].uses, memory_order_relaxed);
            pending = d < u && !is_current(ring, b);
        }
        if (!pending)
            return;
        petw__sleep_us(100);
    }
}

int petw__flush_snapshot(petw__flush_target *t, const char *path, int64_t limit)
{
    petw__ring *ring = t->ring;
    petw__pool *pool = atomic_load_explicit(&ring->pool, memory_order_relaxed);
    /* Events at or before `upto` are all in buffers closed below: a writer
     * opening a new buffer reads its timestamp after the close, so later.
     * A session host gives its own `limit`, read before it closed its
     * providers' buffers: its later events may be in buffers it did not
     * import. */
    int64_t upto = now_ts(t);
    if (limit < upto)
        upto = limit;
    int rc = petw__flush_close_and_wait(t);
    if (rc)
        return rc;
    wait_sealed(ring, pool);
    /* acquire: pairs with the release head CAS in petw__ring_take_oldest
     * (the horizon of what was taken); it also keeps the tail load after the
     * head load. The buffers closed above are below tail: petw__flush_close_and_wait
     * acquired their delivery, after retain's CAS. */
    uint64_t head = atomic_load_explicit(&pool->retained_head, memory_order_acquire);
    /* acquire (conservative): as for head. */
    uint64_t tail = atomic_load_explicit(&pool->retained_tail, memory_order_acquire);
    /* The two loads are not one snapshot: clamp what a race could make of
     * their difference to the queue's capacity. */
    int64_t span = (int64_t)(tail - head);
    uint32_t n = span <= 0 ? 0 : span > pool->buffer_limit ? pool->buffer_limit : (uint32_t)span;
    uint32_t size = pool->buffer_size;
    uint8_t *copies = malloc((size_t)(n ? n : 1) * size);
    uint32_t *used = calloc(n ? n : 1, sizeof(uint32_t));
    uint16_t *cpu = calloc(n ? n : 1, sizeof(uint16_t));
    if (!copies || !used || !cpu) {
        free(copies);
        free(used);
        free(cpu);
        return PETW_ENOMEM;
    }
    /* Copy oldest to newest. A buffer recycled before or while we copy it is
     * gone or torn; recycling takes the oldest first, so everything older
     * went too: keep only what follows the newest such buffer. */
    uint32_t first_good = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t b = petw__ring_retained_at(pool, head + i);
        if (b == PETW__BUF_NONE ||
            petw__ring_copy_retained(pool, b, copies + (size_t)i * size, &used[i], &cpu[i]) != 0)
            first_good = i + 1;
    }
    /* Every event after the horizon is in the pool (only older buffers were
     * recycled), so (horizon, upto] is one contiguous run: a recycler raises
     * the horizon before any release that shows the buffer gone, and every
     * read above that saw it gone was an acquire. acquire (conservative):
     * the horizon's own CAS is relaxed. */
    int64_t after =
        atomic_load_explicit(&ring->own_counters.overwrite_horizon, memory_order_acquire);

    rc = write_snapshot(t, path, copies, used, cpu, first_good, n, after, upto);
    free(copies);
    free(used);
    free(cpu);
    return rc ? rc : petw__flush_io_status(t);
}
