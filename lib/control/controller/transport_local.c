/* SPDX-License-Identifier: MIT */
/* transport_local.c - the local transport: sessions of this process, the
 * in-process engine's functions (lib/write/session/) as an ops table.
 *
 * Allowed dependencies: common/, session/, host/, realtime/, consume/.
 */
#include "../../write/session/session_internal.h"
#include "transport.h"

/* The table's set_system leaves the system groups as they are. */
static int set_system(petw_session_handle session, const uint32_t *stack_flags,
                      const uint32_t *interval_100ns)
{
    return petw__session_set_system(session, NULL, stack_flags, interval_100ns);
}

const petw__transport petw__local_transport = {
    petw__session_start,
    petw__session_find,
    petw__session_list,
    petw__session_enable_filtered,
    petw__session_disable,
    petw__session_capture_state,
    petw__session_query,
    petw__session_flush,
    petw__session_update,
    petw__session_switch_file,
    petw__session_snapshot,
    petw__session_stop,
    petw__session_set_enable_flags,
    set_system,
    petw__session_set_system_groups,
};
