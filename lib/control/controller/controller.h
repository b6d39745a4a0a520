/* SPDX-License-Identifier: MIT */
/* controller.h - the controls ETW has and petw/session.h does not, on a
 * session of either transport (for the ETW surface, lib/surface/etw/).
 *
 * Allowed dependencies: common/, session/, host/, realtime/, consume/.
 */
#ifndef PETW_CONTROLLER_H
#define PETW_CONTROLLER_H

#include "../../base/common/filter.h"
#include "petw/session.h"

/* As petw_session_enable_provider, with event filters and enable
 * properties (`filter` NULL: none). PETW_EINVAL for a filter that fails
 * petw__filter_check. */
int petw__controller_enable(petw_session_handle session, const petw_guid *provider, uint8_t level,
                            uint64_t match_any, uint64_t match_all,
                            const petw__enable_filter *filter);
/* ControlTrace(UPDATE)'s EnableFlags: a system session records what they
 * name from then on; another session keeps them for queries. */
int petw__controller_set_enable_flags(petw_session_handle session, uint32_t flags);
/* A system session's groups with stacks and its sample interval (100 ns);
 * NULL leaves one unchanged. PETW_ENOTSUP on a session without a system
 * provider. */
int petw__controller_set_system(petw_session_handle session, const uint32_t *stack_flags,
                                const uint32_t *interval_100ns);
/* TraceSystemTraceEnableFlagsInfo: the PETW_SYSTEM_* groups a session
 * records from now on (a session that records none becomes a system
 * session; 0 stops them). */
int petw__controller_set_system_groups(petw_session_handle session, uint32_t flags);

#endif
