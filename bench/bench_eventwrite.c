/* SPDX-License-Identifier: MIT */
/* bench_eventwrite - EventWrite cost next to the "physical limit" baseline,
 * measured side by side in one run, contenders alternated so machine noise
 * hits all of them. Reports medians of repetitions and ratios.
 *
 * Contenders (64-byte payload in 5 descriptors, like the baseline's copy):
 *   baseline-tsc    read the TSC, copy 64 B + 8 B timestamp into a 1 MB ring
 *   baseline-clock  the same with clock_gettime(CLOCK_MONOTONIC)
 *   petw-memory     EventWrite into a memory session (QPC clock)
 *   petw-file       EventWrite into a file session, in bursts that fit a
 *                   shared session's pool (see `chunk` in main), the session
 *                   flushed between bursts, untimed
 *   petw-file-shared  the same into the same file session, but shared: a
 *                   session host process owns it and this process is only
 *                   its provider, writing into a shared-memory per-CPU pool
 *                   (Linux; run back to back with petw-file, order alternated)
 *   petw-file-2t    two threads into an in-process file session, one burst
 *   petw-disabled   EventWrite on a registered provider nobody enables
 *   ...-2t          two threads at once (aggregate ns/event), each pinned to
 *                   its own CPU (0 and 1; the one-thread runs to CPU 0), so
 *                   the pair measures scaling, not the scheduler
 *   petw-tracelogging  TraceLoggingWrite of the same 64 bytes (4 x UInt64 and
 *                   a 32-byte fixed array) into a memory session
 *   floor-eventwrite  bench_floor's least EventWrite (bench_floor_min.h):
 *                   the same call shape, checks and record into a 1 MB
 *                   per-CPU ring that never fills; the targets' reference
 *   petw-memory-cputime  petw-memory with the provider enabled with
 *                   PETW_EVENT_ENABLE_PROPERTY_CPU_TIME: each event carries
 *                   the thread's CPU times (a getrusage system call per
 *                   event); the difference to petw-memory is their cost
 *
 * Every other session is in-process (EVENT_TRACE_PRIVATE_LOGGER_MODE |
 * PRIVATE_IN_PROC), as all were before sessions could be shared. File
 * sessions are accounted: after each stop the events in the file are counted
 * and EventsLost is read; both are printed per kind of file session.
 * Shared sessions meet in a private runtime directory (PETW_RUNTIME_DIR,
 * mkdtemp'd and removed at exit), so no other petw process is touched.
 *
 * usage: bench_eventwrite [--events N] [--reps R] [--round K] [--json FILE] [--jsonl]
 * (--jsonl prints one JSON line per contender instead of the table, with
 * the median and the spread (min, max) of its repetitions; --round only
 * alternates which of the two file sessions goes first across runs)
 */
#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE 1 /* pthread_setaffinity_np */
#endif
#include <TraceLoggingProvider.h>
#include <evntcons.h>
#include <evntprov.h>
#include <evntrace.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <uv.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

#include <petw/petw.h>

#include "bench_common.h"
#include "bench_floor_min.h"

#ifdef __linux__
#include <pthread.h>
#include <sched.h>
#endif
#ifndef _WIN32
#include <ftw.h>
#include <signal.h>
#include <unistd.h>
#define HAVE_SHARED 1 /* shared sessions: Linux (POSIX) builds only */
#else
#define HAVE_SHARED 0
#endif

DEFINE_GUID(BenchProvider, 0xbe0cbe0c, 0x1111, 0x2222, 0x33, 0x33, 0, 0, 0, 0, 0, 0x01);
DEFINE_GUID(IdleProvider, 0xbe0cbe0c, 0x1111, 0x2222, 0x33, 0x33, 0, 0, 0, 0, 0, 0x02);

TRACELOGGING_DEFINE_PROVIDER(g_bench_tl, "Petw.Bench.TraceLogging",
                             (0xbe0cbe0c, 0x1111, 0x2222, 0x33, 0x33, 0, 0, 0, 0, 0, 0x03));

static uint32_t events = 200000;
static REGHANDLE bench_reg, idle_reg;
#if HAVE_SHARED
static char runtime_dir[256];
static char file_path[256];
/* SIGINT, SIGTERM, SIGHUP: a shared session outlives the process that
 * started it, so an interrupted run stops its session before it leaves
 * (at the next start or stop; a second signal kills at once). */
static volatile sig_atomic_t interrupted;
#endif

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

typedef struct payload {
    uint64_t a, b, c, d;
    uint8_t arr[32];
} payload;

/* ---- baseline: what any tracer must at least do ---- */
typedef struct ring {
    uint8_t *mem;
    size_t pos;
} ring;

static inline int64_t read_clock(int tsc)
{
#if defined(__x86_64__) || defined(__i386__)
    if (tsc)
        return (int64_t)__rdtsc();
#endif
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static __attribute__((noinline)) void baseline_write(ring *r, const payload *p, int tsc)
{
    if (r->pos + 72 > (1u << 20))
        r->pos = 0;
    int64_t t = read_clock(tsc);
    memcpy(r->mem + r->pos, &t, 8);
    memcpy(r->mem + r->pos + 8, p, 64);
    r->pos += 72;
}

typedef struct job {
    int kind; /* 0 baseline tsc, 1 baseline clock, 2 petw, 3 disabled, 4 TraceLogging,
               * 5 floor-eventwrite */
    uint32_t n;
    double ns;
    uint32_t failures;
    uint32_t chunk;    /* kind 2: bursts of this many events (0: one burst) */
    TRACEHANDLE flush; /* ...flushed between bursts, untimed */
    double cpu_ns;     /* the thread's CPU time over the same (timed) events */
    double first_ns;   /* chunked: the first burst's time and events */
    uint32_t first_n;
    int cpu; /* the CPU this job's thread runs on */
} job;

/* Pins the calling thread to one CPU (Linux; elsewhere a no-op). */
static void pin_to_cpu(int cpu)
{
#ifdef __linux__
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu % CPU_SETSIZE, &set);
    if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set) != 0)
        fprintf(stderr, "bench_eventwrite: cannot pin to CPU %d\n", cpu);
#else
    (void)cpu;
#endif
}

static ULONG flush_session(TRACEHANDLE h);

static void run_job(void *arg)
{
    job *j = arg;
    pin_to_cpu(j->cpu);
    payload p = {1, 2, 3, 4, {0}};
    ring r = {malloc(1u << 20), 0};
    memset(r.mem, 0, 1u << 20);
    EVENT_DESCRIPTOR d = {1, 0, 0, 4, 0, 0, 1};
    EVENT_DATA_DESCRIPTOR dd[5];
    EventDataDescCreate(&dd[0], &p.a, 8);
    EventDataDescCreate(&dd[1], &p.b, 8);
    EventDataDescCreate(&dd[2], &p.c, 8);
    EventDataDescCreate(&dd[3], &p.d, 8);
    EventDataDescCreate(&dd[4], p.arr, 32);
    uint32_t fail = 0;
    if (j->kind == 2 && j->chunk) {
        /* Bursts that fit the pool, each timed; the session is flushed
         * between them (not timed), so no burst finds the pool full. */
        double ns = 0, cpu = 0;
        for (uint32_t done = 0; done < j->n;) {
            uint32_t end = j->n - done > j->chunk ? done + j->chunk : j->n;
            double c0 = bench_thread_cpu_ns(), t0 = now_ns();
            for (uint32_t i = done; i < end; i++) {
                p.a = i;
                fail += EventWrite(bench_reg, &d, 5, dd) != ERROR_SUCCESS;
            }
            ns += now_ns() - t0;
            cpu += bench_thread_cpu_ns() - c0;
            if (done == 0) {
                j->first_ns = ns;
                j->first_n = end;
            }
            done = end;
            ULONG st = done < j->n ? flush_session(j->flush) : ERROR_SUCCESS;
            if (st != ERROR_SUCCESS)
                fprintf(stderr, "ControlTrace(FLUSH): %lu\n", (unsigned long)st);
        }
        j->ns = ns;
        j->cpu_ns = cpu;
        j->failures = fail;
        free(r.mem);
        return;
    }
    double c0 = bench_thread_cpu_ns(), t0 = now_ns();
    switch (j->kind) {
    case 0:
    case 1:
        for (uint32_t i = 0; i < j->n; i++) {
            p.a = i;
            baseline_write(&r, &p, j->kind == 0);
        }
        break;
    case 2:
        for (uint32_t i = 0; i < j->n; i++) {
            p.a = i;
            fail += EventWrite(bench_reg, &d, 5, dd) != ERROR_SUCCESS;
        }
        break;
    case 3:
        for (uint32_t i = 0; i < j->n; i++) {
            p.a = i;
            fail += EventWrite(idle_reg, &d, 5, dd) != ERROR_SUCCESS;
        }
        break;
    case 5: {
        const min_event md = {1, 0, 0, 4, 0, 0, 1};
        const min_data mdd[5] = {{(uintptr_t)&p.a, 8, 0},
                                 {(uintptr_t)&p.b, 8, 0},
                                 {(uintptr_t)&p.c, 8, 0},
                                 {(uintptr_t)&p.d, 8, 0},
                                 {(uintptr_t)p.arr, 32, 0}};
        const uint64_t handle = 3 | (uint64_t)7 << 32; /* min_enable's slot and generation */
        for (uint32_t i = 0; i < j->n; i++) {
            p.a = i;
            fail += write_minimal(handle, &md, 5, mdd) != 0;
        }
        break;
    }
    case 4:
        for (uint32_t i = 0; i < j->n; i++) {
            p.a = i;
            TraceLoggingWrite(g_bench_tl, "Bench", TraceLoggingLevel(4), TraceLoggingKeyword(1),
                              TraceLoggingUInt64(p.a, "a"), TraceLoggingUInt64(p.b, "b"),
                              TraceLoggingUInt64(p.c, "c"), TraceLoggingUInt64(p.d, "d"),
                              TraceLoggingUInt8FixedArray(p.arr, 32, "arr"));
        }
        break;
    }
    j->ns = now_ns() - t0;
    j->cpu_ns = bench_thread_cpu_ns() - c0;
    j->failures = fail;
    free(r.mem);
}

/* The last run's aggregate CPU ns per event: the CPU time of its slowest
 * thread (Linux: CLOCK_THREAD_CPUTIME_ID), which time the thread spent
 * waiting for a CPU held by other processes does not count. */
static double last_cpu;

/* Runs `threads` jobs at once; returns aggregate ns per event. With
 * `chunk` (one thread, kind 2), the events go in bursts of `chunk` with
 * session `flush` flushed between them. */
static double run_chunked(int kind, int threads, uint32_t chunk, TRACEHANDLE flush,
                          uint32_t *failures, double *after_first)
{
    job jobs[2];
    uv_thread_t th[2];
    for (int i = 0; i < threads; i++) {
        jobs[i] = (job){.kind = kind,
                        .n = events / (uint32_t)threads,
                        .chunk = chunk,
                        .flush = flush,
                        .cpu = i};
        uv_thread_create(&th[i], run_job, &jobs[i]);
    }
    double wall = 0, cpu = 0;
    uint32_t f = 0;
    for (int i = 0; i < threads; i++) {
        uv_thread_join(&th[i]);
        if (jobs[i].ns > wall)
            wall = jobs[i].ns;
        if (jobs[i].cpu_ns > cpu)
            cpu = jobs[i].cpu_ns;
        f += jobs[i].failures;
    }
    if (failures)
        *failures += f;
    if (after_first) /* ns/event after the first burst (one thread) */
        *after_first = jobs[0].n > jobs[0].first_n
                           ? (jobs[0].ns - jobs[0].first_ns) / (double)(jobs[0].n - jobs[0].first_n)
                           : jobs[0].ns / (double)jobs[0].n;
    last_cpu = cpu / (double)events;
    return wall / (double)events;
}

static double run(int kind, int threads, uint32_t *failures)
{
    return run_chunked(kind, threads, 0, 0, failures, NULL);
}

static void stop_session(TRACEHANDLE h, uint32_t *lost);

/* After a signal: stops session h (0: none), removes the file and exits
 * (the runtime directory goes at exit). */
static void leave_if_interrupted(TRACEHANDLE h)
{
#if HAVE_SHARED
    if (!interrupted)
        return;
    interrupted = 0;
    if (h) {
        uint32_t lost = 0;
        stop_session(h, &lost);
    }
    fprintf(stderr, "bench_eventwrite: interrupted\n");
    remove(file_path);
    exit(130);
#else
    (void)h;
#endif
}

/* shared: a session host process owns the session (StartTraceA without the
 * private modes); else an in-process session. */
/* EnableProperty of the next session's enable of BenchProvider. */
static ULONG enable_property;

static TRACEHANDLE start_session(const char *name, const char *file, int shared)
{
    leave_if_interrupted(0);
    static struct {
        EVENT_TRACE_PROPERTIES p;
        char names[2048];
    } props;
    memset(&props, 0, sizeof(props));
    props.p.Wnode.BufferSize = sizeof(props);
    props.p.Wnode.ClientContext = 1;
    props.p.BufferSize = 1024; /* KB: the burst fits the pool, so nothing is lost */
    props.p.MinimumBuffers = props.p.MaximumBuffers = 48;
    props.p.LoggerNameOffset = sizeof(EVENT_TRACE_PROPERTIES);
    /* A shared session's host gives this process a pool of 2 buffers per
     * CPU + 4 (at most MaximumBuffers) of BufferSize each; it copies full
     * ones into its own 48, so the burst fits there as it does in-process. */
    if (!shared)
        props.p.LogFileMode = EVENT_TRACE_PRIVATE_LOGGER_MODE | EVENT_TRACE_PRIVATE_IN_PROC;
    if (file) {
        props.p.LogFileMode |= EVENT_TRACE_FILE_MODE_SEQUENTIAL;
        props.p.LogFileNameOffset = sizeof(EVENT_TRACE_PROPERTIES) + 1024;
        snprintf((char *)&props + props.p.LogFileNameOffset, 1024, "%s", file);
    }
    TRACEHANDLE h;
    ULONG st = StartTraceA(&h, name, &props.p);
    if (st != ERROR_SUCCESS) {
        fprintf(stderr, "cannot start session %s: %lu\n", name, (unsigned long)st);
        exit(1);
    }
    const char *why = NULL;
    ENABLE_TRACE_PARAMETERS ep;
    memset(&ep, 0, sizeof(ep));
    ep.Version = ENABLE_TRACE_PARAMETERS_VERSION_2;
    ep.EnableProperty = enable_property;
    if (EnableTraceEx2(h, &BenchProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 0, 0, 0, 0, &ep) !=
            ERROR_SUCCESS ||
        EnableTraceEx2(h, TraceLoggingProviderId(g_bench_tl), EVENT_CONTROL_CODE_ENABLE_PROVIDER, 0,
                       0, 0, 0, NULL) != ERROR_SUCCESS)
        why = "cannot enable the providers";
    else if (shared && !petw_shared_handle((petw_session_handle)h))
        why = "not a shared session (PETW_INPROC_SESSIONS set?)";
    if (!why && shared) {
        /* The provider side attaches on its agent's thread once the host
         * publishes the enable: time nothing before it writes to the pool. */
        EVENT_DESCRIPTOR d = {1, 0, 0, 4, 0, 0, 1};
        for (int i = 0; i < 5000 && !EventEnabled(bench_reg, &d); i++)
            uv_sleep(1);
        if (!EventEnabled(bench_reg, &d))
            why = "the provider did not attach to the shared session within 5 s";
    }
    if (why) {
        uint32_t lost = 0;
        fprintf(stderr, "session %s: %s\n", name, why);
        stop_session(h, &lost); /* a host would outlive this process */
        exit(1);
    }
    leave_if_interrupted(h);
    return h;
}

static void stop_session(TRACEHANDLE h, uint32_t *lost)
{
    struct {
        EVENT_TRACE_PROPERTIES p;
        char names[2048];
    } props;
    memset(&props, 0, sizeof(props));
    props.p.Wnode.BufferSize = sizeof(props);
    ULONG st = ControlTraceA(h, NULL, &props.p, EVENT_TRACE_CONTROL_STOP);
    if (st != ERROR_SUCCESS)
        fprintf(stderr, "ControlTrace(STOP): %lu\n", (unsigned long)st);
    leave_if_interrupted(0);
    *lost += props.p.EventsLost;
}

static ULONG flush_session(TRACEHANDLE h)
{
    struct {
        EVENT_TRACE_PROPERTIES p;
        char names[2048];
    } props;
    memset(&props, 0, sizeof(props));
    props.p.Wnode.BufferSize = sizeof(props);
    return ControlTraceA(h, NULL, &props.p, EVENT_TRACE_CONTROL_FLUSH);
}

/* Counts BenchProvider's events in a finished file. */
static void WINAPI count_event(PEVENT_RECORD r)
{
    if (memcmp(&r->EventHeader.ProviderId, &BenchProvider, sizeof(GUID)) == 0)
        ++*(uint64_t *)r->UserContext;
}

static uint64_t count_events(const char *path)
{
    uint64_t n = 0;
    EVENT_TRACE_LOGFILEA lf;
    memset(&lf, 0, sizeof(lf));
    lf.LogFileName = (LPSTR)path;
    lf.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
    lf.EventRecordCallback = count_event;
    lf.Context = &n;
    TRACEHANDLE t = OpenTraceA(&lf);
    if (t == INVALID_PROCESSTRACE_HANDLE)
        return 0;
    ProcessTrace(&t, 1, NULL, NULL);
    CloseTrace(t);
    return n;
}

/* A file session's accounting, per kind of session. */
typedef struct account {
    uint64_t written, in_file;
    uint32_t lost;
} account;

/* Timed bursts into a file session (`chunk` events each, 0: one burst),
 * then stop, count and account. */
static double file_case(int shared, const char *path, int threads, uint32_t chunk, account *a,
                        uint32_t *failures, double *after_first)
{
    TRACEHANDLE h =
        start_session(shared ? "petw-bench-file-shared" : "petw-bench-file", path, shared);
    uint32_t f = 0;
    double ns = run_chunked(2, threads, chunk, h, &f, after_first);
    stop_session(h, &a->lost);
    a->written += events / (uint32_t)threads * (uint32_t)threads - f;
    a->in_file += count_events(path);
    *failures += f;
    return ns;
}

#if HAVE_SHARED

static int remove_entry(const char *p, const struct stat *sb, int type, struct FTW *ftw)
{
    (void)sb, (void)type, (void)ftw;
    return remove(p) != 0;
}

static void remove_runtime_dir(void)
{
    if (runtime_dir[0])
        nftw(runtime_dir, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
}

static void on_signal(int sig)
{
    (void)sig;
    interrupted = 1;
}
#endif

static void print_clocksource(void)
{
    char cs[64] = "?";
    FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");
    if (f) {
        if (fgets(cs, sizeof(cs), f))
            cs[strcspn(cs, "\n")] = 0;
        fclose(f);
    }
    printf("clocksource: %s (timing: CLOCK_MONOTONIC; petw events: QPC clock)\n", cs);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

#define CONTENDERS 13
#define SHARED_FILE 10 /* runs together with petw-file (3) */
#define FLOOR 12
static const char *names[CONTENDERS] = {
    "baseline-tsc",           "baseline-clock",    "petw-memory",      "petw-file",
    "petw-disabled",          "baseline-tsc-2t",   "petw-memory-2t",   "petw-file-2t",
    "baseline-clock-2t",      "petw-tracelogging", "petw-file-shared", "petw-memory-cputime",
    "floor-eventwrite-paired"};

/* The median of n paired ratios (sorted in place), with their spread. */
typedef struct ratio {
    double med, lo, hi;
} ratio;

static ratio paired_ratio(double *v, int n)
{
    qsort(v, (size_t)n, sizeof(double), cmp_double);
    return (ratio){v[n / 2], v[0], v[n - 1]};
}

int main(int argc, char **argv)
{
    int reps = 15, jsonl = 0, round = 0;
    const char *json = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--events") && i + 1 < argc)
            events = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--json") && i + 1 < argc)
            json = argv[++i];
        else if (!strcmp(argv[i], "--jsonl"))
            jsonl = 1;
        else if (!strcmp(argv[i], "--round") && i + 1 < argc)
            round = atoi(argv[++i]);
    }
    if (reps < 1 || reps > 1000 || events < 1000)
        return 2;
    int have_shared = HAVE_SHARED;
    /* The in-process/shared pair writes in bursts that fit a shared
     * session's per-process pool: min(2 x CPUs + 4, MaximumBuffers = 48)
     * buffers of 1 MB, less one open buffer per CPU and one spare, at 192
     * bytes an event (a record of this payload takes 144). More than that
     * in one burst would need the host to drain the pool while the burst
     * runs; on a busy 2-vCPU machine it does not always keep up, and the
     * events it drops are cheap ones, which would flatter the shared case. */
    uint32_t chunk = 0;
#if HAVE_SHARED
    {
        long n = sysconf(_SC_NPROCESSORS_CONF);
        uint32_t cpus = n < 1 ? 1 : (uint32_t)n;
        uint32_t pool = 2 * cpus + 4 < 48 ? 2 * cpus + 4 : 48;
        chunk = (uint32_t)((uint64_t)(pool - (cpus < pool - 1 ? cpus : pool - 2) - 1) *
                           (1024 * 1024) / 192);
    }
#endif
#if HAVE_SHARED
    /* Before anything of petw runs: the provider side opens the runtime
     * directory's registry at EventRegister, and the hosts inherit it. */
    snprintf(runtime_dir, sizeof(runtime_dir), "%s/petw-bench-rt-XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(runtime_dir)) {
        perror("mkdtemp");
        return 1;
    }
    setenv("PETW_RUNTIME_DIR", runtime_dir, 1);
    atexit(remove_runtime_dir);
#endif
    EventRegister(&BenchProvider, NULL, NULL, &bench_reg);
    EventRegister(&IdleProvider, NULL, NULL, &idle_reg);
    /* floor-eventwrite's ring: 1 MB, touched once. */
    uint8_t *floor_mem = calloc(1, 1u << 20);
    if (!floor_mem)
        return 1;
    min_enable(floor_mem, 1u << 20);
    TraceLoggingRegister(g_bench_tl);
    char path[256];
    snprintf(path, sizeof(path), "%s/petw-bench-%d.etl",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
#if HAVE_SHARED
    snprintf(file_path, sizeof(file_path), "%s", path);
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
#endif

    double *samples[CONTENDERS], *cpu_samples[CONTENDERS];
    for (int c = 0; c < CONTENDERS; c++) {
        samples[c] = calloc((size_t)reps, sizeof(double));
        cpu_samples[c] = calloc((size_t)reps, sizeof(double));
    }
    uint32_t lost = 0, failures = 0;
    account acct[CONTENDERS];
    memset(acct, 0, sizeof(acct));
    double *pair_ratio = calloc((size_t)reps, sizeof(double));
    /* The pair after its first burst: [0] in-process, [1] shared. */
    double *steady[2] = {calloc((size_t)reps, sizeof(double)),
                         calloc((size_t)reps, sizeof(double))};
    double *steady_ratio = calloc((size_t)reps, sizeof(double));
    for (int r = 0; r < reps; r++) {
        /* Alternate: every contender once per round, order rotated. */
        for (int k = 0; k < CONTENDERS; k++) {
            int c = (k + r) % CONTENDERS;
            TRACEHANDLE h = 0;
            switch (c) {
            case 0:
                samples[c][r] = run(0, 1, NULL);
                break;
            case 1:
                samples[c][r] = run(1, 1, NULL);
                break;
            case 5:
                samples[c][r] = run(0, 2, NULL);
                break;
            case 8:
                samples[c][r] = run(1, 2, NULL);
                break;
            case 4:
                samples[c][r] = run(3, 1, &failures);
                break;
            case FLOOR:
                samples[c][r] = run(5, 1, &failures);
                break;
            case 2:
            case 6:
                h = start_session("petw-bench-memory", NULL, 0);
                samples[c][r] = run(2, c == 6 ? 2 : 1, &failures);
                stop_session(h, &lost);
                break;
            case 9:
                h = start_session("petw-bench-memory", NULL, 0);
                samples[c][r] = run(4, 1, &failures);
                stop_session(h, &lost);
                break;
            case 11:
                enable_property = PETW_EVENT_ENABLE_PROPERTY_CPU_TIME;
                h = start_session("petw-bench-memory", NULL, 0);
                enable_property = 0;
                samples[c][r] = run(2, 1, &failures);
                stop_session(h, &lost);
                break;
            case 3:
                /* In-process and shared back to back, which goes first
                 * alternating, so machine noise hits both alike. */
                for (int i = 0; i < 2; i++) {
                    int shared = (i + r + round) & 1;
                    if (shared && !have_shared)
                        continue;
                    int at = shared ? SHARED_FILE : 3;
                    samples[at][r] =
                        file_case(shared, path, 1, chunk, &acct[at], &failures, &steady[shared][r]);
                    cpu_samples[at][r] = last_cpu;
                }
                if (have_shared) {
                    pair_ratio[r] = samples[SHARED_FILE][r] / samples[3][r];
                    steady_ratio[r] = steady[1][r] / steady[0][r];
                }
                break;
            case 7:
                samples[c][r] = file_case(0, path, 2, 0, &acct[7], &failures, NULL);
                break;
            case SHARED_FILE:
                break; /* with 3 */
            }
            if (c != 3 && c != SHARED_FILE)
                cpu_samples[c][r] = last_cpu;
        }
    }
    remove(path);
    /* Paired ratios, per repetition (contenders of one repetition ran back
     * to back), of CPU times: EventWrite (memory, file) over
     * floor-eventwrite, TraceLoggingWrite over EventWrite, one thread over
     * two. */
    double *pr[4];
    for (int k = 0; k < 4; k++)
        pr[k] = calloc((size_t)reps, sizeof(double));
    for (int r = 0; r < reps; r++) { /* in CPU time: see last_cpu */
        pr[0][r] = cpu_samples[2][r] / cpu_samples[FLOOR][r];
        pr[1][r] = cpu_samples[3][r] / cpu_samples[FLOOR][r];
        pr[2][r] = cpu_samples[9][r] / cpu_samples[2][r];
        pr[3][r] = cpu_samples[2][r] / cpu_samples[6][r];
    }
    const ratio memory_floor = paired_ratio(pr[0], reps), file_floor = paired_ratio(pr[1], reps),
                tl_ew = paired_ratio(pr[2], reps), two_one = paired_ratio(pr[3], reps);
    double med[CONTENDERS], lo[CONTENDERS], hi[CONTENDERS];
    double cmed[CONTENDERS], clo[CONTENDERS], chi[CONTENDERS];
    for (int c = 0; c < CONTENDERS; c++) {
        qsort(samples[c], (size_t)reps, sizeof(double), cmp_double);
        med[c] = samples[c][reps / 2];
        lo[c] = samples[c][0];
        hi[c] = samples[c][reps - 1];
        qsort(cpu_samples[c], (size_t)reps, sizeof(double), cmp_double);
        cmed[c] = cpu_samples[c][reps / 2];
        clo[c] = cpu_samples[c][0];
        chi[c] = cpu_samples[c][reps - 1];
    }
    qsort(pair_ratio, (size_t)reps, sizeof(double), cmp_double);
    double paired = pair_ratio[reps / 2];
    double steady_med[2];
    for (int i = 0; i < 2; i++) {
        qsort(steady[i], (size_t)reps, sizeof(double), cmp_double);
        steady_med[i] = steady[i][reps / 2];
    }
    qsort(steady_ratio, (size_t)reps, sizeof(double), cmp_double);
    /* Every file event accounted: in the file, or counted lost. */
    int unaccounted = 0;
    for (int c = 0; c < CONTENDERS; c++) {
        lost += acct[c].lost;
        if (acct[c].written != acct[c].in_file)
            unaccounted = 1;
    }
    int bad = lost || failures || unaccounted;
    if (jsonl) {
        for (int c = 0; c < CONTENDERS; c++) {
            if (c == SHARED_FILE && !have_shared)
                continue;
            printf("{\"contender\":\"%s\",\"ns_per_event\":%.3f,\"min_ns\":%.3f,\"max_ns\":%.3f,"
                   "\"cpu_ns_per_event\":%.3f,\"cpu_min_ns\":%.3f,\"cpu_max_ns\":%.3f,\"reps\":%d",
                   names[c], med[c], lo[c], hi[c], cmed[c], clo[c], chi[c], reps);
            if (c == 3 || c == 7 || c == SHARED_FILE)
                printf(",\"written\":%llu,\"in_file\":%llu,\"lost\":%u",
                       (unsigned long long)acct[c].written, (unsigned long long)acct[c].in_file,
                       acct[c].lost);
            if (c == 3 || c == SHARED_FILE)
                printf(",\"burst\":%u,\"after_first_burst_ns\":%.3f", chunk,
                       steady_med[c == SHARED_FILE]);
            if (c == SHARED_FILE)
                printf(",\"ratio_to_inproc\":%.4f,\"after_first_burst_ratio\":%.4f", paired,
                       steady_ratio[reps / 2]);
            if (c == FLOOR) {
                const ratio *rs[4] = {&memory_floor, &file_floor, &tl_ew, &two_one};
                const char *rn[4] = {"memory_vs_floor", "file_vs_floor",
                                     "tracelogging_vs_eventwrite", "two_threads_vs_one"};
                for (int k = 0; k < 4; k++)
                    printf(",\"%s\":%.4f,\"%s_min\":%.4f,\"%s_max\":%.4f", rn[k], rs[k]->med, rn[k],
                           rs[k]->lo, rn[k], rs[k]->hi);
            }
            printf("}\n");
        }
        return bad ? 1 : 0;
    }
    printf("EventWrite, 64-byte payload in 5 descriptors, %u events x %d repetitions (median)\n",
           events, reps);
    if (chunk)
        printf("petw-file and petw-file-shared: bursts of %u events (they fit the shared pool), "
               "the session flushed between bursts, untimed\n",
               chunk);
    printf("%-20s %10s %12s %12s %19s\n", "contender", "ns/event", "vs tsc base", "vs clock base",
           "spread (min-max)");
    for (int c = 0; c < CONTENDERS; c++) {
        if (c == SHARED_FILE && !have_shared)
            continue;
        int two = strstr(names[c], "-2t") != NULL;
        double base_tsc = two ? med[5] : med[0], base_clk = two ? med[8] : med[1];
        printf("%-20s %10.2f %11.2fx %11.2fx %9.2f-%-9.2f\n", names[c], med[c], med[c] / base_tsc,
               med[c] / base_clk, lo[c], hi[c]);
    }
    printf("two threads vs one (petw-memory, CPUs 0 and 1): %.2fx throughput\n", med[2] / med[6]);
    printf("TraceLoggingWrite vs EventWrite (memory): %.2fx\n", med[9] / med[2]);
    printf("CPU time (the threads' own, ns/event): median (min-max)\n");
    for (int c = 0; c < CONTENDERS; c++)
        if (c != SHARED_FILE || have_shared)
            printf("  %-22s %8.2f (%.2f-%.2f)\n", names[c], cmed[c], clo[c], chi[c]);
    printf("paired ratios of CPU times, median (min-max) of the %d repetitions:\n", reps);
    printf("  petw-memory / floor-eventwrite   %.3fx (%.3f-%.3f)\n", memory_floor.med,
           memory_floor.lo, memory_floor.hi);
    printf("  petw-file / floor-eventwrite     %.3fx (%.3f-%.3f)\n", file_floor.med, file_floor.lo,
           file_floor.hi);
    printf("  petw-tracelogging / petw-memory  %.3fx (%.3f-%.3f)\n", tl_ew.med, tl_ew.lo, tl_ew.hi);
    printf("  petw-memory / petw-memory-2t     %.3fx (%.3f-%.3f)\n", two_one.med, two_one.lo,
           two_one.hi);
    printf("CPU times in the header (PETW_EVENT_ENABLE_PROPERTY_CPU_TIME): +%.2f ns/event\n",
           med[11] - med[2]);
    if (have_shared)
        printf("cross-process vs in-process file session: %.2fx (ratio of medians; median of "
               "the paired per-repetition ratios %.2fx)\n",
               med[SHARED_FILE] / med[3], paired);
    if (have_shared && chunk && events > chunk)
        printf("  after the first burst (the pool's pages touched once): in-process %.2f, shared "
               "%.2f ns/event, %.2fx (paired)\n",
               steady_med[0], steady_med[1], steady_ratio[reps / 2]);
    for (int c = 0; c < CONTENDERS; c++)
        if (c == 3 || c == 7 || (c == SHARED_FILE && have_shared))
            printf("%-17s EventsLost %u, events in the files %llu of %llu written\n", names[c],
                   acct[c].lost, (unsigned long long)acct[c].in_file,
                   (unsigned long long)acct[c].written);
    printf("events lost: %u (EventWrite failures %u)%s\n", lost, failures,
           unaccounted ? ", SOME FILE EVENTS UNACCOUNTED" : "");
    print_clocksource();
    if (json) {
        FILE *f = fopen(json, "w");
        if (f) {
            fprintf(f,
                    "{\"events\":%u,\"reps\":%d,\"lost\":%u,\"lost_file\":%u,"
                    "\"lost_file_shared\":%u,\"shared_vs_inproc_paired\":%.4f,\"median_ns\":{",
                    events, reps, lost, acct[3].lost, acct[SHARED_FILE].lost, paired);
            for (int c = 0; c < CONTENDERS; c++)
                if (c != SHARED_FILE || have_shared)
                    fprintf(f, "%s\"%s\":%.3f", c ? "," : "", names[c], med[c]);
            fprintf(f, "}}\n");
            fclose(f);
        }
    }
    EventUnregister(bench_reg);
    EventUnregister(idle_reg);
    TraceLoggingUnregister(g_bench_tl);
    return bad ? 1 : 0;
}
