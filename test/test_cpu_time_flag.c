/* Event header CPU times: petw records none, and says so the way Windows
 * does for events without them. Linux gives a thread its own CPU time only
 * through a system call (clock_gettime(CLOCK_THREAD_CPUTIME_ID) is not in
 * the vDSO; getrusage(RUSAGE_THREAD) and /proc are system calls too; Windows'
 * GetThreadTimes in petw's Windows build is one as well), and the write path
 * makes none, so every EVENT_HEADER record carries
 * EVENT_HEADER_FLAG_NO_CPUTIME with KernelTime and UserTime 0. A consumer
 * written as Microsoft's CPU-usage sample is (sum KernelTime and UserTime
 * per thread unless the flag says they were not recorded) sees the flag on
 * every event and adds nothing, instead of adding garbage. */
#include "test_util.h"

DEFINE_GUID(CpuProvider, 0x43505554, 1, 2, 3, 4, 0, 0, 0, 0, 0, 5);

typedef struct usage {
    ULONG events, flagged;
    ULONG64 kernel, user;
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
}

int main(void)
{
    REGHANDLE reg;
    CHECK_EQ(EventRegister(&CpuProvider, NULL, NULL, &reg), ERROR_SUCCESS);
    char path[512];
    test_path(path, sizeof(path), "cpu_time_flag.etl");
    test_props tp;
    test_props_init(&tp, path);
    TRACEHANDLE s;
    CHECK_EQ(StartTraceA(&s, "petw-test-cpu-time", &tp.p), ERROR_SUCCESS);
    CHECK_EQ(EnableTraceEx2(s, &CpuProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, 0, NULL),
             ERROR_SUCCESS);
    volatile uint64_t spin = 0;
    for (uint32_t i = 0; i < 20; i++) {
        for (uint32_t k = 0; k < 200000; k++) /* some CPU time between events */
            spin += k;
        CHECK_EQ(test_write_seq(reg, i, 1, 8), 0);
    }
    CHECK_EQ(ControlTraceA(s, NULL, &tp.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);

    static usage u;
    EVENT_TRACE_LOGFILEA lf;
    memset(&lf, 0, sizeof(lf));
    lf.LogFileName = path;
    lf.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
    lf.EventRecordCallback = on_event;
    lf.Context = &u;
    TRACEHANDLE h = OpenTraceA(&lf);
    CHECK(h != INVALID_PROCESSTRACE_HANDLE);
    CHECK_EQ(ProcessTrace(&h, 1, NULL, NULL), ERROR_SUCCESS);
    CloseTrace(h);
    remove(path);
    CHECK_EQ(u.events, 20);
    CHECK_EQ(u.flagged, 20);
    CHECK_EQ(u.kernel + u.user, 0);
    EventUnregister(reg);
    return 0;
}
