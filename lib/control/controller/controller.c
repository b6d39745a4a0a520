/* SPDX-License-Identifier: MIT */
/* controller.c - petw/session.h: one session interface, two transports.
 *
 * Allowed dependencies: common/, session/, host/, realtime/, consume/.
 *
 * A session lives in this process (session/, petw__local_transport) or in
 * a session host of its own (host/, petw__host_transport); both tables are
 * the controller's (transport.h), built from what session/ and host/
 * export, so neither includes the controller. The transport is
 * chosen when it starts (config.transport) and read back from the handle
 * on every later call. Nothing here knows what either transport does: it
 * picks the table and calls it, as libuv's handles call their platform's
 * ops. Real-time consumers (petw_trace_open_realtime) find a session by
 * name on either transport the same way.
 */
#include "controller.h"

#include "../../base/common/common.h"
#include "../../read/realtime/realtime.h"
#include "../../shared/host/host_internal.h"
#include "transport.h"
#include "petw/consume.h"
#include "petw/shared.h"

static const petw__transport *transport_of(petw_session_handle h)
{
    return petw_shared_handle(h) ? &petw__host_transport : &petw__local_transport;
}

int petw_session_start(const petw_session_config *config, petw_session_handle *out)
{
    PETW__RETURN_IF(!config || !out, PETW_EINVAL);
    switch (config->transport) {
    case PETW_TRANSPORT_IN_PROCESS:
        return petw__local_transport.start(config, out);
    case PETW_TRANSPORT_HOST:
        return petw__host_transport.start(config, out);
    default:
        return PETW_EINVAL;
    }
}

/* This process's sessions first (private loggers), then shared ones. */
int petw_session_find(const char *name, petw_session_handle *out)
{
    int rc = petw__local_transport.find(name, out);
    return rc == PETW_ENOTFOUND ? petw__host_transport.find(name, out) : rc;
}

int petw_session_list(petw_session_handle *out, uint32_t max, uint32_t *count)
{
    uint32_t local = 0, shared = 0;
    PETW__FORWARD_IF_ERROR(petw__local_transport.list(out, max, &local));
    uint32_t room = local < max ? max - local : 0;
    /* A runtime directory that cannot be used fails the list: shared
     * sessions may run that this process cannot see. */
    PETW__FORWARD_IF_ERROR(petw__host_transport.list(room ? out + local : NULL, room, &shared));
    *count = local + shared;
    return 0;
}

int petw_session_enable_provider(petw_session_handle h, const petw_guid *provider, uint8_t level,
                                 uint64_t match_any, uint64_t match_all)
{
    return transport_of(h)->enable(h, provider, level, match_any, match_all, NULL);
}

int petw_session_disable_provider(petw_session_handle h, const petw_guid *provider)
{
    return transport_of(h)->disable(h, provider);
}

int petw_session_query(petw_session_handle h, petw_session_stats *stats)
{
    return transport_of(h)->query(h, stats);
}

int petw_session_flush(petw_session_handle h, petw_session_stats *stats)
{
    return transport_of(h)->flush(h, stats);
}

int petw_session_update(petw_session_handle h, uint32_t flush_timer_ms, uint32_t maximum_buffers)
{
    return transport_of(h)->update(h, flush_timer_ms, maximum_buffers);
}

int petw_session_switch_file(petw_session_handle h, const char *path)
{
    return transport_of(h)->switch_file(h, path);
}

int petw_session_snapshot(petw_session_handle h, const char *path)
{
    return transport_of(h)->snapshot(h, path);
}

int petw_session_stop(petw_session_handle h, petw_session_stats *stats)
{
    return transport_of(h)->stop(h, stats);
}

int petw__controller_enable(petw_session_handle h, const petw_guid *provider, uint8_t level,
                            uint64_t match_any, uint64_t match_all,
                            const petw__enable_filter *filter)
{
    return transport_of(h)->enable(h, provider, level, match_any, match_all, filter);
}

int petw_session_capture_state(petw_session_handle h, const petw_guid *provider)
{
    return transport_of(h)->capture_state(h, provider);
}

int petw__controller_set_enable_flags(petw_session_handle h, uint32_t flags)
{
    return transport_of(h)->set_enable_flags(h, flags);
}

int petw__controller_set_system(petw_session_handle h, const uint32_t *stack_flags,
                                const uint32_t *interval_100ns)
{
    return transport_of(h)->set_system(h, stack_flags, interval_100ns);
}

int petw__controller_set_system_groups(petw_session_handle h, uint32_t flags)
{
    return transport_of(h)->set_system_groups(h, flags);
}

int petw_trace_open_realtime(const char *logger_name, const petw_trace_config *config,
                             petw_trace **out)
{
    int rc = petw__realtime_open(logger_name, config, out);
    if (rc != PETW_ENOTFOUND)
        return rc;
    rc = petw__shared_open_realtime(logger_name, config, out);
    return rc == PETW_ENOTSUP ? PETW_ENOTFOUND : rc; /* no shared sessions here */
}
