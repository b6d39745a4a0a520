/* SPDX-License-Identifier: MIT */
/* register.c - the public registration calls: provider.c's registration in
 * this process, then what shared sessions need of it (agent.c). Above both,
 * so that the agent, which enables and lists providers through provider.c,
 * is never called back from there. Each call holds the control lock (it is
 * recursive) across both steps, as one change. */
#include "../../base/common/common.h"
#include "../../write/provider/provider_internal.h"

int petw_provider_register(const petw_guid *id, petw_enable_callback cb, void *ctx,
                           petw_provider_handle *out)
{
    PETW__RETURN_IF(id == NULL || out == NULL, PETW_EINVAL);
    petw__library_init();
    petw__control_lock();
    int rc = petw__provider_register(id, cb, ctx, out);
    /* Shared sessions that enable this GUID already: attach now, so the
     * very first EventWrite is recorded (no start-up race). Their enables
     * run the callback (once per session that enables it). */
    if (rc == 0)
        petw__agent_sync();
    petw__control_unlock();
    return rc;
}

int petw_provider_unregister(petw_provider_handle h)
{
    petw__control_lock();
    int rc = petw__provider_unregister(h);
    if (rc == 0)
        petw__agent_publish();
    petw__control_unlock();
    return rc;
}

int petw_provider_set_traits(petw_provider_handle h, const void *blob, uint32_t size)
{
    petw__control_lock();
    int rc = petw__provider_set_traits(h, blob, size);
    if (rc == 0)
        petw__agent_publish(); /* the provider directory shows its name now */
    petw__control_unlock();
    return rc;
}
