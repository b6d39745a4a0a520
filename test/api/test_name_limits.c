/* SPDX-License-Identifier: MIT */
/* Names and paths over PETW_MAX_NAME (1023 UTF-8 bytes) are refused with
 * ERROR_BAD_PATHNAME (PETW_ENAMETOOLONG), never cut: a 1,100-character
 * log-file path used to become a file with a truncated name. */
#include "test_util.h"

typedef struct long_props {
    EVENT_TRACE_PROPERTIES p;
    char logger[256];
    char file[2048];
} long_props;

static void props_with_file(long_props *lp, const char *dir, size_t length)
{
    memset(lp, 0, sizeof(*lp));
    lp->p.Wnode.BufferSize = sizeof(*lp);
    lp->p.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
    lp->p.Wnode.ClientContext = 1;
    lp->p.LoggerNameOffset = offsetof(long_props, logger);
    lp->p.LogFileMode = EVENT_TRACE_FILE_MODE_SEQUENTIAL;
    lp->p.LogFileNameOffset = offsetof(long_props, file);
    size_t n = 0;
    for (; dir[n]; n++)
        lp->file[n] = dir[n];
    lp->file[n++] = '/';
    while (n < length)
        lp->file[n++] = 'a';
    lp->file[n] = 0;
}

int main(void)
{
    static long_props lp;
    TRACEHANDLE h = 0;

    /* 1,100 characters: refused, and nothing is created in `dir`. */
    props_with_file(&lp, test_tmpdir(), 1100);
    CHECK_EQ(StartTraceA(&h, "petw-test-long-path", &lp.p), ERROR_BAD_PATHNAME);
    CHECK_EQ(h, 0);
    /* The same through the native API. */
    char path[1200];
    memset(path, 'b', sizeof(path) - 1);
    path[sizeof(path) - 1] = 0;
    petw_session_config c;
    petw_session_config_init(&c);
    c.name = "petw-test-long-path";
    c.file_path = path;
    petw_session_handle sh;
    CHECK_EQ(petw_session_start(&c, &sh), PETW_ENAMETOOLONG);
    CHECK_EQ(petw_error_to_win32(PETW_ENAMETOOLONG), ERROR_BAD_PATHNAME);
    /* A logger name that long. */
    c.file_path = NULL;
    c.name = path;
    CHECK_EQ(petw_session_start(&c, &sh), PETW_ENAMETOOLONG);
    /* NEWFILE: the pattern needs room for its number. */
    char pattern[1024];
    memset(pattern, 'c', sizeof(pattern));
    memcpy(pattern + 1015 - 7, "-%d.etl", 8);
    c.name = "petw-test-newfile-pattern";
    c.file_path = pattern;
    c.log_file_mode = PETW_MODE_NEWFILE;
    c.maximum_file_size_kb = 1024;
    CHECK_EQ(petw_session_start(&c, &sh), PETW_ENAMETOOLONG);

    /* Wide names that do not fit: refused, not cut (a cut name could match
     * another session). */
    static WCHAR wide[1500];
    for (int i = 0; i < 1499; i++)
        wide[i] = 'n';
    test_props_w tp;
    test_props_w_init(&tp, NULL);
    CHECK_EQ(StartTraceW(&h, wide, &tp.p), ERROR_BAD_PATHNAME);
    CHECK_EQ(ControlTraceW(0, wide, &tp.p, EVENT_TRACE_CONTROL_QUERY), ERROR_BAD_PATHNAME);
    EVENT_TRACE_LOGFILEW lf;
    memset(&lf, 0, sizeof(lf));
    lf.LogFileName = wide;
    lf.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
    CHECK(OpenTraceW(&lf) == INVALID_PROCESSTRACE_HANDLE);
    CHECK_EQ(GetLastError(), ERROR_BAD_PATHNAME);

    /* Just under the limit still works: a 1,023-byte logger name. */
    char longest[PETW_MAX_NAME];
    memset(longest, 'd', sizeof(longest) - 1);
    longest[sizeof(longest) - 1] = 0;
    petw_session_config_init(&c);
    c.name = longest;
    c.log_file_mode = 0; /* no file: a memory session */
    CHECK_EQ(petw_session_start(&c, &sh), 0);
    petw_session_handle found;
    CHECK_EQ(petw_session_find(longest, &found), 0);
    CHECK_EQ(petw_session_stop(sh, NULL), 0);
    printf("name limits: refused over %d bytes\n", PETW_MAX_NAME - 1);
    return 0;
}
