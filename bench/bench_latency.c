/* SPDX-License-Identifier: MIT */
/* bench_latency - the distribution of one EventWrite's cost (enabled, into
 * a memory session) and of the baseline's, measured with the TSC around
 * each call: back to back, and in bursts of 20 calls with a 2 us pause
 * between bursts (how Quill and NanoLog report their latencies; the pause
 * lets the machine settle, so each burst starts as a real program's
 * would). usage: bench_latency --events N. Prints JSON lines with p50,
 * p99, p99.9 and the mean, in ns (the TSC read's own cost included). */
#include <evntprov.h>
#include <evntrace.h>
#include <unistd.h>

#include <petw/petw.h>

#include "bench_common.h"

DEFINE_GUID(LatencyProvider, 0xbe0cbe0c, 0x1111, 0x2222, 0x33, 0x33, 0, 0, 0, 0, 0, 0x05);

static __attribute__((noinline)) void baseline(uint8_t *ring, size_t *pos, const bench_payload *p)
{
    if (*pos + 72 > (1u << 20))
        *pos = 0;
    uint64_t t = bench_ticks();
    memcpy(ring + *pos, &t, 8);
    memcpy(ring + *pos + 8, p, 64);
    *pos += 72;
}

#define BURST 20
#define PAUSE_NS 2000.0

static void report(const char *name, uint64_t *v, size_t n, double tpn)
{
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += (double)v[i];
    double mean = sum / (double)n / tpn;
    double p50 = (double)bench_quantile(v, n, 0.50) / tpn;
    double p99 = (double)bench_quantile(v, n, 0.99) / tpn;
    double p999 = (double)bench_quantile(v, n, 0.999) / tpn;
    printf("{\"contender\":\"%s\",\"p50_ns\":%.1f,\"p99_ns\":%.1f,\"p999_ns\":%.1f,"
           "\"mean_ns\":%.1f}\n",
           name, p50, p99, p999, mean);
}

int main(int argc, char **argv)
{
    size_t n = (size_t)strtoull(bench_arg(argc, argv, "--events", "1000000"), NULL, 10);
    uint64_t *v = malloc(n * sizeof(uint64_t));
    uint8_t *ring = calloc(1, 1u << 20);
    if (!v || !ring)
        return 1;
    double tpn = bench_ticks_per_ns();
    bench_payload pl = {1, 2, 3, 4, {0}};
    size_t pos = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t t0 = bench_ticks();
        baseline(ring, &pos, &pl);
        v[i] = bench_ticks() - t0;
    }
    report("baseline-tsc", v, n, tpn);
    uint64_t pause = (uint64_t)(PAUSE_NS * tpn);
    for (size_t i = 0; i < n; i++) {
        if (i % BURST == 0)
            for (uint64_t t = bench_ticks(); bench_ticks() - t < pause;) {
            }
        uint64_t t0 = bench_ticks();
        baseline(ring, &pos, &pl);
        v[i] = bench_ticks() - t0;
    }
    report("baseline-tsc-burst20", v, n, tpn);

    struct {
        EVENT_TRACE_PROPERTIES p;
        char names[512];
    } props;
    memset(&props, 0, sizeof(props));
    props.p.Wnode.BufferSize = sizeof(props);
    props.p.BufferSize = 1024;
    props.p.MinimumBuffers = props.p.MaximumBuffers = 64;
    props.p.LoggerNameOffset = sizeof(EVENT_TRACE_PROPERTIES);
    TRACEHANDLE s;
    REGHANDLE reg;
    if (StartTraceA(&s, "petw-bench-latency", &props.p) ||
        EventRegister(&LatencyProvider, NULL, NULL, &reg) ||
        EnableTraceEx2(s, &LatencyProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 0, 0, 0, 0, NULL))
        return 1;
    EVENT_DESCRIPTOR d = {1, 0, 0, 4, 0, 0, 1};
    EVENT_DATA_DESCRIPTOR dd[5];
    EventDataDescCreate(&dd[0], &pl.a, 8);
    EventDataDescCreate(&dd[1], &pl.b, 8);
    EventDataDescCreate(&dd[2], &pl.c, 8);
    EventDataDescCreate(&dd[3], &pl.d, 8);
    EventDataDescCreate(&dd[4], pl.arr, 32);
    uint32_t fails = 0;
    for (size_t i = 0; i < n; i++) {
        pl.a = i;
        uint64_t t0 = bench_ticks();
        fails += EventWrite(reg, &d, 5, dd) != ERROR_SUCCESS;
        v[i] = bench_ticks() - t0;
        if (i % 200000 == 199999)
            ControlTraceA(s, NULL, &props.p,
                          EVENT_TRACE_CONTROL_FLUSH); /* outside the timed call */
    }
    report("petw-memory", v, n, tpn);
    for (size_t i = 0; i < n; i++) {
        if (i % BURST == 0)
            for (uint64_t t = bench_ticks(); bench_ticks() - t < pause;) {
            }
        pl.a = i;
        uint64_t t0 = bench_ticks();
        fails += EventWrite(reg, &d, 5, dd) != ERROR_SUCCESS;
        v[i] = bench_ticks() - t0;
        if (i % 200000 == 199999)
            ControlTraceA(s, NULL, &props.p,
                          EVENT_TRACE_CONTROL_FLUSH); /* outside the timed call */
    }
    report("petw-memory-burst20", v, n, tpn);
    ControlTraceA(s, NULL, &props.p, EVENT_TRACE_CONTROL_STOP);
    EventUnregister(reg);
    free(v);
    free(ring);
    return fails ? 1 : 0;
}
