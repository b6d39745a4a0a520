/* SPDX-License-Identifier: MIT */
/* petw_trace_set_raw_callback: a live consumer given the session's
 * buffers as they arrive, the header buffer first, and not their events
 * (the callback returns 2), keeps an ETL file that petw_trace_open_memory
 * reads back with every event the provider wrote; the callback is refused
 * on a trace that is not live. */
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "test_util.h"

DEFINE_GUID(RawProvider, 0x71717173, 1, 2, 3, 4, 0, 0, 0, 0, 0, 3);

typedef struct kept {
    uint8_t *data;
    size_t len, cap;
    uint32_t calls, first_size;
    volatile uint32_t events; /* delivered: none while the callback says 2 */
} kept;

static int on_raw(petw_trace *t, const void *buffer, uint32_t size, void *context)
{
    (void)t;
    kept *k = context;
    if (k->calls++ == 0)
        k->first_size = size;
    if (k->len + size > k->cap) {
        k->cap = 2 * (k->len + size);
        k->data = realloc(k->data, k->cap);
        CHECK(k->data != NULL);
    }
    memcpy(k->data + k->len, buffer, size);
    k->len += size;
    return 2;
}

static void on_live_event(petw_event_record *r, void *context)
{
    (void)r;
    __atomic_fetch_add(&((kept *)context)->events, 1, __ATOMIC_RELAXED);
}

static uint32_t provider_events;

static void on_file_event(petw_event_record *r, void *context)
{
    (void)context;
    if (IsEqualGUID((const GUID *)&r->header.provider_id, &RawProvider))
        provider_events++;
}

static void run(void *arg)
{
    CHECK_EQ(petw_trace_process((petw_trace **)arg, 1, 0, 0), 0);
}

int main(void)
{
    REGHANDLE reg;
    CHECK_EQ(EventRegister(&RawProvider, NULL, NULL, &reg), ERROR_SUCCESS);
    char path[512];
    test_path(path, sizeof(path), "realtime_raw_buffers.etl");
    test_props tp;
    test_props_init(&tp, path);
    tp.p.LogFileMode |= EVENT_TRACE_REAL_TIME_MODE;
    tp.p.FlushTimer = 1;
    TRACEHANDLE s;
    CHECK_EQ(StartTraceA(&s, "petw-test-rt-raw", &tp.p), ERROR_SUCCESS);
    CHECK_EQ(EnableTraceEx2(s, &RawProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 0, 0, 0, 0, NULL),
             ERROR_SUCCESS);

    static kept k;
    petw_trace_config cfg;
    petw_trace_config_init(&cfg);
    cfg.on_event = on_live_event;
    cfg.context = &k;
    petw_trace *t = NULL;
    CHECK_EQ(petw_trace_open_realtime("petw-test-rt-raw", &cfg, &t), 0);
    CHECK_EQ(petw_trace_set_raw_callback(NULL, on_raw), PETW_EINVAL);
    CHECK_EQ(petw_trace_set_raw_callback(t, on_raw), 0);
    uv_thread_t th;
    uv_thread_create(&th, run, &t);
    CHECK_EQ(test_write_seq(reg, 0, 500, 16), 0);
    uv_sleep(300);
    CHECK_EQ(ControlTraceA(s, NULL, &tp.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);
    uv_thread_join(&th);
    CHECK_EQ(petw_trace_set_raw_callback(t, on_raw), PETW_EINVAL); /* processed already */
    petw_trace_close(t);
    CHECK_EQ(k.events, 0);
    CHECK(k.calls >= 2); /* the header buffer, then data */
    CHECK(k.first_size > 0);

    /* What was kept is an ETL file with every event. */
    cfg.on_event = on_file_event;
    cfg.context = NULL;
    CHECK_EQ(petw_trace_open_memory(k.data, k.len, &cfg, &t), 0);
    CHECK_EQ(petw_trace_set_raw_callback(t, on_raw), PETW_EINVAL); /* not live */
    CHECK_EQ(petw_trace_process(&t, 1, 0, 0), 0);
    petw_trace_close(t);
    CHECK_EQ(provider_events, 500);
    free(k.data);
    EventUnregister(reg);
    return 0;
}
