/* SPDX-License-Identifier: MIT */
/* bench_kernel.c - what the system provider (the NT Kernel Logger's events
 * from perf_event_open) costs and how much it sustains.
 *
 * overhead: a CPU-bound workload (one thread per CPU, a fixed amount of
 * arithmetic) timed alone and under a kernel session recording CPU samples
 * at 1 kHz with stacks and every context switch, alternated rep by rep;
 * the medians and their ratio.
 * sustained: pairs of threads ping-ponging a byte through pipes (two
 * context switches per round trip) for `--seconds`, under a session
 * recording context switches: CSwitch events per second in the file, and
 * how many the session lost.
 *
 * usage: bench_kernel [--reps N] [--seconds S] [--pairs P] [--file PATH]
 * Prints one JSON object per measurement. Needs perf events (root,
 * CAP_PERFMON or perf_event_paranoid <= 0); prints a "skipped" object
 * otherwise. */
#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

#include "bench_common.h"
#include "petw/petw.h"

static const petw_guid perfinfo = {
    0xce1dbfb4, 0x137e, 0x4da6, {0x87, 0xb0, 0x3f, 0x59, 0xaa, 0x10, 0x2c, 0xbc}};
static const petw_guid thread_class = {
    0x3d6fa8d1, 0xfe05, 0x11d0, {0x9d, 0xda, 0x00, 0xc0, 0x4f, 0xd7, 0xba, 0x7c}};

typedef struct counts {
    uint64_t samples, cswitch, all;
} counts;

static void count(petw_event_record *r, void *ctx)
{
    counts *c = ctx;
    c->all++;
    if (petw_guid_equal(&r->header.provider_id, &perfinfo) && r->header.descriptor.opcode == 46)
        c->samples++;
    if (petw_guid_equal(&r->header.provider_id, &thread_class) && r->header.descriptor.opcode == 36)
        c->cswitch++;
}

static counts read_file(const char *path)
{
    counts c = {0, 0, 0};
    petw_trace_config tc;
    petw_trace_config_init(&tc);
    tc.on_event = count;
    tc.context = &c;
    petw_trace *t;
    if (petw_trace_open(path, &tc, &t) == 0) {
        petw_trace_process(&t, 1, 0, 0);
        petw_trace_close(t);
    }
    return c;
}

static int start(const char *path, uint32_t flags, uint32_t stacks, petw_session_handle *h)
{
    petw_session_config c;
    petw_session_config_init(&c);
    c.name = "petw-bench-kernel";
    c.file_path = path;
    c.system_flags = flags;
    c.system_stack_flags = stacks;
    c.profile_interval_100ns = 10000; /* 1 kHz */
    c.buffer_size_kb = 256;
    c.maximum_buffers = 256;
    return petw_session_start(&c, h);
}

/* ---- overhead ---- */

static volatile uint64_t sink;

static void *work(void *arg)
{
    uint64_t n = *(uint64_t *)arg, x = 88172645463325252ull;
    for (uint64_t i = 0; i < n; i++) { /* xorshift: no memory traffic */
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
    }
    sink += x;
    return NULL;
}

static double run_workload(uint32_t threads, uint64_t per_thread)
{
    pthread_t t[256];
    double t0 = bench_now_ns();
    for (uint32_t i = 0; i < threads; i++)
        pthread_create(&t[i], NULL, work, &per_thread);
    for (uint32_t i = 0; i < threads; i++)
        pthread_join(t[i], NULL);
    return (bench_now_ns() - t0) / 1e6;
}

/* ---- sustained context switches ---- */

typedef struct pair {
    int ab[2], ba[2];
    _Atomic int *stop;
    uint64_t trips;
} pair;

static void *ping(void *arg)
{
    pair *p = arg;
    char b = 0;
    /* relaxed: a stop flag */
    while (!atomic_load_explicit(p->stop, memory_order_relaxed)) {
        if (write(p->ab[1], &b, 1) != 1 || read(p->ba[0], &b, 1) != 1)
            break;
        p->trips++;
    }
    b = 1;
    if (write(p->ab[1], &b, 1) != 1) { /* releases pong */
    }
    return NULL;
}

static void *pong(void *arg)
{
    pair *p = arg;
    char b;
    while (read(p->ab[0], &b, 1) == 1 && b == 0)
        if (write(p->ba[1], &b, 1) != 1)
            break;
    return NULL;
}

int main(int argc, char **argv)
{
    int reps = 7, pairs = 2;
    double seconds = 1.0;
    const char *path = "/tmp/petw-bench-kernel.etl";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--seconds") && i + 1 < argc)
            seconds = atof(argv[++i]);
        else if (!strcmp(argv[i], "--pairs") && i + 1 < argc)
            pairs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--file") && i + 1 < argc)
            path = argv[++i];
    }
    if (reps < 1 || reps > 64 || pairs < 1 || pairs > 64)
        return 2;
    petw_session_handle h;
    int rc = start(path, PETW_SYSTEM_CSWITCH, 0, &h);
    if (rc != 0) {
        printf("{\"contender\":\"petw-kernel\",\"skipped\":\"%s\"}\n", petw_strerror(rc));
        return 0;
    }
    petw_session_stop(h, NULL);

    /* Overhead: calibrate ~300 ms of work per thread, then alternate. */
    uint32_t cpus = (uint32_t)sysconf(_SC_NPROCESSORS_ONLN);
    if (cpus > 256)
        cpus = 256;
    uint64_t per = 1u << 22;
    while (run_workload(1, per) < 300.0)
        per *= 2;
    uint64_t base[64], traced[64];
    counts total = {0, 0, 0};
    uint32_t lost = 0;
    for (int r = 0; r < reps; r++) {
        base[r] = (uint64_t)(run_workload(cpus, per) * 1000.0);
        if (start(path, PETW_SYSTEM_PROFILE | PETW_SYSTEM_CSWITCH, PETW_SYSTEM_PROFILE, &h) != 0)
            return 1;
        traced[r] = (uint64_t)(run_workload(cpus, per) * 1000.0);
        petw_session_stats st;
        petw_session_stop(h, &st);
        lost += st.events_lost;
        counts c = read_file(path);
        total.samples += c.samples;
        total.cswitch += c.cswitch;
        total.all += c.all;
    }
    double b = (double)bench_quantile(base, (size_t)reps, 0.5) / 1000.0;
    double t = (double)bench_quantile(traced, (size_t)reps, 0.5) / 1000.0;
    printf("{\"contender\":\"petw-kernel-overhead\",\"threads\":%u,\"reps\":%d,"
           "\"baseline_ms\":%.1f,\"traced_ms\":%.1f,\"ratio\":%.4f,\"samples_per_rep\":%.0f,"
           "\"cswitch_per_rep\":%.0f,\"events_lost\":%u}\n",
           cpus, reps, b, t, t / b, (double)total.samples / reps, (double)total.cswitch / reps,
           lost);

    /* Sustained: context switches as fast as pipes make them. */
    _Atomic int stop = 0;
    pair p[64];
    pthread_t th[128];
    if (start(path, PETW_SYSTEM_CSWITCH, 0, &h) != 0)
        return 1;
    double t0 = bench_now_ns();
    for (int i = 0; i < pairs; i++) {
        p[i].stop = &stop;
        p[i].trips = 0;
        if (pipe(p[i].ab) || pipe(p[i].ba))
            return 1;
        pthread_create(&th[2 * i], NULL, ping, &p[i]);
        pthread_create(&th[2 * i + 1], NULL, pong, &p[i]);
    }
    struct timespec ts = {(time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9)};
    nanosleep(&ts, NULL);
    atomic_store_explicit(&stop, 1, memory_order_relaxed);
    uint64_t trips = 0;
    for (int i = 0; i < 2 * pairs; i++)
        pthread_join(th[i], NULL);
    double secs = (bench_now_ns() - t0) / 1e9;
    for (int i = 0; i < pairs; i++) {
        trips += p[i].trips;
        close(p[i].ab[0]), close(p[i].ab[1]), close(p[i].ba[0]), close(p[i].ba[1]);
    }
    petw_session_stats st;
    petw_session_stop(h, &st);
    counts c = read_file(path);
    printf("{\"contender\":\"petw-kernel-sustained\",\"pairs\":%d,\"seconds\":%.2f,"
           "\"round_trips_per_s\":%.0f,\"cswitch_per_s\":%.0f,\"events_per_s\":%.0f,"
           "\"events_lost\":%u,\"loss_pct\":%.3f}\n",
           pairs, secs, (double)trips / secs, (double)c.cswitch / secs, (double)c.all / secs,
           st.events_lost, 100.0 * st.events_lost / (double)(c.all + st.events_lost + 1));
    remove(path);
    return 0;
}
