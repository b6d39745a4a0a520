/* SPDX-License-Identifier: MIT */
/* flush_compress.c - a zstd session's buffers sealed and compressed on
 * worker threads, written in the order the flusher took them.
 *
 * The flusher numbers each full buffer (its header fields, sequence
 * included) and queues it in the session's pipeline; a bounded set of job
 * slots, each with its own zstd context and output room, is handed to the
 * workers (one per available CPU but one, shared by every session: the
 * flusher is a compressor too). The flusher writes finished jobs from the
 * oldest on, so the file holds the buffers in the order an inline flusher
 * would have written them, and compresses a queued job itself while the
 * oldest is unfinished. Buffers waiting for a slot stay out of the ring:
 * when compression falls behind, writers find no free buffer and count the
 * loss, as when the flusher itself falls behind.
 *
 * The workers are woken only when the flusher is behind: while fewer than
 * a quarter of the ring's buffers wait for compression, it compresses them
 * itself. A
 * hand-off costs two wakes and the buffer's bytes read on another CPU; on
 * two CPUs, a worker per buffer cost 60-80 ns of CPU per 144-byte event
 * where the flusher alone costs 52 (zstd's own cost: bench_floor_flush),
 * so the workers are the flusher's reserve, not its default.
 *
 * Ordering: every hand-off goes through work_mutex. A job's fields (the
 * buffer, taken from the ring with an acquire) are written by the flusher
 * before it queues the job under the mutex, and read by the worker after it
 * takes the job under the mutex; the worker's seal and compression happen
 * before it marks the job done under the mutex, and the flusher reads the
 * output only after seeing `done` under the mutex. The flusher then frees
 * the buffer to the ring (release), after the worker's last use of it.
 * A worker wakes the flusher only when the job it finished is its
 * pipeline's oldest (head, advanced by the flusher under the mutex): the
 * flusher re-reads `done` under the mutex after each advance, so a younger
 * job finished earlier is written without a wake of its own. */
#include <stdlib.h>

#include "flush_internal.h"

#define MAX_WORKERS 8
/* 2 MB of 64 KB buffers: what a polling flusher (flusher.c, every 1 ms)
 * finds at about 15 M events/s, a rate one CPU compresses alone (zstd level
 * 1: 53 ns per 144-byte event, bench_floor_flush). */
#define WAKE_AT_MAX 32

typedef struct job {
    petw__etl_packer *packer; /* this slot's zstd context and output room */
    petw__flush_pipeline *pipeline;
    uint64_t number; /* its place in the pipeline's hand-off order */
    uint32_t buffer;
    uint32_t records;
    petw__etl_buffer_info bi;
    uint8_t *buf;
    const uint8_t *out; /* the worker's result */
    uint32_t out_size;
    int done; /* guarded by work_mutex */
    struct job *next;
} job;

typedef struct waiting {
    uint32_t buffer;
    uint32_t records;
    petw__etl_buffer_info bi;
} waiting;

struct petw__flush_pipeline {
    uint32_t slots;
    uint64_t head;        /* the oldest job not yet written; guarded by work_mutex */
    uint64_t tail;        /* jobs handed to workers: [head, tail); flusher only */
    waiting *queue;       /* buffers taken, not yet handed: a FIFO */
    uint32_t queue_first; /* index of the oldest */
    uint32_t queue_count; /* how many */
    uint32_t queue_limit; /* the pool's buffer limit */
    job jobs[];
};

static uv_once_t workers_once = UV_ONCE_INIT;
static int workers_error;
/* Guards the work list, every job's `done` and output, each pipeline's
 * head, and flusher_waiting. */
static uv_mutex_t work_mutex;
static uv_cond_t work_cond; /* a job was queued */
static uv_cond_t done_cond; /* a job was done while the flusher waits */
static job *work_first, *work_last;
static int flusher_waiting; /* the flusher sleeps on done_cond */
static uint32_t worker_count;
static uint64_t worker_jobs; /* jobs the workers compressed; guarded by work_mutex */

/* Takes the oldest queued job, seals and compresses it, and marks it done;
 * work_mutex held on entry and on return, a job queued. */
static job *run_one(void)
{
    job *j = work_first;
    work_first = j->next;
    if (!work_first)
        work_last = NULL;
    uv_mutex_unlock(&work_mutex);
    uint32_t size;
    const uint8_t *out = petw__etl_seal_buffer(j->buf, &j->bi, j->packer, &size);
    uv_mutex_lock(&work_mutex);
    j->out = out;
    j->out_size = size;
    j->done = 1;
    return j;
}

static void worker_main(void *arg)
{
    (void)arg;
    uv_mutex_lock(&work_mutex);
    for (;;) {
        while (!work_first)
            uv_cond_wait(&work_cond, &work_mutex);
        job *j = run_one();
        worker_jobs++;
        if (flusher_waiting)
            uv_cond_signal(&done_cond);
        /* Only the oldest job lets the flusher write: a younger one is
         * written after it, when the flusher finds it done under the mutex. */
        if (j->number == j->pipeline->head) {
            uv_mutex_unlock(&work_mutex);
            petw__flush_wake_loop(); /* thread-safe; no system call if already woken */
            uv_mutex_lock(&work_mutex);
        }
    }
}

static void start_workers(void)
{
    unsigned n = uv_available_parallelism();
    /* The flusher compresses too: with it, one compressing thread per CPU
     * (on two CPUs, one worker cost 62-65 ns of CPU per event in a
     * saturated run, two 73-80, for the same throughput or less). */
    worker_count = n <= 2 ? 1 : n - 1 > MAX_WORKERS ? MAX_WORKERS : n - 1;
    if (uv_mutex_init(&work_mutex) != 0 || uv_cond_init(&work_cond) != 0 ||
        uv_cond_init(&done_cond) != 0) {
        workers_error = PETW_ENOMEM;
        return;
    }
    uint32_t started = 0;
    for (uint32_t i = 0; i < worker_count; i++) {
        uv_thread_t th;
        if (uv_thread_create(&th, worker_main, NULL) == 0)
            started++;
    }
    if (started == 0)
        workers_error = PETW_ENOMEM;
    worker_count = started;
}

int petw__flush_pipeline_new(petw__flush_target *t, uint32_t buffer_limit)
{
    uv_once(&workers_once, start_workers);
    if (workers_error)
        return workers_error;
    uint32_t slots = 2 * (worker_count + 1); /* the workers' and the flusher's next jobs */
    petw__flush_pipeline *p = calloc(1, sizeof(*p) + slots * sizeof(job));
    if (!p)
        return PETW_ENOMEM;
    p->slots = slots;
    p->queue_limit = buffer_limit;
    p->queue = calloc(buffer_limit ? buffer_limit : 1, sizeof(waiting));
    int ok = p->queue != NULL;
    for (uint32_t i = 0; i < slots && ok; i++)
        ok = (p->jobs[i].packer = petw__etl_packer_new(t->info.buffer_size)) != NULL;
    t->pipeline = p;
    if (!ok) {
        petw__flush_pipeline_free(t);
        return PETW_ENOMEM;
    }
    return 0;
}

void petw__flush_pipeline_free(petw__flush_target *t)
{
    petw__flush_pipeline *p = t->pipeline;
    if (!p)
        return;
    for (uint32_t i = 0; i < p->slots; i++)
        petw__etl_packer_free(p->jobs[i].packer);
    free(p->queue);
    free(p);
    t->pipeline = NULL;
}

/* Hands waiting buffers to free slots, oldest first; work_mutex held. */
static void refill(petw__flush_target *t, petw__flush_pipeline *p)
{
    if (!p->queue_count || p->tail - p->head >= p->slots)
        return;
    petw__pool *pool = atomic_load_explicit(&t->ring->pool, memory_order_relaxed);
    /* Behind (a quarter of the ring's buffers waiting, at least 2 and at
     * most WAKE_AT_MAX): the workers help. Otherwise the flusher's collect()
     * compresses the queued jobs itself (a worker already awake may still
     * take one). relaxed: buffer_count grows on this thread (petw__ring_grow). */
    uint32_t wake_at = atomic_load_explicit(&pool->buffer_count, memory_order_relaxed) / 4;
    wake_at = wake_at < 2 ? 2 : wake_at > WAKE_AT_MAX ? WAKE_AT_MAX : wake_at;
    int behind = p->queue_count + (p->tail - p->head) >= wake_at;
    while (p->queue_count && p->tail - p->head < p->slots) {
        waiting *w = &p->queue[p->queue_first];
        p->queue_first = (p->queue_first + 1) % p->queue_limit;
        p->queue_count--;
        job *j = &p->jobs[p->tail % p->slots]; /* free: its last job was written */
        j->pipeline = p;
        j->number = p->tail++;
        j->buffer = w->buffer;
        j->records = w->records;
        j->bi = w->bi;
        j->buf = petw__pool_buffer(pool, w->buffer);
        j->done = 0;
        j->next = NULL;
        if (work_last)
            work_last->next = j;
        else
            work_first = j;
        work_last = j;
        if (behind)
            uv_cond_signal(&work_cond);
    }
}

void petw__flush_pipeline_put(petw__flush_target *t, uint32_t buffer, uint32_t records,
                              const petw__etl_buffer_info *bi)
{
    petw__flush_pipeline *p = t->pipeline;
    /* Never full: a buffer is taken from the ring once until it is freed. */
    waiting *w = &p->queue[(p->queue_first + p->queue_count) % p->queue_limit];
    p->queue_count++;
    w->buffer = buffer;
    w->records = records;
    w->bi = *bi;
    uv_mutex_lock(&work_mutex);
    refill(t, p);
    uv_mutex_unlock(&work_mutex);
}

/* Writes the finished jobs from the oldest on, and compresses queued jobs
 * itself while the oldest is unfinished (workers that wait for a CPU do not
 * hold the session back: at worst the flusher compresses everything, as
 * without workers). `wait`: until none is left, sleeping while the oldest
 * is being compressed by a worker. Returns how many it wrote. */
static uint32_t collect(petw__flush_target *t, petw__flush_pipeline *p, int wait)
{
    uint32_t n = 0;
    uv_mutex_lock(&work_mutex);
    while (p->head != p->tail) {
        job *j = &p->jobs[p->head % p->slots];
        if (!j->done && work_first) {
            job *other = run_one(); /* any session's: the oldest queued */
            /* Another session's oldest: its drain runs on the next wake. */
            if (other->pipeline != p && other->number == other->pipeline->head)
                petw__flush_wake_loop();
            continue;
        }
        while (wait && !j->done) {
            flusher_waiting = 1;
            uv_cond_wait(&done_cond, &work_mutex);
            flusher_waiting = 0;
        }
        if (!j->done)
            break;
        uv_mutex_unlock(&work_mutex);
        petw__flush_deliver(t, j->buffer, j->buf, j->out, j->out_size, j->records);
        n++;
        uv_mutex_lock(&work_mutex);
        p->head++; /* a worker finishing the next job now wakes the flusher */
        refill(t, p);
    }
    uv_mutex_unlock(&work_mutex);
    return n;
}

uint32_t petw__flush_pipeline_collect(petw__flush_target *t)
{
    return t->pipeline ? collect(t, t->pipeline, 0) : 0;
}

void petw__flush_pipeline_wait(petw__flush_target *t)
{
    if (t->pipeline)
        collect(t, t->pipeline, 1);
}

uint64_t petw__flush_worker_jobs(void)
{
    uv_once(&workers_once, start_workers);
    if (workers_error)
        return 0;
    uv_mutex_lock(&work_mutex);
    uint64_t n = worker_jobs;
    uv_mutex_unlock(&work_mutex);
    return n;
}
