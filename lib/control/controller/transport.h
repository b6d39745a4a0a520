/* SPDX-License-Identifier: MIT */
/* transport.h - the interface of a session transport: where sessions live
 * and how the controller reaches them (libuv's handle + ops).
 *
 * Allowed dependencies: common/, session/, host/, realtime/, consume/.
 *
 * petw/session.h's functions (controller.c) pick a transport by the
 * handle and call its table; they never branch on the transport otherwise.
 * The tables are built here, in the controller, from the plain functions
 * the two transports export (session/'s petw__session_*, host/'s
 * petw__host_*), so neither of them knows the controller.
 */
#ifndef PETW_TRANSPORT_H
#define PETW_TRANSPORT_H

#include "../../base/common/filter.h"
#include "petw/session.h"

/* Each function has the contract of its petw_session_* namesake in
 * petw/session.h, or of the petw__controller_* one in controller.h
 * (enable, set_enable_flags, set_system, set_system_groups; capture_state:
 * session/'s petw__session_capture_state). */
typedef struct petw__transport {
    int (*start)(const petw_session_config *config, petw_session_handle *out);
    int (*find)(const char *name, petw_session_handle *out);
    int (*list)(petw_session_handle *out, uint32_t max, uint32_t *count);
    int (*enable)(petw_session_handle session, const petw_guid *provider, uint8_t level,
                  uint64_t match_any, uint64_t match_all, const petw__enable_filter *filter);
    int (*disable)(petw_session_handle session, const petw_guid *provider);
    int (*capture_state)(petw_session_handle session, const petw_guid *provider);
    int (*query)(petw_session_handle session, petw_session_stats *stats);
    int (*flush)(petw_session_handle session, petw_session_stats *stats);
    int (*update)(petw_session_handle session, uint32_t flush_timer_ms, uint32_t maximum_buffers);
    int (*switch_file)(petw_session_handle session, const char *path);
    int (*snapshot)(petw_session_handle session, const char *path);
    int (*stop)(petw_session_handle session, petw_session_stats *stats);
    int (*set_enable_flags)(petw_session_handle session, uint32_t flags);
    int (*set_system)(petw_session_handle session, const uint32_t *stack_flags,
                      const uint32_t *interval_100ns);
    int (*set_system_groups)(petw_session_handle session, uint32_t flags);
} petw__transport;

/* The in-process engine (transport_local.c, over session/): sessions of
 * this process. */
extern const petw__transport petw__local_transport;

/* Session hosts (transport_host.c, over host/'s client): sessions with
 * PETW_SHARED_HANDLE_BIT in their handles, one request per call. */
extern const petw__transport petw__host_transport;

#endif
