/* SPDX-License-Identifier: MIT */
/* The consumer API beyond one file: ProcessTrace merges several files in
 * timestamp order, BufferCallback runs per buffer and can stop processing
 * (ERROR_CANCELLED), StartTime/EndTime bound what is delivered (the header
 * records always come), and LogfileHeader is filled at OpenTrace. */
#include "test_util.h"

DEFINE_GUID(MergeProvider, 0x3e3e3e3e, 0x1, 0x2, 0x3, 0x4, 0, 0, 0, 0, 0, 0x1);

typedef struct seen {
    LONGLONG ts[4096];
    ULONG file_of[4096];
    ULONG count, headers, buffers, stop_after;
    ULONG buffers_read[2]; /* BuffersRead of each file's structure, as callbacks saw it */
} seen;

static void WINAPI on_event(PEVENT_RECORD r)
{
    seen *s = r->UserContext;
    if (r->EventHeader.Flags & EVENT_HEADER_FLAG_CLASSIC_HEADER) {
        s->headers++;
        return;
    }
    ULONG v[2];
    CHECK_EQ(r->UserDataLength, 8);
    memcpy(v, r->UserData, 8);
    s->ts[s->count] = r->EventHeader.TimeStamp.QuadPart;
    s->file_of[s->count] = v[0];
    s->count++;
}

static ULONG WINAPI on_buffer(PEVENT_TRACE_LOGFILEA lf)
{
    seen *s = lf->Context;
    s->buffers++;
    CHECK(lf->BuffersRead >= 1);
    /* The structure is petw's copy (ETW's too): the caller's own is not
     * written during ProcessTrace (it may be gone by then). */
    int file = strstr(lf->LogFileName, "merge1") != NULL;
    s->buffers_read[file] = lf->BuffersRead;
    return !(s->stop_after && s->buffers >= s->stop_after);
}

static TRACEHANDLE open_file(const char *path, seen *s, EVENT_TRACE_LOGFILEA *lf)
{
    memset(lf, 0, sizeof(*lf));
    lf->LogFileName = (LPSTR)path;
    lf->ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
    lf->EventRecordCallback = on_event;
    lf->BufferCallback = on_buffer;
    lf->Context = s;
    TRACEHANDLE h = OpenTraceA(lf);
    CHECK(h != INVALID_PROCESSTRACE_HANDLE);
    return h;
}

int main(void)
{
    char path[2][512];
    test_props tp[2];
    TRACEHANDLE s[2];
    REGHANDLE reg;
    CHECK_EQ(EventRegister(&MergeProvider, NULL, NULL, &reg), ERROR_SUCCESS);
    /* Two sessions, alternately enabled: events interleave across files. */
    for (int i = 0; i < 2; i++) {
        char name[64];
        snprintf(name, sizeof(name), "merge%d.etl", i);
        test_path(path[i], sizeof(path[i]), name);
        test_props_init(&tp[i], path[i]);
        tp[i].p.BufferSize = 4;
        snprintf(name, sizeof(name), "petw-test-merge-%d", i);
        CHECK_EQ(test_start_trace(&s[i], name, &tp[i].p), ERROR_SUCCESS);
    }
    const ULONG per_phase = 50, phases = 8;
    EVENT_DESCRIPTOR d = {1, 0, 0, 4, 0, 0, 0};
    for (ULONG p = 0; p < phases; p++) {
        ULONG f = p % 2;
        CHECK_EQ(EnableTraceEx2(s[f], &MergeProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 0, 0, 0,
                                0, NULL),
                 ERROR_SUCCESS);
        for (ULONG i = 0; i < per_phase; i++) {
            ULONG v[2] = {f, p * per_phase + i};
            EVENT_DATA_DESCRIPTOR dd;
            EventDataDescCreate(&dd, v, sizeof(v));
            CHECK_EQ(EventWrite(reg, &d, 1, &dd), ERROR_SUCCESS);
        }
        CHECK_EQ(EnableTraceEx2(s[f], &MergeProvider, EVENT_CONTROL_CODE_DISABLE_PROVIDER, 0, 0, 0,
                                0, NULL),
                 ERROR_SUCCESS);
    }
    for (int i = 0; i < 2; i++)
        CHECK_EQ(ControlTraceA(s[i], NULL, &tp[i].p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);

    /* Both files at once: every event, merged in time order, alternating in
     * runs of per_phase. */
    static seen all;
    EVENT_TRACE_LOGFILEA lf[2];
    TRACEHANDLE h[2] = {open_file(path[0], &all, &lf[0]), open_file(path[1], &all, &lf[1])};
    CHECK_EQ(lf[0].LogfileHeader.BufferSize, 4096);
    CHECK(wcscmp(lf[1].LogfileHeader.LoggerName, L"petw-test-merge-1") == 0);
    CHECK_EQ(ProcessTrace(h, 2, NULL, NULL), ERROR_SUCCESS);
    CHECK_EQ(all.count, per_phase * phases);
    CHECK_EQ(all.headers, 2);
    for (ULONG i = 0; i < all.count; i++) {
        CHECK_EQ(all.file_of[i], (i / per_phase) % 2);
        if (i)
            CHECK(all.ts[i] >= all.ts[i - 1]);
    }
    CHECK(all.buffers >= 2);
    CHECK_EQ(all.buffers_read[0] + all.buffers_read[1], all.buffers);
    /* A handle is processed once; closing twice fails the second time. */
    CHECK_EQ(CloseTrace(h[0]), ERROR_SUCCESS);
    CHECK_EQ(CloseTrace(h[0]), ERROR_INVALID_HANDLE);
    CHECK_EQ(CloseTrace(h[1]), ERROR_SUCCESS);

    /* A time window: only the events of phases 2..5. */
    static seen win;
    FILETIME start, end;
    LONGLONG t0 = all.ts[2 * per_phase], t1 = all.ts[6 * per_phase - 1];
    start.dwLowDateTime = (DWORD)t0;
    start.dwHighDateTime = (DWORD)((ULONGLONG)t0 >> 32);
    end.dwLowDateTime = (DWORD)t1;
    end.dwHighDateTime = (DWORD)((ULONGLONG)t1 >> 32);
    h[0] = open_file(path[0], &win, &lf[0]);
    h[1] = open_file(path[1], &win, &lf[1]);
    CHECK_EQ(ProcessTrace(h, 2, &start, &end), ERROR_SUCCESS);
    CloseTrace(h[0]);
    CloseTrace(h[1]);
    CHECK_EQ(win.headers, 2);
    CHECK_EQ(win.count, 4 * per_phase);
    for (ULONG i = 0; i < win.count; i++)
        CHECK(win.ts[i] >= t0 && win.ts[i] <= t1);

    /* BufferCallback returning FALSE stops processing. */
    static seen stop;
    stop.stop_after = 1;
    h[0] = open_file(path[0], &stop, &lf[0]);
    CHECK_EQ(ProcessTrace(h, 1, NULL, NULL), ERROR_CANCELLED);
    CloseTrace(h[0]);
    CHECK_EQ(stop.buffers, 1);
    CHECK(stop.count < per_phase * phases / 2);

    EventUnregister(reg);
    unlink(path[0]);
    unlink(path[1]);
    printf("consumer: %lu events merged from 2 files over %lu buffers\n", (unsigned long)all.count,
           (unsigned long)all.buffers);
    return 0;
}
