/* SPDX-License-Identifier: MIT */
/* flusher.c - the flusher thread: its loop, requests, and draining ready
 * buffers to their destinations. */
#include <stdio.h>
#include <stdlib.h>

#include "../../base/platform/platform.h"
#include "../../base/format/etl_record.h"
#include "flush_internal.h"

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

/* While writers keep delivering buffers, the flusher looks at the ready
 * stacks every POLL_MS instead of being woken for each buffer: a wake is a
 * system call in the writer and an epoll return and a context switch in the
 * flusher, for each 64 KB buffer while the flusher keeps up. A poll that
 * finds nothing ends the polling; the writers' wakes resume. */
#define POLL_MS 1

static uv_once_t start_once = UV_ONCE_INIT;
static int start_error;
static uv_loop_t loop;
static uv_async_t wake_async;
static uv_timer_t poll_timer;
/* 1 while the flusher polls (writers then send no wake). seq_cst with the
 * fences around it: see petw__flusher_wake and on_poll. */
static _Atomic int polling;
static _Atomic uint64_t writer_wakes; /* wakes writers sent; a count (relaxed) */
static uv_thread_t thread;
static uv_mutex_t queue_mutex; /* guards `queue`; never taken by writers */
static request *queue;
/* Flusher-thread only. */
static petw__flush_target *targets[PETW_MAX_SESSIONS];

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

void petw__flush_deliver(petw__flush_target *t, uint32_t b, uint8_t *buf, const uint8_t *out,
                         uint32_t out_size, uint32_t records)
{
    petw__pool *pool = atomic_load_explicit(&t->ring->pool, memory_order_relaxed);
    send_to_consumers(t, buf, pool->buffer_size, records);
    if (t->has_file) {
        petw__flush_send_to_file(t, out, out_size, records);
    } else {
        if (t->sink)
            t->sink(t->sink_context, out, out_size);
        atomic_fetch_add_explicit(&t->buffers_written, 1, memory_order_relaxed);
        atomic_fetch_add_explicit(&t->events_written, records, memory_order_relaxed);
    }
    petw__ring_free_buffer(pool, b);
}

/* Seals and sends every ready buffer of `t` (a zstd file session hands
 * them to the compression workers and writes those they finished); returns
 * how many buffers it took or wrote. */
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
        if (t->pipeline && t->has_file) {
            petw__flush_pipeline_put(t, b, records, &bi); /* compressed by a worker */
            continue;
        }
        uint32_t out_size;
        const uint8_t *out =
            petw__etl_seal_buffer(buf, &bi, t->has_file ? t->packer : NULL, &out_size);
        petw__flush_deliver(t, b, buf, out, out_size, records);
    }
    return n + petw__flush_pipeline_collect(t);
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
        petw__flush_write_header(t);
}

static void free_target_memory(petw__flush_target *t)
{
    free(t->header_buffer);
    free(t->ready);
    petw__etl_packer_free(t->packer);
    petw__flush_pipeline_free(t);
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
    t->pipeline = NULL;
    if (t->path[0]) {
        int rc = petw__flush_open_file(t);
        if (rc)
            return rc;
    }
    /* A compressed file's buffers are compressed on the workers. */
    if (t->has_file && (t->petw_flags & PETW_SESSION_ZSTD) && !is_circular(t)) {
        int rc = petw__flush_pipeline_new(t, limit);
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
int petw__flush_close_and_wait(petw__flush_target *t)
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
    if (!is_buffering(t)) {
        drain(t);
        petw__flush_pipeline_wait(t); /* compressed and written */
    }
    return 0;
}

static int do_flush(petw__flush_target *t)
{
    int rc = petw__flush_close_and_wait(t);
    if (rc)
        return rc;
    if (t->header_dirty)
        petw__flush_write_header(t);
    if (t->has_file)
        petw__file_sync(&t->file);
    return petw__flush_io_status(t);
}

static int do_switch(petw__flush_target *t, const char *path)
{
    int rc = petw__flush_close_and_wait(t);
    if (rc)
        return rc;
    petw__flush_finish_file(t);
    petw__flush_set_path(t, path);
    return petw__flush_open_file(t);
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
        petw__flush_pipeline_wait(t);
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
        petw__flush_send_to_file(t, out, out_size, 0);
    }
    petw__flush_finish_file(t);
    int rc = petw__flush_io_status(t);
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

/* Drains every session; returns how many buffers that took or wrote. */
static uint32_t drain_all(void)
{
    uint32_t n = 0;
    for (int i = 0; i < PETW_MAX_SESSIONS; i++)
        if (targets[i])
            n += drain(targets[i]);
    return n;
}

static void on_poll(uv_timer_t *timer)
{
    (void)timer;
    if (drain_all())
        return; /* still busy: poll again */
    /* Idle: writers wake us again. The store, then a fence, then the ready
     * stacks read again (drain's exchange): a writer that pushed a buffer
     * and then (after its fence) still saw polling == 1 sent no wake, but
     * its push precedes our fence, so this drain takes that buffer. */
    atomic_store_explicit(&polling, 0, memory_order_seq_cst); /* seq_cst: with the fence below */
    /* seq_cst: pairs with petw__flusher_wake's fence (our store before our
     * look at the ready stacks, its push before its look at `polling`). */
    atomic_thread_fence(memory_order_seq_cst);
    if (drain_all()) {
        atomic_store_explicit(&polling, 1, memory_order_relaxed); /* only this thread writes it */
        return;
    }
    uv_timer_stop(&poll_timer);
}

/* The flusher found buffers: poll instead of waiting for writers' wakes. */
static void start_polling(void)
{
    if (atomic_load_explicit(&polling, memory_order_relaxed)) /* only this thread writes it */
        return;
    atomic_store_explicit(&polling, 1, memory_order_relaxed); /* a writer seeing it skips a wake
                                                                 we no longer need */
    uv_timer_start(&poll_timer, on_poll, POLL_MS, POLL_MS);
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
    if (drain_all())
        start_polling();
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
            r->result = petw__flush_snapshot(r->target, r->path, r->upto);
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
        uv_async_init(&loop, &wake_async, on_wake) != 0 || uv_timer_init(&loop, &poll_timer) != 0 ||
        uv_thread_create(&thread, thread_main, NULL) != 0)
        start_error = PETW_ENOMEM;
}

void petw__flush_wake_loop(void)
{
    uv_async_send(&wake_async);
}

void petw__flusher_wake(petw__ring *ring)
{
    (void)ring;
    /* seq_cst fence: our push onto the ready stack (before it) against the
     * flusher's store of polling = 0 and fence before it looks at the stack
     * again (on_poll): either we see 0 and wake it, or it sees our buffer. */
    atomic_thread_fence(memory_order_seq_cst);
    if (atomic_load_explicit(&polling, memory_order_relaxed))
        return; /* it polls: it takes the buffer within POLL_MS */
    atomic_fetch_add_explicit(&writer_wakes, 1, memory_order_relaxed);
    uv_async_send(&wake_async);
}

uint64_t petw__flusher_writer_wakes(void)
{
    return atomic_load_explicit(&writer_wakes, memory_order_relaxed); /* a count */
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
