/* SPDX-License-Identifier: MIT */
/* A plugin: a shared object linked with petw's archive (its names kept
 * private), which a program that knows nothing of petw loads with dlopen.
 * It starts a session, writes events from the thread that calls it and from
 * a thread of its own, each thread with its activity ID, and says which
 * threads wrote. Loaded by test_dlopen_plugin. */
#include <sys/syscall.h>
#include <uv.h>

#include "test_util.h"

#define PLUGIN_EXPORT __attribute__((visibility("default")))

static const GUID plugin_provider = {0xd10b0e11, 0x1234, 0x5678, {1, 2, 3, 4, 5, 6, 7, 8}};

typedef struct writer {
    REGHANDLE reg;
    uint32_t count;
    GUID activity;
    uint32_t tid;
    ULONG status;
} writer;

/* Writes `count` events numbered 0..count-1 under a fresh activity ID. */
static void write_events(void *arg)
{
    writer *w = arg;
    w->status = EventActivityIdControl(EVENT_ACTIVITY_CTRL_CREATE_SET_ID, &w->activity);
    if (w->status == ERROR_SUCCESS)
        w->status = EventActivityIdControl(EVENT_ACTIVITY_CTRL_GET_ID, &w->activity);
    EVENT_DESCRIPTOR d = {1, 0, 0, 4, 0, 0, 0};
    for (uint32_t i = 0; i < w->count && w->status == ERROR_SUCCESS; i++) {
        EVENT_DATA_DESCRIPTOR dd;
        EventDataDescCreate(&dd, &i, sizeof(i));
        w->status = EventWrite(w->reg, &d, 1, &dd);
    }
    w->tid = (uint32_t)syscall(SYS_gettid); /* the kernel's word, not petw's cache */
}

/* Writes `count` events on the calling thread and `count` on a new one into
 * a session logging to `path`. Fills tids[2] and activities[2]; returns 0,
 * or the first Win32 error. */
PLUGIN_EXPORT ULONG plugin_trace(const char *path, uint32_t count, uint32_t tids[2],
                                 GUID activities[2])
{
    test_props tp;
    test_props_init(&tp, path);
    TRACEHANDLE sh;
    ULONG st = test_start_trace(&sh, "petw-test-dlopen-plugin", &tp.p);
    if (st != ERROR_SUCCESS)
        return st;
    writer w[2] = {{.count = count}, {.count = count}};
    st = EventRegister(&plugin_provider, NULL, NULL, &w[0].reg);
    if (st == ERROR_SUCCESS)
        st = EnableTraceEx2(sh, &plugin_provider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 0, 0, 0, 0,
                            NULL);
    if (st == ERROR_SUCCESS) {
        w[1].reg = w[0].reg;
        write_events(&w[0]);
        uv_thread_t th;
        if (uv_thread_create(&th, write_events, &w[1]) != 0 || uv_thread_join(&th) != 0)
            st = ERROR_OUTOFMEMORY;
        st = st ? st : w[0].status ? w[0].status : w[1].status;
    }
    ULONG stop = ControlTraceA(sh, NULL, &tp.p, EVENT_TRACE_CONTROL_STOP);
    EventUnregister(w[0].reg);
    if (st == ERROR_SUCCESS && tp.p.EventsLost != 0)
        st = ERROR_MORE_DATA; /* nothing may be lost */
    for (int i = 0; i < 2; i++) {
        tids[i] = w[i].tid;
        activities[i] = w[i].activity;
    }
    return st ? st : stop;
}
