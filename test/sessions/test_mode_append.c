/* SPDX-License-Identifier: MIT */
/* EVENT_TRACE_FILE_MODE_APPEND (with SEQUENTIAL): a second session
 * continues an existing file; the file reads back as one trace with every
 * event of both in order. An incompatible file is refused; a missing one is
 * created. EVENT_TRACE_FILE_MODE_PREALLOCATE reserves the cap while logging
 * and gives the unused part back at stop. */
#include <sys/stat.h>

#include "test_util.h"

DEFINE_GUID(AppendProvider, 0xa99ea99e, 1, 2, 3, 4, 0, 0, 0, 0, 0, 1);

static ULONG record(const char *path, const char *name, ULONG mode, ULONG kb, uint32_t first,
                    uint32_t count, REGHANDLE reg, test_props *tp)
{
    test_props_init(tp, path);
    tp->p.LogFileMode = mode;
    tp->p.BufferSize = kb;
    tp->p.MaximumFileSize = 1; /* MB: only PREALLOCATE uses it here */
    TRACEHANDLE s;
    ULONG st = test_start_trace(&s, name, &tp->p);
    if (st != ERROR_SUCCESS)
        return st;
    EnableTraceEx2(s, &AppendProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 0, 0, 0, 0, NULL);
    CHECK_EQ(test_write_seq(reg, first, count, 40), 0);
    if (mode & EVENT_TRACE_FILE_MODE_PREALLOCATE) {
        CHECK_EQ(ControlTraceA(s, NULL, &tp->p, EVENT_TRACE_CONTROL_FLUSH), ERROR_SUCCESS);
        CHECK_EQ(test_file_size(path), 1024 * 1024); /* the whole cap, while logging */
        test_events live;
        petw_trace_stats lst;
        CHECK_EQ(test_read(path, 0, &live, NULL, &lst), 0); /* readable meanwhile */
        CHECK_EQ(lst.buffers_corrupt, 0);
        CHECK_EQ(live.count, 1 + count);
        test_events_free(&live);
    }
    return ControlTraceA(s, NULL, &tp->p, EVENT_TRACE_CONTROL_STOP);
}

int main(void)
{
    char path[512];
    test_path(path, sizeof(path), "append.etl");
    test_pin_to_one_cpu();
    REGHANDLE reg;
    CHECK_EQ(EventRegister(&AppendProvider, NULL, NULL, &reg), ERROR_SUCCESS);
    test_props tp;
    unlink(path);
    const ULONG seq_append = EVENT_TRACE_FILE_MODE_SEQUENTIAL | EVENT_TRACE_FILE_MODE_APPEND;
    /* A missing file is created. */
    CHECK_EQ(record(path, "petw-test-append-1", seq_append, 4, 0, 500, reg, &tp), ERROR_SUCCESS);
    ULONG first_buffers = tp.p.BuffersWritten;
    CHECK_EQ(record(path, "petw-test-append-2", seq_append, 4, 500, 700, reg, &tp), ERROR_SUCCESS);
    test_events l;
    petw_logfile_info info;
    petw_trace_stats st;
    CHECK_EQ(test_read(path, 0, &l, &info, &st), 0);
    CHECK_EQ(l.count, 1 + 1200);
    for (size_t i = 1; i < l.count; i++)
        CHECK_EQ(test_seq(&l.ev[i]), i - 1);
    CHECK_EQ(info.buffers_written, st.buffers_read);
    CHECK(info.buffers_written > first_buffers);
    test_events_free(&l);
    /* Different buffer size: refused, file untouched. */
    long long before = test_file_size(path);
    CHECK_EQ(record(path, "petw-test-append-3", seq_append, 8, 0, 1, reg, &tp),
             ERROR_INVALID_PARAMETER);
    CHECK_EQ(test_file_size(path), before);
    /* APPEND needs SEQUENTIAL. */
    CHECK_EQ(record(path, "petw-test-append-4",
                    EVENT_TRACE_FILE_MODE_CIRCULAR | EVENT_TRACE_FILE_MODE_APPEND, 4, 0, 1, reg,
                    &tp),
             ERROR_INVALID_PARAMETER);
    unlink(path);

    /* PREALLOCATE: 1 MB while logging (checked inside), trimmed at stop. */
    CHECK_EQ(record(path, "petw-test-prealloc",
                    EVENT_TRACE_FILE_MODE_SEQUENTIAL | EVENT_TRACE_FILE_MODE_PREALLOCATE, 4, 0, 300,
                    reg, &tp),
             ERROR_SUCCESS);
    CHECK_EQ(test_file_size(path), (long long)tp.p.BuffersWritten * 4096);
    CHECK_EQ(test_read(path, 0, &l, NULL, &st), 0);
    CHECK_EQ(l.count, 301);
    CHECK_EQ(st.bytes_truncated, 0);
    test_events_free(&l);
    unlink(path);
    EventUnregister(reg);
    printf("mode_append: append and preallocate ok\n");
    return 0;
}
