/* SPDX-License-Identifier: MIT */
/* The BPF loader (platform_bpf_linux.c): an embedded object loads, the
 * program on a tracepoint the kernel lacks is left out and named, a map
 * written from user space filters the records, the ring buffer delivers
 * each one; PETW_NO_BPF=1 refuses with its one line. Skips (77) without
 * BPF in the build or without the rights. */
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "test_util.h"
#include "../lib/base/platform/platform.h"

extern const uint8_t petw__bpf_obj_bpf_probe[];
extern const size_t petw__bpf_obj_bpf_probe_size;

typedef struct seen {
    uint32_t records, mine;
} seen;

static void on_record(void *ctx, const void *data, size_t size)
{
    seen *s = ctx;
    const uint32_t *r = data;
    s->records++;
    if (size >= 16 && r[0] == (uint32_t)getpid() && r[1] == (uint32_t)syscall(SYS_gettid))
        s->mine++;
}

int main(void)
{
    char why[512];
    petw__bpf *b;
    setenv("PETW_NO_BPF", "1", 1);
    CHECK_EQ(petw__bpf_load(petw__bpf_obj_bpf_probe, petw__bpf_obj_bpf_probe_size, "bpf_probe", &b,
                            why, sizeof(why)),
             PETW_ENOTSUP);
    CHECK(b == NULL && strstr(why, "PETW_NO_BPF"));
    unsetenv("PETW_NO_BPF");
    int rc = petw__bpf_load(petw__bpf_obj_bpf_probe, petw__bpf_obj_bpf_probe_size, "bpf_probe", &b,
                            why, sizeof(why));
    if (rc == PETW_EACCES || rc == PETW_ENOTSUP) {
        fprintf(stderr, "skipped: %s\n", why);
        return SKIP_TEST;
    }
    CHECK_EQ(rc, 0);
    seen s = {0, 0};
    CHECK_EQ(petw__bpf_ring(b, "events", on_record, &s), 0);
    CHECK_EQ(petw__bpf_ring(b, "no_such_map", on_record, &s), PETW_EINVAL);
    uint32_t attached = 0;
    CHECK_EQ(petw__bpf_attach(b, &attached, why, sizeof(why)), 0);
    CHECK_EQ(attached, 1u);
    CHECK(strstr(why, "petw_no_such_group/no_such_event") != NULL);
    for (int k = 0; k < 50; k++) /* not in scope yet: nothing recorded */
        (void)getppid();
    uint32_t pid = (uint32_t)getpid(), one = 1;
    CHECK_EQ(petw__bpf_map_update(b, "scope", &pid, &one), 0);
    CHECK_EQ(petw__bpf_map_update(b, "no_such_map", &pid, &one), PETW_EINVAL);
    uint32_t value = 0;
    CHECK_EQ(petw__bpf_map_lookup(b, "scope", &pid, &value), 0);
    CHECK_EQ(value, 1u);
    for (int k = 0; k < 100; k++)
        (void)syscall(SYS_getppid);
    petw__bpf_detach(b);
    (void)getppid(); /* detached: not recorded */
    while (petw__bpf_poll(b, 0) > 0)
        ;
    CHECK_EQ(s.records, 100u);
    CHECK_EQ(s.mine, 100u);
    petw__bpf_close(b);
    petw__bpf_close(NULL);
    printf("bpf: 100 records through the ring, 1 program left out\n");
    return 0;
}
