/* SPDX-License-Identifier: MIT */
/* Loss accounting with a pool too small to keep up: every event is either
 * delivered or counted, exactly (delivered + EventsLost == attempted), the
 * EventWrite failures are ERROR_NOT_ENOUGH_MEMORY and equal EventsLost, the
 * file header says the same, and the buffer written after a loss carries
 * the ETL "events lost" flag.
 *
 * The loss is made certain, not left to timing: a second, memory-only
 * session's sink holds the (shared) flusher thread while the small session
 * is written, so no buffer comes back until the sink lets go. When the
 * session lives in a session host (StartTrace's default), the host is
 * held instead: stopped (SIGSTOP) until it is let go, so the provider's
 * pool fills and the rest is counted where it is lost. */
#include <uv.h>

#include "test_util.h"
#if !defined(_WIN32)
#include <signal.h>
#endif

DEFINE_GUID(LossyProvider, 0x2b1e0f3a, 0x1111, 0x4a4a, 0x80, 0x01, 0, 0, 0, 0, 0, 0x01);
DEFINE_GUID(BlockerProvider, 0x2b1e0f3a, 0x1111, 0x4a4a, 0x80, 0x01, 0, 0, 0, 0, 0, 0x02);

static uv_sem_t sink_entered, sink_release;
static int sink_calls;

static void blocking_sink(void *ctx, const void *buf, uint32_t size)
{
    (void)ctx;
    (void)buf;
    (void)size;
    if (sink_calls++ == 0) {
        uv_sem_post(&sink_entered);
        uv_sem_wait(&sink_release);
    }
}

int main(void)
{
    char path[512];
    test_path(path, sizeof(path), "loss.etl");
    CHECK_EQ(uv_sem_init(&sink_entered, 0), 0);
    CHECK_EQ(uv_sem_init(&sink_release, 0), 0);

    /* The blocker: memory session, 1 ms flush timer, blocking sink. */
    petw_session_config bc;
    petw_session_config_init(&bc);
    bc.name = "petw-test-loss-blocker";
    bc.buffer_size_kb = 4;
    bc.minimum_buffers = bc.maximum_buffers = 4;
    bc.flush_timer_ms = 1;
    bc.log_file_mode = 0;
    bc.sink = blocking_sink;
    petw_session_handle blocker;
    CHECK_EQ(petw_session_start(&bc, &blocker), 0);

    test_props tp;
    test_props_init(&tp, path);
    tp.p.BufferSize = 4;
    tp.p.MinimumBuffers = 3;
    tp.p.MaximumBuffers = 3;
    TRACEHANDLE session;
    CHECK_EQ(test_start_trace(&session, "petw-test-loss", &tp.p), ERROR_SUCCESS);
    petw_session_stats ss;
    CHECK_EQ(petw_session_query(session, &ss), 0);
    int host = ss.host_process_id != (uint32_t)getpid();
#if defined(_WIN32)
    if (host) { /* decided before the flusher is held, which exit would wait for */
        CHECK_EQ(ControlTraceA(session, NULL, &tp.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);
        CHECK_EQ(petw_session_stop(blocker, NULL), 0);
        printf("a session host cannot be held (stopped) here: skipped\n");
        return SKIP_TEST;
    }
#endif

    REGHANDLE lossy, block;
    CHECK_EQ(EventRegister(&LossyProvider, NULL, NULL, &lossy), ERROR_SUCCESS);
    CHECK_EQ(EventRegister(&BlockerProvider, NULL, NULL, &block), ERROR_SUCCESS);
    CHECK_EQ(EnableTraceEx2(session, &LossyProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 0, 0, 0, 0,
                            NULL),
             ERROR_SUCCESS);
    CHECK_EQ(petw_session_enable_provider(blocker, (const petw_guid *)&BlockerProvider, 0, 0, 0),
             0);

    EVENT_DESCRIPTOR d = {1, 0, 0, 4, 0, 0, 0};
    CHECK_EQ(EventWrite(block, &d, 0, NULL), ERROR_SUCCESS);
    uv_sem_wait(&sink_entered); /* the flusher is now held */
#if !defined(_WIN32)
    if (host) /* and the host, when there is one */
        CHECK_EQ(kill((pid_t)ss.host_process_id, SIGSTOP), 0);
#endif

    const uint32_t attempted = 2000;
    uint32_t no_memory = 0, other = 0;
    uint8_t payload[100];
    for (uint32_t i = 0; i < attempted; i++) {
        memcpy(payload, &i, 4);
        EVENT_DATA_DESCRIPTOR dd;
        EventDataDescCreate(&dd, payload, sizeof(payload));
        ULONG st = EventWrite(lossy, &d, 1, &dd);
        if (st == ERROR_NOT_ENOUGH_MEMORY)
            no_memory++;
        else if (st != ERROR_SUCCESS)
            other++;
        if (i == attempted / 2) {
            /* Let the pool drain once, so buffers opened after the loss
             * reach the file with the flag. */
            uv_sem_post(&sink_release);
#if !defined(_WIN32)
            if (host)
                CHECK_EQ(kill((pid_t)ss.host_process_id, SIGCONT), 0);
#endif
            CHECK_EQ(ControlTraceA(session, NULL, &tp.p, EVENT_TRACE_CONTROL_FLUSH), ERROR_SUCCESS);
        }
    }
    CHECK_EQ(other, 0);
    CHECK(no_memory > 0);

    CHECK_EQ(ControlTraceA(session, NULL, &tp.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);
    CHECK_EQ(petw_session_stop(blocker, NULL), 0);
    CHECK_EQ(tp.p.EventsLost, no_memory);

    test_events l;
    petw_logfile_info info;
    CHECK_EQ(test_read(path, 0, &l, &info, NULL), 0);
    size_t delivered = test_count_provider(&l, &LossyProvider);
    CHECK_EQ(delivered + tp.p.EventsLost, attempted);
    CHECK_EQ(info.events_lost, tp.p.EventsLost);
    /* Delivered events are distinct and in order. */
    int64_t last = -1;
    for (size_t i = 0; i < l.count; i++) {
        if (memcmp(&l.ev[i].header.provider_id, &LossyProvider, sizeof(GUID)))
            continue;
        uint32_t seq;
        memcpy(&seq, l.ev[i].data, 4);
        CHECK((int64_t)seq > last);
        last = seq;
    }

    /* Some data buffer carries the EVENTS_LOST flag (BufferFlag bit 0x2). */
    FILE *f = fopen(path, "rb");
    CHECK(f);
    uint8_t hdr[0x48];
    int flagged = 0;
    for (long off = 0; fseek(f, off, SEEK_SET) == 0 && fread(hdr, 1, sizeof(hdr), f) == sizeof(hdr);
         off += 4096)
        flagged += (hdr[0x34] & 0x2) != 0;
    fclose(f);
    CHECK(flagged > 0);
    printf("loss: attempted %u, delivered %zu, lost %lu, flagged buffers %d\n", attempted,
           delivered, (unsigned long)tp.p.EventsLost, flagged);
    test_events_free(&l);
    EventUnregister(lossy);
    EventUnregister(block);
    unlink(path);
    return 0;
}
