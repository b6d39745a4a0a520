/* SPDX-License-Identifier: MIT */
/* flush_file.c - the file destination: the header buffer, opening (new,
 * append, preallocated), finishing, and where each buffer goes in ETW's
 * file modes (sequential, circular, new-file). */
#include <stdio.h>
#include <stdlib.h>

#include "../../base/format/etl_record.h"
#include "../../base/platform/platform.h"
#include "flush_internal.h"

/* Events lost so far, for the header of the current file. */
uint32_t petw__flush_lost_now(const petw__flush_target *t)
{
    return atomic_load_explicit(&t->ring->own_counters.events_lost, memory_order_relaxed);
}

/* A write to the file failed with `rc`: the first cause is kept for the
 * session's end, PETW_ENOSPC (the disk is full) as itself, any other as
 * PETW_EIO. */
void petw__flush_io_failed(petw__flush_target *t, int rc)
{
    int none = 0;
    /* relaxed: a status read with the counters (flush, stop); the CAS keeps
     * the first cause. */
    atomic_compare_exchange_strong_explicit(&t->io_error, &none,
                                            rc == PETW_ENOSPC ? PETW_ENOSPC : PETW_EIO,
                                            memory_order_relaxed, memory_order_relaxed);
}

/* 0, or the first write failure's cause (petw__flush_io_failed). */
int petw__flush_io_status(petw__flush_target *t)
{
    return atomic_load_explicit(&t->io_error,
                                memory_order_relaxed); /* relaxed: as petw__flush_io_failed */
}

void petw__flush_write_header_to(petw__flush_target *t, petw__file *f, uint32_t data_buffers,
                                 uint32_t events_lost)
{
    t->info.buffers_written = 1 + data_buffers;
    t->info.events_lost = events_lost;
    t->info.buffers_lost = atomic_load_explicit(&t->log_buffers_lost, memory_order_relaxed);
    t->info.end_filetime = petw__filetime_now();
    /* A measured clock (the TSC) gets its frequency from this session's own
     * span once it is long enough: exact to the reference clock's accuracy. */
    if (petw__clock_is_measured(t->ring->clock)) {
        int64_t ticks, ns;
        petw__clock_pair(t->ring->clock, &ticks, &ns);
        int64_t dt = ns - t->reference_start_ns;
        int64_t dticks = ticks - t->info.start_timestamp;
        if (dt >= 1000000000LL && dticks > 0)
            t->info.perf_freq = (int64_t)((double)dticks * 1e9 / (double)dt + 0.5);
    }
    petw__etl_write_header_buffer(t->header_buffer, &t->info);
    int rc = petw__file_pwrite(f, t->header_buffer, t->info.buffer_size, 0);
    if (rc)
        petw__flush_io_failed(t, rc);
}

void petw__flush_write_header(petw__flush_target *t)
{
    if (!t->has_file)
        return;
    uint32_t data = t->file_buffers;
    if (is_circular(t))
        data =
            t->circular_next < t->circular_slots ? (uint32_t)t->circular_next : t->circular_slots;
    petw__flush_write_header_to(t, &t->file, data, petw__flush_lost_now(t) - t->lost_at_file_start);
    t->header_dirty = 0;
}

/* Opens t->path for a new recording (or, with APPEND, continues it). */
int petw__flush_open_file(petw__flush_target *t)
{
    int rc;
    t->file_buffers = 0;
    t->circular_next = 0;
    t->lost_at_file_start = petw__flush_lost_now(t);
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
    petw__flush_write_header(t);
    return petw__flush_io_status(t);
}

void petw__flush_finish_file(petw__flush_target *t)
{
    if (!t->has_file)
        return;
    petw__flush_write_header(t);
    if (t->mode & PETW_MODE_PREALLOCATE) {
        uint64_t end = t->file_offset;
        if (is_circular(t))
            end = (uint64_t)t->info.buffer_size * (1 + t->info.buffers_written - 1);
        petw__file_truncate(&t->file, end);
    }
    int rc = petw__file_close(&t->file);
    if (rc)
        petw__flush_io_failed(t, rc);
    t->has_file = 0;
}

/* The file name changes on the flusher thread while queries read it
 * (petw__flusher_path): both under rt_lock. */
void petw__flush_set_path(petw__flush_target *t, const char *path)
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
    petw__flush_finish_file(t);
    atomic_fetch_add_explicit(&t->files_completed, 1, memory_order_relaxed);
    t->file_number++;
    char next[sizeof(t->path)];
    snprintf(next, sizeof(next), t->pattern, (int)t->file_number);
    petw__flush_set_path(t, next);
    return petw__flush_open_file(t);
}

/* A buffer that did not reach its file: its events count as lost, so that
 * delivered + lost == written stays exact. */
void petw__flush_buffer_lost(petw__flush_target *t, uint32_t records)
{
    atomic_fetch_add_explicit(&t->log_buffers_lost, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&t->ring->own_counters.events_lost, records, memory_order_relaxed);
}

void petw__flush_send_to_file(petw__flush_target *t, const uint8_t *out, uint32_t size,
                              uint32_t records)
{
    uint64_t at;
    if (is_circular(t)) {
        at = (uint64_t)t->info.buffer_size * (1 + t->circular_next % t->circular_slots);
    } else {
        if (is_newfile(t) && t->file_buffers > 0 && t->file_offset + size > t->max_file_bytes &&
            next_newfile(t) != 0) {
            petw__flush_buffer_lost(t, records);
            return;
        }
        /* A sequential file with a cap stops growing at it (ETW). */
        if (!is_newfile(t) && t->max_file_bytes && t->file_offset + size > t->max_file_bytes) {
            petw__flush_buffer_lost(t, records);
            return;
        }
        at = t->file_offset;
    }
    int rc = t->has_file ? petw__file_pwrite(&t->file, out, size, at) : PETW_EIO;
    if (rc) {
        petw__flush_io_failed(t, rc);
        petw__flush_buffer_lost(t, records);
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
