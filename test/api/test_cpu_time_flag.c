/* SPDX-License-Identifier: MIT */
/* Event header CPU times. Linux gives a thread its own CPU time only
 * through a system call (clock_gettime(CLOCK_THREAD_CPUTIME_ID) is not in
 * the vDSO; getrusage(RUSAGE_THREAD) and /proc are system calls too; Windows'
 * GetThreadTimes in petw's Windows build is one as well), and the default
 * write path makes none, so a session's EVENT_HEADER records carry
 * EVENT_HEADER_FLAG_NO_CPUTIME with KernelTime and UserTime 0: a consumer
 * written as Microsoft's CPU-usage sample is (sum KernelTime and UserTime
 * per thread unless the flag says they were not recorded) sees the flag on
 * every event and adds nothing, instead of adding garbage. A session that
 * enables the provider with PETW_EVENT_ENABLE_PROPERTY_CPU_TIME gets them as
 * Windows writes them: the thread's kernel and user time in the trace's
 * TimerResolution ticks, without the flag; the same consumer then counts
 * 200 ms of busy work between a thread's first and last event. */
#include <time.h>

#include "test_util.h"

DEFINE_GUID(CpuProvider, 0x43505554, 1, 2, 3, 4, 0, 0, 0, 0, 0, 5);

typedef struct usage {
    ULONG events, flagged;
    ULONG64 kernel, user;
    ULONG64 first, last; /* KernelTime + UserTime of the first and last event */
} usage;

static VOID WINAPI on_event(PEVENT_RECORD e)
{
    usage *u = e->UserContext;
    if (!IsEqualGUID(&e->EventHeader.ProviderId, &CpuProvider))
        return;
    u->events++;
    if (e->EventHeader.Flags & EVENT_HEADER_FLAG_NO_CPUTIME) {
        u->flagged++;
        CHECK_EQ(e->EventHeader.KernelTime, 0);
        CHECK_EQ(e->EventHeader.UserTime, 0);
        return;
    }
    u->kernel += e->EventHeader.KernelTime;
    u->user += e->EventHeader.UserTime;
    ULONG64 units = (ULONG64)e->EventHeader.KernelTime + e->EventHeader.UserTime;
    if (u->events == 1)
        u->first = units;
    CHECK(units >= u->last); /* a thread's CPU time only grows */
    u->last = units;
}

/* The calling thread's CPU time, ms. */
static double thread_cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Records 21 events with `property`, 10 ms of busy CPU between each two,
 * and reads them back as the sample does. Returns the file's
 * TimerResolution (100 ns units). */
static ULONG record_and_read(REGHANDLE reg, ULONG property, usage *u)
{
    char path[512];
    test_path(path, sizeof(path), "cpu_time_flag.etl");
    test_props tp;
    test_props_init(&tp, path);
    TRACEHANDLE s;
    CHECK_EQ(StartTraceA(&s, "petw-test-cpu-time", &tp.p), ERROR_SUCCESS);
    ENABLE_TRACE_PARAMETERS ep;
    memset(&ep, 0, sizeof(ep));
    ep.Version = ENABLE_TRACE_PARAMETERS_VERSION_2;
    ep.EnableProperty = property;
    CHECK_EQ(EnableTraceEx2(s, &CpuProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, 0, &ep),
             ERROR_SUCCESS);
    volatile uint64_t spin = 0;
    for (uint32_t i = 0; i < 21; i++) {
        if (i) { /* 200 ms of this thread's CPU from the first event to the last */
            double until = thread_cpu_ms() + 10;
            while (thread_cpu_ms() < until)
                for (uint32_t k = 0; k < 10000; k++)
                    spin += k;
        }
        CHECK_EQ(test_write_seq(reg, i, 1, 8), 0);
    }
    CHECK_EQ(ControlTraceA(s, NULL, &tp.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);

    memset(u, 0, sizeof(*u));
    EVENT_TRACE_LOGFILEA lf;
    memset(&lf, 0, sizeof(lf));
    lf.LogFileName = path;
    lf.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
    lf.EventRecordCallback = on_event;
    lf.Context = u;
    TRACEHANDLE h = OpenTraceA(&lf);
    CHECK(h != INVALID_PROCESSTRACE_HANDLE);
    ULONG resolution = lf.LogfileHeader.TimerResolution;
    CHECK_EQ(ProcessTrace(&h, 1, NULL, NULL), ERROR_SUCCESS);
    CloseTrace(h);
    remove(path);
    CHECK_EQ(u->events, 21);
    return resolution;
}

int main(void)
{
    REGHANDLE reg;
    CHECK_EQ(EventRegister(&CpuProvider, NULL, NULL, &reg), ERROR_SUCCESS);
    static usage u;

    /* A session that does not ask: the flag and 0 on every event. */
    record_and_read(reg, 0, &u);
    CHECK_EQ(u.flagged, 21);
    CHECK_EQ(u.kernel + u.user, 0);

    /* A session that asks: the CPU times, in TimerResolution ticks. */
    ULONG resolution = record_and_read(reg, PETW_EVENT_ENABLE_PROPERTY_CPU_TIME, &u);
    CHECK_EQ(u.flagged, 0);
    CHECK(resolution > 0);
    double ms = (double)(u.last - u.first) * resolution / 1e4;
    printf("cpu_time_flag: 200 ms of busy work read as %llu units of %.3f ms: %.1f ms\n",
           (unsigned long long)(u.last - u.first), resolution / 1e4, ms);
    /* 200 ms, give or take a tick at each end and what the writes cost. */
    CHECK(ms >= 200 - 2.0 * resolution / 1e4 - 1);
    CHECK(ms <= 200 + 2.0 * resolution / 1e4 + 50);
    CHECK(u.user > 0);
    EventUnregister(reg);
    return 0;
}
