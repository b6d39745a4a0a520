/* SPDX-License-Identifier: MIT */
/* platform_net_none.c - a build without BPF: the network recording's BPF
 * part (platform_net_linux.c) is not there, and says so. */
#include <stdio.h>

#include "platform.h"
#include "petw/error.h"
#include "platform_linux_internal.h"

int petw__net_bpf_open(uint32_t target_pid, petw__bpf_fn fn, void *ctx, petw__bpf **out, char *why,
                       size_t why_size)
{
    (void)target_pid;
    (void)fn;
    (void)ctx;
    *out = NULL;
    if (why && why_size)
        snprintf(why, why_size, "this build has no BPF (libbpf)");
    return PETW_ENOTSUP;
}
