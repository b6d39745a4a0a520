/* SPDX-License-Identifier: MIT */
/* petw/session_types.h - what describes a session: its handle, its
 * configuration and its counters (petw/session.h's functions take them);
 * and the files petw writes, created as trace files are. The session
 * engine implements petw_session_config_init and petw_file_create_private. */
#ifndef PETW_SESSION_TYPES_H
#define PETW_SESSION_TYPES_H

#include <stdint.h>
#include <stdio.h>

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
    uint32_t transport;              /* PETW_TRANSPORT_*: where the session lives */
} petw_session_config;

/* Where a session lives, chosen when it starts; every other call takes its
 * handle and reaches it wherever it is. */
#define PETW_TRANSPORT_IN_PROCESS 0 /* this process: it ends with the process */
#define PETW_TRANSPORT_HOST                                                                        \
    1 /* a session host process of its own (petw/shared.h):                                        \
       * any process of the user can reach it, and it                                              \
       * outlives the controller, as ETW's sessions do */

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
    uint32_t system_limits;   /* a system session: PETW_SYSTEM_LIMIT_* the OS imposed */
    /* Events in the data buffers that reached the file, the sink or (no
     * file) the real-time consumers; BUFFERING keeps its events in memory
     * and counts none here. */
    uint64_t events_written;
} petw_session_stats;

/* petw_file_create_private's flags. */
#define PETW_FILE_REPLACE 0x1u /* replace a link or a file of the caller's at the path */

/* Creates the file `path` as petw creates trace files, and opens it for
 * writing: readable and writable by the calling user alone (mode 0600; on
 * Windows a DACL for the user and SYSTEM), exclusively, never through a
 * symbolic link. petw's tools write their output files (petw convert -o)
 * through it.
 *   path:  UTF-8.
 *   flags: 0 refuses anything at `path` (PETW_EEXIST, a dangling link
 *          included); PETW_FILE_REPLACE first removes what may be replaced:
 *          a symbolic link (the link itself, never its target) or a regular
 *          file the caller owns (removed, not truncated: another hard link
 *          to it keeps its data).
 *   out:   the open file as a stdio stream (text mode on Windows, as
 *          fopen's "w"); the caller fcloses it. NULL on failure.
 * Returns 0; PETW_EINVAL (a NULL argument, an unknown flag); PETW_EEXIST
 * (something is at `path` without PETW_FILE_REPLACE, or another process
 * created it between the removal and the creation); PETW_ENOTREG (with
 * PETW_FILE_REPLACE: a directory, FIFO or device is there, and stays);
 * PETW_EACCES (another user's file is there, or the folder refuses);
 * PETW_ENOENT (no such folder), PETW_ENOSPC, PETW_ENOMEM or PETW_EIO. */
int petw_file_create_private(const char *path, uint32_t flags, FILE **out);

#ifdef __cplusplus
}
#endif
#endif /* PETW_SESSION_TYPES_H */
