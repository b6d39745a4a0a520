/* SPDX-License-Identifier: MIT */
/* platform_net_linux.c - the BPF program platform_net.bpf.c (embedded by
 * the build) loaded, scoped and attached for platform_sys_linux.c: the
 * UDP datagrams with their endpoints. */
#include <unistd.h>

#include <linux/types.h>

#include "platform.h"
#include "petw/error.h"
#include "platform_linux_internal.h"
#include "platform_net_bpf.h"

extern const uint8_t petw__bpf_obj_platform_net[];
extern const size_t petw__bpf_obj_platform_net_size;

int petw__net_bpf_open(uint32_t target_pid, petw__bpf_fn fn, void *ctx, petw__bpf **out, char *why,
                       size_t why_size)
{
    *out = NULL;
    petw__bpf *b;
    int rc = petw__bpf_load(petw__bpf_obj_platform_net, petw__bpf_obj_platform_net_size,
                            "platform_net", &b, why, why_size);
    if (rc != 0)
        return rc;
    uint32_t all = PETW__NET_BPF_ALL, self = PETW__NET_BPF_SELF;
    uint32_t one = 1, zero = 0, me = (uint32_t)getpid();
    uint8_t yes = 1;
    rc = petw__bpf_map_update(b, "config", &all, target_pid ? &zero : &one);
    if (rc == 0)
        rc = petw__bpf_map_update(b, "config", &self, &me);
    if (rc == 0 && target_pid)
        rc = petw__bpf_map_update(b, "scope", &target_pid, &yes);
    if (rc == 0)
        rc = petw__bpf_ring(b, "events", fn, ctx);
    uint32_t attached = 0;
    if (rc == 0)
        rc = petw__bpf_attach(b, &attached, why, why_size);
    if (rc != 0) {
        petw__bpf_close(b);
        return rc;
    }
    *out = b;
    return 0;
}
