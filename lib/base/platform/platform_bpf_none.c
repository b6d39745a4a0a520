/* SPDX-License-Identifier: MIT */
/* platform_bpf_none.c - builds without libbpf (or not for Linux): no BPF
 * program loads, and the reason says so; so no file I/O of processes. */
#include <stdio.h>

#include "platform.h"
#include "petw/error.h"

int petw__bpf_load(const uint8_t *obj, size_t size, const char *name, petw__bpf **out, char *why,
                   size_t why_size)
{
    (void)obj;
    (void)size;
    (void)name;
    *out = NULL;
    if (why && why_size)
        snprintf(why, why_size, "this build has no BPF support (built without libbpf)");
    return PETW_ENOTSUP;
}

int petw__bpf_map_update(petw__bpf *b, const char *map, const void *key, const void *value)
{
    (void)b;
    (void)map;
    (void)key;
    (void)value;
    return PETW_ENOTSUP;
}

int petw__bpf_map_lookup(petw__bpf *b, const char *map, const void *key, void *value)
{
    (void)b;
    (void)map;
    (void)key;
    (void)value;
    return PETW_ENOTSUP;
}

int petw__bpf_attach(petw__bpf *b, uint32_t *attached, char *why, size_t why_size)
{
    (void)b;
    (void)why;
    (void)why_size;
    *attached = 0;
    return PETW_ENOTSUP;
}

int petw__bpf_ring(petw__bpf *b, const char *map, petw__bpf_fn fn, void *ctx)
{
    (void)b;
    (void)map;
    (void)fn;
    (void)ctx;
    return PETW_ENOTSUP;
}

int petw__bpf_poll(petw__bpf *b, uint32_t timeout_ms)
{
    (void)b;
    (void)timeout_ms;
    return 0;
}

void petw__bpf_detach(petw__bpf *b)
{
    (void)b;
}

int petw__bpf_stop(petw__bpf *b, uint32_t key)
{
    (void)b;
    (void)key;
    return PETW_ENOTSUP;
}

void petw__bpf_close(petw__bpf *b)
{
    (void)b;
}

void petw__bpf_close_async(petw__bpf *b)
{
    (void)b;
}

int petw__sys_files_open(uint32_t target_pid, petw__sys_files **out, char *why, size_t why_size)
{
    (void)target_pid;
    *out = NULL;
    if (why && why_size)
        snprintf(why, why_size, "this build has no BPF support (built without libbpf)");
    return PETW_ENOTSUP;
}

uint64_t petw__sys_files_read(petw__sys_files *f, petw__sys_file_fn fn, void *ctx)
{
    (void)f;
    (void)fn;
    (void)ctx;
    return 0;
}

uint64_t petw__sys_files_drain(petw__sys_files *f, petw__sys_file_fn fn, void *ctx)
{
    (void)f;
    (void)fn;
    (void)ctx;
    return 0;
}

void petw__sys_files_close(petw__sys_files *f)
{
    (void)f;
}

void petw__sys_open_files(uint32_t pid, petw__sys_fd_fn fn, void *ctx)
{
    (void)pid;
    (void)fn;
    (void)ctx;
}

int petw__sys_fd_path(uint32_t pid, int32_t fd, char *buf, size_t size)
{
    (void)pid;
    (void)fd;
    (void)buf;
    (void)size;
    return PETW_ENOENT;
}
