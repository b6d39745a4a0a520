/* SPDX-License-Identifier: MIT */
/* The NT Kernel Logger's rules at StartTrace and TraceSetInformation, and
 * what petw cannot honour failing loudly instead of succeeding silently:
 * - a kernel session (by name or SystemTraceControlGuid) whose EnableFlags
 *   name no group petw records is ERROR_NOT_SUPPORTED; one that names
 *   some starts (or is ERROR_ACCESS_DENIED where the OS refuses its
 *   events), and its EnableFlags then say what it records; a second one
 *   is ERROR_ALREADY_EXISTS;
 * - EVENT_TRACE_SYSTEM_LOGGER_MODE without EnableFlags is a session for
 *   providers, as on Windows 8 and later;
 * - stacks are walked for CPU samples, context switches and wake-ups: a
 *   TraceStackTracingInfo list naming none of SampledProfile, CSwitch and
 *   ReadyThread is ERROR_NOT_SUPPORTED, as are stacks on a
 *   session that is not a system session; the sample interval reads back;
 * - EnableTraceEx2 with enable properties or filters petw lacks is
 *   ERROR_NOT_SUPPORTED (plain ENABLE_TRACE_PARAMETERS are fine).
 * Windows builds of petw have no system provider: every kernel session is
 * ERROR_NOT_SUPPORTED there. */
#include "test_util.h"

DEFINE_GUID(ParamProvider, 0x9a9a9a9a, 0x1, 0x2, 0x3, 0x4, 0, 0, 0, 0, 0, 0x1);
DEFINE_GUID(PerfInfoGuid, 0xce1dbfb4, 0x137e, 0x4da6, 0x87, 0xb0, 0x3f, 0x59, 0xaa, 0x10, 0x2c,
            0xbc);
DEFINE_GUID(ThreadGuid, 0x3d6fa8d1, 0xfe05, 0x11d0, 0x9d, 0xda, 0x00, 0xc0, 0x4f, 0xd7, 0xba, 0x7c);

static void kernel_rules(void)
{
    test_props tp;
    TRACEHANDLE h = 0;
    /* Only groups petw has no source for. */
    test_props_init(&tp, NULL);
    tp.p.LogFileMode = EVENT_TRACE_REAL_TIME_MODE;
    tp.p.EnableFlags = EVENT_TRACE_FLAG_ALPC | EVENT_TRACE_FLAG_REGISTRY;
    CHECK_EQ(StartTraceA(&h, KERNEL_LOGGER_NAMEA, &tp.p), ERROR_NOT_SUPPORTED);
    test_props_w tpw;
    test_props_w_init(&tpw, NULL);
    tpw.p.LogFileMode = tp.p.LogFileMode;
    tpw.p.EnableFlags = tp.p.EnableFlags;
    CHECK_EQ(StartTraceW(&h, KERNEL_LOGGER_NAMEW, &tpw.p), ERROR_NOT_SUPPORTED);
    tp.p.Wnode.Guid = SystemTraceControlGuid;
    CHECK_EQ(StartTraceA(&h, "petw-test-kernel-guid", &tp.p), ERROR_NOT_SUPPORTED);
    CHECK_EQ(h, 0);

    /* A system logger with no groups: an ordinary session. */
    test_props_init(&tp, NULL);
    tp.p.LogFileMode = EVENT_TRACE_REAL_TIME_MODE | EVENT_TRACE_SYSTEM_LOGGER_MODE;
    CHECK_EQ(StartTraceA(&h, "petw-test-system-logger", &tp.p), ERROR_SUCCESS);
    CLASSIC_EVENT_ID id;
    memset(&id, 0, sizeof(id));
    id.EventGuid = PerfInfoGuid;
    id.Type = 46;
    CHECK_EQ(TraceSetInformation(h, TraceStackTracingInfo, &id, sizeof(id)), ERROR_NOT_SUPPORTED);
    CHECK_EQ(ControlTraceA(h, NULL, &tp.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);

    /* The sample interval: set and read back (ProfileTime only). */
    TRACE_PROFILE_INTERVAL pi = {0, 5000};
    CHECK_EQ(TraceSetInformation(0, TraceSampledProfileIntervalInfo, &pi, sizeof(pi)),
             ERROR_SUCCESS);
    pi.Interval = 0;
    ULONG got = 0;
    CHECK_EQ(TraceQueryInformation(0, TraceSampledProfileIntervalInfo, &pi, sizeof(pi), &got),
             ERROR_SUCCESS);
    CHECK_EQ(pi.Interval, 5000);
    CHECK_EQ(got, sizeof(pi));
    pi.Source = 1;
    CHECK_EQ(TraceSetInformation(0, TraceSampledProfileIntervalInfo, &pi, sizeof(pi)),
             ERROR_NOT_SUPPORTED);
    CHECK_EQ(TraceSetInformation(0, TraceSampledProfileIntervalInfo, &pi, 4), ERROR_BAD_LENGTH);

    /* A kernel session with a group petw records, and one it does not. */
    test_props_init(&tp, NULL);
    tp.p.LogFileMode = EVENT_TRACE_REAL_TIME_MODE;
    tp.p.EnableFlags = EVENT_TRACE_FLAG_PROCESS | EVENT_TRACE_FLAG_REGISTRY;
    ULONG st = StartTraceA(&h, KERNEL_LOGGER_NAMEA, &tp.p);
#if defined(_WIN32)
    CHECK_EQ(st, ERROR_NOT_SUPPORTED);
#else
    if (st == ERROR_ACCESS_DENIED) {
        printf("kernel session refused by the OS (no perf events permission): rules only\n");
        return;
    }
    CHECK_EQ(st, ERROR_SUCCESS);
    CHECK_EQ(tp.p.EnableFlags, EVENT_TRACE_FLAG_PROCESS);
    test_props tp2;
    test_props_init(&tp2, NULL);
    tp2.p.LogFileMode = EVENT_TRACE_REAL_TIME_MODE;
    tp2.p.EnableFlags = EVENT_TRACE_FLAG_THREAD;
    TRACEHANDLE h2 = 0;
    CHECK_EQ(StartTraceA(&h2, KERNEL_LOGGER_NAMEA, &tp2.p), ERROR_ALREADY_EXISTS);
    /* Stacks: for samples, context switches and wake-ups, yes; for a
     * thread's start alone, no. */
    CHECK_EQ(TraceSetInformation(h, TraceStackTracingInfo, &id, sizeof(id)), ERROR_SUCCESS);
    CHECK_EQ(TraceSetInformation(h, TraceStackTracingInfo, NULL, 0), ERROR_SUCCESS);
    CLASSIC_EVENT_ID off[2];
    memset(off, 0, sizeof(off));
    off[0].EventGuid = off[1].EventGuid = ThreadGuid;
    off[0].Type = 36; /* CSwitch */
    off[1].Type = 50; /* ReadyThread */
    CHECK_EQ(TraceSetInformation(h, TraceStackTracingInfo, off, sizeof(off)), ERROR_SUCCESS);
    CHECK_EQ(TraceSetInformation(h, TraceStackTracingInfo, NULL, 0), ERROR_SUCCESS);
    id.EventGuid = ThreadGuid;
    id.Type = 1;
    CHECK_EQ(TraceSetInformation(h, TraceStackTracingInfo, &id, sizeof(id)), ERROR_NOT_SUPPORTED);
    CHECK_EQ(TraceSetInformation(h, TraceStackTracingInfo, &id, 5), ERROR_INVALID_PARAMETER);
    /* UPDATE with new groups: recorded from then on, and said so. */
    tp.p.EnableFlags = EVENT_TRACE_FLAG_PROCESS | EVENT_TRACE_FLAG_THREAD;
    CHECK_EQ(ControlTraceA(h, NULL, &tp.p, EVENT_TRACE_CONTROL_UPDATE), ERROR_SUCCESS);
    CHECK_EQ(ControlTraceA(h, NULL, &tp.p, EVENT_TRACE_CONTROL_QUERY), ERROR_SUCCESS);
    CHECK_EQ(tp.p.EnableFlags, EVENT_TRACE_FLAG_PROCESS | EVENT_TRACE_FLAG_THREAD);
    /* Groups petw cannot record: refused, and the session records as before. */
    tp.p.EnableFlags = EVENT_TRACE_FLAG_REGISTRY;
    CHECK_EQ(ControlTraceA(h, NULL, &tp.p, EVENT_TRACE_CONTROL_UPDATE), ERROR_NOT_SUPPORTED);
    CHECK_EQ(ControlTraceA(h, NULL, &tp.p, EVENT_TRACE_CONTROL_QUERY), ERROR_SUCCESS);
    CHECK_EQ(tp.p.EnableFlags, EVENT_TRACE_FLAG_PROCESS | EVENT_TRACE_FLAG_THREAD);
    CHECK_EQ(ControlTraceA(h, NULL, &tp.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);
#endif
}

int main(void)
{
    test_props tp;
    TRACEHANDLE h = 0;
    kernel_rules();

    test_props_init(&tp, NULL);
    tp.p.LogFileMode = EVENT_TRACE_BUFFERING_MODE;
    CHECK_EQ(StartTraceA(&h, "petw-test-enable-params", &tp.p), ERROR_SUCCESS);
    ENABLE_TRACE_PARAMETERS ep;
    memset(&ep, 0, sizeof(ep));
    ep.Version = ENABLE_TRACE_PARAMETERS_VERSION_2;
    CHECK_EQ(EnableTraceEx2(h, &ParamProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, 0, &ep),
             ERROR_SUCCESS);
    ep.EnableProperty = EVENT_ENABLE_PROPERTY_PSM_KEY;
    CHECK_EQ(EnableTraceEx2(h, &ParamProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, 0, &ep),
             ERROR_NOT_SUPPORTED);
    ep.EnableProperty = 0;
    EVENT_FILTER_DESCRIPTOR f;
    memset(&f, 0, sizeof(f));
    ep.EnableFilterDesc = &f;
    ep.FilterDescCount = 1;
    /* EVENT_FILTER_TYPE_NONE: malformed. */
    CHECK_EQ(EnableTraceEx2(h, &ParamProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, 0, &ep),
             ERROR_INVALID_PARAMETER);
    uint8_t blob[16] = {0};
    f.Ptr = (ULONGLONG)(uintptr_t)blob;
    f.Size = sizeof(blob);
    f.Type = EVENT_FILTER_TYPE_PAYLOAD;
    CHECK_EQ(EnableTraceEx2(h, &ParamProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, 0, &ep),
             ERROR_NOT_SUPPORTED);
    ep.FilterDescCount = 0;
    ep.Version = 7;
    CHECK_EQ(EnableTraceEx2(h, &ParamProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, 0, &ep),
             ERROR_INVALID_PARAMETER);
    CHECK_EQ(ControlTraceA(h, NULL, &tp.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);
    printf("kernel logger rules and enable parameters: as ETW's\n");
    return 0;
}
