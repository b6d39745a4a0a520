/* SPDX-License-Identifier: MIT */
/* flusher.c - the flusher thread, its requests, and the destinations. */
#include <stdio.h>
#include <stdlib.h>

#include "../../base/platform/platform.h"
#include "../../base/format/etl_record.h"
#include "flush.h"

/* The ring reserves the buffer header the format writes. */
_Static_assert(PETW__BUFFER_HEADER_SIZE == PETW__BH_SIZE, "ring and format buffer headers differ");

enum request_kind {
    REQ_ATTACH,
    REQ_FLUSH,
    REQ_SNAPSHOT,
    REQ_TIMER,
    REQ_SWITCH,
    REQ_GROW,
    REQ_DETACH
};

typedef struct request {
    enum request_kind kind;
    petw__flush_target *target;
    uint32_t arg;
    const char *path;
    int64_t upto; /* a snapshot's latest timestamp (INT64_MAX: now) */
    int result;
    uv_sem_t done;
    struct request *next;
} request;

static uv_once_t start_once = UV_ONCE_INIT;
static int start_error;
static uv_loop_t loop;
static uv_async_t wake_async;
static uv_thread_t thread;
static uv_mutex_t queue_mutex; /* guards `queue`; never taken by writers */
static request *queue;
/* Flusher-thread only. */
static petw__flush_target *targets[PETW_MAX_SESSIONS];

static int64_t now_ts(const petw__flush_target *t)
{
    return petw__clock_read(t->ring->clock);
}

static int is_buffering(const petw__flush_target *t)
{
    return (t->mode & PETW_MODE_BUFFERING) != 0;
}
static int is_circular(const petw__flush_target *t)
{
    return (t->mode & PETW_MODE_CIRCULAR) != 0;
}
static int is_newfile(const petw__flush_target *t)
{
    return (t->mode & PETW_MODE_NEWFILE) != 0;
}

/* Events lost so far, for the header of the current file. */
static uint32_t lost_now(const petw__flush_target *t)
{
    return atomic_load_explicit(&t->ring->own_counters.events_lost, memory_order_relaxed);
}

/* A write to the file failed with `rc`: the first cause is kept for the
 * session's end, PETW_ENOSPC (the disk is full) as itself, any other as
 * PETW_EIO. */
static void io_failed(petw__flush_target *t, int rc)
{
    int none = 0;
    /* relaxed: a status read with the counters (flush, stop); the CAS keeps
     * the first cause. */
    atomic_compare_exchange_strong_explicit(&t->io_error, &none,
                                            rc == PETW_ENOSPC ? PETW_ENOSPC : PETW_EIO,
                                            memory_order_relaxed, memory_order_relaxed);
}

/* 0, or the first write failure's cause (io_failed). */
static int io_status(petw__flush_target *t)
{
    return atomic_load_explicit(&t->io_error, memory_order_relaxed); /* relaxed: as io_failed */
}

static void write_header_to(petw__flush_target *t, petw__file *f, uint32_t data_buffers,
                            uint32_t events_lost)
{
    t->info.buffers_written = 1 + data_buffers;
    t->info.events_lost = events_lost;
    t->info.buffers_lost = atomic_load_explicit(&t->log_buffers_lost, memory_order_relaxed);
    t->info.end_filetime = petw__filetime_now();
    /* A measured clock (the TSC) gets its frequency from this session's own
     * span once it is long enough: exact to the reference clock's accuracy. */
    if (petw__clock_is_measured(t->ring->clock)) {
        int64_t dt = petw__clock_reference() - t->reference_start_ns;
        int64_t dticks = petw__clock_read(t->ring->clock) - t->info.start_timestamp;
        if (dt >= 1000000000LL && dticks > 0)
            t->info.perf_freq = (int64_t)((double)dticks * 1e9 / (double)dt + 0.5);
    }
    petw__etl_write_header_buffer(t->header_buffer, &t->info);
    int rc = petw__file_pwrite(f, t->header_buffer, t->info.buffer_size, 0);
    if (rc)
        io_failed(t, rc);
}

static void write_header(petw__flush_target *t)
{
    if (!t->has_file)
        return;
    uint32_t data = t->file_buffers;
    if (is_circular(t))
        data =
            t->circular_next < t->circular_slots ? (uint32_t)t->circular_next : t->circular_slots;
    write_header_to(t, &t->file, data, lost_now(t) - t->lost_at_file_start);
    t->header_dirty = 0;
}

/* Opens t->path for a new recording (or, with APPEND, continues it). */
static int open_file(petw__flush_target *t)
{
    int rc;
    t->file_buffers = 0;
    t->circular_next = 0;
    t->lost_at_file_start = lost_now(t);
    t->file_offset = t->info.buffer_size;
    if ((t->mode & PETW_MODE_APPEND) && petw__path_exists(t->path)) {
        uint64_t size;
        rc = petw__file_open_existing(t->path, &t->file, &size);
        if (rc)
            return rc;
        /* The file's own header must describe buffers like ours. */
        petw_logfile_info old;
        const char *why;
        petw__etl_buffer hb;
        uint8_t *hdr = t->header_buffer;
        rc = size >= t->info.buffer_size ? petw__file_pread(&t->file, hdr, t->info.buffer_size, 0)
                                         : PETW_EINVAL;
        if (rc == 0)
            rc = petw__etl_parse_buffer(hdr, t->info.buffer_size, 0, &hb, &why);
        if (rc == 0 && petw__etl_parse_header_buffer(hdr, t->info.buffer_size, &hb, &old) != 0)
            rc = PETW_EINVAL;
        if (rc == 0 &&
            (old.buffer_size != t->info.buffer_size || old.pointer_size != 8 ||
             old.reserved_flags != t->info.clock || (old.petw_flags & PETW_SESSION_ZSTD) ||
             (t->petw_flags & PETW_SESSION_ZSTD) || size % t->info.buffer_size))
            rc = PETW_EINVAL;
        if (rc) {
            petw__file_close(&t->file);
            return rc == PETW_EIO ? PETW_EIO : PETW_EINVAL;
        }
        /* Continue its clock anchor and counters: the raw clocks petw uses
         * are monotonic since boot, so old and new events stay ordered. */
        t->info.start_timestamp = old.start_timestamp;
        t->info.start_filetime = old.start_time;
        t->info.perf_freq = old.perf_freq;
        /* The boot that anchor was read in: StartTime never precedes it. */
        t->info.boot_time = old.boot_time;
        t->file_buffers = (uint32_t)(size / t->info.buffer_size) - 1;
        t->lost_at_file_start -= old.events_lost;
        t->file_offset = size;
    } else {
        rc = petw__file_create_private(t->path, &t->file);
        if (rc)
            return rc;
        if ((t->mode & PETW_MODE_PREALLOCATE) && t->max_file_bytes) {
            rc = petw__file_allocate(&t->file, t->max_file_bytes);
            if (rc) {
                petw__file_close(&t->file);
                return rc;
            }
        }
    }
    t->has_file = 1;
    t->info.log_file_name = t->path;
    write_header(t);
    return io_status(t);
}

static void finish_file(petw__flush_target *t)
{
    if (!t->has_file)
        return;
    write_header(t);
    if (t->mode & PETW_MODE_PREALLOCATE) {
        uint64_t end = t->file_offset;
        if (is_circular(t))
            end = (uint64_t)t->info.buffer_size * (1 + t->info.buffers_written - 1);
        petw__file_truncate(&t->file, end);
    }
    int rc = petw__file_close(&t->file);
    if (rc)
        io_failed(t, rc);
    t->has_file = 0;
}

/* The file name changes on the flusher thread while queries read it
 * (petw__flusher_path): both under rt_lock. */
static void set_path(petw__flush_target *t, const char *path)
{
    uv_mutex_lock(&t->rt_lock);
    snprintf(t->path, sizeof(t->path), "%s", path);
    uv_mutex_unlock(&t->rt_lock);
}

void petw__flusher_path(petw__flush_target *t, char *out, size_t size)
{
    if (t->rt_lock_ready)
        uv_mutex_lock(&t->rt_lock);
    snprintf(out, size, "%s", t->path);
    if (t->rt_lock_ready)
        uv_mutex_unlock(&t->rt_lock);
}

static int next_newfile(petw__flush_target *t)
{
    finish_file(t);
    atomic_fetch_add_explicit(&t->files_completed, 1, memory_order_relaxed);
    t->file_number++;
    char next[sizeof(t->path)];
    snprintf(next, sizeof(next), t->pattern, (int)t->file_number);
    set_path(t, next);
    return open_file(t);
}

/* A buffer that did not reach its file: its events count as lost, so that
 * delivered + lost == written stays exact. */
static void buffer_lost(petw__flush_target *t, uint32_t records)
{
    atomic_fetch_add_explicit(&t->log_buffers_lost, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&t->ring->own_counters.events_lost, records, memory_order_relaxed);
}

static void send_to_file(petw__flush_target *t, const uint8_t *out, uint32_t size, uint32_t records)
{
    uint64_t at;
    if (is_circular(t)) {
        at = (uint64_t)t->info.buffer_size * (1 + t->circular_next % t->circular_slots);
    } else {
        if (is_newfile(t) && t->file_buffers > 0 && t->file_offset + size > t->max_file_bytes &&
            next_newfile(t) != 0) {
            buffer_lost(t, records);
            return;
        }
        /* A sequential file with a cap stops growing at it (ETW). */
        if (!is_newfile(t) && t->max_file_bytes && t->file_offset + size > t->max_file_bytes) {
            buffer_lost(t, records);
            return;
        }
        at = t->file_offset;
    }
    int rc = t->has_file ? petw__file_pwrite(&t->file, out, size, at) : PETW_EIO;
    if (rc) {
        io_failed(t, rc);
        buffer_lost(t, records);
        return;
    }
    if (is_circular(t)) {
        t->circular_next++;
    } else {
        t->file_offset += size;
        t->file_buffers++;
    }
    atomic_fetch_add_explicit(&t->buffers_written, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&t->events_written, records, memory_order_relaxed);
    t->header_dirty = 1;
}

static void send_to_consumers(petw__flush_target *t, const uint8_t *buf, uint32_t size,
                              uint32_t records)
{
    if (!(t->mode & PETW_MODE_REAL_TIME))
        return;
    uv_mutex_lock(&t->rt_lock);
    int any = 0;
    for (int i = 0; i < PETW__MAX_REALTIME_CONSUMERS; i++) {
        petw__bufqueue *q = t->consumers[i];
        if (!q)
            continue;
        any = 1;
        if (petw__bufqueue_push(q, buf, size) != 0) {
            atomic_fetch_add_explicit(&t->real_time_buffers_lost, 1, memory_order_relaxed);
            atomic_fetch_add_explicit(&t->real_time_events_lost, records, memory_order_relaxed);
        }
    }
    uv_mutex_unlock(&t->rt_lock);
    if (!any) {
        /* Nobody is listening: ETW counts these buffers lost for real time. */
        atomic_fetch_add_explicit(&t->real_time_buffers_lost, 1, memory_order_relaxed);
        atomic_fetch_add_explicit(&t->real_time_events_lost, records, memory_order_relaxed);
    }
}

/* Seals and sends every ready buffer of `t`; returns how many it took. */
static uint32_t drain(petw__flush_target *t)
{
    petw__ring *ring = t->ring;
    petw__pool *pool = atomic_load_explicit(&ring->pool, memory_order_relaxed);
    if (!pool)
        return 0;
    uint32_t n = petw__ring_take_ready(ring, t->ready);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t b = t->ready[i];
        uint32_t used = petw__ring_buffer_used(pool, b);
        petw__buffer_meta *meta = &petw__pool_meta(pool)[b];
        if (used == PETW__BUFFER_HEADER_SIZE) {
            petw__ring_free_buffer(pool, b);
            continue;
        }
        /* relaxed: a marker, not a count (EventsLost is the count). */
        if (atomic_exchange_explicit(&ring->own_counters.lost_pending, 0, memory_order_relaxed))
            atomic_fetch_or_explicit(&meta->flags, PETW__BUFMETA_EVENTS_LOST, memory_order_relaxed);
        uint8_t *buf = petw__pool_buffer(pool, b);
        uint32_t records = petw__ring_buffer_records(pool, b);
        petw__etl_buffer_info bi;
        bi.buffer_size = pool->buffer_size;
        bi.used = used;
        bi.timestamp = now_ts(t);
        bi.sequence = ++t->sequence;
        bi.cpu = atomic_load_explicit(&meta->cpu, memory_order_relaxed);
        bi.logger_id = ring->logger_id;
        bi.flags =
            (atomic_load_explicit(&meta->flags, memory_order_relaxed) & PETW__BUFMETA_EVENTS_LOST)
                ? PETW__BUFFER_FLAG_EVENTS_LOST
                : 0;
        bi.petw_flags = t->petw_flags;
        bi.zstd_level = t->zstd_level;
        meta->records = records;
        meta->sealed_timestamp = bi.timestamp;
        uint32_t out_size;
        const uint8_t *out =
            petw__etl_seal_buffer(buf, &bi, t->has_file ? t->packer : NULL, &out_size);
        send_to_consumers(t, buf, pool->buffer_size, records);
        if (t->has_file) {
            send_to_file(t, out, out_size, records);
        } else {
            if (t->sink)
                t->sink(t->sink_context, out, out_size);
            atomic_fetch_add_explicit(&t->buffers_written, 1, memory_order_relaxed);
            atomic_fetch_add_explicit(&t->events_written, records, memory_order_relaxed);
        }
        petw__ring_free_buffer(pool, b);
    }
    return n;
}

static void on_timer(uv_timer_t *timer)
{
    petw__flush_target *t = timer->data;
    if (is_buffering(t))
        return; /* a flight recorder keeps its buffers until a snapshot */
    for (uint32_t c = 0; c < t->ring->cpu_count; c++)
        petw__ring_close_cpu(t->ring, c, 0);
    drain(t);
    /* Keep the file valid at every flush boundary. */
    if (t->header_dirty)
        write_header(t);
}

static void free_target_memory(petw__flush_target *t)
{
    free(t->header_buffer);
    free(t->ready);
    petw__etl_packer_free(t->packer);
    t->packer = NULL;
    t->header_buffer = NULL;
    t->ready = NULL;
}

static int do_attach(petw__flush_target *t)
{
    petw__pool *pool = atomic_load_explicit(&t->ring->pool, memory_order_relaxed);
    uint32_t limit = pool->buffer_limit;
    t->header_buffer = malloc(t->info.buffer_size);
    t->ready = calloc(limit, sizeof(uint32_t));
    t->packer =
        (t->petw_flags & PETW_SESSION_ZSTD) ? petw__etl_packer_new(t->info.buffer_size) : NULL;
    if (!t->header_buffer || !t->ready || ((t->petw_flags & PETW_SESSION_ZSTD) && !t->packer))
        return PETW_ENOMEM;
    t->sequence = 0;
    if (is_circular(t))
        t->circular_slots = (uint32_t)(t->max_file_bytes / t->info.buffer_size) - 1;
    if (t->path[0]) {
        int rc = open_file(t);
        if (rc)
            return rc;
    }
    if (!t->timer_initialized) {
        uv_timer_init(&loop, &t->timer);
        t->timer_initialized = 1;
    }
    t->timer.data = t;
    uv_timer_start(&t->timer, on_timer, t->flush_timer_ms, t->flush_timer_ms);
    for (int i = 0; i < PETW_MAX_SESSIONS; i++) {
        if (!targets[i]) {
            targets[i] = t;
            break;
        }
    }
    return 0;
}

/* Closes every CPU's buffer and waits until each closed buffer was
 * delivered (its last writer commits in a bounded number of steps; a buffer
 * another thread closed first is delivered just the same), then writes what
 * is ready. Buffering sessions keep theirs in the retained queue instead. */
static int close_and_wait(petw__flush_target *t)
{
    petw__ring *ring = t->ring;
    petw__pool *pool = atomic_load_explicit(&ring->pool, memory_order_relaxed);
    uint32_t limit = pool->buffer_limit;
    uint32_t *want = calloc(limit, sizeof(uint32_t));
    if (!want)
        return PETW_ENOMEM;
    petw__buffer_meta *meta = petw__pool_meta(pool);
    for (uint32_t c = 0; c < ring->cpu_count; c++) {
        /* acquire: pairs with petw__ring_reserve_slow's release CAS that made
         * b current: the count below includes deliveries ordered before it. */
        uint64_t w = atomic_load_explicit(&ring->own_cpus[c].word, memory_order_acquire);
        uint32_t b = PETW__WORD_BUF(w);
        /* relaxed: the use number was published with the buffer by the
         * release CAS the acquire load above pairs with. Its delivery is
         * the one to wait for (not a late count of the previous use). */
        if (b < limit)
            want[b] = atomic_load_explicit(&meta[b].uses, memory_order_relaxed);
        petw__ring_close_cpu(ring, c, 0);
    }
    /* acquire: pairs with petw__ring_deliver's release increment: a buffer
     * counted is on the ready stack (drain) or in the retained queue. */
    for (uint32_t b = 0; b < limit; b++)
        while (want[b] && atomic_load_explicit(&meta[b].deliveries, memory_order_acquire) < want[b])
            petw__yield();
    free(want);
    if (!is_buffering(t))
        drain(t);
    return 0;
}

static int do_flush(petw__flush_target *t)
{
    int rc = close_and_wait(t);
    if (rc)
        return rc;
    if (t->header_dirty)
        write_header(t);
    if (t->has_file)
        petw__file_sync(&t->file);
    return io_status(t);
}

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
            write_header_to(t, &f, written, lost_now(t));
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
        /* acquire: as in close_and_wait. */
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

static int do_snapshot(petw__flush_target *t, const char *path, int64_t limit)
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
    int rc = close_and_wait(t);
    if (rc)
        return rc;
    wait_sealed(ring, pool);
    /* acquire: pairs with the release head CAS in petw__ring_take_oldest
     * (the horizon of what was taken); it also keeps the tail load after the
     * head load. The buffers closed above are below tail: close_and_wait
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
    return rc ? rc : io_status(t);
}

static int do_switch(petw__flush_target *t, const char *path)
{
    int rc = close_and_wait(t);
    if (rc)
        return rc;
    finish_file(t);
    set_path(t, path);
    return open_file(t);
}

static int do_detach(petw__flush_target *t)
{
    petw__ring *ring = t->ring;
    uv_timer_stop(&t->timer);
    petw__ring_kill(ring);
    petw__pool *pool = atomic_load_explicit(&ring->pool, memory_order_relaxed);
    /* Every buffer comes back: current ones were closed by the kill, and
     * writers inside commit in a bounded number of steps. What a buffering
     * session still holds is dropped (and counted with the overwritten). */
    for (;;) {
        uint32_t took = drain(t), b;
        while (is_buffering(t) && (b = petw__ring_take_oldest(ring, pool)) != PETW__BUF_NONE)
            petw__ring_free_buffer(pool, b);
        /* acquire: pairs with free_push's release increment: every buffer's
         * last use before the pool is released (conservative after the kill:
         * only this thread pushes now). buffer_count (conservative): pairs
         * with petw__ring_grow's release store, made on this same thread. */
        if (atomic_load_explicit(&pool->free_count, memory_order_acquire) >=
            atomic_load_explicit(&pool->buffer_count, memory_order_acquire))
            break;
        if (took == 0)
            petw__yield();
    }
    /* A loss after the last buffer written still shows in the file: an
     * empty buffer carrying the flag. */
    if (t->has_file && !is_buffering(t) &&
        atomic_exchange_explicit(&ring->own_counters.lost_pending, 0, memory_order_relaxed)) {
        uint8_t *empty = petw__pool_buffer(pool, 0); /* every buffer is free now */
        petw__etl_buffer_info bi = {
            pool->buffer_size, PETW__BUFFER_HEADER_SIZE,      now_ts(t),     ++t->sequence, 0,
            ring->logger_id,   PETW__BUFFER_FLAG_EVENTS_LOST, t->petw_flags, t->zstd_level};
        uint32_t out_size;
        const uint8_t *out = petw__etl_seal_buffer(empty, &bi, t->packer, &out_size);
        send_to_file(t, out, out_size, 0);
    }
    finish_file(t);
    int rc = io_status(t);
    uv_mutex_lock(&t->rt_lock);
    for (int i = 0; i < PETW__MAX_REALTIME_CONSUMERS; i++) {
        if (t->consumers[i]) {
            petw__bufqueue_end(t->consumers[i]);
            petw__bufqueue_unref(t->consumers[i]);
            t->consumers[i] = NULL;
        }
    }
    uv_mutex_unlock(&t->rt_lock);
    for (int i = 0; i < PETW_MAX_SESSIONS; i++)
        if (targets[i] == t)
            targets[i] = NULL;
    free_target_memory(t);
    petw__ring_release(ring);
    return rc;
}

static void on_wake(uv_async_t *handle)
{
    (void)handle;
    uv_mutex_lock(&queue_mutex);
    request *list = queue;
    queue = NULL;
    uv_mutex_unlock(&queue_mutex);
    /* The queue is LIFO; serve in arrival order. */
    request *rev = NULL;
    while (list) {
        request *n = list->next;
        list->next = rev;
        rev = list;
        list = n;
    }
    for (int i = 0; i < PETW_MAX_SESSIONS; i++)
        if (targets[i])
            drain(targets[i]);
    while (rev) {
        request *r = rev;
        rev = r->next;
        switch (r->kind) {
        case REQ_ATTACH:
            r->result = do_attach(r->target);
            break;
        case REQ_FLUSH:
            r->result = do_flush(r->target);
            break;
        case REQ_SNAPSHOT:
            r->result = do_snapshot(r->target, r->path, r->upto);
            break;
        case REQ_TIMER:
            r->target->flush_timer_ms = r->arg;
            uv_timer_start(&r->target->timer, on_timer, r->arg, r->arg);
            r->result = 0;
            break;
        case REQ_SWITCH:
            r->result = do_switch(r->target, r->path);
            break;
        case REQ_GROW:
            r->result = petw__ring_grow(r->target->ring, r->arg);
            break;
        case REQ_DETACH:
            r->result = do_detach(r->target);
            break;
        }
        uv_sem_post(&r->done);
    }
}

static void thread_main(void *arg)
{
    (void)arg;
    uv_run(&loop, UV_RUN_DEFAULT);
}

static void start_fn(void)
{
    if (uv_loop_init(&loop) != 0 || uv_mutex_init(&queue_mutex) != 0 ||
        uv_async_init(&loop, &wake_async, on_wake) != 0 ||
        uv_thread_create(&thread, thread_main, NULL) != 0)
        start_error = PETW_ENOMEM;
}

void petw__flusher_wake(petw__ring *ring)
{
    (void)ring;
    uv_async_send(&wake_async);
}

static int submit_upto(enum request_kind kind, petw__flush_target *t, uint32_t arg,
                       const char *path, int64_t upto)
{
    uv_once(&start_once, start_fn);
    if (start_error)
        return start_error;
    request r;
    r.kind = kind;
    r.target = t;
    r.arg = arg;
    r.path = path;
    r.upto = upto;
    r.result = 0;
    if (uv_sem_init(&r.done, 0) != 0)
        return PETW_ENOMEM;
    uv_mutex_lock(&queue_mutex);
    r.next = queue;
    queue = &r;
    uv_mutex_unlock(&queue_mutex);
    uv_async_send(&wake_async);
    uv_sem_wait(&r.done);
    uv_sem_destroy(&r.done);
    return r.result;
}

static int submit(enum request_kind kind, petw__flush_target *t, uint32_t arg, const char *path)
{
    return submit_upto(kind, t, arg, path, INT64_MAX);
}

int petw__flusher_attach(petw__flush_target *t)
{
    if (!t->rt_lock_ready) {
        if (uv_mutex_init(&t->rt_lock) != 0)
            return PETW_ENOMEM;
        t->rt_lock_ready = 1; /* kept for the slot's lifetime, like the timer */
    }
    int rc = submit(REQ_ATTACH, t, 0, NULL);
    if (rc < 0) {
        if (t->has_file)
            petw__file_close(&t->file);
        t->has_file = 0;
        free_target_memory(t);
    }
    return rc;
}
int petw__flusher_flush(petw__flush_target *t)
{
    return submit(REQ_FLUSH, t, 0, NULL);
}
int petw__flusher_snapshot(petw__flush_target *t, const char *path, int64_t upto)
{
    return submit_upto(REQ_SNAPSHOT, t, 0, path, upto);
}
int petw__flusher_set_timer(petw__flush_target *t, uint32_t ms)
{
    return submit(REQ_TIMER, t, ms, NULL);
}
int petw__flusher_switch_file(petw__flush_target *t, const char *path)
{
    return submit(REQ_SWITCH, t, 0, path);
}
int petw__flusher_grow(petw__flush_target *t, uint32_t count)
{
    return submit(REQ_GROW, t, count, NULL);
}
int petw__flusher_detach(petw__flush_target *t)
{
    return submit(REQ_DETACH, t, 0, NULL);
}

int petw__flusher_add_consumer(petw__flush_target *t, petw__bufqueue *q)
{
    int rc = PETW_ELIMIT;
    uv_mutex_lock(&t->rt_lock);
    for (int i = 0; i < PETW__MAX_REALTIME_CONSUMERS; i++) {
        if (!t->consumers[i]) {
            petw__bufqueue_ref(q);
            t->consumers[i] = q;
            rc = 0;
            break;
        }
    }
    uv_mutex_unlock(&t->rt_lock);
    return rc;
}
