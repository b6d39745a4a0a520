/* SPDX-License-Identifier: MIT */
/* Non-ASCII logger and file names survive the W API, the file (stored as
 * UTF-16LE, with a surrogate pair for U+1F680) and the consumer, in both the
 * native UTF-8 view and the ETW wide-string view. */
#include "test_util.h"

int main(void)
{
    char path[512];
    test_path(path, sizeof(path), "n\xc3\xa4me-\xf0\x9f\x9a\x80.etl"); /* "näme-🚀.etl" */
    const wchar_t *logger = L"petw-test-\u00e9t\u00e9-\U0001F680";
    test_props_w tp;
    test_props_w_init(&tp, NULL);
    tp.p.LogFileMode = EVENT_TRACE_FILE_MODE_SEQUENTIAL;
    tp.p.LogFileNameOffset = offsetof(test_props_w, file);
    /* mbstowcs depends on the locale: build the wide path by hand. */
    size_t n = 0;
    for (const unsigned char *s = (const unsigned char *)path; *s; n++) {
        uint32_t cp = *s;
        int len = cp < 0x80 ? 1 : cp < 0xE0 ? 2 : cp < 0xF0 ? 3 : 4;
        cp = len == 1 ? cp : len == 2 ? cp & 0x1F : len == 3 ? cp & 0x0F : cp & 0x07;
        for (int k = 1; k < len; k++)
            cp = (cp << 6) | (s[k] & 0x3F);
        tp.file[n] = (wchar_t)cp;
        s += len;
    }
    tp.file[n] = 0;
    TRACEHANDLE h;
    CHECK_EQ(StartTraceW(&h, logger, &tp.p), ERROR_SUCCESS);
    CHECK(wcscmp(tp.logger, logger) == 0);
    test_props_w q;
    test_props_w_init(&q, NULL);
    CHECK_EQ(QueryTraceW(0, logger, &q.p), ERROR_SUCCESS);
    CHECK(q.p.Wnode.HistoricalContext == h);
    CHECK_EQ(StopTraceW(h, NULL, &tp.p), ERROR_SUCCESS);

    test_events l;
    petw_logfile_info info;
    CHECK_EQ(test_read(path, 0, &l, &info, NULL), 0);
    CHECK(strcmp(info.logger_name, "petw-test-\xc3\xa9t\xc3\xa9-\xf0\x9f\x9a\x80") == 0);
    CHECK(strcmp(info.log_file_name, path) == 0);
    test_events_free(&l);

    /* The raw header stores UTF-16LE with a surrogate pair. */
    FILE *f = fopen(path, "rb");
    CHECK(f);
    uint8_t buf[4096];
    CHECK(fread(buf, 1, sizeof(buf), f) == sizeof(buf));
    fclose(f);
    const uint8_t want[] = {0x3D, 0xD8, 0x80, 0xDE, 0, 0}; /* D83D DE80 NUL */
    int found = 0;
    for (size_t i = 0x180; i + sizeof(want) < sizeof(buf) && !found; i += 2)
        found = memcmp(buf + i, want, sizeof(want)) == 0;
    CHECK(found);

    EVENT_TRACE_LOGFILEW lf;
    memset(&lf, 0, sizeof(lf));
    lf.LogFileName = tp.file;
    lf.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
    TRACEHANDLE c = OpenTraceW(&lf);
    CHECK(c != INVALID_PROCESSTRACE_HANDLE);
    CHECK(wcscmp(lf.LogfileHeader.LoggerName, logger) == 0);
    CHECK(wcscmp(lf.LogfileHeader.LogFileName, tp.file) == 0);
    CloseTrace(c);
    unlink(path);
    printf("names: ok\n");
    return 0;
}
