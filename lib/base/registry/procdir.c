/* SPDX-License-Identifier: MIT */
/* procdir.c - the provider directory: which process registered which
 * providers, for `petw providers` and provider names given on the command
 * line. registry.h describes the files; docs/shared-memory.md their layout. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "registry.h"

/* The layout docs/shared-memory.md gives. */
_Static_assert(sizeof(petw__procdir_header) == 32, "provider directory header: 32 bytes");
_Static_assert(sizeof(petw__proc_entry) == 256, "provider directory entry: 256 bytes");

#define MAX_FILE                                                                                   \
    (sizeof(petw__procdir_header) + (size_t)PETW__PROCDIR_MAX * sizeof(petw__proc_entry))

int petw__procdir_decode(uint8_t *data, size_t size, petw__procdir_header *h,
                         petw__proc_entry **entries)
{
    if (size < sizeof(*h))
        return PETW_ECORRUPT;
    memcpy(h, data, sizeof(*h));
    if (h->magic != PETW__PROCDIR_MAGIC || h->version != PETW__PROCDIR_VERSION ||
        h->entry_size != sizeof(petw__proc_entry) || h->count > PETW__PROCDIR_MAX ||
        size != sizeof(*h) + (size_t)h->count * sizeof(petw__proc_entry))
        return PETW_ECORRUPT;
    /* The entries start 32 bytes in: aligned for their u64 GUID words. */
    *entries = (petw__proc_entry *)(void *)(data + sizeof(*h));
    for (uint32_t i = 0; i < h->count; i++)
        (*entries)[i].name[PETW__PROC_NAME - 1] = 0;
    return 0;
}

static int file_path(uint32_t pid, char *out, size_t size)
{
    char dir[PETW_MAX_NAME];
    PETW__FORWARD_IF_ERROR(petw__runtime_dir(dir, sizeof(dir)));
    int n = snprintf(out, size, "%s/%s%" PRIu32, dir, PETW__PROCDIR_PREFIX, pid);
    return n > 0 && (size_t)n < size ? 0 : PETW_ENAMETOOLONG;
}

int petw__procdir_publish(const petw__proc_entry *e, uint32_t n)
{
    char path[PETW_MAX_NAME];
    uint32_t pid = petw__process_id();
    PETW__FORWARD_IF_ERROR(file_path(pid, path, sizeof(path)));
    if (n == 0) {
        petw__file_remove(path);
        return 0;
    }
    if (n > PETW__PROCDIR_MAX)
        return PETW_ELIMIT;
    petw__procdir_header h = {
        PETW__PROCDIR_MAGIC, PETW__PROCDIR_VERSION, sizeof(petw__proc_entry), n, pid, 0, 0};
    PETW__FORWARD_IF_ERROR(petw__process_start_time(pid, &h.start_time));
    size_t size = sizeof(h) + (size_t)n * sizeof(*e);
    uint8_t *buf = malloc(size);
    if (!buf)
        return PETW_ENOMEM;
    memcpy(buf, &h, sizeof(h));
    memcpy(buf + sizeof(h), e, (size_t)n * sizeof(*e));
    int rc = petw__file_replace_private(path, buf, size);
    free(buf);
    return rc;
}

typedef struct each_ctx {
    uint32_t pid;
    int (*fn)(uint32_t pid, const petw__proc_entry *e, uint32_t n, void *ctx);
    void *ctx;
    const char *dir;
    int stop;
} each_ctx;

static int each_file(const char *name, void *arg)
{
    each_ctx *c = arg;
    const char *digits = name + strlen(PETW__PROCDIR_PREFIX);
    char *end;
    unsigned long long pid = strtoull(digits, &end, 10);
    if (*end || end == digits || !pid || pid > UINT32_MAX)
        return 0; /* a temporary file, or not ours */
    if (c->pid && pid != c->pid)
        return 0;
    char path[PETW_MAX_NAME];
    if (snprintf(path, sizeof(path), "%s/%s", c->dir, name) >= (int)sizeof(path))
        return 0;
    uint8_t *data;
    size_t size;
    if (petw__file_read_private(path, MAX_FILE, &data, &size) != 0)
        return 0;
    petw__procdir_header h;
    petw__proc_entry *e;
    uint64_t started;
    int rc = petw__procdir_decode(data, size, &h, &e);
    if (rc == 0 &&
        (h.pid != pid || petw__process_start_time(h.pid, &started) != 0 || started != h.start_time))
        rc = PETW_ENOTFOUND;
    if (rc == PETW_ENOTFOUND)
        petw__file_remove(path); /* its process is gone */
    else if (rc == 0)
        c->stop = c->fn(h.pid, e, h.count, c->ctx);
    free(data);
    return c->stop;
}

int petw__procdir_each(uint32_t pid,
                       int (*fn)(uint32_t pid, const petw__proc_entry *e, uint32_t n, void *ctx),
                       void *ctx)
{
    char dir[PETW_MAX_NAME];
    PETW__FORWARD_IF_ERROR(petw__runtime_dir(dir, sizeof(dir)));
    each_ctx c = {pid, fn, ctx, dir, 0};
    return petw__dir_each(dir, PETW__PROCDIR_PREFIX, each_file, &c);
}
