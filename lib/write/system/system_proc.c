/* SPDX-License-Identifier: MIT */
/* system_proc.c - what Linux's /proc says, read for a system session: the
 * rundown a session starts and ends with (every process, its threads and its
 * executable mappings, as they are now) and the kernel's text symbols
 * (/proc/kallsyms). platform/ reads the files and lists the directories; a
 * build without /proc (Windows) finds nothing there and says PETW_ENOTSUP.
 *
 * Allowed dependencies: common/, platform/, classes/, ring/, format/, libuv.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/platform/platform.h"
#include "petw/error.h"
#include "system_internal.h"

/* ---- The rundown ---- */

/* The parent and name of a process, from /proc/PID/stat ("pid (comm) S ppid"). */
static int proc_stat(uint32_t pid, uint32_t *ppid, char *comm, size_t comm_size)
{
    char path[64], buf[512];
    snprintf(path, sizeof(path), "/proc/%u/stat", pid);
    if (!petw__file_read_small(path, buf, sizeof(buf)))
        return -1;
    char *open_paren = strchr(buf, '('), *close_paren = strrchr(buf, ')');
    if (!open_paren || !close_paren || close_paren < open_paren)
        return -1;
    size_t n = (size_t)(close_paren - open_paren - 1);
    if (n >= comm_size)
        n = comm_size - 1;
    memcpy(comm, open_paren + 1, n);
    comm[n] = 0;
    unsigned p = 0;
    if (sscanf(close_paren + 1, " %*c %u", &p) != 1)
        return -1;
    *ppid = p;
    return 0;
}

/* 1 when `pid` is `target` or descends from it. */
static int descends(uint32_t pid, uint32_t target)
{
    char comm[32];
    for (int depth = 0; depth < 64 && pid > 1; depth++) {
        if (pid == target)
            return 1;
        uint32_t parent;
        if (proc_stat(pid, &parent, comm, sizeof(comm)) != 0)
            return 0;
        pid = parent;
    }
    return pid == target;
}

typedef struct rundown_walk {
    uint32_t target;
    petw__sys_fn fn;
    void *ctx;
    petw__sys_record r;
    unsigned long pid; /* the process being listed */
    int all_maps;      /* every mapping too (MAP), not only executable files' */
} rundown_walk;

/* One line of /proc/PID/maps: an executable file mapping is an MMAP. */
static int maps_line(char *line, void *ctx)
{
    rundown_walk *w = ctx;
    petw__sys_record *r = &w->r;
    unsigned long long lo, hi, off;
    char perms[8];
    int name_at = 0;
    if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &lo, &hi, perms, &off, &name_at) < 4)
        return 0;
    char *name = line + name_at;
    if (name_at)
        name[strcspn(name, "\n")] = 0;
    if (!name_at || perms[2] != 'x' || !name[0]) {
        /* Not an image (anonymous executable memory, a JIT, is none either). */
        if (w->all_maps) {
            r->kind = PETW__SYSREC_MAP;
            r->addr = lo;
            r->len = hi - lo;
            r->pgoff = off;
            r->text = name_at && name[0] ? name : "//anon";
            r->build_id = NULL;
            r->build_id_size = 0;
            w->fn(w->ctx, r);
        }
        return 0;
    }
    uint8_t id[PETW__SYS_BUILD_ID_MAX];
    r->kind = PETW__SYSREC_MMAP;
    r->addr = lo;
    r->len = hi - lo;
    r->pgoff = off;
    r->text = name;
    r->build_id = id;
    r->build_id_size = petw__system_build_id(name, id);
    if (!r->build_id_size) { /* deleted or replaced since: the mapped file itself */
        char mapped[96];
        snprintf(mapped, sizeof(mapped), "/proc/%lu/map_files/%llx-%llx", w->pid, lo, hi);
        r->build_id_size = petw__system_build_id(mapped, id);
    }
    w->fn(w->ctx, r);
    return 0;
}

/* One entry of /proc/PID/task: a thread other than the main one. */
static int task_entry(const char *name, void *ctx)
{
    rundown_walk *w = ctx;
    char *end;
    unsigned long tid = strtoul(name, &end, 10);
    if (*end || !tid || tid == w->pid)
        return 0;
    w->r.tid = (uint32_t)tid;
    w->r.text = NULL;
    w->fn(w->ctx, &w->r);
    return 0;
}

/* One entry of /proc: a process, its threads and its mappings. */
static int process_entry(const char *name, void *ctx)
{
    rundown_walk *w = ctx;
    char *end;
    unsigned long pid = strtoul(name, &end, 10);
    if (*end || !pid || pid > UINT32_MAX)
        return 0;
    uint32_t ppid;
    char comm[32];
    if (proc_stat((uint32_t)pid, &ppid, comm, sizeof(comm)) != 0)
        return 0;
    if (w->target && !descends((uint32_t)pid, w->target))
        return 0;
    petw__sys_record *r = &w->r;
    memset(r, 0, sizeof(*r));
    r->kind = PETW__SYSREC_FORK;
    r->pid = r->tid = (uint32_t)pid;
    r->other_pid = ppid;
    r->text = comm;
    r->time_ns = petw__monotonic_ns();
    w->fn(w->ctx, r);
    char path[64], line[4200];
    snprintf(path, sizeof(path), "/proc/%lu/task", pid);
    w->pid = pid;
    (void)petw__dir_each(path, "", task_entry, w);
    r->tid = (uint32_t)pid;
    snprintf(path, sizeof(path), "/proc/%lu/maps", pid);
    (void)petw__file_each_line(path, line, sizeof(line), maps_line, w);
    return 0;
}

int petw__system_rundown(uint32_t target_pid, int all_maps, petw__sys_fn fn, void *ctx)
{
    rundown_walk w;
    memset(&w, 0, sizeof(w));
    w.target = target_pid;
    w.all_maps = all_maps;
    w.fn = fn;
    w.ctx = ctx;
    return petw__dir_each("/proc", "", process_entry, &w) == 0 ? 0 : PETW_ENOTSUP;
}

/* ---- The kernel's symbols ---- */

typedef struct ksym {
    uint64_t addr;
    uint32_t name_at; /* into the names arena: name, NUL, module, NUL */
} ksym;

typedef struct ksym_read {
    ksym *syms;
    char *names;
    size_t n, cap, used, names_cap;
    int rc, nonzero;
} ksym_read;

static int ksym_order(const void *a, const void *b)
{
    uint64_t x = ((const ksym *)a)->addr, y = ((const ksym *)b)->addr;
    return x < y ? -1 : x > y;
}

/* One line of /proc/kallsyms: "ADDRESS TYPE NAME [MODULE]". */
static int ksym_line(char *line, void *ctx)
{
    ksym_read *k = ctx;
    unsigned long long addr;
    char type, name[256], module[128] = "";
    if (sscanf(line, "%llx %c %255s [%127[^]]]", &addr, &type, name, module) < 3)
        return 0;
    if (type != 't' && type != 'T')
        return 0; /* text symbols only: code addresses fall in them */
    k->nonzero |= addr != 0;
    size_t need = strlen(name) + strlen(module) + 2;
    if (k->n == k->cap || k->used + need > k->names_cap) {
        size_t ncap = k->cap ? 2 * k->cap : 65536,
               nnames = k->names_cap ? 2 * k->names_cap : 1u << 21;
        ksym *s2 = k->n == k->cap ? realloc(k->syms, ncap * sizeof(*k->syms)) : k->syms;
        if (s2)
            k->syms = s2, k->cap = k->n == k->cap ? ncap : k->cap;
        char *n2 = k->used + need > k->names_cap ? realloc(k->names, nnames) : k->names;
        if (n2)
            k->names = n2, k->names_cap = k->used + need > k->names_cap ? nnames : k->names_cap;
        if (!s2 || !n2) {
            k->rc = PETW_ENOMEM;
            return 1;
        }
    }
    k->syms[k->n].addr = addr;
    k->syms[k->n].name_at = (uint32_t)k->used;
    k->n++;
    k->used += (size_t)sprintf(k->names + k->used, "%s", name) + 1;
    k->used += (size_t)sprintf(k->names + k->used, "%s", module) + 1;
    return 0;
}

int petw__system_kernel_symbols(petw__system_ksym_fn fn, void *ctx)
{
    ksym_read k;
    memset(&k, 0, sizeof(k));
    char line[512];
    if (petw__file_each_line("/proc/kallsyms", line, sizeof(line), ksym_line, &k) != 0)
        return PETW_ENOTSUP;
    int rc = k.rc;
    if (rc == 0 && !k.nonzero)
        rc = PETW_EACCES; /* every address reads 0: kptr_restrict hides them */
    if (rc == 0) {
        qsort(k.syms, k.n, sizeof(*k.syms), ksym_order);
        for (size_t i = 0; i < k.n; i++) {
            const char *name = k.names + k.syms[i].name_at;
            uint64_t end = i + 1 < k.n ? k.syms[i + 1].addr : k.syms[i].addr + 4096;
            if (end > k.syms[i].addr)
                fn(ctx, k.syms[i].addr, end, name, name + strlen(name) + 1);
        }
    }
    free(k.syms);
    free(k.names);
    return rc;
}
