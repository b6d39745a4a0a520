/* SPDX-License-Identifier: MIT */
/* provider_process.c - what enable properties record: about this process
 * (its user's SID, terminal session, start key, clock tick and executable
 * name), computed on the control path: the first enable that asks, and
 * again in a forked child; writers copy them (provider.c's put_filtered),
 * having acquired a state word published after them. And an event's key
 * (EVENT_KEY), which put_filtered computes per event for the sessions that
 * ask. */
#include "../../base/platform/platform.h"
#include "provider_dispatch.h"

petw__provider_process petw__provider_proc;

static void proc_info_compute(void)
{
    petw__provider_proc.sid_size =
        petw__user_sid(petw__provider_proc.sid, sizeof(petw__provider_proc.sid));
    petw__provider_proc.ts_id = petw__terminal_session_id();
    petw__provider_proc.start_key = petw__process_start_key();
    petw__machine_info machine;
    petw__machine_info_get(&machine);
    petw__provider_proc.timer_resolution = machine.timer_resolution;
    petw__process_image_name(petw__provider_proc.image, sizeof(petw__provider_proc.image));
    petw__provider_proc.ready_pid = petw__process_id();
}

static void proc_info_after_fork(void)
{
    if (petw__provider_proc.ready_pid)
        proc_info_compute();
}

static void proc_info_prepare(void)
{
    if (petw__provider_proc.ready_pid == petw__process_id())
        return;
    if (!petw__provider_proc.ready_pid)
        petw__on_fork_child(proc_info_after_fork);
    proc_info_compute();
}

const char *petw__provider_process_image(void)
{
    proc_info_prepare();
    return petw__provider_proc.image;
}

/* EVENT_KEY: provider, ID, version, and for TraceLogging events (which
 * share ID 0) their metadata, which holds the event's name. */
uint64_t petw__provider_event_key(const uint64_t g[2], const petw_event_descriptor *d,
                                  const void *schema, uint32_t schema_size)
{
    uint8_t head[19];
    memcpy(head, g, 16);
    petw__wr16(head + 16, d->id);
    head[18] = d->version;
    uint64_t k = petw__fnv1a64(PETW__FNV_BASIS, head, sizeof(head));
    if (schema)
        k = petw__fnv1a64(k, schema, schema_size);
    return k;
}
