/* SPDX-License-Identifier: MIT */
/* Lifetime under fire: writer threads keep calling EventWrite while the
 * main thread starts and stops sessions, enables and disables providers,
 * and unregisters and re-registers a provider. Nothing crashes or races
 * (this test is meant for the ASan and TSan builds too); EventWrite only
 * ever returns success, a stale handle, or a counted loss; every file that
 * comes out reads back cleanly with each thread's events in order. */
#include <uv.h>

#include "test_util.h"

DEFINE_GUID(LifeA, 0x4e4e4e4e, 0x0001, 0x0002, 0x03, 0x04, 0, 0, 0, 0, 0, 0x0a);
DEFINE_GUID(LifeB, 0x4e4e4e4e, 0x0001, 0x0002, 0x03, 0x04, 0, 0, 0, 0, 0, 0x0b);

#define WRITERS 3
#define ROUNDS 12

static REGHANDLE stable;            /* LifeA: registered throughout */
static volatile REGHANDLE churning; /* LifeB: replaced while in use */
static int stop_flag;
static uint64_t unexpected[WRITERS];

static void writer(void *arg)
{
    uint32_t t = (uint32_t)(uintptr_t)arg;
    uint64_t seq = 0;
    while (!__atomic_load_n(&stop_flag, __ATOMIC_ACQUIRE)) {
        uint64_t payload[2] = {t, seq++};
        EVENT_DATA_DESCRIPTOR d;
        EventDataDescCreate(&d, payload, sizeof(payload));
        EVENT_DESCRIPTOR desc = {1, 0, 0, 4, 0, 0, 0};
        ULONG a = EventWrite(stable, &desc, 1, &d);
        REGHANDLE h = __atomic_load_n(&churning, __ATOMIC_ACQUIRE);
        ULONG b = EventWrite(h, &desc, 1, &d);
        if (a != ERROR_SUCCESS && a != ERROR_NOT_ENOUGH_MEMORY)
            unexpected[t]++;
        if (b != ERROR_SUCCESS && b != ERROR_NOT_ENOUGH_MEMORY && b != ERROR_INVALID_HANDLE)
            unexpected[t]++;
    }
}

int main(void)
{
    CHECK_EQ(EventRegister(&LifeA, NULL, NULL, &stable), ERROR_SUCCESS);
    REGHANDLE h;
    CHECK_EQ(EventRegister(&LifeB, NULL, NULL, &h), ERROR_SUCCESS);
    __atomic_store_n(&churning, h, __ATOMIC_RELEASE);
    uv_thread_t th[WRITERS];
    for (uintptr_t t = 0; t < WRITERS; t++)
        CHECK_EQ(uv_thread_create(&th[t], writer, (void *)t), 0);

    uint64_t total_events = 0, total_lost = 0;
    for (int round = 0; round < ROUNDS; round++) {
        char path[512], name[64];
        snprintf(name, sizeof(name), "life-%d.etl", round);
        test_path(path, sizeof(path), name);
        snprintf(name, sizeof(name), "petw-test-life-%d", round);
        test_props tp;
        test_props_init(&tp, path);
        tp.p.BufferSize = 4 + 4 * (round % 3);
        tp.p.MinimumBuffers = tp.p.MaximumBuffers = 4 + round % 5;
        TRACEHANDLE s;
        CHECK_EQ(StartTraceA(&s, name, &tp.p), ERROR_SUCCESS);
        CHECK_EQ(EnableTraceEx2(s, &LifeA, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 0, 0, 0, 0, NULL),
                 ERROR_SUCCESS);
        for (int k = 0; k < 5; k++) {
            CHECK_EQ(
                EnableTraceEx2(s, &LifeB, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 0, 0, 0, 0, NULL),
                ERROR_SUCCESS);
            uv_sleep(1);
            /* Replace the churning provider while writers use it. */
            REGHANDLE old = __atomic_load_n(&churning, __ATOMIC_ACQUIRE);
            CHECK_EQ(EventUnregister(old), ERROR_SUCCESS);
            CHECK_EQ(EventRegister(&LifeB, NULL, NULL, &h), ERROR_SUCCESS);
            __atomic_store_n(&churning, h, __ATOMIC_RELEASE);
            CHECK_EQ(
                EnableTraceEx2(s, &LifeB, EVENT_CONTROL_CODE_DISABLE_PROVIDER, 0, 0, 0, 0, NULL),
                ERROR_SUCCESS);
            if (round % 4 == 0)
                CHECK_EQ(ControlTraceA(s, NULL, &tp.p, EVENT_TRACE_CONTROL_FLUSH), ERROR_SUCCESS);
        }
        /* Stop while every writer is inside EventWrite somewhere. */
        CHECK_EQ(ControlTraceA(s, NULL, &tp.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);

        test_events l;
        petw_logfile_info info;
        petw_trace_stats stats;
        CHECK_EQ(test_read(path, 0, &l, &info, &stats), 0);
        CHECK_EQ(stats.buffers_corrupt, 0);
        CHECK_EQ(info.buffers_written, tp.p.BuffersWritten);
        CHECK_EQ(info.events_lost, tp.p.EventsLost);
        int64_t last[2][WRITERS];
        memset(last, 0xff, sizeof(last));
        for (size_t i = 1; i < l.count; i++) {
            uint64_t p[2];
            CHECK_EQ(l.ev[i].length, 16);
            memcpy(p, l.ev[i].data, 16);
            CHECK(p[0] < WRITERS);
            int which = memcmp(&l.ev[i].header.provider_id, &LifeA, sizeof(GUID)) == 0 ? 0 : 1;
            CHECK((int64_t)p[1] > last[which][p[0]]);
            last[which][p[0]] = (int64_t)p[1];
        }
        total_events += l.count - 1;
        total_lost += tp.p.EventsLost;
        test_events_free(&l);
        unlink(path);
    }
    __atomic_store_n(&stop_flag, 1, __ATOMIC_RELEASE);
    for (int t = 0; t < WRITERS; t++)
        uv_thread_join(&th[t]);
    for (int t = 0; t < WRITERS; t++)
        CHECK_EQ(unexpected[t], 0);
    CHECK(total_events > 0);
    CHECK_EQ(EventUnregister(stable), ERROR_SUCCESS);
    CHECK_EQ(EventUnregister(h), ERROR_SUCCESS);
    printf("lifetime: %d rounds, %llu events read back, %llu counted lost\n", ROUNDS,
           (unsigned long long)total_events, (unsigned long long)total_lost);
    return 0;
}
