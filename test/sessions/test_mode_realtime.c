/* SPDX-License-Identifier: MIT */
/* EVENT_TRACE_REAL_TIME_MODE: OpenTrace with LoggerName and
 * PROCESS_TRACE_MODE_REAL_TIME delivers events while the session runs
 * (within about the flush timer), ProcessTrace returns when the session
 * stops, a consumer that keeps up sees every event, a slow consumer costs
 * real-time buffers (counted) and never stalls the writer, and real time
 * works together with a file. */
#include <uv.h>

#include "test_util.h"

DEFINE_GUID(RtProvider, 0x71717171, 1, 2, 3, 4, 0, 0, 0, 0, 0, 1);

typedef struct consumer {
    EVENT_TRACE_LOGFILEA lf;
    TRACEHANDLE h;
    ULONG status;
    volatile uint32_t seen;
    uint32_t last;
    int ordered;
    uint32_t sleep_ms;
} consumer;

static void WINAPI on_event(PEVENT_RECORD r)
{
    consumer *c = r->UserContext;
    if (r->EventHeader.Flags & EVENT_HEADER_FLAG_CLASSIC_HEADER)
        return;
    uint32_t v;
    memcpy(&v, r->UserData, 4);
    if (c->seen && v <= c->last)
        c->ordered = 0;
    c->last = v;
    __atomic_fetch_add(&c->seen, 1, __ATOMIC_RELEASE);
    if (c->sleep_ms)
        uv_sleep(c->sleep_ms);
}

static void run_consumer(void *arg)
{
    consumer *c = arg;
    c->status = ProcessTrace(&c->h, 1, NULL, NULL);
}

static void open_consumer(consumer *c, const char *logger)
{
    memset(&c->lf, 0, sizeof(c->lf));
    c->lf.LoggerName = (LPSTR)logger;
    c->lf.ProcessTraceMode = PROCESS_TRACE_MODE_REAL_TIME | PROCESS_TRACE_MODE_EVENT_RECORD;
    c->lf.EventRecordCallback = on_event;
    c->lf.Context = c;
    c->ordered = 1;
    c->h = OpenTraceA(&c->lf);
    CHECK(c->h != INVALID_PROCESSTRACE_HANDLE);
}

static uint32_t wait_seen(consumer *c, uint32_t want, int seconds)
{
    for (int i = 0; i < seconds * 100 && __atomic_load_n(&c->seen, __ATOMIC_ACQUIRE) < want; i++)
        uv_sleep(10);
    return __atomic_load_n(&c->seen, __ATOMIC_ACQUIRE);
}

int main(void)
{
    REGHANDLE reg;
    CHECK_EQ(EventRegister(&RtProvider, NULL, NULL, &reg), ERROR_SUCCESS);
    test_pin_to_one_cpu();

    /* No such session: refused, with the ETW code. */
    EVENT_TRACE_LOGFILEA lf;
    memset(&lf, 0, sizeof(lf));
    lf.LoggerName = "petw-no-such-session";
    lf.ProcessTraceMode = PROCESS_TRACE_MODE_REAL_TIME | PROCESS_TRACE_MODE_EVENT_RECORD;
    CHECK(OpenTraceA(&lf) == INVALID_PROCESSTRACE_HANDLE);
    CHECK_EQ(GetLastError(), ERROR_WMI_INSTANCE_NOT_FOUND);

    /* 1. A consumer that keeps up, FlushTimer 1 s (ETW units). */
    test_props tp;
    test_props_init(&tp, NULL);
    tp.p.LogFileMode = EVENT_TRACE_REAL_TIME_MODE;
    tp.p.BufferSize = 4;
    tp.p.FlushTimer = 1;
    /* Room for every buffer of the run in the consumer's queue (which is
     * MaximumBuffers long): "keeps up" must hold under a sanitizer too. */
    tp.p.MaximumBuffers = 256;
    TRACEHANDLE s;
    CHECK_EQ(test_start_trace(&s, "petw-test-rt", &tp.p), ERROR_SUCCESS);
    CHECK_EQ(EnableTraceEx2(s, &RtProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 0, 0, 0, 0, NULL),
             ERROR_SUCCESS);
    static consumer c1;
    open_consumer(&c1, "petw-test-rt");
    CHECK(wcscmp(c1.lf.LogfileHeader.LoggerName, L"petw-test-rt") == 0);
    uv_thread_t th;
    uv_thread_create(&th, run_consumer, &c1);
    /* One event arrives while the session still runs (the flush timer
     * closes its partly filled buffer). */
    CHECK_EQ(test_write_seq(reg, 0, 1, 16), 0);
    CHECK_EQ(wait_seen(&c1, 1, 10), 1);
    const uint32_t total = 4000;
    for (uint32_t i = 1; i < total; i += 200) {
        CHECK_EQ(test_write_seq(reg, i, i + 200 <= total ? 200 : total - i, 64), 0);
        uv_sleep(1);
    }
    CHECK_EQ(ControlTraceA(s, NULL, &tp.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);
    uv_thread_join(&th); /* ProcessTrace returned because the session stopped */
    CHECK_EQ(c1.status, ERROR_SUCCESS);
    if (c1.seen != total)
        fprintf(stderr, "saw %u of %u: real-time buffers lost %lu, events lost %lu\n", c1.seen,
                total, (unsigned long)tp.p.RealTimeBuffersLost, (unsigned long)tp.p.EventsLost);
    CHECK_EQ(c1.seen, total);
    CHECK(c1.ordered);
    CHECK_EQ(tp.p.RealTimeBuffersLost, 0);
    CHECK_EQ(tp.p.EventsLost, 0);
    CloseTrace(c1.h);

    /* 2. Real time and a file at once, with a slow consumer (native, 20 ms
     * flush timer, 4 real-time buffers): the writer never waits, the file
     * gets everything, and what the consumer missed is counted exactly. */
    char path[512];
    test_path(path, sizeof(path), "realtime.etl");
    petw_session_config cfg;
    petw_session_config_init(&cfg);
    cfg.name = "petw-test-rt-slow";
    cfg.file_path = path;
    cfg.log_file_mode = PETW_MODE_SEQUENTIAL | PETW_MODE_REAL_TIME;
    cfg.buffer_size_kb = 4;
    cfg.minimum_buffers = cfg.maximum_buffers = 64;
    cfg.flush_timer_ms = 20;
    cfg.real_time_buffers = 4;
    petw_session_handle ns;
    CHECK_EQ(petw_session_start(&cfg, &ns), 0);
    CHECK_EQ(petw_session_enable_provider(ns, (const petw_guid *)&RtProvider, 0, 0, 0), 0);
    static consumer c2;
    c2.sleep_ms = 1;
    open_consumer(&c2, "petw-test-rt-slow");
    uv_thread_create(&th, run_consumer, &c2);
    const uint32_t total2 = 20000;
    for (uint32_t i = 0; i < total2; i += 500) {
        CHECK_EQ(test_write_seq(reg, i, 500, 64), 0);
        CHECK_EQ(petw_session_flush(ns, NULL), 0);
    }
    petw_session_stats st;
    CHECK_EQ(petw_session_stop(ns, &st), 0);
    uv_thread_join(&th);
    CloseTrace(c2.h);
    CHECK(st.real_time_buffers_lost > 0);
    CHECK_EQ(st.events_lost, 0);
    CHECK_EQ(c2.seen + st.real_time_events_lost, total2);
    CHECK(c2.ordered);
    test_events l;
    CHECK_EQ(test_read(path, 0, &l, NULL, NULL), 0);
    CHECK_EQ(l.count, 1 + total2);
    test_events_free(&l);
    unlink(path);

    /* 3. CloseTrace while ProcessTrace runs: ProcessTrace returns. */
    CHECK_EQ(test_start_trace(&s, "petw-test-rt-close", &tp.p), ERROR_SUCCESS);
    static consumer c3;
    open_consumer(&c3, "petw-test-rt-close");
    uv_thread_create(&th, run_consumer, &c3);
    uv_sleep(50);
    CHECK_EQ(CloseTrace(c3.h), ERROR_CTX_CLOSE_PENDING);
    uv_thread_join(&th);
    CHECK_EQ(c3.status, ERROR_CANCELLED);
    CHECK_EQ(CloseTrace(c3.h), ERROR_INVALID_HANDLE); /* gone now */
    CHECK_EQ(ControlTraceA(s, NULL, &tp.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);

    printf("mode_realtime: %u events live; slow consumer saw %u, missed %llu in %u buffers\n",
           total, c2.seen, (unsigned long long)st.real_time_events_lost, st.real_time_buffers_lost);
    EventUnregister(reg);
    return 0;
}
