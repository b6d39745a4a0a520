/* SPDX-License-Identifier: MIT */
/* The A controller and consumer functions take and give their names in the
 * ANSI code page, as on Windows: StartTraceA's session name is a char
 * string, and so are the names at LoggerNameOffset and LogFileNameOffset
 * in EVENT_TRACE_PROPERTIES and EVENT_TRACE_LOGFILEA's LogFileName. They
 * used to be read and written as WCHAR strings, so a program that put a
 * char file name there recorded to a garbled path. On Linux the ANSI code
 * page is UTF-8: the names below (with an "é") reach the disk byte for
 * byte. */
#include "test_util.h"

DEFINE_GUID(AnsiProvider, 0xa2517c01, 0x5d0e, 0x4b7a, 0x9c, 0x3e, 0x61, 0x0a, 0x4f, 0x52, 0x8e,
            0x11);

static ULONG opened_events;
static void WINAPI on_event(PEVENT_RECORD r)
{
    if (IsEqualGUID(&r->EventHeader.ProviderId, &AnsiProvider))
        opened_events++;
}

/* This provider's events in the file at the char path `path`, read with
 * OpenTraceA; the LogfileHeader names the session. */
static ULONG our_events(const char *path, const wchar_t *wide_name)
{
    EVENT_TRACE_LOGFILEA lf;
    memset(&lf, 0, sizeof(lf));
    lf.LogFileName = (LPSTR)path;
    lf.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
    lf.EventRecordCallback = on_event;
    TRACEHANDLE c = OpenTraceA(&lf);
    CHECK(c != INVALID_PROCESSTRACE_HANDLE);
    CHECK(wcsncmp(lf.LogfileHeader.LoggerName, L"petw-test-ansi-", 15) == 0);
    if (wide_name)
        CHECK(wcscmp(lf.LogfileHeader.LoggerName, wide_name) == 0);
    opened_events = 0;
    CHECK_EQ(ProcessTrace(&c, 1, NULL, NULL), ERROR_SUCCESS);
    CHECK_EQ(CloseTrace(c), ERROR_SUCCESS);
    return opened_events;
}

/* The session among QueryAllTracesA's, by its char name. */
static const test_props *find_listed(const char *name)
{
    static test_props all[MAXLOGGERS];
    PEVENT_TRACE_PROPERTIES array[MAXLOGGERS];
    for (int i = 0; i < MAXLOGGERS; i++) {
        test_props_init(&all[i], "x"); /* room for a file name too */
        array[i] = &all[i].p;
    }
    ULONG count = 0;
    CHECK_EQ(QueryAllTracesA(array, MAXLOGGERS, &count), ERROR_SUCCESS);
    for (ULONG i = 0; i < count; i++)
        if (strcmp(all[i].logger, name) == 0)
            return &all[i];
    return NULL;
}

int main(void)
{
    char name[128], path[512], path2[512];
    snprintf(name, sizeof(name), "petw-test-ansi-\xc3\xa9t\xc3\xa9-%d", (int)getpid());
    test_path(path, sizeof(path), "ansi-\xc3\xa9t\xc3\xa9-1.etl");
    test_path(path2, sizeof(path2), "ansi-\xc3\xa9t\xc3\xa9-2.etl");
    remove(path);
    remove(path2);

    /* StartTraceA copies the char name to LoggerNameOffset. */
    test_props tp;
    test_props_init(&tp, path);
    TRACEHANDLE s = 0;
    CHECK_EQ(StartTraceA(&s, name, &tp.p), ERROR_SUCCESS);
    CHECK(s != 0);
    CHECK(strcmp(tp.logger, name) == 0);
    CHECK(strcmp(tp.file, path) == 0);
    CHECK(test_file_size(path) >= 0); /* the file is at the char path given */

    /* Queries, by handle and by char name, write char names back. */
    test_props q;
    test_props_init(&q, "x");
    CHECK_EQ(ControlTraceA(s, NULL, &q.p, EVENT_TRACE_CONTROL_QUERY), ERROR_SUCCESS);
    CHECK(strcmp(q.logger, name) == 0);
    CHECK(strcmp(q.file, path) == 0);
    test_props_init(&q, "x");
    CHECK_EQ(QueryTraceA(0, name, &q.p), ERROR_SUCCESS);
    CHECK(q.p.Wnode.HistoricalContext == s);
    CHECK(strcmp(q.logger, name) == 0);
    CHECK(strcmp(q.file, path) == 0);
    const test_props *listed = find_listed(name);
    CHECK(listed != NULL);
    CHECK(listed->p.Wnode.HistoricalContext == s);
    CHECK(strcmp(listed->file, path) == 0);
    /* The W functions see the same session with WCHAR names. */
    test_props_w qw;
    test_props_w_init(&qw, NULL);
    CHECK_EQ(ControlTraceW(s, NULL, &qw.p, EVENT_TRACE_CONTROL_QUERY), ERROR_SUCCESS);
    CHECK(wcsncmp(qw.logger, L"petw-test-ansi-", 15) == 0);
#if !defined(_WIN32)
    wchar_t wide_name[128];
    swprintf(wide_name, 128, L"petw-test-ansi-\u00e9t\u00e9-%d", (int)getpid());
    CHECK(wcscmp(qw.logger, wide_name) == 0);
#endif

    /* A name that fits the properties as chars (and not as WCHARs) is
     * enough room: the A functions count it in chars. */
    struct {
        EVENT_TRACE_PROPERTIES p;
        char logger[64];
    } tight;
    char tight_name[64];
    snprintf(tight_name, sizeof(tight_name), "petw-test-ansi-tight-%d", (int)getpid());
    memset(&tight, 0, sizeof(tight));
    tight.p.Wnode.BufferSize = (ULONG)(sizeof(EVENT_TRACE_PROPERTIES) + strlen(tight_name) + 1);
    tight.p.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
    tight.p.Wnode.ClientContext = 1;
    tight.p.LoggerNameOffset = sizeof(EVENT_TRACE_PROPERTIES);
    TRACEHANDLE t = 0;
    CHECK_EQ(StartTraceA(&t, tight_name, &tight.p), ERROR_SUCCESS);
    CHECK(strcmp(tight.logger, tight_name) == 0);
    CHECK_EQ(StopTraceA(t, NULL, &tight.p), ERROR_SUCCESS);

    /* Events into the first file, then UpdateTraceA to a second char path. */
    REGHANDLE reg;
    CHECK_EQ(EventRegister(&AnsiProvider, NULL, NULL, &reg), ERROR_SUCCESS);
    CHECK_EQ(EnableTraceEx2(s, &AnsiProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 0, 0, 0, 0, NULL),
             ERROR_SUCCESS);
    CHECK_EQ(test_write_seq(reg, 0, 7, 4), 0);
    CHECK_EQ(FlushTraceA(s, NULL, &tp.p), ERROR_SUCCESS);
    test_props up;
    test_props_init(&up, path2);
    CHECK_EQ(UpdateTraceA(s, NULL, &up.p), ERROR_SUCCESS);
    CHECK(strcmp(up.logger, name) == 0);
    CHECK(strcmp(up.file, path2) == 0);
    CHECK_EQ(test_write_seq(reg, 7, 5, 4), 0);
    /* Stopped by its char name. */
    test_props_init(&q, "x");
    CHECK_EQ(StopTraceA(0, name, &q.p), ERROR_SUCCESS);
    CHECK(strcmp(q.logger, name) == 0);
    CHECK(strcmp(q.file, path2) == 0);
    CHECK_EQ(EventUnregister(reg), ERROR_SUCCESS);
    CHECK(find_listed(name) == NULL);

    /* Both files are where the char names say, with every event, and
     * OpenTraceA finds them by those names. */
    const wchar_t *expect_wide = NULL;
#if !defined(_WIN32)
    expect_wide = wide_name;
    /* The native view is UTF-8, which is what these ANSI names are here. */
    const char *paths[2] = {path, path2};
    for (int i = 0; i < 2; i++) {
        test_events l;
        petw_logfile_info info;
        CHECK_EQ(test_read(paths[i], 0, &l, &info, NULL), 0);
        CHECK(strcmp(info.logger_name, name) == 0);
        CHECK(strcmp(info.log_file_name, paths[i]) == 0);
        CHECK_EQ(test_count_provider(&l, &AnsiProvider), i == 0 ? 7 : 5);
        test_events_free(&l);
    }
#endif
    CHECK_EQ(our_events(path, expect_wide), 7);
    CHECK_EQ(our_events(path2, expect_wide), 5);

    remove(path);
    remove(path2);
    printf("ansi controller: ok\n");
    return 0;
}
