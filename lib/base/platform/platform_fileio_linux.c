/* SPDX-License-Identifier: MIT */
/* platform_fileio_linux.c - file I/O of processes: the BPF program
 * platform_fileio.bpf.c (embedded by the build) loaded and scoped, its
 * records read as petw__sys_file_op; /proc for the files already open. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "platform.h"
#include "petw/error.h"

#include <linux/types.h>

#include "platform_fileio_bpf.h"

_Static_assert(PETW__FILE_BPF_CREATE == PETW__SYSFILE_CREATE &&
                   PETW__FILE_BPF_RENAME == PETW__SYSFILE_RENAME &&
                   PETW__FILE_BPF_FORK == PETW__SYSFILE_FORK,
               "the BPF program's calls are platform.h's");

extern const uint8_t petw__bpf_obj_platform_fileio[];
extern const size_t petw__bpf_obj_platform_fileio_size;

struct petw__sys_files {
    petw__bpf *bpf;
    petw__sys_file_fn fn;
    void *ctx;
    uint64_t count;
};

static void on_ring(void *ctx, const void *data, size_t size)
{
    petw__sys_files *f = ctx;
    const petw__file_bpf_record *r = data;
    if (size < sizeof(*r) || !f->fn)
        return;
    petw__sys_file_op op = {
        .op = r->op,
        .cpu = r->cpu,
        .pid = r->pid,
        .tid = r->tid,
        .fd = r->fd,
        .flags = r->flags,
        .start_ns = (int64_t)r->start_ns,
        .end_ns = (int64_t)r->end_ns,
        .result = r->ret,
        .offset = r->offset,
        .size = r->size,
        .file = r->file,
        .inode = r->inode,
    };
    char path[PETW__FILE_BPF_PATH], path2[PETW__FILE_BPF_PATH];
    if (size >= sizeof(petw__file_bpf_path_record)) {
        const petw__file_bpf_path_record *p = data;
        if (r->path_size) {
            memcpy(path, p->path, sizeof(path));
            path[sizeof(path) - 1] = 0;
            op.path = path;
        }
        if (r->path2_size) {
            memcpy(path2, p->path2, sizeof(path2));
            path2[sizeof(path2) - 1] = 0;
            op.path2 = path2;
        }
    }
    f->count++;
    f->fn(f->ctx, &op);
}

int petw__sys_files_open(uint32_t target_pid, petw__sys_files **out, char *why, size_t why_size)
{
    *out = NULL;
    petw__sys_files *f = calloc(1, sizeof(*f));
    if (!f)
        return PETW_ENOMEM;
    int rc = petw__bpf_load(petw__bpf_obj_platform_fileio, petw__bpf_obj_platform_fileio_size,
                            "platform_fileio", &f->bpf, why, why_size);
    uint32_t zero = PETW__FILE_BPF_ALL, self_key = PETW__FILE_BPF_SELF, one = 1;
    uint32_t self = (uint32_t)getpid();
    uint8_t yes = 1;
    if (rc == 0)
        rc = petw__bpf_ring(f->bpf, "events", on_ring, f);
    if (rc == 0 && target_pid)
        rc = petw__bpf_map_update(f->bpf, "scope", &target_pid, &yes);
    else if (rc == 0) {
        rc = petw__bpf_map_update(f->bpf, "config", &self_key, &self);
        if (rc == 0)
            rc = petw__bpf_map_update(f->bpf, "config", &zero, &one);
    }
    uint32_t attached = 0;
    char absent[256];
    if (rc == 0)
        rc = petw__bpf_attach(f->bpf, &attached, absent, sizeof(absent));
    if (rc != 0) {
        if (rc != PETW_ENOTSUP && rc != PETW_EACCES && why && why_size && !why[0])
            snprintf(why, why_size, "the file I/O BPF program does not start");
        petw__bpf_close(f->bpf);
        free(f);
        return rc;
    }
    *out = f;
    return 0;
}

uint64_t petw__sys_files_read(petw__sys_files *f, petw__sys_file_fn fn, void *ctx)
{
    f->fn = fn;
    f->ctx = ctx;
    uint64_t before = f->count;
    (void)petw__bpf_poll(f->bpf, 0);
    f->fn = NULL;
    return f->count - before;
}

uint64_t petw__sys_files_drain(petw__sys_files *f, petw__sys_file_fn fn, void *ctx)
{
    /* Nothing new from here; the programs are detached when closed, which
     * may take seconds while the machine's file calls go on. */
    (void)petw__bpf_stop(f->bpf, PETW__FILE_BPF_STOPPED);
    (void)petw__sys_files_read(f, fn, ctx);
    uint32_t key = PETW__FILE_BPF_LOST;
    uint64_t lost = 0;
    (void)petw__bpf_map_lookup(f->bpf, "counters", &key, &lost);
    return lost;
}

void petw__sys_files_close(petw__sys_files *f)
{
    if (!f)
        return;
    petw__bpf_close_async(f->bpf);
    free(f);
}

int petw__sys_fd_path(uint32_t pid, int32_t fd, char *buf, size_t size)
{
    char link[64];
    if (fd == PETW__SYSFILE_AT_CWD)
        snprintf(link, sizeof(link), "/proc/%u/cwd", pid);
    else
        snprintf(link, sizeof(link), "/proc/%u/fd/%d", pid, fd);
    ssize_t n = readlink(link, buf, size ? size - 1 : 0);
    if (n <= 0)
        return PETW_ENOENT;
    buf[n] = 0;
    return 0;
}

void petw__sys_open_files(uint32_t pid, petw__sys_fd_fn fn, void *ctx)
{
    char dir[64], path[4096];
    snprintf(dir, sizeof(dir), "/proc/%u/fd", pid);
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        char *end;
        long fd = strtol(e->d_name, &end, 10);
        if (*end || end == e->d_name || fd < 0)
            continue;
        if (petw__sys_fd_path(pid, (int32_t)fd, path, sizeof(path)) == 0)
            fn(ctx, pid, (int32_t)fd, path);
    }
    closedir(d);
}
