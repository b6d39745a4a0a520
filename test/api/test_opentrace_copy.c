/* SPDX-License-Identifier: MIT */
/* OpenTrace keeps what it needs of the caller's EVENT_TRACE_LOGFILE, as
 * ETW does: a program that opens with a stack-local structure and calls
 * ProcessTrace after that stack frame is gone still gets every event (it
 * used to read the dead frame). BufferCallback receives petw's copy, with
 * BuffersRead counting. */
#include "test_util.h"

DEFINE_GUID(CopyProvider, 0xc0b1c0b1, 0x1, 0x2, 0x3, 0x4, 0, 0, 0, 0, 0, 0x1);

static ULONG events, last_buffers_read;
static PVOID seen_context;

static void WINAPI on_event(PEVENT_RECORD r)
{
    if (IsEqualGUID(&r->EventHeader.ProviderId, &CopyProvider)) {
        events++;
        seen_context = r->UserContext;
    }
}

static ULONG WINAPI on_buffer(PEVENT_TRACE_LOGFILEA l)
{
    last_buffers_read = l->BuffersRead;
    return TRUE;
}

/* Opens with a structure on this frame, then scribbles over the frame's
 * memory before returning. */
static __attribute__((noinline)) TRACEHANDLE open_on_stack(const char *path)
{
    EVENT_TRACE_LOGFILEA lf;
    memset(&lf, 0, sizeof(lf));
    lf.LogFileName = (char *)path;
    lf.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
    lf.EventRecordCallback = on_event;
    lf.BufferCallback = on_buffer;
    lf.Context = (PVOID)0x1234;
    TRACEHANDLE h = OpenTraceA(&lf);
    memset((void *volatile)&lf, 0xAB, sizeof(lf));
    return h;
}

static __attribute__((noinline)) void clobber_stack(void)
{
    volatile char junk[4096];
    for (size_t i = 0; i < sizeof(junk); i++)
        junk[i] = (char)0xCD;
}

int main(void)
{
    char path[512];
    test_path(path, sizeof(path), "copy.etl");
    test_props tp;
    test_props_init(&tp, path);
    TRACEHANDLE s;
    CHECK_EQ(StartTraceA(&s, "petw-test-opentrace-copy", &tp.p), ERROR_SUCCESS);
    REGHANDLE reg;
    CHECK_EQ(EventRegister(&CopyProvider, NULL, NULL, &reg), ERROR_SUCCESS);
    CHECK_EQ(EnableTraceEx2(s, &CopyProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 0, 0, 0, 0, NULL),
             ERROR_SUCCESS);
    EVENT_DESCRIPTOR d = {1, 0, 0, 4, 0, 0, 0};
    for (int i = 0; i < 25; i++)
        CHECK_EQ(EventWrite(reg, &d, 0, NULL), ERROR_SUCCESS);
    CHECK_EQ(ControlTraceA(s, NULL, &tp.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);
    CHECK_EQ(EventUnregister(reg), ERROR_SUCCESS);

    TRACEHANDLE h = open_on_stack(path);
    CHECK(h != INVALID_PROCESSTRACE_HANDLE);
    clobber_stack();
    CHECK_EQ(ProcessTrace(&h, 1, NULL, NULL), ERROR_SUCCESS);
    CHECK_EQ(events, 25);
    CHECK(seen_context == (PVOID)0x1234);
    CHECK(last_buffers_read >= 2); /* the header buffer and at least one more */
    CHECK_EQ(CloseTrace(h), ERROR_SUCCESS);
    remove(path);
    printf("OpenTrace copy: %lu events, %lu buffers\n", (unsigned long)events,
           (unsigned long)last_buffers_read);
    return 0;
}
