/* flusher.c - the flusher thread and its requests. */
#include <stdlib.h>

#include "../platform/platform.h"
#include "flush.h"

enum request_kind { REQ_ATTACH, REQ_FLUSH, REQ_TIMER, REQ_DETACH };

typedef struct request {
    enum request_kind kind;
    petw__flush_target *target;
    uint32_t arg;
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

static int64_t now_ts(const petw__flush_target *t) { return petw__clock_read(t->ring->clock); }

static void write_header(petw__flush_target *t)
{
    if (!t->has_file)
        return;
    t->info.buffers_written = 1 + atomic_load_explicit(&t->buffers_written, memory_order_relaxed);
    t->info.events_lost = atomic_load_explicit(&t->ring->events_lost, memory_order_relaxed);
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
    if (petw__file_pwrite(&t->file, t->header_buffer, t->info.buffer_size, 0) != 0)
        atomic_store_explicit(&t->io_error, 1, memory_order_relaxed);
    t->header_dirty = 0;
}

/* Writes every ready buffer of `t`; returns how many it took. */
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
        const petw__buffer_meta *meta = &petw__pool_meta(pool)[b];
        t->write_count[b]++;
        if (used > PETW__BUFFER_HEADER_SIZE || (meta->flags & PETW__BUFMETA_EVENTS_LOST)) {
            petw__etl_buffer_info bi;
            bi.buffer_size = pool->buffer_size;
            bi.used = used;
            bi.timestamp = now_ts(t);
            bi.sequence = ++t->sequence;
            bi.cpu = meta->cpu;
            bi.logger_id = ring->logger_id;
            bi.flags = (meta->flags & PETW__BUFMETA_EVENTS_LOST) ? PETW__BUFFER_FLAG_EVENTS_LOST : 0;
            bi.petw_flags = t->petw_flags;
            bi.zstd_level = t->zstd_level;
            uint32_t out_size;
            uint8_t *buf = petw__pool_buffer(pool, b);
            const uint8_t *out = petw__etl_seal_buffer(buf, &bi, t->has_file ? t->scratch : NULL,
                                                       &out_size);
            if (t->has_file) {
                if (petw__file_pwrite(&t->file, out, out_size, t->file_offset) == 0) {
                    t->file_offset += out_size;
                    atomic_fetch_add_explicit(&t->buffers_written, 1, memory_order_relaxed);
                    t->header_dirty = 1;
                } else {
                    atomic_fetch_add_explicit(&t->log_buffers_lost, 1, memory_order_relaxed);
                    atomic_store_explicit(&t->io_error, 1, memory_order_relaxed);
                }
            } else {
                if (t->sink)
                    t->sink(t->sink_context, out, out_size);
                atomic_fetch_add_explicit(&t->buffers_written, 1, memory_order_relaxed);
            }
        }
        petw__ring_free_buffer(pool, b);
    }
    return n;
}

static void on_timer(uv_timer_t *timer)
{
    petw__flush_target *t = timer->data;
    for (uint32_t c = 0; c < t->ring->cpu_count; c++)
        petw__ring_close_cpu(t->ring, c, 0);
    drain(t);
    /* Keep the file valid at every flush boundary. */
    if (t->header_dirty)
        write_header(t);
}

static int do_attach(petw__flush_target *t)
{
    petw__pool *pool = atomic_load_explicit(&t->ring->pool, memory_order_relaxed);
    uint32_t count = pool->buffer_count;
    t->header_buffer = malloc(t->info.buffer_size);
    t->ready = calloc(count, sizeof(uint32_t));
    t->write_count = calloc(count, sizeof(uint32_t));
    t->scratch = (t->petw_flags & PETW_SESSION_ZSTD) ? malloc(petw__etl_scratch_size(t->info.buffer_size))
                                                     : NULL;
    if (!t->header_buffer || !t->ready || !t->write_count ||
        ((t->petw_flags & PETW_SESSION_ZSTD) && !t->scratch))
        return PETW_ENOMEM;
    t->file_offset = t->info.buffer_size;
    t->sequence = 0;
    if (t->has_file) {
        write_header(t);
        if (atomic_load_explicit(&t->io_error, memory_order_relaxed))
            return PETW_EIO;
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

static void free_target_memory(petw__flush_target *t)
{
    free(t->header_buffer);
    free(t->ready);
    free(t->write_count);
    free(t->scratch);
    t->header_buffer = t->scratch = NULL;
    t->ready = t->write_count = NULL;
}

static int do_flush(petw__flush_target *t)
{
    petw__ring *ring = t->ring;
    petw__pool *pool = atomic_load_explicit(&ring->pool, memory_order_relaxed);
    uint32_t count = pool->buffer_count;
    /* Snapshot which buffers are current on a CPU, close them, and wait until
     * each was written once more (writers still inside finish quickly). */
    uint32_t *want = calloc(count, sizeof(uint32_t));
    if (!want)
        return PETW_ENOMEM;
    for (uint32_t c = 0; c < ring->cpu_count; c++) {
        uint64_t w = atomic_load_explicit(&ring->cpus[c].word, memory_order_acquire);
        uint32_t b = PETW__WORD_BUF(w);
        if (b < count && PETW__WORD_OFF(w) > PETW__BUFFER_HEADER_SIZE)
            want[b] = t->write_count[b] + 1;
        petw__ring_close_cpu(ring, c, 0);
    }
    for (;;) {
        drain(t);
        uint32_t b;
        for (b = 0; b < count; b++)
            if (want[b] && t->write_count[b] < want[b])
                break;
        if (b == count)
            break;
        petw__yield();
    }
    free(want);
    if (t->header_dirty)
        write_header(t);
    return atomic_load_explicit(&t->io_error, memory_order_relaxed) ? PETW_EIO : 0;
}

static int do_detach(petw__flush_target *t)
{
    petw__ring *ring = t->ring;
    uv_timer_stop(&t->timer);
    petw__ring_kill(ring);
    petw__pool *pool = atomic_load_explicit(&ring->pool, memory_order_relaxed);
    /* Every buffer comes back: current ones were closed by the kill, and
     * writers inside commit in a bounded number of steps. */
    while (atomic_load_explicit(&pool->free_count, memory_order_acquire) < pool->buffer_count) {
        if (drain(t) == 0)
            petw__yield();
    }
    int rc = atomic_load_explicit(&t->io_error, memory_order_relaxed) ? PETW_EIO : 0;
    if (t->has_file) {
        write_header(t);
        if (petw__file_close(&t->file) != 0)
            rc = PETW_EIO;
    }
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
        case REQ_TIMER:
            r->target->flush_timer_ms = r->arg;
            uv_timer_start(&r->target->timer, on_timer, r->arg, r->arg);
            r->result = 0;
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

static int submit(enum request_kind kind, petw__flush_target *t, uint32_t arg)
{
    uv_once(&start_once, start_fn);
    if (start_error)
        return start_error;
    request r;
    r.kind = kind;
    r.target = t;
    r.arg = arg;
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

int petw__flusher_attach(petw__flush_target *t)
{
    int rc = submit(REQ_ATTACH, t, 0);
    if (rc < 0)
        free_target_memory(t);
    return rc;
}
int petw__flusher_flush(petw__flush_target *t) { return submit(REQ_FLUSH, t, 0); }
int petw__flusher_set_timer(petw__flush_target *t, uint32_t ms) { return submit(REQ_TIMER, t, ms); }
int petw__flusher_detach(petw__flush_target *t) { return submit(REQ_DETACH, t, 0); }
