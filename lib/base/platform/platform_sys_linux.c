/* SPDX-License-Identifier: MIT */
/* platform_sys_linux.c - the OS's own events on Linux: perf_event_open.
 *
 * One ring per CPU. On each CPU a software "dummy" event carries the side
 * band (task, comm, mmap and context-switch records) and, with sampling, a
 * cpu-clock event writes its samples into the same ring
 * (PERF_EVENT_IOC_SET_OUTPUT), so one CPU's records come out in the order
 * they happened. Both use CLOCK_MONOTONIC, petw__monotonic_ns()'s clock.
 * Every event names itself (PERF_SAMPLE_IDENTIFIER) and carries the
 * thread, time and CPU (sample_id_all), so a record is parsed without
 * knowing which event wrote it.
 *
 * System-wide (target 0) opens pid -1 on every CPU; a target opens that
 * process on every CPU with inherit, so its descendants are included.
 * When the kernel refuses kernel code (perf_event_paranoid 2 for a user),
 * the events are opened again without it and the caller is told.
 *
 * The rings are read in platform_sys_read_linux.c; a process's command
 * line, owner and JIT map in platform_proc_linux.c; the
 * machine's configuration is platform_machine_linux.c's. Tracepoints are
 * opened by id (petw__tracepoint_id): which ones, and what their raw
 * records say, is lib/write/system/system_tracepoint.c's.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "platform_sys_linux.h"

#include "petw/error.h"
#include "platform_linux_internal.h"

#include <linux/types.h>

#include "platform_net_bpf.h"

/* A record of the network BPF program as a NET record. */
static void on_net_bpf(void *ctx, const void *data, size_t size)
{
    petw__sys *s = ctx;
    const petw__net_bpf_record *b = data;
    if (size < sizeof(*b) || !s->bpf_fn)
        return;
    petw__sys_record r;
    memset(&r, 0, sizeof(r));
    petw__sys_net *n = &s->net;
    memset(n, 0, sizeof(*n));
    n->op = b->op == PETW__NET_BPF_SEND ? PETW__SYS_NET_SEND : PETW__SYS_NET_RECV;
    n->sk = b->sk;
    n->family = b->family;
    n->protocol = b->protocol;
    n->bytes = b->bytes;
    n->tuple = b->tuple != 0;
    n->sport = b->sport;
    n->dport = b->dport;
    memcpy(n->saddr, b->saddr, 16);
    memcpy(n->daddr, b->daddr, 16);
    r.kind = PETW__SYSREC_NET;
    r.net = n;
    r.cpu = b->cpu;
    r.pid = b->pid;
    r.tid = b->tid;
    r.time_ns = (int64_t)b->time_ns;
    s->bpf_fn(s->bpf_ctx, &r);
}

static int perf_open(struct perf_event_attr *a, pid_t pid, int cpu)
{
    return (int)syscall(SYS_perf_event_open, a, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

static void base_attr(struct perf_event_attr *a, const petw__sys_config *c, int exclude_kernel)
{
    memset(a, 0, sizeof(*a));
    a->size = sizeof(*a);
    a->type = PERF_TYPE_SOFTWARE;
    a->sample_type = PETW__PERF_SAMPLE_TYPE;
    a->sample_id_all = 1;
    a->use_clockid = 1;
    a->clockid = CLOCK_MONOTONIC;
    a->disabled = 1;
    a->inherit = c->target_pid != 0;
    a->exclude_kernel = (uint64_t)exclude_kernel;
    a->exclude_hv = (uint64_t)exclude_kernel;
    a->exclude_callchain_kernel = (uint64_t)exclude_kernel;
}

/* perf_event_open's errno as a PETW_E* code: no such event or facility in
 * this kernel is PETW_ENOTSUP; the rest reads as any OS call's errno
 * (petw__linux_error). */
static int errno_code(int e)
{
    return e == ENOENT || e == ENOSYS || e == EOPNOTSUPP ? PETW_ENOTSUP : petw__linux_error(e);
}

/* Opens one CPU's events; 0, or a PETW_E* code (ENODEV: the CPU is offline,
 * reported as 1 so the caller skips it). */
static int open_cpu(petw__sys_cpu *sc, const petw__sys_config *c, int cpu, int exclude_kernel,
                    uint32_t pages)
{
    pid_t pid = c->target_pid ? (pid_t)c->target_pid : -1;
    struct perf_event_attr a;
    base_attr(&a, c, exclude_kernel);
    a.config = PERF_COUNT_SW_DUMMY;
    a.task = (uint64_t)(c->tasks != 0);
    a.comm = (uint64_t)(c->tasks != 0);
    a.comm_exec = (uint64_t)(c->tasks != 0);
    a.mmap = (uint64_t)(c->mmaps || c->faults);
    a.mmap2 = (uint64_t)(c->mmaps || c->faults);
    a.mmap_data = (uint64_t)(c->faults != 0); /* every mapping: a fault's file and offset */
    a.build_id = (uint64_t)(c->mmaps != 0);   /* MMAP2 carries the file's build-id (5.12+) */
    a.context_switch = (uint64_t)(c->switches != 0);
    a.watermark = 1;
    a.wakeup_watermark = (uint32_t)((uint64_t)pages * (uint64_t)sysconf(_SC_PAGESIZE) / 4);
    sc->fd = perf_open(&a, pid, cpu);
    if (sc->fd < 0 && errno == EINVAL && a.build_id) {
        a.build_id = 0; /* an older kernel: the build-id is read from the file instead */
        sc->fd = perf_open(&a, pid, cpu);
    }
    if (sc->fd < 0)
        return errno == ENODEV ? 1 : errno_code(errno);
    sc->data_size = (uint64_t)pages * (uint64_t)sysconf(_SC_PAGESIZE);
    void *m = mmap(NULL, sc->data_size + (size_t)sysconf(_SC_PAGESIZE), PROT_READ | PROT_WRITE,
                   MAP_SHARED, sc->fd, 0);
    if (m == MAP_FAILED)
        return errno_code(errno);
    sc->base = m;
    if (c->sample_ns) {
        base_attr(&a, c, exclude_kernel);
        a.config = PERF_COUNT_SW_CPU_CLOCK;
        a.sample_period = c->sample_ns;
        if (c->sample_stacks) {
            a.sample_type |= PERF_SAMPLE_CALLCHAIN;
            a.sample_max_stack = (uint16_t)PETW__SYS_MAX_FRAMES;
        }
        sc->sample_fd = perf_open(&a, pid, cpu);
        if (sc->sample_fd < 0 && c->sample_stacks && errno == EOVERFLOW) {
            a.sample_max_stack = 0; /* above kernel.perf_event_max_stack: its default */
            sc->sample_fd = perf_open(&a, pid, cpu);
        }
        if (sc->sample_fd < 0)
            return errno_code(errno);
        if (ioctl(sc->sample_fd, PERF_EVENT_IOC_SET_OUTPUT, sc->fd) != 0)
            return errno_code(errno);
    }
    return 0;
}

/* ---- Tracepoints ---- */

/* tracefs, mounted where the kernel offers it when nobody did (root only,
 * as perf does); NULL when there is none. */
static const char *tracefs(void)
{
    static const char *const dirs[] = {"/sys/kernel/tracing", "/sys/kernel/debug/tracing"};
    char p[64];
    for (int pass = 0; pass < 2; pass++) {
        for (size_t k = 0; k < sizeof(dirs) / sizeof(dirs[0]); k++) {
            snprintf(p, sizeof(p), "%s/events", dirs[k]);
            if (access(p, R_OK) == 0)
                return dirs[k];
        }
        if (pass == 0 && (geteuid() != 0 || mount("nodev", dirs[0], "tracefs", 0, NULL) != 0))
            break;
    }
    return NULL;
}

/* PETW_NO_TRACEPOINTS (names separated by commas) makes tracepoints absent,
 * so that the tests see what a kernel without them records. */
static int tp_hidden(const char *name)
{
    const char *absent = getenv("PETW_NO_TRACEPOINTS");
    size_t len = strlen(name);
    for (const char *a = absent; a && *a; a += strcspn(a, ","), a += *a == ',')
        if (!strncmp(a, name, len) && (a[len] == ',' || !a[len]))
            return 1;
    return 0;
}

/* Reads tracefs file `file` of tracepoint `name` into buf; its length, 0
 * when there is none. */
static size_t tp_read(const char *name, const char *file, char *buf, size_t size)
{
    const char *dir = tp_hidden(name) ? NULL : tracefs();
    char path[256];
    if (!dir || size == 0)
        return 0;
    snprintf(path, sizeof(path), "%s/events/%s/%s", dir, name, file);
    FILE *f = fopen(path, "re");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, size - 1, f);
    fclose(f);
    buf[n] = 0;
    return n;
}

int petw__tracepoint_id(const char *name, uint64_t *id)
{
    char text[32];
    char *end = NULL;
    if (!tp_read(name, "id", text, sizeof(text)))
        return -1;
    unsigned long long v = strtoull(text, &end, 10);
    if (end == text)
        return -1;
    *id = v;
    return 0;
}

size_t petw__tracepoint_format(const char *name, char *buf, size_t size)
{
    return tp_read(name, "format", buf, size);
}

int petw__tracefs_denied(void)
{
    static const char *const dirs[] = {"/sys/kernel/tracing/events",
                                       "/sys/kernel/debug/tracing/events"};
    if (tracefs())
        return 0;
    for (size_t k = 0; k < sizeof(dirs) / sizeof(dirs[0]); k++)
        if (access(dirs[k], R_OK) != 0 && (errno == EACCES || errno == EPERM))
            return 1;
    return 0;
}

int petw__tracepoint_exists(const char *name)
{
    uint64_t id;
    return petw__tracepoint_id(name, &id) == 0;
}

/* Opens tracepoint k on every CPU (into each CPU's ring); 0, or -1 with
 * nothing left open when the OS refuses it anywhere. */
static int tp_open(petw__sys *s, const petw__sys_config *c, int k, int exclude_kernel)
{
    pid_t pid = c->target_pid ? (pid_t)c->target_pid : -1;
    for (uint32_t i = 0; i < s->cpu_count; i++) {
        petw__sys_cpu *sc = &s->cpus[i];
        if (!sc->base)
            continue;
        struct perf_event_attr a;
        base_attr(&a, c, 0); /* a tracepoint fires in the kernel */
        a.type = PERF_TYPE_TRACEPOINT;
        a.config = s->tp[k].id;
        a.sample_period = 1;
        a.sample_type |= PERF_SAMPLE_RAW;
        if (s->tp[k].stacks) {
            a.sample_type |= PERF_SAMPLE_CALLCHAIN;
            a.sample_max_stack = (uint16_t)PETW__SYS_MAX_FRAMES;
            a.exclude_callchain_kernel = (uint64_t)exclude_kernel;
        }
        sc->tp_fd[k] = perf_open(&a, pid, (int)i);
        if (sc->tp_fd[k] < 0 && s->tp[k].stacks && errno == EOVERFLOW) {
            a.sample_max_stack = 0; /* above kernel.perf_event_max_stack: its default */
            sc->tp_fd[k] = perf_open(&a, pid, (int)i);
        }
        if (sc->tp_fd[k] < 0 || ioctl(sc->tp_fd[k], PERF_EVENT_IOC_SET_OUTPUT, sc->fd) != 0 ||
            ioctl(sc->tp_fd[k], PERF_EVENT_IOC_ID, &sc->tp_id[k]) != 0) {
            for (uint32_t j = 0; j <= i; j++) {
                if (s->cpus[j].tp_fd[k] >= 0)
                    close(s->cpus[j].tp_fd[k]);
                s->cpus[j].tp_fd[k] = -1;
            }
            return -1;
        }
    }
    return 0;
}

static void close_cpu(petw__sys_cpu *sc)
{
    for (int k = 0; k < PETW__SYS_TP_FDS; k++)
        if (sc->tp_fd[k] >= 0)
            close(sc->tp_fd[k]);
    for (int k = 0; k < PETW__PERF_FAULT_COUNT; k++)
        if (sc->fault_fd[k] >= 0)
            close(sc->fault_fd[k]);
    if (sc->base)
        munmap(sc->base, sc->data_size + (size_t)sysconf(_SC_PAGESIZE));
    if (sc->sample_fd >= 0)
        close(sc->sample_fd);
    if (sc->fd >= 0)
        close(sc->fd);
    sc->base = NULL;
    sc->fd = sc->sample_fd = -1;
    for (int k = 0; k < PETW__SYS_TP_FDS; k++)
        sc->tp_fd[k] = -1;
    for (int k = 0; k < PETW__PERF_FAULT_COUNT; k++)
        sc->fault_fd[k] = -1;
}

static void close_all(petw__sys *s)
{
    for (uint32_t i = 0; i < s->cpu_count; i++)
        close_cpu(&s->cpus[i]);
}

/* PETW_NO_FAULT_EVENTS=1 makes perf's page-fault events absent, so that
 * the tests see what a kernel or a sandbox without them records. */
static int faults_forbidden(void)
{
    const char *v = getenv("PETW_NO_FAULT_EVENTS");
    return v && *v && strcmp(v, "0") != 0;
}

static void fault_close(petw__sys *s, int k)
{
    for (uint32_t i = 0; i < s->cpu_count; i++)
        if (s->cpus[i].fault_fd[k] >= 0) {
            close(s->cpus[i].fault_fd[k]);
            s->cpus[i].fault_fd[k] = -1;
        }
}

/* Opens page-fault event k on every CPU (into each CPU's ring), each
 * sample with the fault's address; 0, or -1 with nothing left open. */
static int fault_open(petw__sys *s, const petw__sys_config *c, int k)
{
    static const uint64_t config[PETW__PERF_FAULT_COUNT] = {
        PERF_COUNT_SW_PAGE_FAULTS_MIN, PERF_COUNT_SW_PAGE_FAULTS_MAJ, PERF_COUNT_SW_PAGE_FAULTS};
    if (faults_forbidden())
        return -1;
    pid_t pid = c->target_pid ? (pid_t)c->target_pid : -1;
    for (uint32_t i = 0; i < s->cpu_count; i++) {
        petw__sys_cpu *sc = &s->cpus[i];
        if (!sc->base)
            continue;
        struct perf_event_attr a;
        base_attr(&a, c, 0); /* a fault the kernel takes on a user address counts too */
        a.config = config[k];
        a.sample_period = 1;
        a.sample_type |= PERF_SAMPLE_ADDR;
        sc->fault_fd[k] = perf_open(&a, pid, (int)i);
        if (sc->fault_fd[k] < 0 && (errno == EACCES || errno == EPERM)) {
            a.exclude_kernel = a.exclude_hv = 1; /* perf_event_paranoid 2: user mode's */
            sc->fault_fd[k] = perf_open(&a, pid, (int)i);
        }
        if (sc->fault_fd[k] < 0 || ioctl(sc->fault_fd[k], PERF_EVENT_IOC_SET_OUTPUT, sc->fd) != 0 ||
            ioctl(sc->fault_fd[k], PERF_EVENT_IOC_ID, &sc->fault_id[k]) != 0) {
            fault_close(s, k);
            return -1;
        }
    }
    return 0;
}

static uint32_t default_pages(uint32_t cpus)
{
    /* Root may lock what it needs; a user shares perf_event_mlock_kb
     * (516 KB by default) between every CPU's ring. */
    if (geteuid() == 0)
        return 128;
    uint64_t kb = 516;
    FILE *f = fopen("/proc/sys/kernel/perf_event_mlock_kb", "r");
    if (f) {
        unsigned long long v;
        if (fscanf(f, "%llu", &v) == 1)
            kb = v;
        fclose(f);
    }
    uint64_t per = kb / 4 / (cpus ? cpus : 1); /* pages of 4 KB, metadata page included */
    uint32_t pages = 1;
    while ((uint64_t)pages * 2 + 1 <= per && pages < 128)
        pages *= 2;
    return pages;
}

static void sys_free(petw__sys *s)
{
    free(s->cpus);
    free(s->polls);
    free(s->scratch);
    free(s);
}

/* Opens every online CPU's events, without kernel code when the kernel
 * refuses it (info->kernel_excluded then); 0, or a PETW_E* code with
 * nothing left open. */
static int open_cpus(petw__sys *s, const petw__sys_config *c, uint32_t pages, petw__sys_info *info)
{
    uint32_t cpus = s->cpu_count;
    int rc = 0;
    for (int exclude = 0; exclude < 2; exclude++) {
        rc = 0;
        for (uint32_t i = 0; i < cpus; i++) {
            memset(&s->cpus[i], 0, sizeof(s->cpus[i]));
            s->cpus[i].fd = s->cpus[i].sample_fd = -1;
            for (int k = 0; k < PETW__SYS_TP_FDS; k++)
                s->cpus[i].tp_fd[k] = -1;
            for (int k = 0; k < PETW__PERF_FAULT_COUNT; k++)
                s->cpus[i].fault_fd[k] = -1;
        }
        uint32_t opened = 0;
        for (uint32_t i = 0; i < cpus && rc <= 0; i++) {
            int r = open_cpu(&s->cpus[i], c, (int)i, exclude, pages);
            if (r == 1) {
                close_cpu(&s->cpus[i]);
                continue;
            }
            rc = r;
            opened += r == 0;
        }
        if (rc == 0 && opened == 0)
            rc = PETW_ENOTSUP;
        if (rc == 0) {
            info->kernel_excluded = exclude;
            break;
        }
        close_all(s);
        if (rc != PETW_EACCES)
            break;
    }
    return rc;
}

static void tp_close(petw__sys *s, uint32_t k)
{
    for (uint32_t i = 0; i < s->cpu_count; i++)
        if (s->cpus[i].tp_fd[k] >= 0) {
            close(s->cpus[i].tp_fd[k]);
            s->cpus[i].tp_fd[k] = -1;
        }
    s->tp_on[k] = 0;
}

/* Tracepoints: what the OS refuses (or lacks) is not granted, nor is the
 * rest of its group. */
static void open_tracepoints(petw__sys *s, const petw__sys_config *c, petw__sys_info *info)
{
    s->tp_count = c->tracepoint_count < PETW__SYS_MAX_TRACEPOINTS ? c->tracepoint_count
                                                                  : PETW__SYS_MAX_TRACEPOINTS;
    for (uint32_t k = 0; k < s->tp_count; k++) {
        s->tp[k] = c->tracepoints[k];
        s->tp_on[k] = tp_open(s, c, (int)k, info->kernel_excluded) == 0;
    }
    for (uint32_t k = 0; k < s->tp_count; k++)
        for (uint32_t j = 0; s->tp[k].group && !s->tp_on[k] && j < s->tp_count; j++)
            if (s->tp[j].group == s->tp[k].group && s->tp_on[j])
                tp_close(s, j);
    for (uint32_t k = 0; k < s->tp_count; k++)
        if (s->tp_on[k])
            info->tracepoints_on |= 1u << k;
}

/* The page-fault events: major faults always; minor ones when asked (the
 * most numerous); every fault's start when asked. */
static void open_faults(petw__sys *s, const petw__sys_config *c)
{
    s->fault_on[PETW__PERF_FAULT_MAJ] =
        fault_open(s, c, PETW__PERF_FAULT_MAJ) == 0 &&
        (!c->minor_faults || fault_open(s, c, PETW__PERF_FAULT_MIN) == 0);
    s->fault_on[PETW__PERF_FAULT_MIN] = s->fault_on[PETW__PERF_FAULT_MAJ] && c->minor_faults;
    if (!s->fault_on[PETW__PERF_FAULT_MAJ])
        fault_close(s, PETW__PERF_FAULT_MIN), fault_close(s, PETW__PERF_FAULT_MAJ);
    s->fault_on[PETW__PERF_FAULT_ANY] = s->fault_on[PETW__PERF_FAULT_MAJ] && c->fault_starts &&
                                        fault_open(s, c, PETW__PERF_FAULT_ANY) == 0;
    if (!s->fault_on[PETW__PERF_FAULT_ANY])
        fault_close(s, PETW__PERF_FAULT_ANY);
}

/* Every CPU's ring polled, and every event opened enabled. */
static void enable_all(petw__sys *s)
{
    for (uint32_t i = 0; i < s->cpu_count; i++) {
        s->polls[i].fd = s->cpus[i].fd;
        s->polls[i].events = POLLIN;
        for (uint32_t k = 0; k < s->tp_count; k++)
            if (s->cpus[i].tp_fd[k] >= 0)
                ioctl(s->cpus[i].tp_fd[k], PERF_EVENT_IOC_ENABLE, 0);
        for (int k = 0; k < PETW__PERF_FAULT_COUNT; k++)
            if (s->cpus[i].fault_fd[k] >= 0)
                ioctl(s->cpus[i].fault_fd[k], PERF_EVENT_IOC_ENABLE, 0);
        if (s->cpus[i].sample_fd >= 0)
            ioctl(s->cpus[i].sample_fd, PERF_EVENT_IOC_ENABLE, 0);
        if (s->cpus[i].fd >= 0)
            ioctl(s->cpus[i].fd, PERF_EVENT_IOC_ENABLE, 0);
    }
}

int petw__sys_open(const petw__sys_config *c, petw__sys **out, petw__sys_info *info)
{
    *out = NULL;
    memset(info, 0, sizeof(*info));
    long n = sysconf(_SC_NPROCESSORS_CONF);
    uint32_t cpus = n > 0 ? (uint32_t)n : 1;
    petw__sys *s = calloc(1, sizeof(*s));
    if (!s)
        return PETW_ENOMEM;
    s->cpu_count = cpus;
    s->cpus = calloc(cpus, sizeof(*s->cpus));
    s->polls = calloc(cpus, sizeof(*s->polls));
    s->scratch = malloc(65536);
    if (!s->cpus || !s->polls || !s->scratch) {
        sys_free(s);
        return PETW_ENOMEM;
    }
    uint32_t pages = c->pages_per_cpu ? c->pages_per_cpu : default_pages(cpus);
    int rc = open_cpus(s, c, pages, info);
    if (rc != 0) {
        sys_free(s);
        return rc;
    }
    open_tracepoints(s, c, info);
    if (c->faults)
        open_faults(s, c);
    info->faults = s->fault_on[PETW__PERF_FAULT_MAJ];
    info->fault_starts = s->fault_on[PETW__PERF_FAULT_ANY];
    /* UDP's endpoints need BPF: no tracepoint has them. */
    if (c->net && petw__net_bpf_open(c->target_pid, on_net_bpf, s, &s->net_bpf, info->net_bpf_why,
                                     sizeof(info->net_bpf_why)) == 0)
        info->net_bpf = 1;
    enable_all(s);
    *out = s;
    return 0;
}

void petw__sys_wait(petw__sys *s, uint32_t timeout_ms)
{
    (void)poll(s->polls, s->cpu_count, (int)timeout_ms);
}

/* Every event stops writing (records already written stay readable). */
static void disable_all(petw__sys *s)
{
    for (uint32_t i = 0; i < s->cpu_count; i++) {
        for (uint32_t k = 0; k < s->tp_count; k++)
            if (s->cpus[i].tp_fd[k] >= 0)
                ioctl(s->cpus[i].tp_fd[k], PERF_EVENT_IOC_DISABLE, 0);
        for (int k = 0; k < PETW__PERF_FAULT_COUNT; k++)
            if (s->cpus[i].fault_fd[k] >= 0)
                ioctl(s->cpus[i].fault_fd[k], PERF_EVENT_IOC_DISABLE, 0);
        if (s->cpus[i].fd >= 0)
            ioctl(s->cpus[i].fd, PERF_EVENT_IOC_DISABLE, 0);
        if (s->cpus[i].sample_fd >= 0)
            ioctl(s->cpus[i].sample_fd, PERF_EVENT_IOC_DISABLE, 0);
    }
}

void petw__sys_drain(petw__sys *s, petw__sys_fn fn, void *ctx)
{
    disable_all(s);
    if (s->net_bpf) /* nothing new from here; detached when closed (seconds) */
        (void)petw__bpf_stop(s->net_bpf, PETW__NET_BPF_STOPPED);
    petw__sys_read(s, fn, ctx);
    /* A tracepoint event counts every hit, and a sample may still not be
     * written: on an idle CPU under NO_HZ, the kernels tried drop the
     * samples of tracepoints that fire in interrupt context (perf record
     * loses the same ones) while the count goes on. What fired and never
     * came is lost; say so. (A process-following event's count includes
     * its children only once they exit: never more than was read.) */
    uint64_t unseen = 0;
    for (uint32_t i = 0; i < s->cpu_count; i++)
        for (uint32_t k = 0; k < s->tp_count; k++) {
            uint64_t count;
            if (s->cpus[i].tp_fd[k] >= 0 &&
                read(s->cpus[i].tp_fd[k], &count, sizeof(count)) == (ssize_t)sizeof(count) &&
                count > s->cpus[i].tp_seen[k])
                unseen += count - s->cpus[i].tp_seen[k];
        }
    for (uint32_t i = 0; i < s->cpu_count; i++)
        for (int k = 0; k < PETW__PERF_FAULT_COUNT; k++) {
            uint64_t count;
            if (s->cpus[i].fault_fd[k] >= 0 &&
                read(s->cpus[i].fault_fd[k], &count, sizeof(count)) == (ssize_t)sizeof(count) &&
                count > s->cpus[i].fault_seen[k])
                unseen += count - s->cpus[i].fault_seen[k];
        }
    uint32_t zero = 0;
    uint64_t bpf_lost = 0; /* the network BPF ring's records that found no room */
    if (s->net_bpf && petw__bpf_map_lookup(s->net_bpf, "counters", &zero, &bpf_lost) == 0)
        unseen += bpf_lost;
    if (unseen) {
        petw__sys_record r;
        memset(&r, 0, sizeof(r));
        r.kind = PETW__SYSREC_LOST;
        r.count = unseen;
        r.time_ns = petw__monotonic_ns();
        fn(ctx, &r);
    }
}

void petw__sys_close(petw__sys *s)
{
    if (!s)
        return;
    disable_all(s);
    close_all(s);
    petw__bpf_close_async(s->net_bpf);
    free(s->cpus);
    free(s->polls);
    free(s->scratch);
    free(s);
}
