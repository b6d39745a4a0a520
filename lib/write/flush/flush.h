/* SPDX-License-Identifier: MIT */
/* flush.h - the flusher: one libuv event-loop thread shared by every
 * session. It is woken by uv_async when a buffer is ready and by a uv_timer
 * per session (FlushTimer); it seals ready buffers (format/), sends them to
 * the session's destination (a file in one of ETW's modes, a sink, the
 * retained queue of a buffering session, real-time consumers) and returns
 * them to the ring. Writers never wait for it. A zstd file session's
 * buffers are compressed on worker threads (one per available CPU) and
 * written in the order the flusher took them.
 *
 * Allowed dependencies: common/, platform/, ring/, format/, libuv.
 */
#ifndef PETW_FLUSH_H
#define PETW_FLUSH_H

#include <stdatomic.h>
#include <uv.h>

#include "../../base/common/bufqueue.h"
#include "../../base/format/etl.h"
#include "../ring/ring.h"

#define PETW__MAX_REALTIME_CONSUMERS 8

typedef struct petw__flush_pipeline petw__flush_pipeline;

typedef struct petw__flush_target {
    petw__ring *ring;
    /* Destination, set before attach. */
    uint32_t mode;               /* PETW_MODE_* */
    uint64_t max_file_bytes;     /* circular/new-file/preallocate cap; 0: none */
    char path[PETW_MAX_NAME];    /* current file (new-file: the expanded name) */
    char pattern[PETW_MAX_NAME]; /* new-file: the name with %d */
    int has_file;
    petw__file file;
    petw_buffer_sink sink;
    void *sink_context;
    petw__etl_session_info info; /* header content */
    uint32_t petw_flags;
    int zstd_level;
    int64_t reference_start_ns; /* petw__clock_reference() at start */
    /* Flusher-thread state. */
    uint64_t file_offset;
    int64_t sequence;
    uint32_t file_buffers; /* data buffers in the current file */
    uint32_t file_number;  /* new-file: 1, 2, 3, ... */
    uint32_t lost_at_file_start;
    uint32_t circular_slots; /* circular: data buffers the cap holds */
    uint64_t circular_next;  /* circular: data buffers written so far */
    uint8_t *header_buffer;
    petw__etl_packer *packer;       /* zstd sessions: compresses each buffer */
    petw__flush_pipeline *pipeline; /* zstd files: the workers' jobs (flush_compress.c) */
    uint32_t *ready;                /* room for every buffer index */
    int header_dirty;
    uv_timer_t timer;
    int timer_initialized;
    uint32_t flush_timer_ms;
    /* Real-time consumers, and `path` while the flusher changes it;
     * guarded by rt_lock (the flusher, attachers and queries). */
    uv_mutex_t rt_lock;
    int rt_lock_ready;
    petw__bufqueue *consumers[PETW__MAX_REALTIME_CONSUMERS];
    /* Read by queries from other threads. */
    _Atomic uint32_t buffers_written;  /* data buffers sent to the destination */
    _Atomic uint64_t events_written;   /* the events in them */
    _Atomic uint32_t log_buffers_lost; /* buffers that failed to reach the file */
    _Atomic uint32_t real_time_buffers_lost;
    _Atomic uint64_t real_time_events_lost;
    _Atomic uint32_t files_completed; /* new-file: files closed so far */
    _Atomic int io_error;             /* 0, or the first write failure: PETW_ENOSPC or PETW_EIO */
} petw__flush_target;

/* Allocates the target's flusher-side memory, creates or opens the file as
 * the mode says, writes its header buffer, and starts its timer. Returns 0,
 * PETW_ENOMEM, PETW_EINVAL (APPEND to an incompatible file) or a file error. */
int petw__flusher_attach(petw__flush_target *t);
/* Closes every CPU's partly filled buffer and waits until they are written. */
int petw__flusher_flush(petw__flush_target *t);
/* Buffering mode: writes a snapshot (one contiguous run of the newest
 * events, none later than `upto`, a timestamp of the session's clock, or
 * INT64_MAX for now) to `path` without stopping or draining the session. */
int petw__flusher_snapshot(petw__flush_target *t, const char *path, int64_t upto);
/* Changes the flush timer. */
int petw__flusher_set_timer(petw__flush_target *t, uint32_t ms);
/* Finishes the current file and continues in a new one at `path`. */
int petw__flusher_switch_file(petw__flush_target *t, const char *path);
/* The file being written now (any thread; it changes on the flusher's). */
void petw__flusher_path(petw__flush_target *t, char *out, size_t size);
/* Grows the ring's pool to `count` buffers. */
int petw__flusher_grow(petw__flush_target *t, uint32_t count);
/* Adds a real-time consumer queue (the target takes a reference). */
int petw__flusher_add_consumer(petw__flush_target *t, petw__bufqueue *q);
/* Kills the ring, writes everything, finalizes the header, closes the file,
 * ends real-time consumers, frees the pool. After it returns no writer
 * touches the pool. */
int petw__flusher_detach(petw__flush_target *t);
/* The ring's on_ready callback: wakes the flusher (a system call only when
 * it is not already awake), or nothing while the flusher polls the ready
 * stacks (it found buffers at its last look: it looks again within 1 ms). */
void petw__flusher_wake(petw__ring *ring);
/* How many wakes writers sent the flusher since the process started (any
 * thread; for tests and diagnostics). */
uint64_t petw__flusher_writer_wakes(void);

#endif
