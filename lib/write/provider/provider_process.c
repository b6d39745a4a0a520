/* SPDX-License-Identifier: MIT */
/* provider_process.c - what enable properties record about this process
 * (its user's SID, terminal session, start key, clock tick and executable
 * name), computed on the control path: the first enable that asks, and
 * again in a forked child. Writers copy them (provider.c's put_filtered),
 * having acquired a state word published after them. */
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
