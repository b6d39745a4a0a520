/* bench_eventwrite - EventWrite cost next to the "physical limit" baseline,
 * measured side by side in one run, contenders alternated so machine noise
 * hits all of them. Reports medians of repetitions and ratios.
 *
 * Contenders (64-byte payload in 5 descriptors, like the baseline's copy):
 *   baseline-tsc    read the TSC, copy 64 B + 8 B timestamp into a 1 MB ring
 *   baseline-clock  the same with clock_gettime(CLOCK_MONOTONIC)
 *   petw-memory     EventWrite into a memory session (QPC clock)
 *   petw-file       EventWrite into a file session (burst that fits the pool)
 *   petw-disabled   EventWrite on a registered provider nobody enables
 *   ...-2t          two threads at once (aggregate ns/event)
 *   petw-tracelogging  TraceLoggingWrite of the same 64 bytes (4 x UInt64 and
 *                   a 32-byte fixed array) into a memory session
 *
 * usage: bench_eventwrite [--events N] [--reps R] [--json FILE] [--jsonl]
 * (--jsonl prints one JSON line per contender instead of the table)
 */
#include <TraceLoggingProvider.h>
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

DEFINE_GUID(BenchProvider, 0xbe0cbe0c, 0x1111, 0x2222, 0x33, 0x33, 0, 0, 0, 0, 0, 0x01);
DEFINE_GUID(IdleProvider, 0xbe0cbe0c, 0x1111, 0x2222, 0x33, 0x33, 0, 0, 0, 0, 0, 0x02);

TRACELOGGING_DEFINE_PROVIDER(g_bench_tl, "Petw.Bench.TraceLogging",
                             (0xbe0cbe0c, 0x1111, 0x2222, 0x33, 0x33, 0, 0, 0, 0, 0, 0x03));

static uint32_t events = 200000;
static REGHANDLE bench_reg, idle_reg;

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
    int kind; /* 0 baseline tsc, 1 baseline clock, 2 petw, 3 disabled */
    uint32_t n;
    double ns;
    uint32_t failures;
} job;

static void run_job(void *arg)
{
    job *j = arg;
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
    double t0 = now_ns();
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
    j->failures = fail;
    free(r.mem);
}

/* Runs `threads` jobs at once; returns aggregate ns per event. */
static double run(int kind, int threads, uint32_t *failures)
{
    job jobs[2];
    uv_thread_t th[2];
    for (int i = 0; i < threads; i++) {
        jobs[i] = (job){kind, events / (uint32_t)threads, 0, 0};
        uv_thread_create(&th[i], run_job, &jobs[i]);
    }
    double wall = 0;
    uint32_t f = 0;
    for (int i = 0; i < threads; i++) {
        uv_thread_join(&th[i]);
        if (jobs[i].ns > wall)
            wall = jobs[i].ns;
        f += jobs[i].failures;
    }
    if (failures)
        *failures += f;
    return wall / (double)events;
}

static TRACEHANDLE start_session(const char *name, const char *file)
{
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
    if (file) {
        props.p.LogFileMode = EVENT_TRACE_FILE_MODE_SEQUENTIAL;
        props.p.LogFileNameOffset = sizeof(EVENT_TRACE_PROPERTIES) + 1024;
        mbstowcs((wchar_t *)((char *)&props + props.p.LogFileNameOffset), file, 200);
    }
    TRACEHANDLE h;
    if (StartTraceA(&h, name, &props.p) != ERROR_SUCCESS ||
        EnableTraceEx2(h, &BenchProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 0, 0, 0, 0, NULL) !=
            ERROR_SUCCESS ||
        EnableTraceEx2(h, TraceLoggingProviderId(g_bench_tl), EVENT_CONTROL_CODE_ENABLE_PROVIDER, 0,
                       0, 0, 0, NULL) != ERROR_SUCCESS) {
        fprintf(stderr, "cannot start session %s\n", name);
        exit(1);
    }
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
    ControlTraceA(h, NULL, &props.p, EVENT_TRACE_CONTROL_STOP);
    *lost += props.p.EventsLost;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

#define CONTENDERS 10
static const char *names[CONTENDERS] = {
    "baseline-tsc",    "baseline-clock", "petw-memory",  "petw-file",         "petw-disabled",
    "baseline-tsc-2t", "petw-memory-2t", "petw-file-2t", "baseline-clock-2t", "petw-tracelogging"};

int main(int argc, char **argv)
{
    int reps = 15, jsonl = 0;
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
    }
    if (reps < 1 || reps > 1000 || events < 1000)
        return 2;
    EventRegister(&BenchProvider, NULL, NULL, &bench_reg);
    EventRegister(&IdleProvider, NULL, NULL, &idle_reg);
    TraceLoggingRegister(g_bench_tl);
    char path[256];
    snprintf(path, sizeof(path), "%s/petw-bench-%d.etl",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());

    double *samples[CONTENDERS];
    for (int c = 0; c < CONTENDERS; c++)
        samples[c] = calloc((size_t)reps, sizeof(double));
    uint32_t lost = 0, failures = 0;
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
            case 2:
            case 6:
                h = start_session("petw-bench-memory", NULL);
                samples[c][r] = run(2, c == 6 ? 2 : 1, &failures);
                stop_session(h, &lost);
                break;
            case 9:
                h = start_session("petw-bench-memory", NULL);
                samples[c][r] = run(4, 1, &failures);
                stop_session(h, &lost);
                break;
            case 3:
            case 7:
                h = start_session("petw-bench-file", path);
                samples[c][r] = run(2, c == 7 ? 2 : 1, &failures);
                stop_session(h, &lost);
                break;
            }
        }
    }
    remove(path);
    double med[CONTENDERS];
    for (int c = 0; c < CONTENDERS; c++) {
        qsort(samples[c], (size_t)reps, sizeof(double), cmp_double);
        med[c] = samples[c][reps / 2];
    }
    if (jsonl) {
        for (int c = 0; c < CONTENDERS; c++)
            printf("{\"contender\":\"%s\",\"ns_per_event\":%.3f}\n", names[c], med[c]);
        return lost || failures ? 1 : 0;
    }
    printf("EventWrite, 64-byte payload in 5 descriptors, %u events x %d repetitions (median)\n",
           events, reps);
    printf("%-20s %10s %12s %12s\n", "contender", "ns/event", "vs tsc base", "vs clock base");
    for (int c = 0; c < CONTENDERS; c++) {
        int two = strstr(names[c], "-2t") != NULL;
        double base_tsc = two ? med[5] : med[0], base_clk = two ? med[8] : med[1];
        printf("%-20s %10.2f %11.2fx %11.2fx\n", names[c], med[c], med[c] / base_tsc,
               med[c] / base_clk);
    }
    printf("two threads vs one (petw-memory): %.2fx throughput\n", med[2] / med[6]);
    printf("TraceLoggingWrite vs EventWrite (memory): %.2fx\n", med[9] / med[2]);
    printf("events lost: %u (EventWrite failures %u)\n", lost, failures);
    if (json) {
        FILE *f = fopen(json, "w");
        if (f) {
            fprintf(f, "{\"events\":%u,\"reps\":%d,\"lost\":%u,\"median_ns\":{", events, reps,
                    lost);
            for (int c = 0; c < CONTENDERS; c++)
                fprintf(f, "%s\"%s\":%.3f", c ? "," : "", names[c], med[c]);
            fprintf(f, "}}\n");
            fclose(f);
        }
    }
    EventUnregister(bench_reg);
    EventUnregister(idle_reg);
    TraceLoggingUnregister(g_bench_tl);
    return lost || failures ? 1 : 0;
}
