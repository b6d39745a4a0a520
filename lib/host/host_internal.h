/* host_internal.h - the session host's entry point (host.c), for the
 * client (client.c), which starts hosts.
 *
 * Allowed dependencies: common/, platform/, ring/, format/, provider/,
 * session/, consume/, xproc/.
 */
#ifndef PETW_HOST_INTERNAL_H
#define PETW_HOST_INTERNAL_H

#include <stdint.h>

#include "../common/filter.h"
#include "petw/session.h"

/* host -> controller: the answer to START and CONTROL (docs/shared-memory.md). */
typedef struct petw__msg_reply {
    int32_t status;
    uint32_t slot, gen, host_pid;
    petw_session_stats stats;
} petw__msg_reply;

/* client.c: as petw_shared_enable_provider, with event filters and enable
 * properties (`filter` NULL: none). PETW_EINVAL for a filter that fails
 * petw__filter_check. */
int petw__shared_enable_filtered(petw_session_handle session, const petw_guid *provider,
                                 uint8_t level, uint64_t match_any, uint64_t match_all,
                                 const petw__enable_filter *filter);

/* Runs a session host on the connected handle `ctl` (the controller that
 * started it sends PETW__MSG_START there) until its session stops.
 * Returns the process's exit status. */
int petw__host_main(intptr_t ctl);

#endif
