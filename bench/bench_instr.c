/* SPDX-License-Identifier: MIT */
/* bench_instr - the instructions an event costs, which no machine load
 * changes: run under `valgrind --tool=callgrind`, it writes N events each
 * of floor-eventwrite (bench_floor_min.h), EventWrite and TraceLoggingWrite
 * of the same 64 bytes into one in-process memory session, each loop in a
 * function of its own (do_floor, do_eventwrite, do_tracelogging), whose
 * inclusive instruction count over N is the cost per event, the loop and
 * the call included (bench/run.sh does this when valgrind is there).
 *
 * valgrind has no rseq, so glibc registers no rseq area and a CPU number
 * would be a sched_getcpu call for both contenders, where natively it is
 * one load (and petw's write path would take its slow path): with
 * --fake-rseq, both read CPU 0 from a thread-local word where the rseq
 * area keeps it, as natively.
 *
 * usage: bench_instr [--events N] [--fake-rseq]
 */
#include <TraceLoggingProvider.h>
#include <evntcons.h>
#include <evntprov.h>
#include <evntrace.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"
#include "bench_floor_min.h"

DEFINE_GUID(InstrProvider, 0xbe0cbe0c, 0x1111, 0x2222, 0x33, 0x33, 0, 0, 0, 0, 0, 0x11);
TRACELOGGING_DEFINE_PROVIDER(g_instr_tl, "Petw.Bench.TraceLogging",
                             (0xbe0cbe0c, 0x1111, 0x2222, 0x33, 0x33, 0, 0, 0, 0, 0, 0x13));

typedef struct payload {
    uint64_t a, b, c, d;
    uint8_t arr[32];
} payload;

static REGHANDLE reg;

static __attribute__((noinline)) void do_floor(uint32_t n)
{
    payload p = {1, 2, 3, 4, {0}};
    const min_event d = {1, 0, 0, 4, 0, 0, 1};
    const min_data dd[5] = {{(uintptr_t)&p.a, 8, 0},
                            {(uintptr_t)&p.b, 8, 0},
                            {(uintptr_t)&p.c, 8, 0},
                            {(uintptr_t)&p.d, 8, 0},
                            {(uintptr_t)p.arr, 32, 0}};
    for (uint32_t i = 0; i < n; i++) {
        p.a = i;
        if (write_minimal(3 | (uint64_t)7 << 32, &d, 5, dd) != 0)
            abort();
    }
}

static __attribute__((noinline)) void do_eventwrite(uint32_t n)
{
    payload p = {1, 2, 3, 4, {0}};
    EVENT_DESCRIPTOR d = {1, 0, 0, 4, 0, 0, 1};
    EVENT_DATA_DESCRIPTOR dd[5];
    EventDataDescCreate(&dd[0], &p.a, 8);
    EventDataDescCreate(&dd[1], &p.b, 8);
    EventDataDescCreate(&dd[2], &p.c, 8);
    EventDataDescCreate(&dd[3], &p.d, 8);
    EventDataDescCreate(&dd[4], p.arr, 32);
    for (uint32_t i = 0; i < n; i++) {
        p.a = i;
        if (EventWrite(reg, &d, 5, dd) != ERROR_SUCCESS)
            abort();
    }
}

static __attribute__((noinline)) void do_tracelogging(uint32_t n)
{
    payload p = {1, 2, 3, 4, {0}};
    for (uint32_t i = 0; i < n; i++) {
        p.a = i;
        TraceLoggingWrite(g_instr_tl, "Bench", TraceLoggingLevel(4), TraceLoggingKeyword(1),
                          TraceLoggingUInt64(p.a, "a"), TraceLoggingUInt64(p.b, "b"),
                          TraceLoggingUInt64(p.c, "c"), TraceLoggingUInt64(p.d, "d"),
                          TraceLoggingUInt8FixedArray(p.arr, 32, "arr"));
    }
}

#ifdef HAVE_RSEQ
extern ptrdiff_t petw__rseq_cpu_offset; /* platform_linux.h's, set at init */
static __thread int32_t fake_cpu __attribute__((tls_model("initial-exec")));
#endif

int main(int argc, char **argv)
{
    uint32_t n = (uint32_t)strtoul(bench_arg(argc, argv, "--events", "20000"), NULL, 10);
    if (n < 1 || n > 100000) /* the session's 48 MB hold them all: no buffer recycled */
        return 2;
    EventRegister(&InstrProvider, NULL, NULL, &reg);
    TraceLoggingRegister(g_instr_tl);
    static uint8_t ring[1 << 20];
    min_enable(ring, sizeof(ring));
#ifdef HAVE_RSEQ
    if (bench_flag(argc, argv, "--fake-rseq")) {
        const ptrdiff_t off = (char *)&fake_cpu - (char *)__builtin_thread_pointer();
        if (petw__rseq_cpu_offset == 0)
            petw__rseq_cpu_offset = off;
        if (min_rseq_cpu == 0)
            min_rseq_cpu = off;
    }
#endif
    static struct {
        EVENT_TRACE_PROPERTIES p;
        char names[1024];
    } props;
    memset(&props, 0, sizeof(props));
    props.p.Wnode.BufferSize = sizeof(props);
    props.p.Wnode.ClientContext = 1;
    props.p.BufferSize = 1024;
    props.p.MinimumBuffers = props.p.MaximumBuffers = 48;
    props.p.LoggerNameOffset = sizeof(EVENT_TRACE_PROPERTIES);
    props.p.LogFileMode = EVENT_TRACE_PRIVATE_LOGGER_MODE | EVENT_TRACE_PRIVATE_IN_PROC;
    TRACEHANDLE h;
    if (StartTraceA(&h, "petw-bench-instr", &props.p) != ERROR_SUCCESS ||
        EnableTraceEx2(h, &InstrProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 0, 0, 0, 0, NULL) !=
            ERROR_SUCCESS ||
        EnableTraceEx2(h, TraceLoggingProviderId(g_instr_tl), EVENT_CONTROL_CODE_ENABLE_PROVIDER, 0,
                       0, 0, 0, NULL) != ERROR_SUCCESS) {
        fprintf(stderr, "bench_instr: cannot start the session\n");
        return 1;
    }
    do_floor(n);
    do_eventwrite(n);
    do_tracelogging(n);
    memset(&props, 0, sizeof(props));
    props.p.Wnode.BufferSize = sizeof(props);
    ControlTraceA(h, NULL, &props.p, EVENT_TRACE_CONTROL_STOP);
    printf("{\"events\":%u,\"lost\":%lu}\n", n, (unsigned long)props.p.EventsLost);
    EventUnregister(reg);
    TraceLoggingUnregister(g_instr_tl);
    return props.p.EventsLost != 0;
}
