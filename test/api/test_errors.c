/* SPDX-License-Identifier: MIT */
/* Every error the issue lists, with the Win32 code ETW returns, and the
 * native codes behind them. */
#include "test_util.h"

DEFINE_GUID(ErrProvider, 0x0e0e0e0e, 0x1234, 0x5678, 0x9a, 0xbc, 0, 0, 0, 0, 0, 0x01);

int main(void)
{
    REGHANDLE reg;
    EVENT_DESCRIPTOR d = {1, 0, 0, 4, 0, 0, 0};
    EVENT_DATA_DESCRIPTOR dd[130];
    static uint8_t big[70000];
    char path[512];
    test_path(path, sizeof(path), "errors.etl");

    /* Provider API. */
    CHECK_EQ(EventRegister(NULL, NULL, NULL, &reg), ERROR_INVALID_PARAMETER);
    CHECK_EQ(EventRegister(&ErrProvider, NULL, NULL, NULL), ERROR_INVALID_PARAMETER);
    CHECK_EQ(EventRegister(&ErrProvider, NULL, NULL, &reg), ERROR_SUCCESS);
    for (int i = 0; i < 130; i++)
        EventDataDescCreate(&dd[i], big, 1);
    CHECK_EQ(EventWrite(reg, &d, 129, dd), ERROR_INVALID_PARAMETER);
    CHECK_EQ(EventWrite(reg, &d, 1, NULL), ERROR_INVALID_PARAMETER);
    CHECK_EQ(EventWrite(reg, NULL, 0, NULL), ERROR_INVALID_PARAMETER);
    CHECK_EQ(EventWrite(reg, &d, 128, dd), ERROR_SUCCESS); /* nobody listens: fine */
    CHECK_EQ(EventWrite(0, &d, 0, NULL), ERROR_INVALID_HANDLE);
    CHECK_EQ(EventWrite(0xdeadbeef12345ull, &d, 0, NULL), ERROR_INVALID_HANDLE);
    CHECK_EQ(EventUnregister(0x777700000001ull), ERROR_INVALID_HANDLE);

    /* Size limits need a listening session with 4 KB buffers. */
    test_props tp;
    test_props_init(&tp, path);
    tp.p.BufferSize = 4;
    TRACEHANDLE s;
    CHECK_EQ(StartTraceA(&s, "petw-test-errors", &tp.p), ERROR_SUCCESS);
    CHECK_EQ(EnableTraceEx2(s, &ErrProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 0, 0, 0, 0, NULL),
             ERROR_SUCCESS);
    EventDataDescCreate(&dd[0], big, 65536 - 0x50 + 1 - 0); /* header + payload > 65535 */
    CHECK_EQ(EventWrite(reg, &d, 1, dd), ERROR_ARITHMETIC_OVERFLOW);
    EventDataDescCreate(&dd[0], big, 65535 - 0x50); /* fits a record, not a 4 KB buffer */
    CHECK_EQ(EventWrite(reg, &d, 1, dd), ERROR_MORE_DATA);
    EventDataDescCreate(&dd[0], big, 4096 - 0x48 - 0x50 + 1);
    CHECK_EQ(EventWrite(reg, &d, 1, dd), ERROR_MORE_DATA);
    EventDataDescCreate(&dd[0], big, 4096 - 0x48 - 0x50); /* exactly fills a buffer */
    CHECK_EQ(EventWrite(reg, &d, 1, dd), ERROR_SUCCESS);
    dd[0].Ptr = 0;
    dd[0].Size = 4;
    CHECK_EQ(EventWrite(reg, &d, 1, dd), ERROR_INVALID_PARAMETER);

    /* Stale handles: unregister, register again (the slot is reused with a
     * new generation): the old handle stays invalid. */
    REGHANDLE old = reg;
    CHECK_EQ(EventUnregister(reg), ERROR_SUCCESS);
    CHECK_EQ(EventUnregister(reg), ERROR_INVALID_HANDLE);
    CHECK_EQ(EventWrite(old, &d, 0, NULL), ERROR_INVALID_HANDLE);
    CHECK_EQ(EventRegister(&ErrProvider, NULL, NULL, &reg), ERROR_SUCCESS);
    CHECK((uint32_t)reg == (uint32_t)old && reg != old);
    CHECK_EQ(EventWrite(old, &d, 0, NULL), ERROR_INVALID_HANDLE);
    CHECK_EQ(EventEnabled(old, &d), 0);
    CHECK_EQ(EventEnabled(reg, &d), 1);

    /* Controller. */
    TRACEHANDLE s2;
    test_props bad;
    test_props_init(&bad, NULL);
    CHECK_EQ(StartTraceA(&s2, "petw-test-errors", NULL), ERROR_INVALID_PARAMETER);
    CHECK_EQ(StartTraceA(NULL, "x", &bad.p), ERROR_INVALID_PARAMETER);
    CHECK_EQ(StartTraceA(&s2, NULL, &bad.p), ERROR_INVALID_PARAMETER);
    CHECK_EQ(StartTraceA(&s2, "petw-test-errors", &bad.p), ERROR_ALREADY_EXISTS);
    bad.p.Wnode.BufferSize = sizeof(EVENT_TRACE_PROPERTIES) - 1;
    CHECK_EQ(StartTraceA(&s2, "petw-test-errors-2", &bad.p), ERROR_BAD_LENGTH);
    test_props_init(&bad, NULL);
    bad.p.LoggerNameOffset = bad.p.Wnode.BufferSize - 4; /* no room for the name */
    CHECK_EQ(StartTraceA(&s2, "petw-test-errors-2", &bad.p), ERROR_BAD_LENGTH);
    test_props_init(&bad, NULL);
    bad.p.LogFileNameOffset = bad.p.Wnode.BufferSize + 8; /* outside the block */
    CHECK_EQ(StartTraceA(&s2, "petw-test-errors-2", &bad.p), ERROR_INVALID_PARAMETER);
    test_props_init(&bad, path);
    bad.p.LogFileMode = EVENT_TRACE_FILE_MODE_SEQUENTIAL | EVENT_TRACE_FILE_MODE_CIRCULAR;
    CHECK_EQ(StartTraceA(&s2, "petw-test-errors-2", &bad.p), ERROR_INVALID_PARAMETER);
    test_props_init(&bad, NULL);
    bad.p.LogFileMode = EVENT_TRACE_FILE_MODE_SEQUENTIAL; /* a file mode without a file */
    CHECK_EQ(StartTraceA(&s2, "petw-test-errors-2", &bad.p), ERROR_INVALID_PARAMETER);
    test_props_init(&bad, NULL);
    bad.p.Wnode.ClientContext = 9; /* no such clock */
    CHECK_EQ(StartTraceA(&s2, "petw-test-errors-2", &bad.p), ERROR_INVALID_PARAMETER);

    test_props_init(&bad, NULL);
    CHECK_EQ(ControlTraceA(0, "petw-no-such-session", &bad.p, EVENT_TRACE_CONTROL_QUERY),
             ERROR_WMI_INSTANCE_NOT_FOUND);
    CHECK_EQ(ControlTraceA(0, NULL, &bad.p, EVENT_TRACE_CONTROL_QUERY), ERROR_INVALID_PARAMETER);
    CHECK_EQ(ControlTraceA(s, NULL, NULL, EVENT_TRACE_CONTROL_QUERY), ERROR_INVALID_PARAMETER);
    CHECK_EQ(ControlTraceA(s, NULL, &bad.p, 77), ERROR_INVALID_PARAMETER);
    CHECK_EQ(EnableTraceEx2(s, NULL, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 0, 0, 0, 0, NULL),
             ERROR_INVALID_PARAMETER);
    CHECK_EQ(EnableTraceEx2(s, &ErrProvider, 9, 0, 0, 0, 0, NULL), ERROR_INVALID_PARAMETER);

    /* Query by name and by handle agree. */
    test_props q;
    test_props_init(&q, NULL);
    CHECK_EQ(QueryTraceA(0, "petw-test-errors", &q.p), ERROR_SUCCESS);
    CHECK_EQ(q.p.BufferSize, 4);
    CHECK(q.p.Wnode.HistoricalContext == s);
    CHECK(strcmp(q.logger, "petw-test-errors") == 0);

    CHECK_EQ(ControlTraceA(s, NULL, &tp.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);
    CHECK_EQ(tp.p.EventsLost, 0);
    /* A stopped session's handle is unknown now. */
    CHECK_EQ(ControlTraceA(s, NULL, &tp.p, EVENT_TRACE_CONTROL_QUERY),
             ERROR_WMI_INSTANCE_NOT_FOUND);
    /* EnableTraceEx2 documents ERROR_INVALID_PARAMETER for a bad TraceHandle. */
    CHECK_EQ(EnableTraceEx2(s, &ErrProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 0, 0, 0, 0, NULL),
             ERROR_INVALID_PARAMETER);
    CHECK_EQ(EnableTraceEx2(s, &ErrProvider, EVENT_CONTROL_CODE_DISABLE_PROVIDER, 0, 0, 0, 0, NULL),
             ERROR_INVALID_PARAMETER);

    /* The session limit: 64. */
    TRACEHANDLE hs[65];
    test_props ps[65];
    int started = 0;
    ULONG st = ERROR_SUCCESS;
    for (int i = 0; i < 65; i++) {
        char name[64];
        snprintf(name, sizeof(name), "petw-test-limit-%d", i);
        test_props_init(&ps[i], NULL);
        st = StartTraceA(&hs[i], name, &ps[i].p);
        if (st != ERROR_SUCCESS)
            break;
        started++;
    }
    CHECK_EQ(started, 64);
    CHECK_EQ(st, ERROR_NO_SYSTEM_RESOURCES);
    ULONG n = 0;
    PEVENT_TRACE_PROPERTIES arr[4] = {&ps[0].p, &ps[1].p, &ps[2].p, &ps[3].p};
    CHECK_EQ(QueryAllTracesA(arr, 4, &n), ERROR_MORE_DATA);
    CHECK_EQ(n, 4);
    for (int i = 0; i < started; i++)
        CHECK_EQ(StopTraceA(hs[i], NULL, &ps[i].p), ERROR_SUCCESS);
    CHECK_EQ(QueryAllTracesA(arr, 4, &n), ERROR_SUCCESS);
    CHECK_EQ(n, 0);

    /* Consumer. */
    EVENT_TRACE_LOGFILEA lf;
    memset(&lf, 0, sizeof(lf));
    lf.LogFileName = "/nonexistent/petw/file.etl";
    lf.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
    CHECK(OpenTraceA(&lf) == INVALID_PROCESSTRACE_HANDLE);
    CHECK_EQ(GetLastError(), ERROR_FILE_NOT_FOUND);
    CHECK(OpenTraceA(NULL) == INVALID_PROCESSTRACE_HANDLE);
    CHECK_EQ(GetLastError(), ERROR_INVALID_PARAMETER);
    TRACEHANDLE bogus = 0x1234;
    CHECK_EQ(ProcessTrace(&bogus, 1, NULL, NULL), ERROR_INVALID_HANDLE);
    CHECK_EQ(ProcessTrace(NULL, 1, NULL, NULL), ERROR_INVALID_PARAMETER);
    CHECK_EQ(CloseTrace(bogus), ERROR_INVALID_HANDLE);

    /* Native error strings: one X-macro list, every code named. */
    for (int e = -1; e > PETW_ERRNO_MAX; e--) {
        CHECK(strcmp(petw_strerror(e), "unknown error") != 0);
        CHECK(strncmp(petw_err_name(e), "PETW_E", 6) == 0);
        CHECK(petw_error_to_win32(e) != 0);
    }
    CHECK(strcmp(petw_strerror(0), "success") == 0);
    CHECK_EQ(petw_error_to_win32(PETW_ENOTFOUND), ERROR_WMI_INSTANCE_NOT_FOUND);

    EventUnregister(reg);
    unlink(path);
    printf("errors: all checks passed\n");
    return 0;
}
