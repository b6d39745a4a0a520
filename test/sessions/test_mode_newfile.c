/* SPDX-License-Identifier: MIT */
/* EVENT_TRACE_FILE_MODE_NEWFILE: a new file at each cap, named from the %d
 * pattern (1, 2, 3, ...); each file is a complete trace on its own; together
 * they hold every event exactly once, in order. Bad patterns and caps are
 * refused. */
#include "test_util.h"

DEFINE_GUID(NewFileProvider, 0x4e3f4e3f, 1, 2, 3, 4, 0, 0, 0, 0, 0, 1);

int main(void)
{
    char pattern[512];
    test_path(pattern, sizeof(pattern), "newfile-%d.etl");
    test_pin_to_one_cpu();
    test_props tp;
    test_props_init(&tp, pattern);
    tp.p.LogFileMode = EVENT_TRACE_FILE_MODE_NEWFILE | EVENT_TRACE_USE_KBYTES_FOR_SIZE;
    tp.p.MaximumFileSize = 32; /* header + 7 data buffers of 4 KB per file */
    tp.p.BufferSize = 4;
    tp.p.MinimumBuffers = tp.p.MaximumBuffers = 16;
    TRACEHANDLE s;
    REGHANDLE reg;
    CHECK_EQ(test_start_trace(&s, "petw-test-newfile", &tp.p), ERROR_SUCCESS);
    CHECK_EQ(EventRegister(&NewFileProvider, NULL, NULL, &reg), ERROR_SUCCESS);
    CHECK_EQ(
        EnableTraceEx2(s, &NewFileProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 0, 0, 0, 0, NULL),
        ERROR_SUCCESS);
    const uint32_t total = 2500;
    for (uint32_t i = 0; i < total; i += 100) {
        CHECK_EQ(test_write_seq(reg, i, 100, 100), 0);
        CHECK_EQ(ControlTraceA(s, NULL, &tp.p, EVENT_TRACE_CONTROL_FLUSH), ERROR_SUCCESS);
    }
    CHECK_EQ(ControlTraceA(s, NULL, &tp.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);
    CHECK_EQ(tp.p.EventsLost, 0);

    uint32_t next = 0, files = 0;
    for (int n = 1; n < 100; n++) {
        char path[600];
        snprintf(path, sizeof(path), pattern, n);
        if (test_file_size(path) < 0)
            break;
        CHECK(test_file_size(path) <= 32 * 1024);
        test_events l;
        petw_logfile_info info;
        petw_trace_stats st;
        CHECK_EQ(test_read(path, 0, &l, &info, &st), 0);
        CHECK_EQ(info.buffers_written, st.buffers_read);
        CHECK(strcmp(info.log_file_name, path) == 0);
        CHECK(l.count > 1);
        for (size_t i = 1; i < l.count; i++)
            CHECK_EQ(test_seq(&l.ev[i]), next++);
        test_events_free(&l);
        unlink(path);
        files++;
    }
    CHECK_EQ(next, total);
    CHECK(files >= 5);
    printf("mode_newfile: %u events in %u files\n", total, files);

    /* Refused: no %d, two %d, another conversion, a cap under two buffers. */
    static const char *bad[] = {"x.etl", "x-%d-%d.etl", "x-%s.etl"};
    for (int i = 0; i < 3; i++) {
        test_props_init(&tp, bad[i]);
        tp.p.LogFileMode = EVENT_TRACE_FILE_MODE_NEWFILE;
        tp.p.MaximumFileSize = 1;
        CHECK_EQ(test_start_trace(&s, "petw-test-newfile-bad", &tp.p), ERROR_INVALID_PARAMETER);
    }
    test_props_init(&tp, pattern);
    tp.p.LogFileMode = EVENT_TRACE_FILE_MODE_NEWFILE | EVENT_TRACE_USE_KBYTES_FOR_SIZE;
    tp.p.BufferSize = 64;
    tp.p.MaximumFileSize = 100; /* < two 64 KB buffers */
    CHECK_EQ(test_start_trace(&s, "petw-test-newfile-bad", &tp.p), ERROR_INVALID_PARAMETER);
    tp.p.LogFileMode = EVENT_TRACE_FILE_MODE_CIRCULAR | EVENT_TRACE_USE_KBYTES_FOR_SIZE;
    CHECK_EQ(test_start_trace(&s, "petw-test-newfile-bad", &tp.p), ERROR_INVALID_PARAMETER);
    tp.p.MaximumFileSize = 0;
    CHECK_EQ(test_start_trace(&s, "petw-test-newfile-bad", &tp.p), ERROR_INVALID_PARAMETER);
    EventUnregister(reg);
    return 0;
}
