/* SPDX-License-Identifier: MIT */
/* Round trip through a file session with the ETW API: several threads and
 * providers; every event comes back byte-exact with its descriptor,
 * process/thread IDs, activity IDs, in per-thread order and global timestamp
 * order; delivered + EventsLost == attempted. */
#include <uv.h>

#include "test_util.h"

DEFINE_GUID(ProviderA, 0x11111111, 0x2222, 0x3333, 0x44, 0x44, 0x55, 0x55, 0x55, 0x55, 0x55, 0x01);
DEFINE_GUID(ProviderB, 0x11111111, 0x2222, 0x3333, 0x44, 0x44, 0x55, 0x55, 0x55, 0x55, 0x55, 0x02);

#define THREADS 4
#define EVENTS_PER_THREAD 20000

static REGHANDLE handles[2];
static ULONG write_failures[THREADS];

/* Payload of event `seq` of thread `t`: a header and a pseudo-random tail,
 * split over several descriptors. */
static uint32_t payload_size(uint32_t t, uint32_t seq)
{
    return 16 + (seq * 7 + t * 13) % 200;
}
static uint8_t payload_byte(uint32_t t, uint32_t seq, uint32_t i)
{
    return (uint8_t)(i * 31 + seq * 17 + t * 101);
}

static void writer(void *arg)
{
    uint32_t t = (uint32_t)(uintptr_t)arg;
    uint8_t buf[256];
    GUID activity;
    EventActivityIdControl(EVENT_ACTIVITY_CTRL_CREATE_SET_ID, &activity);
    CHECK(activity.Data1 == 0 && activity.Data2 == 0); /* the previous (none) */
    EventActivityIdControl(EVENT_ACTIVITY_CTRL_GET_ID, &activity);
    for (uint32_t seq = 0; seq < EVENTS_PER_THREAD; seq++) {
        uint32_t n = payload_size(t, seq);
        memcpy(buf, &t, 4);
        memcpy(buf + 4, &seq, 4);
        for (uint32_t i = 8; i < n; i++)
            buf[i] = payload_byte(t, seq, i);
        EVENT_DATA_DESCRIPTOR d[4];
        uint32_t a = n / 3, b = n / 3;
        EventDataDescCreate(&d[0], buf, 8);
        EventDataDescCreate(&d[1], buf + 8, a);
        EventDataDescCreate(&d[2], buf + 8 + a, 0);
        EventDataDescCreate(&d[3], buf + 8 + a, n - 8 - a);
        (void)b;
        EVENT_DESCRIPTOR desc;
        EventDescCreate(&desc, (USHORT)(seq % 50), 1, 0, (UCHAR)(1 + seq % 5), (USHORT)t,
                        (UCHAR)(seq % 3), 0x10ull << (seq % 4));
        REGHANDLE h = handles[seq % 2];
        ULONG st;
        if (seq % 10 == 9) {
            GUID related = activity;
            related.Data1 = seq;
            st = EventWriteTransfer(h, &desc, NULL, &related, 4, d);
        } else {
            st = EventWrite(h, &desc, 4, d);
        }
        if (st != ERROR_SUCCESS)
            write_failures[t]++;
    }
}

int main(void)
{
    char path[512];
    test_path(path, sizeof(path), "roundtrip.etl");
    test_props tp;
    test_props_init(&tp, path);
    tp.p.BufferSize = 64;
    tp.p.MinimumBuffers = 64;
    tp.p.MaximumBuffers = 256;
    TRACEHANDLE session;
    CHECK_EQ(test_start_trace(&session, "petw-test-roundtrip", &tp.p), ERROR_SUCCESS);
    CHECK_EQ(EventRegister(&ProviderA, NULL, NULL, &handles[0]), ERROR_SUCCESS);
    CHECK_EQ(EventRegister(&ProviderB, NULL, NULL, &handles[1]), ERROR_SUCCESS);
    CHECK_EQ(
        EnableTraceEx2(session, &ProviderA, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 0, 0, 0, 0, NULL),
        ERROR_SUCCESS);
    CHECK_EQ(
        EnableTraceEx2(session, &ProviderB, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 0, 0, 0, 0, NULL),
        ERROR_SUCCESS);

    uv_thread_t th[THREADS];
    for (uintptr_t t = 0; t < THREADS; t++)
        CHECK_EQ(uv_thread_create(&th[t], writer, (void *)t), 0);
    for (int t = 0; t < THREADS; t++)
        uv_thread_join(&th[t]);

    CHECK_EQ(ControlTraceA(session, NULL, &tp.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);
    EventUnregister(handles[0]);
    EventUnregister(handles[1]);

    uint64_t failures = 0;
    for (int t = 0; t < THREADS; t++)
        failures += write_failures[t];
    CHECK_EQ(failures, tp.p.EventsLost);

    test_events l;
    petw_logfile_info info;
    petw_trace_stats stats;
    CHECK_EQ(test_read(path, 0, &l, &info, &stats), 0);
    CHECK_EQ(l.corrupt, 0);
    CHECK_EQ(stats.buffers_corrupt, 0);
    CHECK_EQ(stats.bytes_truncated, 0);
    CHECK_EQ(info.buffers_written, tp.p.BuffersWritten);
    CHECK_EQ(info.buffers_written, stats.buffers_read);
    CHECK_EQ(info.events_lost, tp.p.EventsLost);
    CHECK(strcmp(info.logger_name, "petw-test-roundtrip") == 0);
    CHECK(strcmp(info.log_file_name, path) == 0);

    /* The session header first. */
    CHECK(l.count >= 1);
    CHECK(memcmp(&l.ev[0].header.provider_id, &EventTraceGuid, sizeof(GUID)) == 0);
    CHECK(l.ev[0].header.flags & EVENT_HEADER_FLAG_CLASSIC_HEADER);

    size_t delivered = test_count_provider(&l, &ProviderA) + test_count_provider(&l, &ProviderB);
    CHECK_EQ(delivered + tp.p.EventsLost, (uint64_t)THREADS * EVENTS_PER_THREAD);
    CHECK_EQ(delivered + 1, l.count);

    int64_t last_seq[THREADS];
    for (int t = 0; t < THREADS; t++)
        last_seq[t] = -1;
    int64_t last_ts = 0;
    for (size_t i = 1; i < l.count; i++) {
        const test_event *e = &l.ev[i];
        CHECK(e->header.timestamp >= last_ts);
        last_ts = e->header.timestamp;
        uint32_t t, seq;
        CHECK(e->length >= 8);
        memcpy(&t, e->data, 4);
        memcpy(&seq, e->data + 4, 4);
        CHECK(t < THREADS);
        CHECK((int64_t)seq > last_seq[t]);
        last_seq[t] = seq;
        CHECK_EQ(e->length, payload_size(t, seq));
        for (uint32_t k = 8; k < e->length; k++)
            CHECK_EQ(e->data[k], payload_byte(t, seq, k));
        const GUID *want = seq % 2 ? &ProviderB : &ProviderA;
        CHECK(memcmp(&e->header.provider_id, want, sizeof(GUID)) == 0);
        CHECK_EQ(e->header.descriptor.id, seq % 50);
        CHECK_EQ(e->header.descriptor.version, 1);
        CHECK_EQ(e->header.descriptor.level, 1 + seq % 5);
        CHECK_EQ(e->header.descriptor.task, t);
        CHECK_EQ(e->header.descriptor.opcode, seq % 3);
        CHECK(e->header.descriptor.keyword == (0x10ull << (seq % 4)));
        CHECK_EQ(e->header.process_id, (uint32_t)getpid());
        CHECK(e->header.flags & EVENT_HEADER_FLAG_64_BIT_HEADER);
        CHECK_EQ(e->ctx.logger_id, info.buffer_size ? l.ev[1].ctx.logger_id : 0);
        /* Each thread set its own activity ID; every event carries it. */
        CHECK(e->header.activity_id.data1 != 0 || e->header.activity_id.data2 != 0);
        if (seq % 10 == 9) {
            CHECK(e->header.flags & EVENT_HEADER_FLAG_EXTENDED_INFO);
            CHECK_EQ(e->ext_count, 1);
            CHECK_EQ(e->ext_type[0], EVENT_HEADER_EXT_TYPE_RELATED_ACTIVITYID);
            CHECK_EQ(e->ext_size[0], 16);
            GUID related;
            memcpy(&related, e->ext_data[0], 16);
            CHECK_EQ(related.Data1, seq);
            CHECK(memcmp(related.Data4, e->header.activity_id.data4, 8) == 0);
        } else {
            CHECK_EQ(e->ext_count, 0);
        }
    }
    /* Per thread, the thread ID is constant. */
    for (int t = 0; t < THREADS; t++) {
        uint32_t tid = 0;
        for (size_t i = 1; i < l.count; i++) {
            uint32_t et;
            memcpy(&et, l.ev[i].data, 4);
            if ((int)et != t)
                continue;
            if (!tid)
                tid = l.ev[i].header.thread_id;
            CHECK_EQ(l.ev[i].header.thread_id, tid);
        }
    }
    printf("roundtrip: %zu events delivered, %lu lost, %llu buffers\n", delivered,
           (unsigned long)tp.p.EventsLost, (unsigned long long)stats.buffers_read);
    test_events_free(&l);
    unlink(path);
    return 0;
}
