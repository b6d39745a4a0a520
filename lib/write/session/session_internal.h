/* SPDX-License-Identifier: MIT */
/* session_internal.h - session functions not in the public API. */
#ifndef PETW_SESSION_INTERNAL_H
#define PETW_SESSION_INTERNAL_H

#include "../../base/common/bufqueue.h"
#include "../../base/common/filter.h"
#include "petw/session_types.h"

/* Runs the enable callbacks of `provider` with CAPTURE_STATE, when the
 * session enables it. Returns 0, PETW_ENOTFOUND or PETW_EINVAL. */
int petw__session_capture_state(petw_session_handle session, const petw_guid *provider);

/* As petw_session_enable_provider, with event filters and enable
 * properties (`filter` NULL: none). PETW_EINVAL for a filter that fails
 * petw__filter_check. */
int petw__session_enable_filtered(petw_session_handle session, const petw_guid *provider,
                                  uint8_t level, uint64_t match_any, uint64_t match_all,
                                  const petw__enable_filter *filter);

/* EnableFlags (ControlTrace UPDATE): a system session records what they
 * name from then on; another session keeps them for queries. */
int petw__session_set_enable_flags(petw_session_handle session, uint32_t flags);
/* A system session's settings (NULL: unchanged): its PETW_SYSTEM_* flags,
 * the ones with stacks, the sample interval. The system provider restarts.
 * On another session only the flags are kept (as ETW keeps them); stacks
 * or an interval are PETW_ENOTSUP there. */
int petw__session_set_system(petw_session_handle session, const uint32_t *flags,
                             const uint32_t *stack_flags, const uint32_t *interval_100ns);
/* The system groups a session records from now on (TraceSetInformation's
 * TraceSystemTraceEnableFlagsInfo): as petw__session_set_system's flags,
 * except that a session that records none becomes a system session. */
int petw__session_set_system_groups(petw_session_handle session, uint32_t flags);

/* The session's normalized log file mode. */
int petw__session_mode(petw_session_handle session, uint32_t *mode);

/* For real-time consumers (lib/read/realtime/): a malloc'ed header buffer that
 * describes the running real-time session `session` as a file's would, its
 * size, and the session's per-consumer queue length. Returns 0,
 * PETW_ENOTFOUND, PETW_EINVAL (not a real-time session) or PETW_ENOMEM. */
int petw__session_realtime_header(petw_session_handle session, uint8_t **header, uint32_t *size,
                                  uint32_t *queue_buffers);

/* Attaches a consumer queue to the session's flusher (which takes a
 * reference). Returns 0, PETW_ENOTFOUND or PETW_ELIMIT. */
int petw__session_add_consumer(petw_session_handle session, petw__bufqueue *queue);
/* `buffers` more buffers never reached a real-time consumer (a queue
 * whose consumer went, ended with buffers in it): RealTimeBuffersLost.
 * Nothing when the session is gone. */
void petw__session_count_realtime_lost(petw_session_handle session, uint32_t buffers);

/* For a session host (lib/shared/host/): the session's ring, into which it
 * imports buffers from other processes' shared pools; NULL when the handle
 * is stale. */
struct petw__ring *petw__session_ring(petw_session_handle session);

/* Counts `events` lost elsewhere (a provider process's pool) in the
 * session's EventsLost, and marks the next buffer written. */
int petw__session_add_lost(petw_session_handle session, uint32_t events);

/* For a session host: petw_session_snapshot keeping no event later than
 * `upto` (a timestamp of the session's clock, read before the host closed
 * its providers' buffers and imported them: later events may be in
 * buffers it did not import). Same returns as petw_session_snapshot. */
int petw__session_snapshot_upto(petw_session_handle session, const char *path, int64_t upto);

/* The in-process engine: sessions of this process (and the one session a
 * session host runs). Each function has the contract of its petw_session_*
 * namesake in petw/session.h (petw__session_disable: disable_provider);
 * the controller reaches them through its local transport
 * (lib/control/controller/transport.h). */
int petw__session_start(const petw_session_config *config, petw_session_handle *out);
int petw__session_find(const char *name, petw_session_handle *out);
int petw__session_list(petw_session_handle *out, uint32_t max, uint32_t *count);
int petw__session_disable(petw_session_handle session, const petw_guid *provider);
int petw__session_query(petw_session_handle session, petw_session_stats *stats);
int petw__session_flush(petw_session_handle session, petw_session_stats *stats);
int petw__session_update(petw_session_handle session, uint32_t flush_timer_ms,
                         uint32_t maximum_buffers);
int petw__session_switch_file(petw_session_handle session, const char *path);
int petw__session_snapshot(petw_session_handle session, const char *path);
int petw__session_stop(petw_session_handle session, petw_session_stats *stats);

#endif
