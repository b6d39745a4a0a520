/* SPDX-License-Identifier: MIT */
/* transport_host.c - the host transport: sessions in session hosts, the
 * client's functions (lib/shared/host/client.c) as an ops table.
 *
 * Allowed dependencies: common/, session/, host/, realtime/, consume/.
 */
#include "../../shared/host/host_internal.h"
#include "transport.h"

const petw__transport petw__host_transport = {
    petw__host_start,
    petw__host_find,
    petw__host_list,
    petw__host_enable,
    petw__host_disable,
    petw__host_capture_state,
    petw__host_query,
    petw__host_flush,
    petw__host_update,
    petw__host_switch_file,
    petw__host_snapshot,
    petw__host_stop,
    petw__host_set_enable_flags,
    petw__host_set_system,
    petw__host_set_system_groups,
};
