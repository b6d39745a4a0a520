/* SPDX-License-Identifier: MIT */
/* flush_internal.h - what the flusher's files share: the file destination
 * (flush_file.c), snapshots (flush_snapshot.c), the compression workers
 * (flush_compress.c) and the loop (flusher.c).
 * Everything here runs on the flusher thread unless it says otherwise. */
#ifndef PETW_FLUSH_INTERNAL_H
#define PETW_FLUSH_INTERNAL_H

#include "flush.h"

static inline int64_t now_ts(const petw__flush_target *t)
{
    return petw__clock_read(t->ring->clock);
}

static inline int is_buffering(const petw__flush_target *t)
{
    return (t->mode & PETW_MODE_BUFFERING) != 0;
}
static inline int is_circular(const petw__flush_target *t)
{
    return (t->mode & PETW_MODE_CIRCULAR) != 0;
}
static inline int is_newfile(const petw__flush_target *t)
{
    return (t->mode & PETW_MODE_NEWFILE) != 0;
}

/* Events lost so far, for the header of the current file. */
uint32_t petw__flush_lost_now(const petw__flush_target *t);
/* A write to the file failed with `rc`: the first cause is kept (any thread). */
void petw__flush_io_failed(petw__flush_target *t, int rc);
/* 0, or the first write failure's cause (any thread). */
int petw__flush_io_status(petw__flush_target *t);
/* Writes the header buffer describing `data_buffers` buffers to `f`. */
void petw__flush_write_header_to(petw__flush_target *t, petw__file *f, uint32_t data_buffers,
                                 uint32_t events_lost);
/* Rewrites the current file's header (nothing without a file). */
void petw__flush_write_header(petw__flush_target *t);
/* Opens t->path for a new recording (or, with APPEND, continues it). */
int petw__flush_open_file(petw__flush_target *t);
/* Writes the header, trims a preallocated file and closes it. */
void petw__flush_finish_file(petw__flush_target *t);
/* Changes t->path under rt_lock (queries read it from other threads). */
void petw__flush_set_path(petw__flush_target *t, const char *path);
/* Counts a buffer that did not reach its file, with its events. */
void petw__flush_buffer_lost(petw__flush_target *t, uint32_t records);
/* Writes one sealed buffer (`size` bytes, `records` events) where the mode
 * puts it, moving to the next file or counting it lost as the mode says. */
void petw__flush_send_to_file(petw__flush_target *t, const uint8_t *out, uint32_t size,
                              uint32_t records);
/* Closes every CPU's buffer, waits until each is delivered, then writes what
 * is ready (buffering sessions keep it). 0 or PETW_ENOMEM. */
int petw__flush_close_and_wait(petw__flush_target *t);
/* Writes a buffering session's snapshot to `path` (petw__flusher_snapshot). */
int petw__flush_snapshot(petw__flush_target *t, const char *path, int64_t limit);
/* Sends one sealed buffer `b` (`buf` in the pool; `out`, `out_size`: what
 * goes to the file or sink) to the consumers and the destination, then
 * returns it to the ring. */
void petw__flush_deliver(petw__flush_target *t, uint32_t b, uint8_t *buf, const uint8_t *out,
                         uint32_t out_size, uint32_t records);
/* Wakes the flusher's loop (any thread). */
void petw__flush_wake_loop(void);

/* flush_compress.c. Starts the workers on first use and gives `t` its
 * pipeline (job slots with their zstd contexts, room for `buffer_limit`
 * waiting buffers). 0 or PETW_ENOMEM. */
int petw__flush_pipeline_new(petw__flush_target *t, uint32_t buffer_limit);
/* Frees the pipeline; nothing may be in it (petw__flush_pipeline_wait). */
void petw__flush_pipeline_free(petw__flush_target *t);
/* Queues buffer `b`, taken from the ring and described by `bi`, for sealing
 * and compression on a worker; never waits. */
void petw__flush_pipeline_put(petw__flush_target *t, uint32_t b, uint32_t records,
                              const petw__etl_buffer_info *bi);
/* Writes the buffers the workers finished, oldest first, up to the first
 * unfinished one; returns how many. 0 without a pipeline. */
uint32_t petw__flush_pipeline_collect(petw__flush_target *t);
/* Waits until every queued buffer is compressed and written. */
void petw__flush_pipeline_wait(petw__flush_target *t);
/* How many buffers the workers compressed since the process started (the
 * rest, the flusher itself); any thread. For tests and diagnostics. */
uint64_t petw__flush_worker_jobs(void);

#endif
