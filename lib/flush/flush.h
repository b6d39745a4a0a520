/* flush.h - the flusher: one libuv event-loop thread shared by every
 * session. It is woken by uv_async when a buffer is ready and by a uv_timer
 * per session (FlushTimer); it seals ready buffers (format/), writes them to
 * the session's file or sink, and returns them to the ring's free stack.
 * Writers never wait for it.
 *
 * Allowed dependencies: common/, platform/, ring/, format/, libuv.
 */
#ifndef PETW_FLUSH_H
#define PETW_FLUSH_H

#include <stdatomic.h>
#include <uv.h>

#include "../format/etl.h"
#include "../ring/ring.h"
#include "petw/session.h"

typedef struct petw__flush_target {
    petw__ring *ring;
    int has_file;
    petw__file file;
    petw_buffer_sink sink;
    void *sink_context;
    petw__etl_session_info info; /* header content; info.buffers_written counts on disk */
    uint32_t petw_flags;
    int zstd_level;
    int64_t reference_start_ns; /* petw__clock_reference() at start */
    /* Flusher-thread state. */
    uint64_t file_offset;
    int64_t sequence;
    uint8_t *header_buffer;
    uint8_t *scratch;
    uint32_t *ready;       /* room for every buffer index */
    uint32_t *write_count; /* per buffer: times written, for flush waits */
    int header_dirty;
    uv_timer_t timer;
    int timer_initialized;
    uint32_t flush_timer_ms;
    /* Read by queries from other threads. */
    _Atomic uint32_t buffers_written;  /* data buffers, header excluded */
    _Atomic uint32_t log_buffers_lost; /* buffers that failed to reach the file */
    _Atomic int io_error;
} petw__flush_target;

/* Allocates the target's flusher-side memory, writes the file's header
 * buffer, and starts its timer. Returns 0, PETW_ENOMEM or a file error. */
int petw__flusher_attach(petw__flush_target *t);
/* Closes every CPU's partly filled buffer and waits until they are written. */
int petw__flusher_flush(petw__flush_target *t);
/* Changes the flush timer. */
int petw__flusher_set_timer(petw__flush_target *t, uint32_t ms);
/* Kills the ring, writes everything, finalizes the header, closes the file,
 * frees the pool. After it returns no writer touches the pool. */
int petw__flusher_detach(petw__flush_target *t);
/* The ring's on_ready callback: wakes the flusher (a system call only when
 * it is not already awake). */
void petw__flusher_wake(petw__ring *ring);

#endif
