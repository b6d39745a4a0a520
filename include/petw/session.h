/* petw/session.h - the controller side: start, enable, query, flush, stop.
 *
 * A session owns a pool of fixed-size buffers, one current buffer per CPU,
 * and a destination: an ETL file, an in-memory sink callback, or nothing
 * (buffers are counted and recycled). Sessions live in this process.
 *
 * Thread safety: all functions may be called from any thread; they are
 * serialized with each other by one control lock. Writers (petw_event_write)
 * are never blocked by them.
 */
#ifndef PETW_SESSION_H
#define PETW_SESSION_H

#include <stdint.h>

#include "error.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A running session: a generation-tagged slot number. 0 is never valid. */
typedef uint64_t petw_session_handle;

typedef struct petw_session_config {
    const char *name;              /* UTF-8 logger name; required, unique */
    const char *file_path;         /* UTF-8 .etl path, or NULL for no file */
    uint32_t buffer_size_kb;       /* 0: 64; 1..16384 */
    uint32_t minimum_buffers;      /* 0: 2 per CPU */
    uint32_t maximum_buffers;      /* 0: minimum + 20; never below minimum */
    uint32_t flush_timer_ms;       /* 0: 1000; how stale a partly filled buffer may get */
    uint32_t log_file_mode;        /* PETW_MODE_*; 0 means SEQUENTIAL with a file */
    uint32_t maximum_file_size_kb; /* the cap for CIRCULAR, NEWFILE, PREALLOCATE,
                                    * or a sequential limit; 0: none */
    uint32_t clock;                /* PETW_CLOCK_*; 0 means QPC */
    uint32_t flags;                /* PETW_SESSION_* */
    int zstd_level;                /* with PETW_SESSION_ZSTD; 0: 1 */
    petw_buffer_sink sink;         /* with no file: optional */
    void *sink_context;
    uint32_t loss_policy;       /* PETW_LOSS_*; BUFFERING implies OVERWRITE_OLDEST */
    uint32_t block_timeout_ms;  /* with PETW_LOSS_BLOCK */
    uint32_t real_time_buffers; /* per live consumer queue; 0: maximum_buffers */
    /* The system provider (the NT Kernel Logger's events, from the OS:
     * perf_event_open on Linux). PETW_SYSTEM_* groups to record (the
     * EVENT_TRACE_FLAG_* values); 0: none. petw_session_start returns
     * PETW_ENOTSUP where the OS gives no such events, PETW_EACCES when it
     * refuses them (see docs/kernel-events.md for what each needs). */
    uint32_t system_flags;
    uint32_t system_stack_flags;     /* PETW_SYSTEM_* whose events get a StackWalk event */
    uint32_t profile_interval_100ns; /* PETW_SYSTEM_PROFILE's sample interval; 0: 10000 (1 ms) */
    uint32_t system_target_pid;      /* 0: every process; else this process and its
                                      * descendants (what an unprivileged user may trace) */
    uint32_t reserved[1];
} petw_session_config;

/* Fills `config` with the defaults above (name and file NULL). */
void petw_session_config_init(petw_session_config *config);

/* Counters and settings of a session (the output fields of
 * EVENT_TRACE_PROPERTIES). */
typedef struct petw_session_stats {
    uint32_t logger_id;
    uint32_t buffer_size_kb;
    uint32_t minimum_buffers;
    uint32_t maximum_buffers;
    uint32_t flush_timer_ms;
    uint32_t log_file_mode;
    uint32_t clock;
    uint32_t number_of_buffers;
    uint32_t free_buffers;
    uint32_t events_lost;
    uint32_t buffers_written;
    uint32_t log_buffers_lost;
    uint32_t real_time_buffers_lost;
    uint32_t maximum_file_size_kb;
    uint32_t enable_flags;
    uint32_t files_completed;       /* NEWFILE: files finished so far */
    uint64_t events_overwritten;    /* BUFFERING: events in recycled buffers */
    uint64_t real_time_events_lost; /* events in real-time buffers a consumer missed */
    char name[PETW_MAX_NAME];
    char file_path[PETW_MAX_NAME];
    uint32_t host_process_id; /* the process that owns the session (a shared
                               * session's host; else this process) */
    uint32_t reserved_stats;
    /* Events in the data buffers that reached the file, the sink or (no
     * file) the real-time consumers; BUFFERING keeps its events in memory
     * and counts none here. */
    uint64_t events_written;
} petw_session_stats;

/* Starts a session.
 * Returns 0, PETW_EINVAL (NULL/empty name, bad sizes or mode),
 * PETW_ENAMETOOLONG (name or path of PETW_MAX_NAME bytes or more; a NEWFILE
 * pattern needs 10 more for its number), PETW_EEXIST
 * (name in use), PETW_ELIMIT (64 sessions), PETW_ENOMEM, or a file error
 * (PETW_EACCES, PETW_ENOENT, PETW_EIO) from creating the file. The file is
 * created with owner-only permissions; an existing file is replaced, a
 * symbolic link at the path is replaced and never followed. */
int petw_session_start(const petw_session_config *config, petw_session_handle *out);

/* Finds a running session by name. Returns 0 or PETW_ENOTFOUND. */
int petw_session_find(const char *name, petw_session_handle *out);

/* Lists running sessions. `count` receives how many run (may exceed max). */
int petw_session_list(petw_session_handle *out, uint32_t max, uint32_t *count);

/* Enables a provider GUID in a session (also providers registered later).
 * level 0 means 255; match_any 0 means all keywords. Calling it again
 * updates the level and keywords. Returns 0, PETW_ENOTFOUND (bad session),
 * PETW_EINVAL, or PETW_ELIMIT (8 sessions already enable this GUID). */
int petw_session_enable_provider(petw_session_handle session, const petw_guid *provider,
                                 uint8_t level, uint64_t match_any, uint64_t match_all);

/* Disables a provider GUID in a session. Returns 0 or PETW_ENOTFOUND. */
int petw_session_disable_provider(petw_session_handle session, const petw_guid *provider);

/* Fills `stats` with the session's settings and counters.
 * Returns 0, or PETW_ENOTFOUND (stale or unknown handle). */
int petw_session_query(petw_session_handle session, petw_session_stats *stats);

/* Writes every partly filled buffer and waits until the file has them;
 * `stats` (may be NULL) receives the counters after the flush.
 * Returns 0, PETW_ENOTFOUND, PETW_EIO (a buffer could not be written: its
 * events count in events_lost, the buffer in log_buffers_lost) or
 * PETW_ENOMEM. */
int petw_session_flush(petw_session_handle session, petw_session_stats *stats);

/* Changes the flush timer (ms) and the buffer limit of a running session;
 * 0 keeps a value. The pool grows up to 4x its starting size (the address
 * space is reserved at start); shrinking keeps the buffers already made.
 * Returns 0, PETW_ENOTFOUND, PETW_EINVAL or PETW_ENOMEM. */
int petw_session_update(petw_session_handle session, uint32_t flush_timer_ms,
                        uint32_t maximum_buffers);

/* Finishes the current log file (complete and readable) and continues in a
 * new file at `path`, while writers run. Returns 0, PETW_ENOTFOUND,
 * PETW_EINVAL (a buffering or file-less session) or a file error. */
int petw_session_switch_file(petw_session_handle session, const char *path);

/* BUFFERING sessions: writes what the pool holds (one contiguous run of the
 * newest events, up to now) to a new ETL file at `path`, without stopping
 * or draining the session. Returns 0, PETW_ENOTFOUND, PETW_EINVAL (not a
 * buffering session) or a file error. */
int petw_session_snapshot(petw_session_handle session, const char *path);

/* Stops the session: disables it everywhere, writes every buffer, finalizes
 * the file header (BuffersWritten, EndTime, EventsLost), closes the file and
 * frees the pool. Safe while other threads write events. `stats` (may be
 * NULL) receives the final counters. Returns 0, PETW_ENOTFOUND, or PETW_EIO
 * when some buffer or the final header could not be written (the session is
 * stopped all the same; lost buffers are counted in the stats). */
int petw_session_stop(petw_session_handle session, petw_session_stats *stats);

#ifdef __cplusplus
}
#endif
#endif /* PETW_SESSION_H */
