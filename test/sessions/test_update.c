/* SPDX-License-Identifier: MIT */
/* ControlTrace(UPDATE) while writers run: a new FlushTimer, more
 * MaximumBuffers (the pool grows in place), EnableFlags, and a new log file
 * (the old one is finished and readable; the two hold every event exactly
 * once). */
#include <uv.h>

#include "test_util.h"

DEFINE_GUID(UpdProvider, 0x0bd00bd0, 1, 2, 3, 4, 0, 0, 0, 0, 0, 1);

static REGHANDLE reg;
static int stop_writer;
static uint32_t written, failed;

static void writer(void *arg)
{
    (void)arg;
    uint32_t i = 0;
    while (!__atomic_load_n(&stop_writer, __ATOMIC_ACQUIRE)) {
        failed += test_write_seq(reg, i, 1, 32);
        i++;
        if (i % 64 == 0)
            uv_sleep(1);
    }
    written = i;
}

int main(void)
{
    char a[512], b[512];
    test_path(a, sizeof(a), "update-a.etl");
    test_path(b, sizeof(b), "update-b.etl");
    CHECK_EQ(EventRegister(&UpdProvider, NULL, NULL, &reg), ERROR_SUCCESS);
    test_props tp;
    test_props_init(&tp, a);
    tp.p.BufferSize = 4;
    tp.p.MinimumBuffers = tp.p.MaximumBuffers = 8;
    TRACEHANDLE s;
    CHECK_EQ(test_start_trace(&s, "petw-test-update", &tp.p), ERROR_SUCCESS);
    CHECK_EQ(EnableTraceEx2(s, &UpdProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 0, 0, 0, 0, NULL),
             ERROR_SUCCESS);
    CHECK_EQ(tp.p.NumberOfBuffers, 8);
    uv_thread_t th;
    uv_thread_create(&th, writer, NULL);
    uv_sleep(30);

    test_props up;
    test_props_init(&up, a);
    up.p.FlushTimer = 2;
    up.p.MaximumBuffers = 24;
    up.p.EnableFlags = 0x5;
    CHECK_EQ(ControlTraceA(s, NULL, &up.p, EVENT_TRACE_CONTROL_UPDATE), ERROR_SUCCESS);
    CHECK_EQ(up.p.FlushTimer, 2);
    CHECK_EQ(up.p.MaximumBuffers, 24);
    CHECK_EQ(up.p.NumberOfBuffers, 24);
    CHECK_EQ(up.p.EnableFlags, 0x5);
    uv_sleep(30);

    /* Switch files while the writer writes. */
    test_props_init(&up, b);
    CHECK_EQ(ControlTraceA(s, NULL, &up.p, EVENT_TRACE_CONTROL_UPDATE), ERROR_SUCCESS);
    test_props q;
    test_props_init(&q, "x"); /* room for the name the query writes back */
    CHECK_EQ(ControlTraceA(s, NULL, &q.p, EVENT_TRACE_CONTROL_QUERY), ERROR_SUCCESS);
    CHECK(strcmp(q.file, b) == 0);
    uv_sleep(30);
    /* Growing past the reserved 4x fails cleanly. */
    up.p.MaximumBuffers = 1000;
    CHECK(ControlTraceA(s, NULL, &up.p, EVENT_TRACE_CONTROL_UPDATE) != ERROR_SUCCESS);

    __atomic_store_n(&stop_writer, 1, __ATOMIC_RELEASE);
    uv_thread_join(&th);
    CHECK_EQ(ControlTraceA(s, NULL, &tp.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);
    CHECK_EQ(tp.p.EventsLost, failed);

    /* Both files complete; together every accepted event, once, in order. */
    test_events la, lb;
    petw_trace_stats sa, sb;
    petw_logfile_info ia, ib;
    CHECK_EQ(test_read(a, 0, &la, &ia, &sa), 0);
    CHECK_EQ(test_read(b, 0, &lb, &ib, &sb), 0);
    CHECK_EQ(ia.buffers_written, sa.buffers_read);
    CHECK_EQ(ib.buffers_written, sb.buffers_read);
    CHECK(la.count > 1 && lb.count > 1);
    static uint8_t seen[1 << 22];
    uint64_t total = 0;
    for (int f = 0; f < 2; f++) {
        test_events *l = f ? &lb : &la;
        for (size_t i = 1; i < l->count; i++) {
            uint32_t v = test_seq(&l->ev[i]);
            CHECK(v < written && v < sizeof(seen));
            CHECK(!seen[v]);
            seen[v] = 1;
            total++;
        }
    }
    CHECK_EQ(total + tp.p.EventsLost, written);
    printf("update: %u events over 2 files (%zu + %zu), %lu lost\n", written, la.count - 1,
           lb.count - 1, (unsigned long)tp.p.EventsLost);
    test_events_free(&la);
    test_events_free(&lb);
    unlink(a);
    unlink(b);
    EventUnregister(reg);
    return 0;
}
