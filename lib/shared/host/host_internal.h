/* SPDX-License-Identifier: MIT */
/* host_internal.h - the session host's entry point (host.c), for the
 * client (client.c), which starts hosts; the client's calls, for the
 * controller's host transport.
 *
 * Allowed dependencies: common/, platform/, ring/, format/, provider/,
 * session/, consume/, registry/, agent/.
 */
#ifndef PETW_HOST_INTERNAL_H
#define PETW_HOST_INTERNAL_H

#include <stdint.h>

#include "../../base/common/filter.h"
#include "../../write/session/session_internal.h"
#include "petw/consume.h"

/* A remote real-time consumer's queue in its own process, in buffers. The
 * host's queue for it holds the session's real-time buffers plus as many:
 * those it sent and the consumer has not acknowledged are in both. */
#define PETW__RT_CONSUMER_BUFFERS 64u

/* host -> controller: the answer to START and CONTROL (docs/shared-memory.md). */
typedef struct petw__msg_reply {
    int32_t status;
    uint32_t slot, gen, host_pid;
    petw_session_stats stats;
} petw__msg_reply;

/* client.c: sessions in session hosts (handles with PETW_SHARED_HANDLE_BIT),
 * one request to the host per call. Each function has the contract of its
 * namesake in petw/session.h or session/'s session_internal.h
 * (petw__host_disable: petw_session_disable_provider; petw__host_set_system:
 * petw__session_set_system with its flags unchanged); the controller reaches
 * them through its host transport (lib/control/controller/transport.h). */
int petw__host_start(const petw_session_config *config, petw_session_handle *out);
int petw__host_find(const char *name, petw_session_handle *out);
int petw__host_list(petw_session_handle *out, uint32_t max, uint32_t *count);
int petw__host_enable(petw_session_handle session, const petw_guid *provider, uint8_t level,
                      uint64_t match_any, uint64_t match_all, const petw__enable_filter *filter);
int petw__host_disable(petw_session_handle session, const petw_guid *provider);
int petw__host_capture_state(petw_session_handle session, const petw_guid *provider);
int petw__host_query(petw_session_handle session, petw_session_stats *stats);
int petw__host_flush(petw_session_handle session, petw_session_stats *stats);
int petw__host_update(petw_session_handle session, uint32_t flush_timer_ms,
                      uint32_t maximum_buffers);
int petw__host_switch_file(petw_session_handle session, const char *path);
int petw__host_snapshot(petw_session_handle session, const char *path);
int petw__host_stop(petw_session_handle session, petw_session_stats *stats);
int petw__host_set_enable_flags(petw_session_handle session, uint32_t flags);
int petw__host_set_system(petw_session_handle session, const uint32_t *stack_flags,
                          const uint32_t *interval_100ns);
int petw__host_set_system_groups(petw_session_handle session, uint32_t flags);

/* client.c: a live consumer of the shared REAL_TIME session `name`, from
 * any process: as petw_trace_open_realtime; petw_trace_process returns when
 * the session stops. PETW_ENOTFOUND when no shared session has the name. */
int petw__shared_open_realtime(const char *name, const petw_trace_config *config, petw_trace **out);

/* Runs a session host on the connected handle `ctl` (the controller that
 * started it sends PETW__MSG_START there) until its session stops.
 * Returns the process's exit status. */
int petw__host_main(intptr_t ctl);

#endif
