/* SPDX-License-Identifier: MIT */
/* A real-time consumer, written as security tools write one (OpenTrace
 * with LoggerName and PROCESS_TRACE_MODE_REAL_TIME, every event counted,
 * ProcessTrace on its own thread), receives the provider's events and not
 * the EventTrace header event: Windows writes that event into log files
 * only ("real-time sessions do not" contain it), while a consumer of the
 * same session's file still gets it first. */
#include <uv.h>

#include "test_util.h"

DEFINE_GUID(NoHeaderProvider, 0x71717172, 1, 2, 3, 4, 0, 0, 0, 0, 0, 2);
DEFINE_GUID(EventTraceClass, 0x68fdd900, 0x4a3e, 0x11d1, 0x84, 0xf4, 0x00, 0x00, 0xf8, 0x04, 0x64,
            0xe3);

typedef struct counts {
    volatile uint32_t events;
    volatile uint32_t headers;
} counts;

static void WINAPI on_event(PEVENT_RECORD r)
{
    counts *c = r->UserContext;
    if (IsEqualGUID(&r->EventHeader.ProviderId, &EventTraceClass))
        __atomic_fetch_add(&c->headers, 1, __ATOMIC_RELAXED);
    else
        __atomic_fetch_add(&c->events, 1, __ATOMIC_RELEASE); /* pairs with wait_events */
}

static void run(void *arg)
{
    TRACEHANDLE *h = arg;
    CHECK_EQ(ProcessTrace(h, 1, NULL, NULL), ERROR_SUCCESS);
}

int main(void)
{
    REGHANDLE reg;
    CHECK_EQ(EventRegister(&NoHeaderProvider, NULL, NULL, &reg), ERROR_SUCCESS);
    char path[512];
    test_path(path, sizeof(path), "realtime_no_header.etl");
    test_props tp;
    test_props_init(&tp, path);
    tp.p.LogFileMode |= EVENT_TRACE_REAL_TIME_MODE;
    tp.p.FlushTimer = 1;
    TRACEHANDLE s;
    CHECK_EQ(StartTraceA(&s, "petw-test-rt-no-header", &tp.p), ERROR_SUCCESS);
    CHECK_EQ(
        EnableTraceEx2(s, &NoHeaderProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 0, 0, 0, 0, NULL),
        ERROR_SUCCESS);

    static counts live;
    EVENT_TRACE_LOGFILEA lf;
    memset(&lf, 0, sizeof(lf));
    lf.LoggerName = "petw-test-rt-no-header";
    lf.ProcessTraceMode = PROCESS_TRACE_MODE_REAL_TIME | PROCESS_TRACE_MODE_EVENT_RECORD;
    lf.EventRecordCallback = on_event;
    lf.Context = &live;
    TRACEHANDLE h = OpenTraceA(&lf);
    CHECK(h != INVALID_PROCESSTRACE_HANDLE);
    uv_thread_t th;
    uv_thread_create(&th, run, &h);
    CHECK_EQ(test_write_seq(reg, 0, 5, 16), 0);
    for (int i = 0; i < 1000 && __atomic_load_n(&live.events, __ATOMIC_ACQUIRE) < 5; i++)
        uv_sleep(10);
    CHECK_EQ(ControlTraceA(s, NULL, &tp.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);
    uv_thread_join(&th);
    CloseTrace(h);
    CHECK_EQ(live.events, 5);
    CHECK_EQ(live.headers, 0);

    /* The same session's file: the header event first, then the events. */
    static counts file;
    memset(&lf, 0, sizeof(lf));
    lf.LogFileName = path;
    lf.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
    lf.EventRecordCallback = on_event;
    lf.Context = &file;
    h = OpenTraceA(&lf);
    CHECK(h != INVALID_PROCESSTRACE_HANDLE);
    CHECK_EQ(ProcessTrace(&h, 1, NULL, NULL), ERROR_SUCCESS);
    CloseTrace(h);
    CHECK_EQ(file.events, 5);
    CHECK_EQ(file.headers, 1);
    EventUnregister(reg);
    return 0;
}
