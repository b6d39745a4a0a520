/* SPDX-License-Identifier: MIT */
/* bench_lttng - the LTTng-UST peer of petw's producer benchmarks, same
 * payload. The session (or its absence) is set up by bench/run.sh with the
 * lttng command; this program only writes.
 *   --mode throughput --threads T --events N   ns/event (aggregate)
 *   --mode latency --events N                  p50/p99/p99.9
 *   --mode sustained --rate R --seconds S [--pace spin|sleep]
 *                                              paced writes (loss is read
 *                                              from the trace by run.sh);
 *                                              the wait between batches as
 *                                              bench_sustained's
 * Prints one JSON object per measurement. */
#include <pthread.h>

#include "bench_common.h"
#include "bench_lttng_tp.h"

static uint64_t events_per_thread;

/* ns[0]: wall time, ns[1]: the thread's CPU time. */
static void *throughput_job(void *arg)
{
    double *ns = arg;
    bench_payload p = {1, 2, 3, 4, {0}};
    double t0 = bench_now_ns(), c0 = bench_thread_cpu_ns();
    for (uint64_t i = 0; i < events_per_thread; i++) {
        p.a = i;
        lttng_ust_tracepoint(petw_bench, event64, p.a, p.b, p.c, p.d, p.arr);
    }
    ns[1] = bench_thread_cpu_ns() - c0;
    ns[0] = bench_now_ns() - t0;
    return NULL;
}

int main(int argc, char **argv)
{
    const char *mode = bench_arg(argc, argv, "--mode", "throughput");
    const char *label = bench_arg(argc, argv, "--label", "lttng");
    uint64_t n = strtoull(bench_arg(argc, argv, "--events", "200000"), NULL, 10);
    if (!strcmp(mode, "throughput")) {
        int threads = atoi(bench_arg(argc, argv, "--threads", "1"));
        if (threads < 1 || threads > 2)
            return 2;
        /* --reps R: the median of R runs in this process, as
         * bench_eventwrite measures petw (the first run pays the warm-up). */
        int reps = atoi(bench_arg(argc, argv, "--reps", "1"));
        if (reps < 1 || reps > 64)
            return 2;
        events_per_thread = n / (uint64_t)threads;
        uint64_t per_event[64], cpu_per_event[64];
        for (int r = 0; r < reps; r++) {
            pthread_t th[2];
            double ns[2][2] = {{0, 0}, {0, 0}};
            for (int t = 0; t < threads; t++)
                pthread_create(&th[t], NULL, throughput_job, ns[t]);
            for (int t = 0; t < threads; t++)
                pthread_join(th[t], NULL);
            double wall = ns[0][0] > ns[1][0] ? ns[0][0] : ns[1][0];
            double cpu = ns[0][1] > ns[1][1] ? ns[0][1] : ns[1][1];
            per_event[r] = (uint64_t)(wall * 1000.0 / (double)n); /* picoseconds */
            cpu_per_event[r] = (uint64_t)(cpu * 1000.0 / (double)n);
        }
        printf("{\"contender\":\"%s%s\",\"ns_per_event\":%.3f,\"cpu_ns_per_event\":%.3f}\n", label,
               threads == 2 ? "-2t" : "",
               (double)bench_quantile(per_event, (size_t)reps, 0.5) / 1000.0,
               (double)bench_quantile(cpu_per_event, (size_t)reps, 0.5) / 1000.0);
    } else if (!strcmp(mode, "latency")) {
        uint64_t *v = malloc(n * sizeof(uint64_t));
        if (!v)
            return 1;
        double tpn = bench_ticks_per_ns();
        bench_payload p = {1, 2, 3, 4, {0}};
        for (uint64_t i = 0; i < n; i++) {
            p.a = i;
            uint64_t t0 = bench_ticks();
            lttng_ust_tracepoint(petw_bench, event64, p.a, p.b, p.c, p.d, p.arr);
            v[i] = bench_ticks() - t0;
        }
        double p50 = (double)bench_quantile(v, n, 0.5) / tpn;
        double p99 = (double)bench_quantile(v, n, 0.99) / tpn;
        double p999 = (double)bench_quantile(v, n, 0.999) / tpn;
        printf("{\"contender\":\"%s\",\"p50_ns\":%.1f,\"p99_ns\":%.1f,\"p999_ns\":%.1f}\n", label,
               p50, p99, p999);
        free(v);
    } else if (!strcmp(mode, "sustained")) {
        double rate = atof(bench_arg(argc, argv, "--rate", "1000000"));
        double seconds = atof(bench_arg(argc, argv, "--seconds", "1"));
        uint64_t total = (uint64_t)(rate * seconds), written = 0;
        bench_payload p = {1, 2, 3, 4, {0}};
        for (int i = 0; i < 32; i++)
            p.arr[i] = (uint8_t)i;
        int sleep_pace = !strcmp(bench_arg(argc, argv, "--pace", "spin"), "sleep");
        double t0 = bench_now_ns(), ns_per = 1e9 / rate, max_late = 0;
        while (written < total) {
            for (int k = 0; k < 256 && written < total; k++, written++) {
                p.a = written;
                p.b = (uint64_t)(bench_now_ns() - t0) >> 10;
                lttng_ust_tracepoint(petw_bench, event64, p.a, p.b, p.c, p.d, p.arr);
            }
            double due = t0 + (double)written * ns_per;
            double late = bench_pace_until(due, sleep_pace);
            max_late = late > max_late ? late : max_late;
        }
        double elapsed = (bench_now_ns() - t0) / 1e9;
        printf("{\"contender\":\"%s\",\"rate\":%.0f,\"achieved\":%.0f,\"written\":%llu,"
               "\"max_behind_us\":%.0f%s}\n",
               label, rate, (double)written / elapsed, (unsigned long long)written, max_late / 1e3,
               sleep_pace ? ",\"pace\":\"sleep\"" : "");
    } else {
        return 2;
    }
    return 0;
}
