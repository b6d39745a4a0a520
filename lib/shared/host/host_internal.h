/* SPDX-License-Identifier: MIT */
/* host_internal.h - the session host's entry point (host.c), for the
 * client (client.c), which starts hosts; the host transport, for the
 * controller.
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

/* host -> controller: the answer to START and CONTROL (docs/shared-memory.md). */
typedef struct petw__msg_reply {
    int32_t status;
    uint32_t slot, gen, host_pid;
    petw_session_stats stats;
} petw__msg_reply;

/* client.c: sessions in session hosts (handles with PETW_SHARED_HANDLE_BIT),
 * for the controller (lib/control/controller/). */
extern const petw__transport petw__host_transport;

/* client.c: a live consumer of the shared REAL_TIME session `name`, from
 * any process: as petw_trace_open_realtime; petw_trace_process returns when
 * the session stops. PETW_ENOTFOUND when no shared session has the name. */
int petw__shared_open_realtime(const char *name, const petw_trace_config *config, petw_trace **out);

/* Runs a session host on the connected handle `ctl` (the controller that
 * started it sends PETW__MSG_START there) until its session stops.
 * Returns the process's exit status. */
int petw__host_main(intptr_t ctl);

#endif
