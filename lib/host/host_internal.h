/* host_internal.h - the session host's entry point (host.c), for the
 * client (client.c), which starts hosts.
 *
 * Allowed dependencies: common/, platform/, ring/, format/, provider/,
 * session/, consume/, xproc/.
 */
#ifndef PETW_HOST_INTERNAL_H
#define PETW_HOST_INTERNAL_H

#include <stdint.h>

#include "petw/session.h"

/* host -> controller: the answer to START and CONTROL (docs/shared-memory.md). */
typedef struct petw__msg_reply {
    int32_t status;
    uint32_t slot, gen, host_pid;
    petw_session_stats stats;
} petw__msg_reply;

/* Runs a session host on the connected handle `ctl` (the controller that
 * started it sends PETW__MSG_START there) until its session stops.
 * Returns the process's exit status. */
int petw__host_main(intptr_t ctl);

#endif
