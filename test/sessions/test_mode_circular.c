/* SPDX-License-Identifier: MIT */
/* EVENT_TRACE_FILE_MODE_CIRCULAR with MaximumFileSize in KB: the file never
 * exceeds the cap, the oldest buffers are overwritten, and a reader gets
 * the newest events, in order, up to the last one written. */
#include "test_util.h"

DEFINE_GUID(CircProvider, 0xc14cc14c, 1, 2, 3, 4, 0, 0, 0, 0, 0, 1);

int main(void)
{
    char path[512];
    test_path(path, sizeof(path), "circular.etl");
    test_pin_to_one_cpu();
    test_props tp;
    test_props_init(&tp, path);
    tp.p.LogFileMode = EVENT_TRACE_FILE_MODE_CIRCULAR | EVENT_TRACE_USE_KBYTES_FOR_SIZE;
    tp.p.MaximumFileSize = 64; /* KB: the header buffer + 15 data buffers of 4 KB */
    tp.p.BufferSize = 4;
    tp.p.MinimumBuffers = tp.p.MaximumBuffers = 8;
    TRACEHANDLE s;
    REGHANDLE reg;
    CHECK_EQ(test_start_trace(&s, "petw-test-circular", &tp.p), ERROR_SUCCESS);
    CHECK_EQ(EventRegister(&CircProvider, NULL, NULL, &reg), ERROR_SUCCESS);
    CHECK_EQ(EnableTraceEx2(s, &CircProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 0, 0, 0, 0, NULL),
             ERROR_SUCCESS);
    const uint32_t total = 3000; /* ~35 buffers of ~21 events: wraps twice */
    uint32_t failures = 0;
    for (uint32_t i = 0; i < total; i += 100) {
        failures += test_write_seq(reg, i, 100, 100);
        CHECK_EQ(ControlTraceA(s, NULL, &tp.p, EVENT_TRACE_CONTROL_FLUSH), ERROR_SUCCESS);
        CHECK(test_file_size(path) <= 64 * 1024);
    }
    CHECK_EQ(failures, 0);
    CHECK_EQ(ControlTraceA(s, NULL, &tp.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);
    CHECK(tp.p.BuffersWritten > 16); /* buffers sent, over the file's slots */
    CHECK_EQ(tp.p.EventsLost, 0);
    CHECK_EQ(tp.p.MaximumFileSize, 64);
    CHECK(test_file_size(path) <= 64 * 1024);

    test_events l;
    petw_logfile_info info;
    petw_trace_stats st;
    CHECK_EQ(test_read(path, 0, &l, &info, &st), 0);
    CHECK(info.log_file_mode & EVENT_TRACE_FILE_MODE_CIRCULAR);
    CHECK_EQ(info.buffers_written, 16);
    CHECK_EQ(st.buffers_read, 16);
    CHECK_EQ(st.buffers_corrupt, 0);
    /* The newest events, contiguous, in order, ending with the last one. */
    CHECK(l.count > 1 + 10 * 20);
    uint32_t first = test_seq(&l.ev[1]);
    for (size_t i = 1; i < l.count; i++)
        CHECK_EQ(test_seq(&l.ev[i]), first + (i - 1));
    CHECK_EQ(test_seq(&l.ev[l.count - 1]), total - 1);
    CHECK(first > 0); /* the oldest were overwritten */
    printf("mode_circular: %zu newest events kept of %u, file %lld bytes\n", l.count - 1, total,
           test_file_size(path));
    test_events_free(&l);
    EventUnregister(reg);
    unlink(path);
    return 0;
}
