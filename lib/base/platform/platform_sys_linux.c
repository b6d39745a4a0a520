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
 * Also here: a process's command line and owner, an ELF file's build-id and
 * a process's JIT map (/tmp/perf-PID.map, opened with care: /tmp is
 * everyone's). The rundown and the kernel's symbols are read from /proc by
 * lib/write/system/system_proc.c; the machine's configuration is
 * platform_machine_linux.c's.
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

#include "platform.h"
#include "petw/error.h"
#include "platform_linux_internal.h"

#include <linux/types.h>

#include "platform_net_bpf.h"

/* Tracepoints (tracefs): what is read of each, at the offsets its format
 * file gives (they change between kernel versions). */
enum {
    TP_WAKING,
    TP_ISSUE,
    TP_COMPLETE,
    TP_SWITCH,
    /* The virtual memory calls: each one's entry, then its exit (in PETW__SYS_VM_* order). */
    TP_VM_FIRST,
    TP_VM_LAST = TP_VM_FIRST + 7,
    TP_SOCK_STATE, /* the network's: the last ones */
    TP_SOCK_SEND,
    TP_SOCK_RECV,
    TP_TCP_RETRANSMIT,
    TP_COUNT
};
static const char *const tp_names[TP_COUNT] = {
    "sched/sched_waking",        "block/block_rq_issue",      "block/block_rq_complete",
    "sched/sched_switch",        "syscalls/sys_enter_mmap",   "syscalls/sys_exit_mmap",
    "syscalls/sys_enter_munmap", "syscalls/sys_exit_munmap",  "syscalls/sys_enter_brk",
    "syscalls/sys_exit_brk",     "syscalls/sys_enter_mremap", "syscalls/sys_exit_mremap",
    "sock/inet_sock_set_state",  "sock/sock_send_length",     "sock/sock_recv_length",
    "tcp/tcp_retransmit_skb"};
#define VM_ARGS 6
typedef struct tp_layout {
    uint64_t id;         /* the tracepoint's id (perf config) */
    int32_t pid;         /* sched_waking: the woken thread */
    int32_t dev, sector; /* block: device, first sector */
    int32_t nr_sector, rwbs;
    int32_t arg[VM_ARGS]; /* syscalls: the fields after __syscall_nr, in order (exit: ret) */
    uint32_t args;
    /* sock, tcp: the socket (skaddr or sk), states, ports, family,
     * protocol, addresses, a call's result and flags */
    int32_t sk, oldstate, newstate, sport, dport, family, protocol;
    int32_t saddr, daddr, saddr_v6, daddr_v6, ret, flags;
} tp_layout;

#define MAX_TP_FDS TP_COUNT
/* perf's page-fault software events: minor and major faults (each at its
 * end, with the address), and every fault at its start. */
enum { FAULT_MIN, FAULT_MAJ, FAULT_ANY, FAULT_COUNT };

typedef struct sys_cpu {
    int fd;        /* the side-band event: owns the ring */
    int sample_fd; /* cpu-clock sampling into the same ring, or -1 */
    int tp_fd[MAX_TP_FDS];
    uint64_t tp_id[MAX_TP_FDS];   /* each tracepoint event's sample id here */
    uint64_t tp_seen[MAX_TP_FDS]; /* its samples read (its count says how many fired) */
    int fault_fd[FAULT_COUNT];
    uint64_t fault_id[FAULT_COUNT], fault_seen[FAULT_COUNT];
    uint8_t *base; /* the ring's mapping: metadata page, then data */
    uint64_t data_size;
    uint64_t head, tail; /* during a read: what is there, and how far read */
} sys_cpu;

struct petw__sys {
    uint32_t cpu_count;
    tp_layout tp[TP_COUNT];
    int tp_on[TP_COUNT];
    int tp_stacks[TP_COUNT]; /* its samples carry the call chain of the thread it fired in */
    int fault_on[FAULT_COUNT];
    sys_cpu *cpus;
    struct pollfd *polls;
    uint8_t *scratch; /* one record copied out of a wrapped ring */
    uint64_t frames[PETW__SYS_MAX_FRAMES];
    char text[4096 + 8];
    uint8_t build_id[PETW__SYS_BUILD_ID_MAX];
    petw__sys_net net;
    petw__bpf *net_bpf;  /* platform_net.bpf.c: UDP datagrams with their endpoints */
    petw__sys_fn bpf_fn; /* where a read pass sends its records */
    void *bpf_ctx;
};

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

/* The record layouts this file asks for (sample_type below). */
#define SAMPLE_TYPE                                                                                \
    (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU)
/* sample_id_all's trailer: {pid, tid}, time, {cpu, res}, identifier. */
#define TRAILER_BYTES 32u

static int perf_open(struct perf_event_attr *a, pid_t pid, int cpu)
{
    return (int)syscall(SYS_perf_event_open, a, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

static void base_attr(struct perf_event_attr *a, const petw__sys_config *c, int exclude_kernel)
{
    memset(a, 0, sizeof(*a));
    a->size = sizeof(*a);
    a->type = PERF_TYPE_SOFTWARE;
    a->sample_type = SAMPLE_TYPE;
    a->sample_id_all = 1;
    a->use_clockid = 1;
    a->clockid = CLOCK_MONOTONIC;
    a->disabled = 1;
    a->inherit = c->target_pid != 0;
    a->exclude_kernel = (uint64_t)exclude_kernel;
    a->exclude_hv = (uint64_t)exclude_kernel;
    a->exclude_callchain_kernel = (uint64_t)exclude_kernel;
}

static int errno_code(int e)
{
    switch (e) {
    case EACCES:
    case EPERM:
        return PETW_EACCES;
    case ENOENT:
    case ENOSYS:
    case EOPNOTSUPP:
        return PETW_ENOTSUP;
    case ENOMEM:
        return PETW_ENOMEM;
    default:
        return PETW_EIO;
    }
}

/* Opens one CPU's events; 0, or a PETW_E* code (ENODEV: the CPU is offline,
 * reported as 1 so the caller skips it). */
static int open_cpu(sys_cpu *sc, const petw__sys_config *c, int cpu, int exclude_kernel,
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

/* Notes field `word` of a format file at offset `at`, if it is one read;
 * `after_nr`: the field follows __syscall_nr (a syscall's argument). */
static void tp_field(tp_layout *l, const char *word, int32_t at, int after_nr)
{
    if (!strcmp(word, "pid"))
        l->pid = at;
    else if (!strcmp(word, "dev"))
        l->dev = at;
    else if (!strcmp(word, "sector"))
        l->sector = at;
    else if (!strcmp(word, "nr_sector"))
        l->nr_sector = at;
    else if (!strcmp(word, "rwbs"))
        l->rwbs = at;
    else if (after_nr && l->args < VM_ARGS)
        l->arg[l->args++] = at;
    else if (!strcmp(word, "skaddr") || !strcmp(word, "sk"))
        l->sk = at;
    else if (!strcmp(word, "oldstate"))
        l->oldstate = at;
    else if (!strcmp(word, "newstate"))
        l->newstate = at;
    else if (!strcmp(word, "sport"))
        l->sport = at;
    else if (!strcmp(word, "dport"))
        l->dport = at;
    else if (!strcmp(word, "family"))
        l->family = at;
    else if (!strcmp(word, "protocol"))
        l->protocol = at;
    else if (!strcmp(word, "saddr"))
        l->saddr = at;
    else if (!strcmp(word, "daddr"))
        l->daddr = at;
    else if (!strcmp(word, "saddr_v6"))
        l->saddr_v6 = at;
    else if (!strcmp(word, "daddr_v6"))
        l->daddr_v6 = at;
    else if (!strcmp(word, "ret"))
        l->ret = at;
    else if (!strcmp(word, "flags"))
        l->flags = at;
}

/* A tracepoint's id and the offsets of the fields read (-1 when absent). */
static int tp_load(const char *name, tp_layout *l)
{
    if (tp_hidden(name))
        return -1;
    const char *dir = tracefs();
    char path[256], line[512];
    if (!dir)
        return -1;
    snprintf(path, sizeof(path), "%s/events/%s/id", dir, name);
    FILE *f = fopen(path, "re");
    unsigned long long id;
    if (!f)
        return -1;
    int ok = fscanf(f, "%llu", &id) == 1;
    fclose(f);
    if (!ok)
        return -1;
    *l = (tp_layout){.id = id,
                     .pid = -1,
                     .dev = -1,
                     .sector = -1,
                     .nr_sector = -1,
                     .rwbs = -1,
                     .arg = {-1, -1, -1, -1, -1, -1},
                     .args = 0,
                     .sk = -1,
                     .oldstate = -1,
                     .newstate = -1,
                     .sport = -1,
                     .dport = -1,
                     .family = -1,
                     .protocol = -1,
                     .saddr = -1,
                     .daddr = -1,
                     .saddr_v6 = -1,
                     .daddr_v6 = -1,
                     .ret = -1,
                     .flags = -1};
    int after_nr = 0;
    snprintf(path, sizeof(path), "%s/events/%s/format", dir, name);
    if (!(f = fopen(path, "re")))
        return -1;
    while (fgets(line, sizeof(line), f)) {
        char *field = strstr(line, "field:"), *semi = field ? strchr(field, ';') : NULL;
        char *off = strstr(line, "offset:");
        if (!field || !semi || !off)
            continue;
        *semi = 0;
        char *word = strrchr(field, ' ');
        word = word ? word + 1 : field + 6;
        word[strcspn(word, "[")] = 0;
        int32_t at = (int32_t)atoi(off + 7);
        tp_field(l, word, at, after_nr);
        if (!strcmp(word, "__syscall_nr"))
            after_nr = 1;
    }
    fclose(f);
    return 0;
}

int petw__tracepoint_exists(const char *name)
{
    tp_layout l;
    return tp_load(name, &l) == 0;
}

/* Opens tracepoint k on every CPU (into each CPU's ring); 0, or -1 with
 * nothing left open when the OS refuses it anywhere. */
static int tp_open(petw__sys *s, const petw__sys_config *c, int k, int exclude_kernel)
{
    pid_t pid = c->target_pid ? (pid_t)c->target_pid : -1;
    for (uint32_t i = 0; i < s->cpu_count; i++) {
        sys_cpu *sc = &s->cpus[i];
        if (!sc->base)
            continue;
        struct perf_event_attr a;
        base_attr(&a, c, 0); /* a tracepoint fires in the kernel */
        a.type = PERF_TYPE_TRACEPOINT;
        a.config = s->tp[k].id;
        a.sample_period = 1;
        a.sample_type |= PERF_SAMPLE_RAW;
        if (s->tp_stacks[k]) {
            a.sample_type |= PERF_SAMPLE_CALLCHAIN;
            a.sample_max_stack = (uint16_t)PETW__SYS_MAX_FRAMES;
            a.exclude_callchain_kernel = (uint64_t)exclude_kernel;
        }
        sc->tp_fd[k] = perf_open(&a, pid, (int)i);
        if (sc->tp_fd[k] < 0 && s->tp_stacks[k] && errno == EOVERFLOW) {
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

static void close_cpu(sys_cpu *sc)
{
    for (int k = 0; k < MAX_TP_FDS; k++)
        if (sc->tp_fd[k] >= 0)
            close(sc->tp_fd[k]);
    for (int k = 0; k < FAULT_COUNT; k++)
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
    for (int k = 0; k < MAX_TP_FDS; k++)
        sc->tp_fd[k] = -1;
    for (int k = 0; k < FAULT_COUNT; k++)
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
    static const uint64_t config[FAULT_COUNT] = {
        PERF_COUNT_SW_PAGE_FAULTS_MIN, PERF_COUNT_SW_PAGE_FAULTS_MAJ, PERF_COUNT_SW_PAGE_FAULTS};
    if (faults_forbidden())
        return -1;
    pid_t pid = c->target_pid ? (pid_t)c->target_pid : -1;
    for (uint32_t i = 0; i < s->cpu_count; i++) {
        sys_cpu *sc = &s->cpus[i];
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
            for (int k = 0; k < MAX_TP_FDS; k++)
                s->cpus[i].tp_fd[k] = -1;
            for (int k = 0; k < FAULT_COUNT; k++)
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

/* Tracepoints: what the OS refuses (or lacks) is not granted. */
static void open_tracepoints(petw__sys *s, const petw__sys_config *c, petw__sys_info *info)
{
    uint32_t cpus = s->cpu_count;
    int want[TP_COUNT] = {c->wakeups, c->disk, c->disk, c->switch_stacks};
    for (int k = TP_VM_FIRST; k <= TP_VM_LAST; k++)
        want[k] = c->vm;
    for (int k = TP_SOCK_STATE; k <= TP_TCP_RETRANSMIT; k++)
        want[k] = c->net;
    s->tp_stacks[TP_WAKING] = c->wakeup_stacks;
    s->tp_stacks[TP_SWITCH] = 1;
    for (int k = 0; k < TP_COUNT; k++)
        s->tp_on[k] = want[k] && tp_load(tp_names[k], &s->tp[k]) == 0 &&
                      tp_open(s, c, k, info->kernel_excluded) == 0;
    if (c->disk && !(s->tp_on[TP_ISSUE] && s->tp_on[TP_COMPLETE])) {
        for (int k = TP_ISSUE; k <= TP_COMPLETE; k++)
            for (uint32_t i = 0; i < cpus && s->tp_on[k]; i++)
                if (s->cpus[i].tp_fd[k] >= 0) {
                    close(s->cpus[i].tp_fd[k]);
                    s->cpus[i].tp_fd[k] = -1;
                }
        s->tp_on[TP_ISSUE] = s->tp_on[TP_COMPLETE] = 0;
    }
    /* The memory calls: all eight, or none (an entry without its exit
     * says nothing of what was mapped). */
    int vm_all = 1;
    for (int k = TP_VM_FIRST; k <= TP_VM_LAST; k++)
        vm_all &= s->tp_on[k];
    if (c->vm && !vm_all)
        for (int k = TP_VM_FIRST; k <= TP_VM_LAST; k++) {
            for (uint32_t i = 0; i < cpus && s->tp_on[k]; i++)
                if (s->cpus[i].tp_fd[k] >= 0) {
                    close(s->cpus[i].tp_fd[k]);
                    s->cpus[i].tp_fd[k] = -1;
                }
            s->tp_on[k] = 0;
        }
    info->vm = c->vm && vm_all;
}

/* The page-fault events: major faults always; minor ones when asked (the
 * most numerous); every fault's start when asked. */
static void open_faults(petw__sys *s, const petw__sys_config *c)
{
    s->fault_on[FAULT_MAJ] =
        fault_open(s, c, FAULT_MAJ) == 0 && (!c->minor_faults || fault_open(s, c, FAULT_MIN) == 0);
    s->fault_on[FAULT_MIN] = s->fault_on[FAULT_MAJ] && c->minor_faults;
    if (!s->fault_on[FAULT_MAJ])
        fault_close(s, FAULT_MIN), fault_close(s, FAULT_MAJ);
    s->fault_on[FAULT_ANY] =
        s->fault_on[FAULT_MAJ] && c->fault_starts && fault_open(s, c, FAULT_ANY) == 0;
    if (!s->fault_on[FAULT_ANY])
        fault_close(s, FAULT_ANY);
}

/* Every CPU's ring polled, and every event opened enabled. */
static void enable_all(petw__sys *s)
{
    for (uint32_t i = 0; i < s->cpu_count; i++) {
        s->polls[i].fd = s->cpus[i].fd;
        s->polls[i].events = POLLIN;
        for (int k = 0; k < TP_COUNT; k++)
            if (s->cpus[i].tp_fd[k] >= 0)
                ioctl(s->cpus[i].tp_fd[k], PERF_EVENT_IOC_ENABLE, 0);
        for (int k = 0; k < FAULT_COUNT; k++)
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
    info->faults = s->fault_on[FAULT_MAJ];
    info->fault_starts = s->fault_on[FAULT_ANY];
    info->wakeups = s->tp_on[TP_WAKING];
    info->switch_stacks = s->tp_on[TP_SWITCH];
    info->disk = s->tp_on[TP_COMPLETE];
    info->net_states = s->tp_on[TP_SOCK_STATE];
    info->net_bytes = s->tp_on[TP_SOCK_SEND] && s->tp_on[TP_SOCK_RECV];
    info->net_retransmits = s->tp_on[TP_TCP_RETRANSMIT];
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

static uint32_t rd32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}
static uint16_t rd16(const uint8_t *p)
{
    uint16_t v;
    memcpy(&v, p, 2);
    return v;
}
static uint64_t rd64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

/* The trailer every non-sample record ends with. */
static void trailer(const uint8_t *rec, uint32_t size, petw__sys_record *r)
{
    const uint8_t *t = rec + size - TRAILER_BYTES;
    r->pid = rd32(t);
    r->tid = rd32(t + 4);
    r->time_ns = (int64_t)rd64(t + 8);
    r->cpu = rd32(t + 16);
}

/* A sock or tcp tracepoint's raw record as a NET record (0: not one: a
 * field missing or out of bounds, another family or protocol, a failed
 * call, a peek). */
static int sock_record(petw__sys *s, int k, const uint8_t *raw, uint32_t raw_size,
                       petw__sys_record *r)
{
    const tp_layout *l = &s->tp[k];
    petw__sys_net *n = &s->net;
    memset(n, 0, sizeof(*n));
#define OK(off, size) ((off) >= 0 && (uint32_t)(off) + (size) <= raw_size)
    if (!OK(l->sk, 8) || !OK(l->family, 2))
        return 0;
    n->sk = rd64(raw + l->sk);
    n->family = rd16(raw + l->family);
    n->protocol = OK(l->protocol, 2) ? rd16(raw + l->protocol) : 6 /* tcp/: TCP's */;
    if ((n->family != 2 && n->family != 10) || (n->protocol != 6 && n->protocol != 17))
        return 0;
    if (k == TP_SOCK_SEND || k == TP_SOCK_RECV) {
        if (!OK(l->ret, 4))
            return 0;
        int32_t ret = (int32_t)rd32(raw + l->ret);
        int32_t flags = OK(l->flags, 4) ? (int32_t)rd32(raw + l->flags) : 0;
        if (ret <= 0 || (k == TP_SOCK_RECV && (flags & 2 /* MSG_PEEK */)))
            return 0; /* an error, nothing moved, or a look that leaves the bytes queued */
        if (n->protocol == 17 && s->net_bpf)
            return 0; /* the BPF program's (sendto, recvfrom, sendmsg, recvmsg), with endpoints */
        n->op = k == TP_SOCK_SEND ? PETW__SYS_NET_SEND : PETW__SYS_NET_RECV;
        n->bytes = (uint64_t)ret;
    } else {
        int v6 = n->family == 10;
        int32_t sa = v6 ? l->saddr_v6 : l->saddr, da = v6 ? l->daddr_v6 : l->daddr;
        uint32_t as = v6 ? 16 : 4;
        if (!OK(l->sport, 2) || !OK(l->dport, 2) || !OK(sa, as) || !OK(da, as))
            return 0;
        n->tuple = 1;
        n->sport = rd16(raw + l->sport);
        n->dport = rd16(raw + l->dport);
        memcpy(n->saddr, raw + sa, as);
        memcpy(n->daddr, raw + da, as);
        if (k == TP_SOCK_STATE) {
            if (!OK(l->oldstate, 4) || !OK(l->newstate, 4))
                return 0;
            n->op = PETW__SYS_NET_STATE;
            n->old_state = (int32_t)rd32(raw + l->oldstate);
            n->new_state = (int32_t)rd32(raw + l->newstate);
        } else {
            n->op = PETW__SYS_NET_RETRANSMIT;
        }
    }
#undef OK
    r->kind = PETW__SYSREC_NET;
    r->net = n;
    return 1;
}

/* A tracepoint's sample: {pid, tid} of the thread it fired in, its time
 * and CPU, then the raw record at the offsets its format gave. */
static void tracepoint(petw__sys *s, int k, const uint8_t *p, uint32_t body, petw__sys_fn fn,
                       void *ctx)
{
    petw__sys_record r;
    memset(&r, 0, sizeof(r));
    uint32_t at = 40; /* then [nr, ips[nr]] when it has call chains, then {size, raw} */
    if (s->tp_stacks[k]) {
        if (body < at + 8)
            return;
        uint64_t nr = rd64(p + at);
        if (nr > (body - at - 8) / 8)
            return;
        for (uint64_t j = 0; j < nr && r.frame_count < PETW__SYS_MAX_FRAMES; j++) {
            uint64_t ip = rd64(p + at + 8 + 8 * j);
            if (ip < (uint64_t)PERF_CONTEXT_MAX) /* not a context marker (kernel, user) */
                s->frames[r.frame_count++] = ip;
        }
        r.frames = s->frames;
        at += 8 + 8 * (uint32_t)nr;
    }
    if (body < at + 4)
        return;
    uint32_t raw_size = rd32(p + at);
    const uint8_t *raw = p + at + 4;
    if (raw_size > body - at - 4)
        return;
    const tp_layout *l = &s->tp[k];
    r.pid = rd32(p + 16);
    r.tid = rd32(p + 20);
    r.time_ns = (int64_t)rd64(p + 24);
    r.cpu = rd32(p + 32);
#define FIELD_OK(off, n) ((off) >= 0 && (uint32_t)(off) + (n) <= raw_size)
    if (k >= TP_VM_FIRST && k <= TP_VM_LAST) {
        int exit = (k - TP_VM_FIRST) & 1;
        r.kind = exit ? PETW__SYSREC_VM_EXIT : PETW__SYSREC_VM_ENTER;
        r.count = (uint64_t)(k - TP_VM_FIRST) / 2;
        for (uint32_t j = 0; j < l->args; j++)
            if (!FIELD_OK(l->arg[j], 8))
                return;
        if (exit) {
            if (!l->args)
                return;
            r.addr = rd64(raw + l->arg[0]);
        }
        for (uint32_t j = 0; !exit && j < l->args; j++)
            r.args[j] = rd64(raw + l->arg[j]);
    } else if (k >= TP_SOCK_STATE) {
        if (!sock_record(s, k, raw, raw_size, &r))
            return;
    } else if (k == TP_SWITCH) {
        r.kind = PETW__SYSREC_SWITCH_STACK; /* the thread it fired in leaves the CPU */
    } else if (k == TP_WAKING) {
        if (!FIELD_OK(l->pid, 4))
            return;
        r.kind = PETW__SYSREC_WAKEUP;
        r.other_tid = rd32(raw + l->pid);
    } else {
        if (!FIELD_OK(l->dev, 4) || !FIELD_OK(l->sector, 8) || !FIELD_OK(l->nr_sector, 4) ||
            !FIELD_OK(l->rwbs, 8))
            return;
        r.kind = k == TP_ISSUE ? PETW__SYSREC_DISK_ISSUE : PETW__SYSREC_DISK;
        r.pgoff = rd32(raw + l->dev);
        r.addr = rd64(raw + l->sector) * 512;
        r.len = (uint64_t)rd32(raw + l->nr_sector) * 512;
        /* rwbs: R read, W write, F flush, D discard (then sync, meta...);
         * a request that moves no data (a flush before a write) is no read
         * or write. */
        const char *rwbs = (const char *)raw + l->rwbs;
        r.count = r.len == 0 || memchr(rwbs, 'D', 8) ? PETW__SYS_DISK_OTHER
                  : memchr(rwbs, 'R', 8)             ? PETW__SYS_DISK_READ
                  : memchr(rwbs, 'W', 8)             ? PETW__SYS_DISK_WRITE
                                                     : PETW__SYS_DISK_OTHER;
    }
#undef FIELD_OK
    fn(ctx, &r);
}

/* A page-fault event's sample: identifier, ip, {pid, tid}, time, addr, {cpu, res}. */
static void fault(petw__sys *s, int k, const uint8_t *p, uint32_t body, petw__sys_fn fn, void *ctx)
{
    static const uint32_t kinds[FAULT_COUNT] = {PETW__SYS_FAULT_MINOR, PETW__SYS_FAULT_MAJOR,
                                                PETW__SYS_FAULT_START};
    if (body < 48)
        return;
    petw__sys_record r;
    memset(&r, 0, sizeof(r));
    r.kind = PETW__SYSREC_FAULT;
    r.flags = kinds[k];
    r.ip = rd64(p + 8);
    r.pid = rd32(p + 16);
    r.tid = rd32(p + 20);
    r.time_ns = (int64_t)rd64(p + 24);
    r.addr = rd64(p + 32);
    r.cpu = rd32(p + 40);
    fn(ctx, &r);
}

/* A sample: identifier, ip, {pid, tid}, time, {cpu, res}, then a
 * tracepoint's {size, raw data} or the sampler's [nr, ips[nr]]. A
 * page-fault or tracepoint event's goes to its parser; the sampler's is a
 * SAMPLE record. */
static void sample_record(petw__sys *s, sys_cpu *ring, const uint8_t *p, uint32_t body,
                          petw__sys_fn fn, void *ctx)
{
    petw__sys_record r;
    memset(&r, 0, sizeof(r));
    if (body < 40)
        return;
    for (int k = 0; k < FAULT_COUNT; k++) /* their address moves the CPU: by the ring */
        if (s->fault_on[k] && ring->fault_id[k] == rd64(p)) {
            ring->fault_seen[k]++;
            fault(s, k, p, body, fn, ctx);
            return;
        }
    uint32_t cpu = rd32(p + 32);
    if (cpu < s->cpu_count) {
        uint64_t id = rd64(p);
        for (int k = 0; k < TP_COUNT; k++)
            if (s->tp_on[k] && s->cpus[cpu].tp_id[k] == id) {
                s->cpus[cpu].tp_seen[k]++;
                tracepoint(s, k, p, body, fn, ctx);
                return;
            }
    }
    r.kind = PETW__SYSREC_SAMPLE;
    r.addr = rd64(p + 8);
    r.pid = rd32(p + 16);
    r.tid = rd32(p + 20);
    r.time_ns = (int64_t)rd64(p + 24);
    r.cpu = rd32(p + 32);
    if (body >= 48) {
        uint64_t nr = rd64(p + 40);
        if (nr > (body - 48) / 8)
            nr = (body - 48) / 8;
        for (uint64_t k = 0; k < nr && r.frame_count < PETW__SYS_MAX_FRAMES; k++) {
            uint64_t ip = rd64(p + 48 + 8 * k);
            if (ip >= (uint64_t)PERF_CONTEXT_MAX)
                continue; /* a context marker (kernel, user), not a frame */
            s->frames[r.frame_count++] = ip;
        }
        r.frames = s->frames;
    }
    fn(ctx, &r);
}

/* An MMAP2 record: pid, tid, addr, len, pgoff, maj, min, ino, ino_gen,
 * prot, flags, filename, trailer. An executable file's mapping is an
 * MMAP record (an image), any other a MAP record while major faults are
 * followed; 1 when *r is one, 0 when the mapping is not recorded. */
static int mmap_record(petw__sys *s, const uint8_t *rec, uint32_t size, petw__sys_record *r)
{
    const struct perf_event_header *h = (const void *)rec;
    const uint8_t *p = rec + sizeof(*h);
    uint32_t body = size - (uint32_t)sizeof(*h);
    const uint32_t fixed = 8 + 24 + 24 + 8;
    if (body < fixed + TRAILER_BYTES)
        return 0;
    uint32_t prot = rd32(p + 56);
    /* Anonymous executable memory (a JIT): no image, as in the rundown. */
    int anon = body > fixed + 6 + TRAILER_BYTES && memcmp(p + fixed, "//anon", 6) == 0;
    int image = (prot & PROT_EXEC) && !anon;
    if (!image && !s->fault_on[FAULT_MAJ])
        return 0;
    trailer(rec, size, r);
    r->kind = image ? PETW__SYSREC_MMAP : PETW__SYSREC_MAP;
    r->pid = rd32(p);
    r->tid = rd32(p + 4);
    r->addr = rd64(p + 8);
    r->len = rd64(p + 16);
    r->pgoff = rd64(p + 24);
    size_t n = body - fixed - TRAILER_BYTES;
    if (n > sizeof(s->text) - 1)
        n = sizeof(s->text) - 1;
    memcpy(s->text, p + fixed, n);
    s->text[n] = 0;
    r->text = s->text;
    /* With the kernel's build-id (misc bit), {maj, min, ino, ino_gen}
     * is {u8 size, u8, u16, u8 build_id[20]}; else it comes from the file. */
    if (!image) {
        r->build_id = s->build_id;
        return 1;
    }
    if ((h->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) && p[32] && p[32] <= 20) {
        memcpy(s->build_id, p + 36, p[32]);
        r->build_id_size = p[32];
    } else {
        r->build_id_size = petw__sys_build_id(s->text, s->build_id);
    }
    r->build_id = s->build_id;
    return 1;
}

static void parse(petw__sys *s, sys_cpu *ring, const uint8_t *rec, uint32_t size, petw__sys_fn fn,
                  void *ctx)
{
    const struct perf_event_header *h = (const void *)rec;
    petw__sys_record r;
    memset(&r, 0, sizeof(r));
    const uint8_t *p = rec + sizeof(*h);
    uint32_t body = size - (uint32_t)sizeof(*h);
    switch (h->type) {
    case PERF_RECORD_SAMPLE:
        sample_record(s, ring, p, body, fn, ctx);
        return;
    case PERF_RECORD_FORK:
    case PERF_RECORD_EXIT:
        /* pid, ppid, tid, ptid, time, trailer */
        if (body < 24 + TRAILER_BYTES)
            return;
        trailer(rec, size, &r);
        r.kind = h->type == PERF_RECORD_FORK ? PETW__SYSREC_FORK : PETW__SYSREC_EXIT;
        r.pid = rd32(p);
        r.other_pid = rd32(p + 4);
        r.tid = rd32(p + 8);
        r.other_tid = rd32(p + 12);
        r.time_ns = (int64_t)rd64(p + 16);
        break;
    case PERF_RECORD_COMM: {
        if (!(h->misc & PERF_RECORD_MISC_COMM_EXEC) || body < 8 + TRAILER_BYTES)
            return; /* a thread renamed itself: no kernel class says so */
        trailer(rec, size, &r);
        r.kind = PETW__SYSREC_EXEC;
        r.pid = rd32(p);
        r.tid = rd32(p + 4);
        size_t n = body - 8 - TRAILER_BYTES;
        if (n > 16)
            n = 16;
        memcpy(s->text, p + 8, n);
        s->text[n] = 0;
        r.text = s->text;
        break;
    }
    case PERF_RECORD_MMAP2:
        if (!mmap_record(s, rec, size, &r))
            return;
        break;
    case PERF_RECORD_SWITCH:
    case PERF_RECORD_SWITCH_CPU_WIDE:
        if (body < TRAILER_BYTES)
            return;
        trailer(rec, size, &r);
        r.kind = PETW__SYSREC_SWITCH;
        if (h->type == PERF_RECORD_SWITCH_CPU_WIDE && body >= 8 + TRAILER_BYTES) {
            r.other_pid = rd32(p);
            r.other_tid = rd32(p + 4);
        }
        if (h->misc & PERF_RECORD_MISC_SWITCH_OUT)
            r.flags |= PETW__SYS_SWITCH_OUT;
        if (h->misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT)
            r.flags |= PETW__SYS_SWITCH_PREEMPT;
        break;
    case PERF_RECORD_LOST:
        if (body < 16 + TRAILER_BYTES)
            return;
        trailer(rec, size, &r);
        r.kind = PETW__SYSREC_LOST;
        r.count = rd64(p + 8);
        break;
    case PERF_RECORD_LOST_SAMPLES:
        if (body < 8 + TRAILER_BYTES)
            return;
        trailer(rec, size, &r);
        r.kind = PETW__SYSREC_LOST;
        r.count = rd64(p);
        break;
    default:
        return;
    }
    fn(ctx, &r);
}

/* A byte of a CPU's ring at stream position `pos`. */
static void ring_copy(const sys_cpu *sc, uint64_t pos, void *out, size_t n)
{
    const struct perf_event_mmap_page *meta = (const void *)sc->base;
    const uint8_t *data = sc->base + meta->data_offset;
    for (size_t k = 0; k < n; k++)
        ((uint8_t *)out)[k] = data[(pos + k) % sc->data_size];
}

/* The time of the record at `pos` (size `size`): a sample says it after
 * identifier, ip and ids; every other record in its sample_id trailer. */
static int64_t ring_time(const sys_cpu *sc, uint64_t pos, const struct perf_event_header *h)
{
    uint64_t t = 0;
    if (h->type == PERF_RECORD_SAMPLE && h->size >= 40)
        ring_copy(sc, pos + 32, &t, 8);
    else if (h->size >= sizeof(*h) + TRAILER_BYTES)
        ring_copy(sc, pos + h->size - 24, &t, 8);
    return (int64_t)t;
}

uint64_t petw__sys_read(petw__sys *s, petw__sys_fn fn, void *ctx)
{
    /* What each CPU holds now; then the records of all CPUs merged by
     * time, so a process's fork on one CPU comes before its exec on
     * another. */
    for (uint32_t i = 0; i < s->cpu_count; i++) {
        sys_cpu *sc = &s->cpus[i];
        if (!sc->base)
            continue;
        struct perf_event_mmap_page *meta = (void *)sc->base;
        /* acquire: pairs with the kernel's store of data_head after it
         * wrote the records below it. */
        sc->head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
        sc->tail = meta->data_tail;
    }
    uint64_t n = 0;
    for (;;) {
        sys_cpu *best = NULL;
        struct perf_event_header bh;
        int64_t bt = 0;
        for (uint32_t i = 0; i < s->cpu_count; i++) {
            sys_cpu *sc = &s->cpus[i];
            struct perf_event_header h;
            if (!sc->base || sc->tail + sizeof(h) > sc->head)
                continue;
            ring_copy(sc, sc->tail, &h, sizeof(h));
            if (h.size < sizeof(h) || sc->tail + h.size > sc->head) {
                sc->tail = sc->head; /* malformed: drop what is left */
                continue;
            }
            int64_t t = ring_time(sc, sc->tail, &h);
            if (!best || t < bt) {
                best = sc;
                bh = h;
                bt = t;
            }
        }
        if (!best)
            break;
        const struct perf_event_mmap_page *meta = (const void *)best->base;
        uint64_t at = best->tail % best->data_size;
        const uint8_t *rec = best->base + meta->data_offset + at;
        if (at + bh.size > best->data_size) { /* wraps: copy it out */
            ring_copy(best, best->tail, s->scratch, bh.size);
            rec = s->scratch;
        }
        parse(s, best, rec, bh.size, fn, ctx);
        best->tail += bh.size;
        n++;
    }
    if (s->net_bpf) { /* the BPF program's records, after the pass's */
        s->bpf_fn = fn;
        s->bpf_ctx = ctx;
        int got = petw__bpf_poll(s->net_bpf, 0);
        n += got > 0 ? (uint64_t)got : 0;
        s->bpf_fn = NULL;
    }
    for (uint32_t i = 0; i < s->cpu_count; i++) {
        sys_cpu *sc = &s->cpus[i];
        if (!sc->base)
            continue;
        struct perf_event_mmap_page *meta = (void *)sc->base;
        /* release: our reads of the records happen before the kernel may
         * overwrite them. */
        __atomic_store_n(&meta->data_tail, sc->tail, __ATOMIC_RELEASE);
    }
    return n;
}

/* Every event stops writing (records already written stay readable). */
static void disable_all(petw__sys *s)
{
    for (uint32_t i = 0; i < s->cpu_count; i++) {
        for (int k = 0; k < TP_COUNT; k++)
            if (s->cpus[i].tp_fd[k] >= 0)
                ioctl(s->cpus[i].tp_fd[k], PERF_EVENT_IOC_DISABLE, 0);
        for (int k = 0; k < FAULT_COUNT; k++)
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
    petw__bpf_detach(s->net_bpf);
    petw__sys_read(s, fn, ctx);
    /* A tracepoint event counts every hit, and a sample may still not be
     * written: on an idle CPU under NO_HZ, the kernels tried drop the
     * samples of tracepoints that fire in interrupt context (perf record
     * loses the same ones) while the count goes on. What fired and never
     * came is lost; say so. (A process-following event's count includes
     * its children only once they exit: never more than was read.) */
    uint64_t unseen = 0;
    for (uint32_t i = 0; i < s->cpu_count; i++)
        for (int k = 0; k < TP_COUNT; k++) {
            uint64_t count;
            if (s->cpus[i].tp_fd[k] >= 0 &&
                read(s->cpus[i].tp_fd[k], &count, sizeof(count)) == (ssize_t)sizeof(count) &&
                count > s->cpus[i].tp_seen[k])
                unseen += count - s->cpus[i].tp_seen[k];
        }
    for (uint32_t i = 0; i < s->cpu_count; i++)
        for (int k = 0; k < FAULT_COUNT; k++) {
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
    petw__bpf_close(s->net_bpf);
    free(s->cpus);
    free(s->polls);
    free(s->scratch);
    free(s);
}

/* ---- The rundown, from /proc ---- */

void petw__sys_cmdline(uint32_t pid, char *buf, size_t size)
{
    char path[64];
    snprintf(path, sizeof(path), "/proc/%u/cmdline", pid);
    size_t n = petw__file_read_small(path, buf, size);
    while (n > 0 && buf[n - 1] == 0)
        n--;
    for (size_t k = 0; k < n; k++)
        if (buf[k] == 0)
            buf[k] = ' ';
    buf[n] = 0;
}

uint32_t petw__sys_owner(uint32_t pid)
{
    char path[64];
    struct stat st;
    snprintf(path, sizeof(path), "/proc/%u", pid);
    return stat(path, &st) == 0 ? (uint32_t)st.st_uid : UINT32_MAX;
}

uint32_t petw__sys_build_id(const char *path, uint8_t *out)
{
    /* An ELF's GNU build-id note (NT_GNU_BUILD_ID in a PT_NOTE segment),
     * as the kernel and perf read it: 64-bit and 32-bit, little-endian. */
    if (!path || path[0] != '/')
        return 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    uint32_t got = 0;
    uint8_t eh[64], ph[56], note[1024];
    if (pread(fd, eh, sizeof(eh), 0) != (ssize_t)sizeof(eh) || memcmp(eh, "\177ELF", 4) != 0 ||
        eh[5] != 1 /* ELFDATA2LSB */) {
        close(fd);
        return 0;
    }
    int is64 = eh[4] == 2;
    uint64_t phoff = is64 ? rd64(eh + 32) : rd32(eh + 28);
    uint32_t phentsize = is64 ? rd16(eh + 54) : rd16(eh + 42);
    uint32_t phnum = is64 ? rd16(eh + 56) : rd16(eh + 44);
    for (uint32_t k = 0; k < phnum && k < 64 && !got; k++) {
        if (phentsize > sizeof(ph) ||
            pread(fd, ph, phentsize, (off_t)(phoff + (uint64_t)k * phentsize)) !=
                (ssize_t)phentsize)
            break;
        if (rd32(ph) != 4 /* PT_NOTE */)
            continue;
        uint64_t off = is64 ? rd64(ph + 8) : rd32(ph + 4);
        uint64_t size = is64 ? rd64(ph + 32) : rd32(ph + 16);
        if (size > sizeof(note))
            size = sizeof(note);
        ssize_t n = pread(fd, note, (size_t)size, (off_t)off);
        for (ssize_t at = 0; n > 0 && at + 12 <= n;) {
            uint32_t namesz = rd32(note + at), descsz = rd32(note + at + 4);
            uint32_t type = rd32(note + at + 8);
            ssize_t name_at = at + 12, desc_at = name_at + (ssize_t)((namesz + 3) & ~3u);
            if (namesz > 64 || descsz > 256 || desc_at + (ssize_t)descsz > n)
                break;
            if (type == 3 /* NT_GNU_BUILD_ID */ && namesz == 4 &&
                memcmp(note + name_at, "GNU", 4) == 0 && descsz &&
                descsz <= PETW__SYS_BUILD_ID_MAX) {
                memcpy(out, note + desc_at, descsz);
                got = descsz;
                break;
            }
            at = desc_at + (ssize_t)((descsz + 3) & ~3u);
        }
    }
    close(fd);
    return got;
}

int petw__sys_jit_map(uint32_t pid, uint32_t owner, petw__sys_jit_fn fn, void *ctx)
{
    char path[64];
    snprintf(path, sizeof(path), "/tmp/perf-%u.map", pid);
    /* /tmp is everyone's: no link followed, and only the process's user's
     * (or root's) file is believed. */
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return 0;
    struct stat st;
    FILE *f = NULL;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (st.st_uid != owner && st.st_uid != 0) ||
        !(f = fdopen(fd, "r"))) {
        close(fd);
        return 0;
    }
    char line[4096];
    while (fgets(line, sizeof(line), f)) {
        unsigned long long start, size;
        int at = 0;
        if (sscanf(line, "%llx %llx %n", &start, &size, &at) < 2 || !at)
            continue;
        char *name = line + at;
        name[strcspn(name, "\r\n")] = 0;
        if (name[0])
            fn(ctx, start, size, name);
    }
    fclose(f);
    return 0;
}
