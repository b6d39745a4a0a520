/* SPDX-License-Identifier: MIT */
/* Real Windows .etl files, through OpenTrace/ProcessTrace, with the counts
 * the samples' README gives. Skips (77) when the samples are absent. */
#include <sys/stat.h>

#include "test_util.h"

typedef struct counts {
    ULONG total, system, event_header, classic, by_provider;
    GUID provider;
    ULONG with_activity;
    LONGLONG last_ts;
    int ordered;
} counts;

static void WINAPI on_event(PEVENT_RECORD r)
{
    counts *c = r->UserContext;
    c->total++;
    if (r->EventHeader.Flags & EVENT_HEADER_FLAG_CLASSIC_HEADER) {
        if (memcmp(&r->EventHeader.ProviderId, &EventTraceGuid, sizeof(GUID)) == 0)
            c->system++;
        else
            c->classic++;
    } else {
        c->event_header++;
        if (memcmp(&r->EventHeader.ProviderId, &c->provider, sizeof(GUID)) == 0)
            c->by_provider++;
        GUID zero = {0};
        if (memcmp(&r->EventHeader.ActivityId, &zero, sizeof(GUID)))
            c->with_activity++;
        if (r->EventHeader.TimeStamp.QuadPart < c->last_ts)
            c->ordered = 0;
        c->last_ts = r->EventHeader.TimeStamp.QuadPart;
    }
}

static int run(const char *dir, const char *file, counts *c, TRACE_LOGFILE_HEADER *hdr)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", dir, file);
    EVENT_TRACE_LOGFILEA lf;
    memset(&lf, 0, sizeof(lf));
    lf.LogFileName = path;
    lf.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
    lf.EventRecordCallback = on_event;
    lf.Context = c;
    c->ordered = 1;
    TRACEHANDLE h = OpenTraceA(&lf);
    CHECK(h != INVALID_PROCESSTRACE_HANDLE);
    *hdr = lf.LogfileHeader;
    CHECK_EQ(ProcessTrace(&h, 1, NULL, NULL), ERROR_SUCCESS);
    CHECK_EQ(CloseTrace(h), ERROR_SUCCESS);
    return 0;
}

int main(void)
{
    const char *dir = getenv("PETW_ETL_SAMPLES");
    struct stat st;
    if (!dir || stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        printf("etl samples not found; skipping\n");
        return SKIP_TEST;
    }
    TRACE_LOGFILE_HEADER h;

    counts p = {0};
    DEFINE_GUID(solar, 0xd3dd3dd4, 0xaac2, 0x4e2a, 0x8d, 0xd4, 0xa8, 0xfb, 0x61, 0xb7, 0x76, 0x15);
    p.provider = solar;
    run(dir, "primitive-types.etl", &p, &h);
    CHECK_EQ(p.total, 7);
    CHECK_EQ(p.system, 2);
    CHECK_EQ(p.event_header, 5);
    CHECK_EQ(p.by_provider, 5);
    CHECK(p.ordered);
    CHECK_EQ(h.BufferSize, 8192);
    CHECK_EQ(h.NumberOfProcessors, 8);
    CHECK_EQ(h.BuffersWritten, 2);
    CHECK_EQ(h.PointerSize, 8);
    CHECK_EQ(h.EventsLost, 0);
    CHECK_EQ(h.PerfFreq.QuadPart, 10000000);
    CHECK(wcscmp(h.LoggerName, L"solar_system") == 0);

    counts w = {0};
    DEFINE_GUID(pwsh, 0xa0c1853b, 0x5c40, 0x4b15, 0x87, 0x66, 0x3c, 0xf1, 0xc5, 0x8f, 0x98, 0x5a);
    w.provider = pwsh;
    run(dir, "powershell.etl", &w, &h);
    CHECK_EQ(w.event_header, 112);
    CHECK_EQ(w.by_provider, 112);
    CHECK(w.with_activity > 0);
    CHECK(w.ordered);
    CHECK_EQ(h.BuffersWritten, 26);
    CHECK_EQ(h.NumberOfProcessors, 32);
    CHECK_EQ(h.LogFileMode, 0x9);
    CHECK(wcscmp(h.LoggerName, L"usermode_trace") == 0);

    /* Relogged and XPRESS-compressed: 1 TraceLogging event, 18 classic
     * EVENT_TRACE_HEADER records, 4 system-header records. */
    counts x = {0};
    DEFINE_GUID(mysource, 0xa61ea624, 0x4944, 0x55fc, 0xc2, 0xa8, 0x37, 0x83, 0x88, 0x29, 0x43,
                0x8d);
    x.provider = mysource;
    run(dir, "SelfDescribingSingleEvent.etl", &x, &h);
    CHECK_EQ(x.total, 23);
    CHECK_EQ(x.system, 4);
    CHECK_EQ(x.classic, 18);
    CHECK_EQ(x.event_header, 1);
    CHECK_EQ(x.by_provider, 1);
    CHECK_EQ(h.LogFileMode, 0x4010001);
    CHECK_EQ(h.NumberOfProcessors, 12);
    CHECK(wcscmp(h.LoggerName, L"Relogger") == 0);

    printf("etl_samples: primitive-types %lu records, powershell %lu records (%lu with activity), "
           "SelfDescribingSingleEvent %lu records\n",
           (unsigned long)p.total, (unsigned long)w.total, (unsigned long)w.with_activity,
           (unsigned long)x.total);
    return 0;
}
