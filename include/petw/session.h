/* SPDX-License-Identifier: MIT */
/* petw/session.h - the controller side: start, enable, query, flush, stop.
 *
 * A session owns a pool of fixed-size buffers, one current buffer per CPU,
 * and a destination: an ETL file, an in-memory sink callback, or nothing
 * (buffers are counted and recycled).
 *
 * One interface, two transports. config.transport chooses where a session
 * lives when it starts: in this process (PETW_TRANSPORT_IN_PROCESS, the
 * default here) or in a session host of its own (PETW_TRANSPORT_HOST, what
 * StartTrace gives unless asked for a private logger; see petw/shared.h).
 * Every other function takes the handle and means the same on both: the
 * same modes, the same loss accounting, the same errors. find and list see
 * both kinds (this process's first). A host session's `sink` must be NULL.
 *
 * Thread safety: all functions may be called from any thread; they are
 * serialized with each other by one control lock (in-process sessions) or
 * by the session's host. Writers (petw_event_write) are never blocked by
 * them.
 */
#ifndef PETW_SESSION_H
#define PETW_SESSION_H

#include <stdint.h>

#include "error.h"
#include "session_types.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Starts a session.
 * Returns 0, PETW_EINVAL (NULL/empty name, bad sizes or mode),
 * PETW_ENAMETOOLONG (name or path of PETW_MAX_NAME bytes or more; a NEWFILE
 * pattern needs 10 more for its number), PETW_EEXIST
 * (name in use), PETW_ELIMIT (64 sessions), PETW_ENOMEM, or a file error
 * (PETW_EACCES, PETW_ENOENT, PETW_EIO) from creating the file. The file is
 * created with owner-only permissions; an existing file is replaced, a
 * symbolic link at the path is replaced and never followed. */
/* With PETW_TRANSPORT_HOST, also PETW_ELIMIT (64 shared sessions),
 * PETW_ENOHOST (no host could be started), PETW_ENOTSUP (a platform without
 * shared sessions) or an error of the runtime directory. */
int petw_session_start(const petw_session_config *config, petw_session_handle *out);

/* Finds a running session by name. Returns 0 or PETW_ENOTFOUND. */
int petw_session_find(const char *name, petw_session_handle *out);

/* Lists running sessions: this process's, then the user's shared ones.
 * `count` receives how many run (may exceed max). Fails with the runtime
 * directory's error when shared sessions cannot be seen (petw/shared.h's
 * petw_shared_runtime_dir names it). */
int petw_session_list(petw_session_handle *out, uint32_t max, uint32_t *count);

/* Enables a provider GUID in a session (also providers registered later).
 * level 0 means 255; match_any 0 means all keywords. Calling it again
 * updates the level and keywords. Returns 0, PETW_ENOTFOUND (bad session),
 * PETW_EINVAL, or PETW_ELIMIT (8 sessions already enable this GUID). */
int petw_session_enable_provider(petw_session_handle session, const petw_guid *provider,
                                 uint8_t level, uint64_t match_any, uint64_t match_all);

/* Disables a provider GUID in a session. Returns 0 or PETW_ENOTFOUND. */
int petw_session_disable_provider(petw_session_handle session, const petw_guid *provider);

/* Asks every process that registers `provider` to log its state: their
 * enable callbacks run with PETW_CONTROL_CAPTURE_STATE, this process's
 * before the call returns, others' soon after (as ETW's
 * EVENT_CONTROL_CODE_CAPTURE_STATE). 0, or PETW_ENOTFOUND when the session
 * does not enable `provider` (or is gone). */
int petw_session_capture_state(petw_session_handle session, const petw_guid *provider);

/* Fills `stats` with the session's settings and counters.
 * Returns 0, or PETW_ENOTFOUND (stale or unknown handle). */
int petw_session_query(petw_session_handle session, petw_session_stats *stats);

/* Writes every partly filled buffer and waits until the file has them;
 * `stats` (may be NULL) receives the counters after the flush.
 * Returns 0, PETW_ENOTFOUND, PETW_ENOSPC (the disk is full) or PETW_EIO (a
 * buffer could not be written since the session started: its events count
 * in events_lost, the buffer in log_buffers_lost; `stats` is filled all the
 * same) or PETW_ENOMEM. */
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
 * NULL) receives the final counters. Returns 0, PETW_ENOTFOUND, or, when
 * some buffer or the final header could not be written, why: PETW_ENOSPC
 * (the disk is full) or PETW_EIO (another write error); the session is
 * stopped all the same and `stats` holds its final figures, the lost
 * buffers and their events counted. */
int petw_session_stop(petw_session_handle session, petw_session_stats *stats);

#ifdef __cplusplus
}
#endif
#endif /* PETW_SESSION_H */
